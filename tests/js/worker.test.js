// The inspector's engine worker and its page-side client (web/src/engine/)
// without a browser: the worker module runs in this process behind a fake
// Worker that passes each message through structuredClone, as postMessage
// does. Checks what crosses the boundary, errors above all: an engine error
// reaches the page with its code, path, line and column.
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { test } from 'node:test';

import { INDEX_NONE, loadJuliet } from '../../web/src/core/juliet.js';
import { errorInfo, toError } from '../../web/src/engine/errors.js';
import { assets, sampleWorld } from './helpers.js';

// The worker's global scope: what it posts goes to the page's Worker object.
let page = null;
globalThis.self = { postMessage: (data) => page.onmessage({ data: structuredClone(data) }) };
await import('../../web/src/engine/worker.js');
const workerScope = globalThis.self;
globalThis.Worker = class {
  constructor() {
    page = this;
  }
  postMessage(data) {
    workerScope.onmessage({ data: structuredClone(data) });
  }
};
const { createEngine } = await import('../../web/src/engine/client.js');

const juliet = await loadJuliet();

// An engine client with the sample world open (as a shared level: the worker
// opens those from text, with no files to copy in), and the world's IDs.
async function engineWithSample() {
  const world = juliet.openWorld(sampleWorld);
  const text = await world.snapshot();
  world.close();
  const engine = createEngine();
  const { table } = await engine.openSnapshot(text);
  return { engine, ids: table.ids };
}

// The expected problem of a malformed fixture (assets/malformed/expected.tsv).
function expectedProblem(file) {
  const line = readFileSync(join(assets, 'malformed', 'expected.tsv'), 'utf8')
    .split('\n')
    .find((l) => l.startsWith(`${file}\t`));
  const [, code, lineNo, col, message] = line.split('\t');
  return { code, line: Number(lineNo), col: Number(col), message };
}

test('an engine error crosses the worker with its code, path, line and column', async () => {
  const { engine } = await engineWithSample();
  const want = expectedProblem('trailing_junk.jasset');
  assert.ok(want.col > 1, 'the fixture has a column past the start of its line');
  const text = readFileSync(join(assets, 'malformed', 'trailing_junk.jasset'));
  const id = '0x0000000100000001'; // the fixture's: another ID is refused first
  const err = await engine.restore(id, new Uint8Array(text)).then(
    () => assert.fail('a malformed text was accepted'),
    (e) => e,
  );
  assert.ok(err instanceof Error);
  assert.equal(err.name, 'JulietError');
  assert.equal(err.code, want.code);
  assert.equal(err.path, `Entities/${BigInt(id)}.jasset`);
  assert.equal(err.line, want.line);
  assert.equal(err.col, want.col);
  assert.ok(err.detail.includes(want.message), err.detail);
  assert.equal(err.message, `${err.path}:${want.line}:${want.col}: ${err.detail}`);
  await engine.close();
});

test('a wrong JavaScript value comes back as a TypeError', async () => {
  const { engine, ids } = await engineWithSample();
  await assert.rejects(engine.set(ids[0], 'position', 12), (err) => err instanceof TypeError && /position/.test(err.message));
  await engine.close();
});

test('typed text is checked by the engine in the worker, with no world open', async () => {
  const engine = createEngine();
  assert.deepEqual(await engine.check('f32', '2.50'), { value: 2.5, text: '2.5' });
  assert.deepEqual(await engine.check('f32', '1e99'), { error: 'number out of float32 range', col: 1 });
  assert.deepEqual(await engine.check('f32', 'inf'), { error: 'infinity is not allowed here', col: 1 });
  assert.deepEqual(await engine.check('f32', 'inf', { allowInf: true }), { value: Infinity, text: 'inf' });
  assert.deepEqual(await engine.check('index', 'none'), { value: INDEX_NONE, text: 'none' });
  assert.deepEqual(await engine.check('entity_ref', '0x12'), { value: '0x0000000000000012', text: '0x0000000000000012' });
  assert.deepEqual(await engine.check('entity_ref', '12'), { error: 'expected 0x and hex digits', col: 1 });
});

test('errorInfo and toError keep every field of an error through structuredClone', () => {
  const err = new Error('Entities/1.jasset:3:7: bad value');
  Object.assign(err, { name: 'JulietError', code: 'parse', path: 'Entities/1.jasset', line: 3, col: 7, detail: 'bad value' });
  const back = toError(structuredClone(errorInfo(err)));
  for (const key of ['name', 'message', 'code', 'path', 'line', 'col', 'detail']) assert.equal(back[key], err[key], key);

  const plain = toError(structuredClone(errorInfo(new Error('No world is open'))));
  assert.deepEqual([plain.name, plain.message, plain.col], ['Error', 'No world is open', undefined]);
  assert.equal(toError(structuredClone(errorInfo('a string'))).message, 'a string');
});

test('a value set again unchanged is no edit: a clean entity stays clean, a dirty one dirty', async () => {
  const { engine, ids } = await engineWithSample();
  await engine.markSaved(ids, []); // a shared level has no files: these texts are theirs now
  const id = ids[0];
  const { entity } = await engine.get(id).then((e) => ({ entity: e }));
  const same = await engine.set(id, 'position', entity.position);
  assert.equal(same.entity.dirty, false);
  const moved = await engine.set(id, 'position', [1, 2, 3]);
  assert.equal(moved.entity.dirty, true);
  assert.equal((await engine.set(id, 'position', [1, 2, 3])).entity.dirty, true);
  assert.equal((await engine.set(id, 'position', entity.position)).entity.dirty, false);
  const settings = await engine.markSaved(['settings'], []);
  const time = settings.settings.fields.time_of_day;
  assert.equal((await engine.setSetting('time_of_day', time)).settings.dirty, false);
  await engine.close();
});

test('values answers the asked fields of each entity, undefined where its class has none and null for one gone', async () => {
  const { engine, ids } = await engineWithSample();
  const world = juliet.openWorld(sampleWorld);
  const light = world.entities().find((e) => e.class === 'Light').id;
  const inert = world.entities().find((e) => e.class === 'Inert').id;
  const expected = world.get(light).fields;
  world.close();
  assert.ok(ids.includes(light));
  const gone = '0x7fffffffffffffff';
  const [ofLight, ofInert, ofGone] = await engine.values([light, inert, gone], ['color', 'radius']);
  assert.deepEqual(ofLight, [expected.color, expected.radius]);
  assert.deepEqual(ofInert, [undefined, undefined]);
  assert.equal(ofGone, null);
  await engine.close();
});
