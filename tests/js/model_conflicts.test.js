// Conflicts (web/src/state/conflicts.js) with the in-process engine: a file
// changed on disk and in the page keeps both versions until the user picks
// one; taking the disk's shows it with nothing pending, keeping the page's
// reviews it against the disk's. Changes of different fields merge without
// a conflict; a field both sides changed is picked field by field; a merge
// the engine refuses is a conflict of the whole file.
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { test } from 'node:test';

import { decodePack, encodePack } from 'juliet-world';
import {
  conflicts,
  conflictView,
  keepPageVersion,
  mergeConflicts,
  mergeWithPicks,
  noteConflicts,
  pageVersion,
  takeDiskVersion,
} from '../../web/src/state/conflicts.js';
import { baseOf } from '../../web/src/state/diskFiles.js';
import { setField } from '../../web/src/state/edits.js';
import { getEngine } from '../../web/src/state/engine.js';
import { undo, undoStack } from '../../web/src/state/history.js';
import { pending } from '../../web/src/state/pending.js';
import { followReview, review, reviewing } from '../../web/src/state/review.js';
import { errorMessage } from '../../web/src/state/messages.js';
import { select, selected } from '../../web/src/state/selection.js';
import { saveToServer } from '../../web/src/state/serverSave.js';
import { assets, sampleWorld } from './helpers.js';
import { LIGHT, openWorld, textOf, until } from './models.js';

const PATH = 'Entities/8620766500065640450.jasset'; // LIGHT's file
const onDisk = (intensity) =>
  new Uint8Array(Buffer.from(readFileSync(join(sampleWorld, PATH), 'utf8').replace('; intensity\n18.1\n', `; intensity\n${intensity}\n`)));

// The sample open, LIGHT edited in the page (intensity 20) and changed on
// disk (intensity 9): one conflict.
async function conflicted() {
  await openWorld();
  await select(LIGHT);
  await setField('intensity', 20);
  noteConflicts([{ id: LIGHT, path: PATH, seq: 2, disk: onDisk(9) }]);
  assert.equal(conflicts.value.length, 1);
}

test("the page's version of a conflict is the entity's text now", async () => {
  await conflicted();
  assert.match(textOf(await pageVersion(conflicts.value[0])), /; intensity\n20\n/);
});

test("taking the disk's version shows it with nothing pending, and the conflict leaves once it shows", async () => {
  await conflicted();
  const taking = takeDiskVersion(PATH);
  assert.equal(conflicts.value.length, 1, 'listed until the page shows the version on disk');
  await taking;
  assert.deepEqual(conflicts.value, []);
  assert.equal(selected.value.fields.intensity, 9);
  assert.deepEqual(pending.value, []);
});

test("keeping the page's version keeps the edit pending, reviewed against the disk's", async () => {
  await conflicted();
  const stop = followReview();
  try {
    await keepPageVersion(PATH);
    assert.deepEqual(conflicts.value, []);
    assert.equal(selected.value.fields.intensity, 20);
    assert.deepEqual(
      pending.value.map((p) => p.path),
      [PATH],
    );
    await until(() => !reviewing.value && review.value.count === 1, 'the review against the disk');
    assert.deepEqual(review.value.entries[0].changes, [{ key: 'intensity', old: '9', new: '20' }]);
  } finally {
    stop();
  }
});

test("after taking the disk's version, undo does not bring back the page's dropped edit", async () => {
  await conflicted();
  assert.equal(undoStack.value.length, 1);
  await takeDiskVersion(PATH);
  assert.equal(undoStack.value.length, 0, "the edit's step is gone with the edit");
  await undo();
  assert.equal(selected.value.fields.intensity, 9);
  assert.deepEqual(pending.value, []);
});

// ---- merged field by field (the game's level: an Enemy with health and speed) ----

const ENEMY = '0x6e89010142120004';
const ENEMY_PATH = 'Entities/7964898520896503812.jasset';
const enemyFile = readFileSync(join(assets, 'game_world', ENEMY_PATH), 'utf8');
// The Enemy's file with `values` ({ key: text }) in place of its own.
const enemyWith = (values) =>
  Object.entries(values).reduce((text, [key, value]) => text.replace(new RegExp(`; ${key}\n[^\n]*\n`), `; ${key}\n${value}\n`), enemyFile);
const bytes = (text) => new Uint8Array(Buffer.from(text));

// The game's level open, the Enemy's health edited in the page (99).
async function enemyEdited() {
  await openWorld(join(assets, 'game_world'), 'game');
  await select(ENEMY);
  await setField('health', 99);
  assert.equal(undoStack.value.length, 1);
}

// The Enemy's file on disk at version 2 with `values`, merged with the page's.
const diskChange = (values) => ({ id: ENEMY, path: ENEMY_PATH, seq: 2, disk: bytes(enemyWith(values)), reason: null });

test('a field changed on disk merges with another changed in the page: both kept, no conflict, pending against the disk', async () => {
  await enemyEdited();
  const stop = followReview();
  try {
    assert.deepEqual(await mergeConflicts([diskChange({ speed: '9' })]), [ENEMY_PATH]);
    assert.deepEqual(conflicts.value, []);
    assert.equal(selected.value.fields.health, 99, "the page's change");
    assert.equal(selected.value.fields.speed, 9, "the disk's change");
    assert.deepEqual(
      pending.value.map((p) => p.path),
      [ENEMY_PATH],
    );
    assert.equal(baseOf(ENEMY_PATH), 2, 'based on the disk version merged with');
    await until(() => !reviewing.value && review.value.count === 1, 'the review against the disk');
    assert.deepEqual(review.value.entries[0].changes, [{ key: 'health', old: '80', new: '99' }]);
    // Undoing the edit would put back a speed from before the disk's change.
    assert.equal(undoStack.value.length, 0, "the entity's undo steps go, and the merge is none");
  } finally {
    stop();
  }
});

test('a save writes the merged text over the disk version it was merged with', async () => {
  await enemyEdited();
  await mergeConflicts([diskChange({ speed: '9' })]);
  const sent = [];
  globalThis.fetch = async (url, init) => {
    const { files } = decodePack(new Uint8Array(init.body));
    sent.push(...files);
    const results = files.map((f) => ({ path: f.path, status: 'written', seq: 3 }));
    return new Response(encodePack({ seq: 3, results }, []));
  };
  try {
    const report = await saveToServer(pending.value);
    assert.deepEqual(report.written, [ENEMY_PATH]);
    assert.deepEqual(
      sent.map((f) => [f.path, f.seq]),
      [[ENEMY_PATH, 2]],
    );
    assert.equal(textOf(sent[0].bytes), enemyWith({ health: '99', speed: '9' }));
    assert.deepEqual(pending.value, []);
  } finally {
    delete globalThis.fetch;
  }
});

test('a save refused because the file changed on disk merges both changes, for the next save to write', async () => {
  await enemyEdited();
  const disk = bytes(enemyWith({ speed: '9' }));
  globalThis.fetch = async () =>
    new Response(
      encodePack({ seq: 2, results: [{ path: ENEMY_PATH, status: 'conflict', seq: 2 }] }, [{ path: ENEMY_PATH, seq: 2, bytes: disk }]),
    );
  try {
    const report = await saveToServer(pending.value);
    assert.deepEqual(report.merged, [ENEMY_PATH]);
    assert.equal(report.conflicts, 0);
    assert.deepEqual(conflicts.value, []);
    assert.equal(textOf((await getEngine().texts([ENEMY]))[0]), enemyWith({ health: '99', speed: '9' }));
    assert.equal(baseOf(ENEMY_PATH), 2);
  } finally {
    delete globalThis.fetch;
  }
});

test("a field changed differently on both sides is a key conflict; the disk's value picked gives the merged text", async () => {
  await enemyEdited();
  const change = diskChange({ health: '50', speed: '9' });
  assert.deepEqual(await mergeConflicts([change]), []);
  assert.equal(conflicts.value.length, 1);
  assert.equal(selected.value.fields.health, 99, 'the page keeps its version meanwhile');
  assert.deepEqual(await conflictView(conflicts.value[0]), {
    keys: [{ key: 'health', base: '80', ours: '99', theirs: '50' }],
    reason: null,
    page: null,
  });
  await setField('name', 'Boss'); // changed in the page while the conflict waits: merged too
  await mergeWithPicks(ENEMY_PATH, ['health']);
  assert.deepEqual(conflicts.value, []);
  assert.equal(textOf((await getEngine().texts([ENEMY]))[0]), enemyWith({ health: '50', speed: '9', name: 'Boss' }));
  assert.deepEqual(
    pending.value.map((p) => p.path),
    [ENEMY_PATH],
  );
});

test('a merged text the engine refuses keeps the conflict of the whole file, saying why', async () => {
  await enemyEdited();
  assert.deepEqual(await mergeConflicts([diskChange({ speed: 'fast' })]), []);
  const [conflict] = conflicts.value;
  assert.match(conflict.reason, /^the engine refused the merged text: Entities\/7964898520896503812\.jasset:\d+:\d+: /);
  const view = await conflictView(conflict);
  assert.equal(view.keys, null);
  assert.equal(view.reason, conflict.reason);
  assert.match(textOf(view.page), /; health\n99\n; speed\n3.5\n/, "the page's version, unchanged");
  assert.equal(undoStack.value.length, 1, 'the edit is still an undo step');
});

test('values picked into a text the engine refuses keep the conflict, to pick whole, and the error says why', async () => {
  await enemyEdited();
  await mergeConflicts([diskChange({ health: 'lots' })]);
  assert.equal(conflicts.value[0].reason, null, 'a key conflict');
  await mergeWithPicks(ENEMY_PATH, ['health']);
  const [conflict] = conflicts.value;
  assert.match(conflict.reason, /^the engine refused the merged text: Entities\/7964898520896503812\.jasset:\d+:\d+: health: /);
  assert.equal(errorMessage.value, `Could not merge ${ENEMY_PATH}, pick one of its versions: ${conflict.reason}`);
  assert.equal((await conflictView(conflict)).keys, null, 'shown whole');
  assert.equal(selected.value.fields.health, 99);
});
