// Change links in wasm: a world's edits as a short link, decoded, applied
// over another copy of the world; conflicts by file print; hostile links
// refused with the same reasons as world links.
import assert from 'node:assert/strict';
import { join } from 'node:path';
import { test } from 'node:test';
import { crc32 } from 'node:zlib';

import { JulietError } from 'juliet-world';
import { loadJuliet } from 'juliet-sample';
import { b64, copyWorld, deflate, inflate, runCli, sampleWorld, snapshotOf, tempDir, unb64 } from './helpers.js';

const juliet = await loadJuliet();

const LIGHT = '0x77a31d750000001f';
const INERT = '0x77a31d7500000001';
const ADDED = '0x77a31d7500000999';

/** Edits of the sample world in `world`, and the texts before them (the map changesText takes). */
function edit(world) {
  const before = new Map([
    [LIGHT, world.entityBytes(LIGHT)],
    [INERT, world.entityBytes(INERT)],
    [null, world.settingsBytes()],
    [ADDED, null],
  ]);
  world.set(LIGHT, 'intensity', 9.5);
  world.remove(INERT);
  world.setSetting('time_of_day', 20);
  world.loadEntityText(world.entityText(LIGHT).replace('0x77a31d750000001f', ADDED));
  return before;
}

/** The edits of `edit` as a change link's text. */
async function editedLink() {
  const world = juliet.openWorld(sampleWorld);
  try {
    return await world.changesText(edit(world), { name: 'sample_world' });
  } finally {
    world.close();
  }
}

test('a changed entity, an added and a deleted one and the settings decode as they were made', async () => {
  const changes = await juliet.decodeChanges(`https://team.example/#${await editedLink()}`);
  assert.equal(changes.world, 'sample_world');
  assert.deepEqual(changes.settings.fields, [{ field: 'time_of_day', text: '20' }]);
  assert.equal(changes.changed.length, 1);
  assert.equal(changes.changed[0].id, LIGHT);
  assert.deepEqual(changes.changed[0].fields, [{ field: 'intensity', text: '9.5' }]);
  assert.equal(typeof changes.changed[0].print, 'number');
  assert.deepEqual(
    changes.added.map((a) => a.id),
    [ADDED],
  );
  assert.match(changes.added[0].text, /; id\n0x77a31d7500000999\n/);
  assert.deepEqual(
    changes.deleted.map((d) => d.id),
    [INERT],
  );
});

test('a change link applied over another copy of the world makes it the edited world', async () => {
  const text = await editedLink();
  const edited = juliet.openWorld(sampleWorld);
  const other = juliet.openWorld(copyWorld());
  try {
    edit(edited);
    const result = await other.applyChanges(text);
    assert.deepEqual(result.conflicts, []);
    assert.deepEqual(result.failed, []);
    assert.deepEqual(
      result.applied.map((a) => `${a.kind} ${a.path}`),
      [
        'modified WorldSettings.jasset',
        `modified Entities/${BigInt(LIGHT)}.jasset`,
        `new Entities/${BigInt(ADDED)}.jasset`,
        `deleted Entities/${BigInt(INERT)}.jasset`,
      ],
    );
    for (const id of [LIGHT, ADDED]) assert.equal(other.entityText(id), edited.entityText(id));
    assert.equal(other.has(INERT), false);
    assert.equal(other.settingsText(), edited.settingsText());
    assert.equal(other.get(LIGHT).dirty, true);
  } finally {
    edited.close();
    other.close();
  }
});

test('an entity whose file changed since the link was made is a conflict, and with allOrNothing nothing applies', async () => {
  const text = await editedLink();
  const dir = copyWorld();
  const other = juliet.openWorld(dir);
  try {
    // Another intensity saved to the light's file meanwhile.
    other.set(LIGHT, 'intensity', 1.25);
    other.save();
    let result = await other.applyChanges(text, { allOrNothing: true });
    assert.deepEqual(result.conflicts, [{ kind: 'modified', id: LIGHT, path: `Entities/${BigInt(LIGHT)}.jasset` }]);
    assert.deepEqual(result.applied, []);
    assert.equal(other.has(INERT), true);
    result = await other.applyChanges(text);
    assert.equal(result.conflicts.length, 1);
    assert.equal(result.applied.length, 3);
    assert.equal(other.get(LIGHT).fields.intensity, 1.25);
  } finally {
    other.close();
  }
});

test('one edit on a 20,000-entity world is a link under 200 characters', async () => {
  const dir = join(tempDir('gen'), 'level');
  runCli('gen', dir, '--count', '20000');
  const world = juliet.openWorld(dir);
  try {
    const [first] = world.entities();
    const before = new Map([[first.id, world.entityBytes(first.id)]]);
    world.set(first.id, 'position', [1.5, 2, -3]);
    const link = `http://127.0.0.1:5173/#${await world.changesText(before, { name: 'level' })}`;
    assert.ok(link.length < 200, `${link.length} characters`);
    const changes = await juliet.decodeChanges(link);
    assert.deepEqual(changes.changed[0].fields, [{ field: 'position', text: '1.5 2 -3' }]);
  } finally {
    world.close();
  }
});

/** Expects decodeChanges(text) to reject as corrupt with err.reason `reason`. */
async function rejectsFor(text, reason, what) {
  await assert.rejects(juliet.decodeChanges(text), (err) => {
    assert.ok(err instanceof JulietError, `${what}: ${err.message}`);
    assert.equal(err.code, 'corrupt', `${what}: ${err.message}`);
    assert.equal(err.reason, reason, `${what}: ${err.message}`);
    return true;
  });
}

test('a change link that cannot be read says why: cut off, not one, damaged, another version', async () => {
  const text = await editedLink();
  // (Cut before its first bytes inflate, a link is no more than foreign text.)
  const half = Math.floor(text.length / 2);
  for (const length of [half, half + 1, half + 2, text.length - 1, text.length - 2]) {
    await rejectsFor(`https://example.org/#${text.slice(0, length)}`, 'truncated', `cut at ${length}`);
  }
  await rejectsFor('https://example.org/#section-2', 'foreign', 'a page anchor');
  await rejectsFor(await snapshotOf(juliet, sampleWorld), 'foreign', 'a world link');
  await rejectsFor('', 'foreign', 'nothing');
  let damaged = 0;
  for (let at = 8; at < text.length - 4; at += 7) {
    const changed = text.slice(0, at) + (text[at] === 'A' ? 'B' : 'A') + text.slice(at + 1);
    const reason = await juliet.decodeChanges(changed).then(
      () => 'opened',
      (err) => err.reason,
    );
    assert.ok(['damaged', 'truncated', 'foreign'].includes(reason), `changed at ${at}: ${reason}`);
    if (reason === 'damaged') damaged++;
  }
  assert.ok(damaged > 5, `${damaged} damaged`);
  // Another version, with a checksum that checks out.
  const raw = await inflate(unb64(text));
  raw[3] = 2;
  const body = raw.subarray(0, raw.length - 4);
  new DataView(raw.buffer).setUint32(raw.length - 4, crc32(body), true);
  await rejectsFor(b64(await deflate(raw)), 'version', 'format version 2');
  // Applying a text that is not a change link applies nothing.
  const world = juliet.openWorld(sampleWorld);
  try {
    await assert.rejects(world.applyChanges(text.slice(0, half)), (err) => err.reason === 'truncated');
    assert.equal(world.get(LIGHT).dirty, false);
  } finally {
    world.close();
  }
});

test('a link says what it holds before it is read: a world, changes or neither', async () => {
  assert.equal(await juliet.linkKind(`https://team.example/#${await editedLink()}`), 'changes');
  assert.equal(await juliet.linkKind(await snapshotOf(juliet, sampleWorld)), 'world');
  assert.equal(await juliet.linkKind('https://team.example/#section-2'), null);
  assert.equal(await juliet.linkKind(''), null);
});
