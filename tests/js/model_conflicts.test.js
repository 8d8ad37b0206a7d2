// Conflicts (web/src/state/conflicts.js) with the in-process engine: a file
// changed on disk and in the page keeps both versions until the user picks
// one; taking the disk's shows it with nothing pending, keeping the page's
// reviews it against the disk's.
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { test } from 'node:test';

import { conflicts, keepPageVersion, noteConflicts, pageVersion, takeDiskVersion } from '../../web/src/state/conflicts.js';
import { setField } from '../../web/src/state/edits.js';
import { undo, undoStack } from '../../web/src/state/history.js';
import { pending } from '../../web/src/state/pending.js';
import { followReview, review, reviewing } from '../../web/src/state/review.js';
import { select, selected } from '../../web/src/state/selection.js';
import { sampleWorld } from './helpers.js';
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
