// The local server stopped by a signal (web/server/main.js as its own
// process, as `npm start` runs it) while it saves thousands of files: it
// refuses new saves, finishes the save in progress (a second signal: stops
// it between two files), answers it, leaves no lock behind and exits 0; every
// file holds its old or its new text, whole; the next run saves as usual.
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { test } from 'node:test';
import { decodePack, entityPath } from 'juliet-world';
import { nativeCli, readTree, tempDir } from './helpers.js';
import { post, readWorld, startMain } from './serverProcess.js';

const COUNT = 2000; // entities of the world
const REWRITTEN = 1000; // of them moved by the big save
const ADDED = 2000; // new entities it writes

// The native `juliet` CLI, quiet; throws if it finds a problem.
const cli = (...args) => execFileSync(nativeCli, args, { stdio: 'pipe' });

// A generated world of COUNT entities, in a folder of its own.
function newWorld() {
  const dir = join(tempDir('shutdown'), 'world');
  cli('gen', dir, '--count', String(COUNT));
  return dir;
}

// The bytes of a .jasset file with the value of its `; key` line replaced.
const withValue = (bytes, key, value) =>
  Buffer.from(
    Buffer.from(bytes)
      .toString()
      .replace(new RegExp(`; ${key}\n[^\n]*`), `; ${key}\n${value}`),
  );

// The big save: REWRITTEN entities moved and ADDED new ones, with what
// each file held before (null: none).
async function bigSave(server) {
  const { files } = await readWorld(server);
  const entities = files.filter((f) => f.path.startsWith('Entities/'));
  const changes = entities
    .slice(0, REWRITTEN)
    .map((f) => ({ path: f.path, seq: f.seq, bytes: withValue(f.bytes, 'position', '1 2 3'), old: Buffer.from(f.bytes) }));
  for (let i = 0; i < ADDED; i++) {
    const id = `0x${(0x7e57000000000001n + BigInt(i)).toString(16)}`;
    changes.push({ path: entityPath(id), seq: 0, bytes: withValue(entities[i % entities.length].bytes, 'id', id), old: null });
  }
  return changes;
}

// Resolves once the save `answer` holds the world's lock (it is writing),
// or has its answer.
async function writing(dir, answer) {
  let answered = false;
  answer.then(
    () => (answered = true),
    () => (answered = true),
  );
  while (!answered && !existsSync(join(dir, '.juliet.lock'))) await new Promise((resolve) => setImmediate(resolve));
}

// A server of a new world in the middle of the big save: the save's changes
// and its answer to come (the save holds the world's lock).
async function duringBigSave() {
  const dir = newWorld();
  const server = await startMain(dir);
  const changes = await bigSave(server);
  const answer = post(server, changes);
  await writing(dir, answer);
  return { dir, server, changes, answer };
}

// The meta of a save's answer, which is a 200.
async function answeredMeta(res) {
  assert.equal(res.status, 200);
  return decodePack(new Uint8Array(await res.arrayBuffer())).meta;
}

// Each file is its old text or its new one, whole; those the answer says
// are written hold the new one, the others the old one.
function checkFiles(dir, changes, results) {
  const status = new Map(results.map((r) => [r.path, r.status]));
  let written = 0;
  for (const { path, bytes, old } of changes) {
    const abs = join(dir, path);
    const disk = existsSync(abs) ? readFileSync(abs) : null;
    const isNew = disk !== null && disk.equals(bytes);
    assert.ok(isNew || (old === null ? disk === null : disk?.equals(old)), `${path}: neither its old nor its new text`);
    assert.equal(isNew, status.get(path) === 'written', `${path}: ${status.get(path)}`);
    if (isNew) written++;
  }
  assert.ok(!existsSync(join(dir, '.juliet.lock')), 'the world lock is released');
  assert.deepEqual(
    readdirSync(join(dir, 'Entities')).filter((n) => !n.endsWith('.jasset')),
    [],
    'no temporary file left',
  );
  return written;
}

// The world saves again with no manual step: the CLI reads it whole, and a
// new server run writes a file.
async function savesAgain(dir) {
  cli('validate', dir);
  const server = await startMain(dir);
  const [file] = (await readWorld(server)).files.filter((f) => f.path.startsWith('Entities/')).slice(-1);
  const bytes = withValue(file.bytes, 'position', '7 7 7');
  const meta = await answeredMeta(await post(server, [{ path: file.path, seq: file.seq, bytes }]));
  assert.equal(meta.results[0].status, 'written');
  assert.deepEqual(readFileSync(join(dir, file.path)), bytes);
  server.child.kill('SIGTERM');
  assert.deepEqual(await server.exited, { code: 0, signal: null });
}

for (const signal of ['SIGINT', 'SIGTERM']) {
  test(
    `on ${signal} during a save the server refuses new saves, finishes and answers that save, then exits 0`,
    { timeout: 120_000 },
    async () => {
      const { dir, server, changes, answer } = await duringBigSave();
      server.child.kill(signal);
      const refused = await post(server, changes.slice(0, 1));
      assert.equal(refused.status, 503);
      assert.match(await refused.text(), /stopping/);
      const meta = await answeredMeta(await answer);
      assert.deepEqual(await server.exited, { code: 0, signal: null }, server.output());
      assert.equal(meta.results.filter((r) => r.status === 'written').length, changes.length);
      assert.equal(checkFiles(dir, changes, meta.results), changes.length);
      await savesAgain(dir);
    },
  );
}

test(
  'a second signal stops the save between two files: the files written are answered as such, the others kept',
  { timeout: 120_000 },
  async () => {
    const { dir, server, changes, answer } = await duringBigSave();
    server.child.kill('SIGINT');
    // (Two signals sent at once may arrive as one.)
    await server.printed(/Stopping/);
    server.child.kill('SIGINT');
    const meta = await answeredMeta(await answer);
    assert.deepEqual(await server.exited, { code: 0, signal: null }, server.output());
    const written = checkFiles(dir, changes, meta.results);
    assert.ok(written > 0, 'the files being written when it was stopped are finished');
    assert.ok(written < changes.length, 'the save was stopped before its end');
    const unwritten = meta.results.filter((r) => r.status !== 'written');
    assert.ok(
      unwritten.every((r) => r.status === 'failed' && /server stopped/.test(r.message)),
      JSON.stringify(unwritten[0]),
    );
    await savesAgain(dir);
  },
);

test('a signal with no save in progress exits 0 at once, leaving the world as it was', { timeout: 60_000 }, async () => {
  const dir = newWorld();
  const before = readTree(dir);
  const server = await startMain(dir);
  server.child.kill('SIGINT');
  assert.deepEqual(await server.exited, { code: 0, signal: null });
  assert.deepEqual(readTree(dir), before);
});
