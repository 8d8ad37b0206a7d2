// The inspector's engine worker and its page-side client (web/src/engine/)
// without a browser: the worker module runs in this process behind a fake
// Worker that passes each message through structuredClone, as postMessage
// does. Checks what crosses the boundary, errors above all: an engine error
// reaches the page with its code, path, line and column.
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { test } from 'node:test';

import { INDEX_NONE, textValue } from 'juliet-world';
import { loadJuliet } from 'juliet-sample';
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

const LIGHT = '0x77a31d7500000002'; // the sample's Light with intensity 18.1

test('the review lists what changed since a level from a link was opened, key by key', async () => {
  const { engine, ids } = await engineWithSample();
  assert.deepEqual(await engine.review(ids, 200), { entries: [], count: 0 }, 'nothing changed yet');
  await engine.set(LIGHT, 'intensity', 42);
  await engine.set(LIGHT, 'intensity', 43);
  const { entity } = await engine.create('Light', [1, 2, 3]);
  const gone = ids.find((id) => id !== LIGHT);
  await engine.remove(gone);
  const { entries, count } = await engine.review([...ids, entity.id], 200);
  assert.equal(count, 3);
  const byId = new Map(entries.map((e) => [e.id, e]));
  assert.deepEqual(byId.get(LIGHT).changes, [{ key: 'intensity', old: '18.1', new: '43' }]);
  assert.equal(byId.get(LIGHT).kind, 'modified');
  assert.equal(byId.get(entity.id).kind, 'new');
  assert.equal(byId.get(entity.id).className, 'Light');
  assert.ok(byId.get(entity.id).changes.some((c) => c.key === 'position' && c.old === null && c.new === '1 2 3'));
  assert.equal(byId.get(gone).kind, 'deleted');
  assert.ok(byId.get(gone).className);
  // Back to the text it was opened with: nothing to review.
  await engine.set(LIGHT, 'intensity', 18.1);
  const again = await engine.review([LIGHT], 200);
  assert.equal(again.count, 0);
  await engine.close();
});

test('the review compares with the text last saved, and stops at the limit while counting all', async () => {
  const { engine, ids } = await engineWithSample();
  await engine.set(LIGHT, 'intensity', 42);
  await engine.markSaved([LIGHT], []); // saved by the local server
  assert.equal((await engine.review([LIGHT], 200)).count, 0, 'saved: nothing pending');
  await engine.set(LIGHT, 'radius', 3);
  const { entries } = await engine.review([LIGHT], 200);
  assert.deepEqual(entries[0].changes, [{ key: 'radius', old: '28.5', new: '3' }]);
  const others = ids.filter((id) => id !== LIGHT).slice(0, 3);
  for (const id of others) await engine.set(id, 'position', [9, 9, 9]);
  const capped = await engine.review([LIGHT, ...others], 2);
  assert.equal(capped.count, 4);
  assert.equal(capped.entries.length, 2);
  await engine.close();
});

test('undo of a delete leaves nothing to review; the settings are reviewed too', async () => {
  const { engine, ids } = await engineWithSample();
  const [text] = await engine.texts([LIGHT]);
  await engine.remove(LIGHT);
  assert.equal((await engine.review([LIGHT], 200)).entries[0].kind, 'deleted');
  await engine.restore(LIGHT, text);
  assert.equal((await engine.review([LIGHT], 200)).count, 0);
  await engine.setSetting('time_of_day', 3);
  const { entries } = await engine.review(['settings'], 200);
  assert.equal(entries[0].changes[0].key, 'time_of_day');
  assert.ok(ids.length > 0);
  await engine.close();
});

test('a query finds in the worker the entities passing every term, by class and field texts', async () => {
  const { parseQuery } = await import('../../web/src/lib/query.js');
  const { engine, ids } = await engineWithSample();
  const run = (text) => engine.query(parseQuery(text).terms);
  const lights = await run('class:light');
  assert.ok(lights.includes(LIGHT));
  const bright = await run('class:Light intensity>18 intensity<18.2');
  assert.ok(bright.includes(LIGHT));
  assert.ok(bright.every((id) => lights.includes(id)) && bright.length < lights.length);
  assert.deepEqual(await run('intensity>1e9'), []);
  assert.equal((await run('')).length, ids.length, 'no term: every entity');
  // A field only Props have: no Light passes it, whatever the value.
  assert.deepEqual(await run('class:Light density>-1e9'), []);
  // Edits are seen at once.
  await engine.set(LIGHT, 'intensity', 1e6);
  assert.deepEqual(await run('intensity>=1e6'), [LIGHT]);
  await engine.close();
});

test('World#fieldText reads one field as canonical text, null for a field or entity that does not exist', () => {
  const world = juliet.openWorld(sampleWorld);
  try {
    assert.equal(world.fieldText(LIGHT, 'intensity'), '18.1');
    assert.equal(world.fieldText(LIGHT, 'class'), 'Light');
    assert.equal(world.fieldText(LIGHT, 'density'), null);
    assert.equal(world.fieldText('0x0000000000000001', 'intensity'), null);
    assert.throws(() => world.fieldText(LIGHT, 7), TypeError);
  } finally {
    world.close();
  }
});

test('World#fieldTexts reads one field of every entity in rows() order, null where an entity has none', () => {
  const world = juliet.openWorld(join(assets, 'game_world'));
  try {
    const { ids } = world.rows();
    const names = world.fieldTexts('name');
    assert.deepEqual(
      names,
      ids.map((id) => world.fieldText(id, 'name')),
    );
    assert.deepEqual(names.filter((n) => n !== null).sort(), ['Brute', 'Grunt', 'Grunt']);
    world.set(ids[names.indexOf('Brute')], 'name', ' Brute "the" Second');
    const quoted = world.fieldTexts('name').find((n) => n?.includes('Second'));
    assert.equal(textValue('string', quoted), ' Brute "the" Second', 'textValue reads the canonical text back');
    assert.deepEqual(world.fieldTexts('nothing'), [null, null, null, null, null]);
    assert.throws(() => world.fieldTexts(7), TypeError);
  } finally {
    world.close();
  }
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

// The game world (its classes from class files: Enemy has an entity_ref
// `target`) as a level from a link.
async function engineWithGame() {
  const world = juliet.openWorld(join(assets, 'game_world'));
  const text = await world.snapshot();
  world.close();
  const engine = createEngine();
  const { table } = await engine.openSnapshot(text);
  return { engine, ids: table.ids };
}

const PICKUP = '0x6e89010142120001';
const GRUNT = '0x6e89010142120003'; // Enemy whose target is PICKUP
const BRUTE = '0x6e89010142120005'; // Enemy whose target is PICKUP

test('duplicates get new IDs, are moved by the offset, and references among them point at the copies', async () => {
  const { engine } = await engineWithGame();
  const { entities, changes, ids } = await engine.duplicate([PICKUP, GRUNT], { offset: [1, 0, -1] });
  assert.equal(ids.length, 2);
  assert.ok(!ids.includes(PICKUP) && !ids.includes(GRUNT));
  const [pickup, grunt] = entities;
  assert.deepEqual(pickup.position, [5, 0, -3]);
  assert.equal(grunt.fields.target, pickup.id, 'the copied group keeps its own link');
  assert.equal(grunt.fields.name, 'Grunt');
  assert.deepEqual(
    changes.map((c) => [c.id, c.before]),
    ids.map((id) => [id, null]),
  );
  // A reference to an entity outside the copied group stays.
  const [brute] = (await engine.duplicate([BRUTE], { offset: [0, 0, 0] })).entities;
  assert.equal(brute.fields.target, PICKUP);
  await engine.close();
});

test('copies placed at a point: the middle of their bounds lands there, on the axes it gives', async () => {
  const { engine } = await engineWithGame();
  // PICKUP at (4, 0, -2), GRUNT at (0, 0, 10): their middle is (2, 0, 4).
  const { entities } = await engine.duplicate([PICKUP, GRUNT], { at: [20, null, 30] });
  assert.deepEqual(
    entities.map((e) => e.position),
    [
      [22, 0, 24],
      [18, 0, 36],
    ],
  );
  // Pasted into the world they came from, placed too, though one keeps no ID.
  const texts = await engine.texts([BRUTE]);
  const { formatEntities, parseEntities } = await import('../../web/src/lib/entityClipboard.js');
  const clip = formatEntities([{ id: BRUTE, className: 'Enemy', text: new TextDecoder().decode(texts[0]) }]);
  const pasted = await engine.paste(parseEntities(clip), { at: [-1, 7, null] });
  assert.deepEqual(pasted.entities[0].position.slice(0, 2), [-1, 7]);
  await engine.close();
});

test('pasted entities keep free IDs and take new ones where taken, refused text changes nothing', async () => {
  const { engine } = await engineWithGame();
  const texts = await engine.texts([PICKUP, GRUNT]);
  const decoder = new TextDecoder();
  const { formatEntities, parseEntities } = await import('../../web/src/lib/entityClipboard.js');
  const clip = formatEntities([
    { id: PICKUP, className: 'Pickup', text: decoder.decode(texts[0]) },
    { id: GRUNT, className: 'Enemy', text: decoder.decode(texts[1]) },
  ]);
  // Into the same world: both IDs are taken.
  const same = await engine.paste(parseEntities(clip), { offset: [2, 0, 0] });
  assert.ok(!same.ids.includes(PICKUP));
  assert.equal(same.entities[1].fields.target, same.ids[0]);
  assert.equal(same.entities[0].position[0], 6);
  // Into another world that lacks them (the worker holds one world: the
  // game world opened again): the same IDs, not moved.
  const world = juliet.openWorld(join(assets, 'game_world'));
  await engine.openSnapshot(await world.snapshot());
  world.close();
  await engine.removeMany([PICKUP, GRUNT]);
  const back = await engine.paste(parseEntities(clip), { offset: [2, 0, 0] });
  assert.deepEqual(back.ids, [PICKUP, GRUNT]);
  assert.equal(back.entities[1].fields.target, PICKUP);
  assert.deepEqual(back.entities[0].position, [4, 0, -2]);
  // A bad value: the error names the clipboard's line; nothing was added.
  const before = (await engine.snapshot()).length;
  const bad = clip.replace('; health\n100', '; health\nlots');
  const err = await engine.paste(parseEntities(bad), { offset: [0, 0, 0] }).then(
    () => assert.fail('accepted'),
    (e) => e,
  );
  const line = bad.split('\n').indexOf('lots') + 1;
  assert.match(err.message, new RegExp(`^clipboard:${line}:1: `));
  assert.equal((await engine.snapshot()).length, before);
  await engine.close();
});

test('setMany sets every entity or none, and restoreMany undoes it', async () => {
  const { engine, ids } = await engineWithGame();
  await engine.markSaved(ids, []); // a shared level has no files: these texts are theirs now
  const { changes } = await engine.setMany([
    [GRUNT, 'health', 5],
    [BRUTE, 'health', 5],
  ]);
  assert.equal((await engine.get(BRUTE)).fields.health, 5);
  await assert.rejects(
    engine.setMany([
      [GRUNT, 'health', 7],
      [BRUTE, 'rank', 'nobody'],
    ]),
  );
  assert.equal((await engine.get(GRUNT)).fields.health, 5, 'the first set was put back');
  await engine.restoreMany(changes.map((c) => [c.id, c.before]));
  assert.equal((await engine.get(GRUNT)).fields.health, 100);
  assert.equal((await engine.get(GRUNT)).dirty, false);
  await engine.close();
});

test('why a link cannot be opened crosses the worker', async () => {
  const engine = createEngine();
  const err = await engine.openSnapshot('https://example.org/#section-2').then(
    () => assert.fail('opened'),
    (e) => e,
  );
  assert.equal(err.code, 'corrupt');
  assert.equal(err.reason, 'foreign');
});
