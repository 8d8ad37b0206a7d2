// The review of pending changes (web/src/state/review.js) with the
// in-process engine: it follows the pending list, key by key, and shows
// nothing once the page is back to the files.
import assert from 'node:assert/strict';
import { test } from 'node:test';

import { addEntity, deleteEntity, setField } from '../../web/src/state/edits.js';
import { undo } from '../../web/src/state/history.js';
import { changeCount, followReview, review, reviewing } from '../../web/src/state/review.js';
import { select, selected } from '../../web/src/state/selection.js';
import { INERT, LIGHT, openWorld, until } from './models.js';

// Follows the review for the length of `body`, then waits for it to settle.
async function reviewed(body) {
  const stop = followReview();
  try {
    await body();
    await until(() => !reviewing.value, 'the review to settle');
  } finally {
    stop();
  }
  return review.value;
}

test('an edited field is reviewed key by key, old and new text', async () => {
  await openWorld();
  const { entries, count } = await reviewed(async () => {
    await select(LIGHT);
    await setField('intensity', 20);
    await setField('radius', 3);
  });
  assert.equal(count, 1);
  assert.equal(entries[0].id, LIGHT);
  assert.equal(entries[0].kind, 'modified');
  assert.deepEqual(entries[0].changes, [
    { key: 'intensity', old: '18.1', new: '20' },
    { key: 'radius', old: '28.5', new: '3' },
  ]);
});

test('an added and a deleted entity are reviewed as new and deleted, with their class', async () => {
  await openWorld();
  let added = null;
  const { byId, count } = await reviewed(async () => {
    await select(INERT);
    await deleteEntity();
    await addEntity('Light', [1, 2, 3]);
    added = selected.value.id;
  });
  assert.equal(count, 2);
  assert.equal(changeCount.value, 2);
  assert.equal(byId.get(INERT).kind, 'deleted');
  assert.equal(byId.get(INERT).className, 'Inert');
  assert.equal(byId.get(added).kind, 'new');
  assert.ok(byId.get(added).changes.some((c) => c.key === 'position' && c.old === null && c.new === '1 2 3'));
});

test('an edit undone leaves nothing to review', async () => {
  await openWorld();
  const { count, entries } = await reviewed(async () => {
    await select(LIGHT);
    await setField('intensity', 20);
    await undo();
  });
  assert.equal(count, 0);
  assert.deepEqual(entries, []);
  assert.equal(changeCount.value, 0);
});

test('a second edit of an entity already pending is reviewed too', async () => {
  await openWorld();
  const stop = followReview();
  try {
    await select(LIGHT);
    await setField('intensity', 20);
    await until(() => review.value.entries[0]?.changes.length === 1, 'the first edit reviewed');
    await setField('radius', 3);
    await until(() => review.value.entries[0]?.changes.length === 2, 'the second edit reviewed');
    assert.deepEqual(review.value.entries[0].changes[1], { key: 'radius', old: '28.5', new: '3' });
  } finally {
    stop();
  }
});
