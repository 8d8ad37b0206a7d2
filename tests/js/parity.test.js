// The wasm and native builds write the same bytes: worlds written by the
// native `juliet` tool are rewritten identically by wasm, wasm edits are in
// the canonical form `juliet fmt` checks, and snapshot links travel both
// ways between `juliet share` / `unshare` and the JavaScript API.
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { before, test } from 'node:test';

import { loadJuliet } from 'juliet-sample';
import { copyWorld, nativeCli, parseJasset, readTree, rng, runCli as cli, sampleWorld, snapshotOf, tempDir } from './helpers.js';

const juliet = await loadJuliet();

function assertSameTree(actualDir, expectedDir) {
  const actual = readTree(actualDir);
  const expected = readTree(expectedDir);
  assert.deepEqual([...actual.keys()].sort(), [...expected.keys()].sort());
  for (const [rel, bytes] of expected) assert.ok(actual.get(rel).equals(bytes), `${rel} identical`);
}

/** A few edits of every kind, the same for any world they are given. */
function edit(world) {
  const random = rng(99);
  const entities = world.entities();
  for (let i = 0; i < entities.length; i += 5) {
    const e = entities[i];
    world.set(e.id, 'position', [random() * 2000 - 1000, random(), -random() * 1e-3]);
    if (e.class === 'Light') world.set(e.id, 'radius', i % 2 ? Infinity : random() * 50);
    if (e.class === 'Prop') world.set(e.id, 'velocity', [random(), 0, -random() * 3]);
    if (e.class === 'Inert') world.set(e.id, 'mesh_instance', i);
  }
  // Remove entities nothing refers to, so the world stays valid.
  const referenced = new Set();
  for (const e of entities) {
    for (const value of Object.values(world.get(e.id).fields))
      if (typeof value === 'string' && value.startsWith('0x')) referenced.add(value);
  }
  const settings = join(world.path, 'WorldSettings.jasset');
  if (existsSync(settings)) referenced.add(parseJasset(readFileSync(settings, 'utf8')).spawn_point);
  let removed = 0;
  for (let i = 3; i < entities.length; i += 11) {
    if (referenced.has(entities[i].id)) continue;
    world.remove(entities[i].id);
    removed++;
  }
  assert.ok(removed > 0, 'the edits remove entities');
  const made = world.create('Prop', [0.1, 0.2, 0.3]);
  world.set(made, 'parent', entities[0].id);
  world.set(made, 'density', 0.001);
}

before(() => {
  assert.ok(existsSync(nativeCli), `the native build's ${nativeCli} (run .ci/build.sh first)`);
});

test('a world generated natively is rewritten byte for byte by wasm', () => {
  const native = join(tempDir(), 'native');
  cli('gen', native, '--count', '600', '--seed', '3');
  const copy = copyWorld(native);
  const world = juliet.openWorld(copy);
  try {
    assert.deepEqual(world.diagnostics(), []);
    assert.equal(world.count, 600);
    world.markAllDirty();
    const report = world.save();
    assert.equal(report.written.length, 601, 'every entity and the settings');
  } finally {
    world.close();
  }
  assertSameTree(copy, native);
});

test('files written by wasm after edits are in the canonical form juliet fmt checks', () => {
  const dir = copyWorld();
  const world = juliet.openWorld(dir);
  try {
    edit(world);
    world.save();
  } finally {
    world.close();
  }
  const check = spawnSync(nativeCli, ['fmt', dir, '--check'], { encoding: 'utf8' });
  assert.equal(check.status, 0, check.stdout + check.stderr);
  const validate = spawnSync(nativeCli, ['validate', dir], { encoding: 'utf8' });
  assert.equal(validate.status, 0, validate.stdout + validate.stderr);
});

test('the same edited world is written identically by wasm and by native unshare', async () => {
  const wasmDir = copyWorld();
  const world = juliet.openWorld(wasmDir);
  let link;
  try {
    edit(world);
    link = 'http://localhost:5173/#' + (await world.snapshot());
    world.markAllDirty();
    world.save();
  } finally {
    world.close();
  }
  const nativeDir = join(tempDir(), 'unshared');
  cli('unshare', link, nativeDir);
  assertSameTree(nativeDir, wasmDir);
});

test('a link from native juliet share opens in wasm and saves the same files', async () => {
  const source = join(tempDir(), 'gen');
  cli('gen', source, '--count', '300', '--seed', '11');
  const link = cli('share', source).trim();
  assert.match(link, /#[A-Za-z0-9_-]+$/);
  const world = await juliet.openSnapshot(link);
  const dir = join(tempDir(), 'opened');
  try {
    assert.equal(world.count, 300);
    world.save(dir);
  } finally {
    world.close();
  }
  assertSameTree(dir, source);
});

test('the sample world shared natively and by wasm decodes to the same files', async () => {
  const wasmText = await snapshotOf(juliet, sampleWorld);
  const fromWasm = join(tempDir(), 'from_wasm');
  cli('unshare', wasmText, fromWasm);
  assertSameTree(fromWasm, sampleWorld);
  const nativeLink = cli('share', sampleWorld).trim();
  const opened = await juliet.openSnapshot(nativeLink);
  const fromNative = join(tempDir(), 'from_native');
  try {
    opened.save(fromNative);
  } finally {
    opened.close();
  }
  assertSameTree(fromNative, sampleWorld);
});
