// Change links in the inspector's models (web/src/state/changeLink.js) with
// the in-process engine: a link made of one page's pending edits applies in
// another as pending changes and one undo step; an entity whose file
// changed since is a conflict, left as it is; a link for another world
// says which world it needs.
import assert from 'node:assert/strict';
import { test } from 'node:test';

import { loadJuliet } from 'juliet-sample';
import { changeReport, changesUnavailable, openChangeLink } from '../../web/src/state/changeLink.js';
import { getEngine } from '../../web/src/state/engine.js';
import { deleteEntity, setField, setSetting } from '../../web/src/state/edits.js';
import { undo, undoStack } from '../../web/src/state/history.js';
import { pending } from '../../web/src/state/pending.js';
import { select, selected } from '../../web/src/state/selection.js';
import { settings } from '../../web/src/state/world.js';
import { copyWorld, sampleWorld } from './helpers.js';
import { INERT, LIGHT, openWorld } from './models.js';

const juliet = await loadJuliet();
const paths = () => pending.value.map((p) => `${p.kind} ${p.id}`).sort();

// The sample opened in the models with LIGHT's intensity at 20, INERT
// deleted and the time of day at 20; returns the change link's text.
async function editedLink() {
  await openWorld(sampleWorld, 'sample_world');
  assert.equal(changesUnavailable(), 'Nothing is pending: there are no changes to share.');
  await select(LIGHT);
  await setField('intensity', 20);
  await deleteEntity(INERT);
  await setSetting('time_of_day', 20);
  assert.equal(changesUnavailable(), null);
  return getEngine().changesLink('sample_world');
}

test('a link of the pending edits applies in another page as pending changes and one undo step', async () => {
  const text = await editedLink();
  await openWorld(sampleWorld, 'sample_world');
  assert.deepEqual(paths(), []);
  assert.equal(await openChangeLink(`http://127.0.0.1:5173/#${text}`), true);
  assert.deepEqual(paths(), [`deleted ${INERT}`, `modified ${LIGHT}`, 'modified settings']);
  await select(LIGHT);
  assert.equal(selected.value.fields.intensity, 20);
  assert.equal(settings.value.fields.time_of_day, 20);
  assert.equal(changeReport.value.applied, 3);
  assert.deepEqual(changeReport.value.conflicts, []);
  assert.equal(undoStack.value.length, 1);
  await undo();
  assert.deepEqual(paths(), []);
  assert.equal(settings.value.fields.time_of_day, 12);
});

test('an entity whose file changed since the link was made is listed and left as it is', async () => {
  const text = await editedLink();
  // The other copy's light was saved with another intensity.
  const dir = copyWorld();
  const world = juliet.openWorld(dir);
  world.set(LIGHT, 'intensity', 5);
  world.save();
  world.close();
  await openWorld(dir, 'sample_world');
  assert.equal(await openChangeLink(text), true);
  assert.deepEqual(changeReport.value.conflicts, [
    {
      path: `Entities/${BigInt(LIGHT)}.jasset`,
      words: 'its file changed since the link was made (or it is gone): the link’s change is not applied',
    },
  ]);
  assert.deepEqual(paths(), [`deleted ${INERT}`, 'modified settings']);
  await select(LIGHT);
  assert.equal(selected.value.fields.intensity, 5);
});

test('a link for another world says which world it needs and applies nothing', async () => {
  const text = await editedLink();
  await openWorld(sampleWorld, 'another');
  assert.equal(await openChangeLink(text), false);
  assert.equal(changeReport.value.needs, true);
  assert.equal(changeReport.value.world, 'sample_world');
  assert.deepEqual(paths(), []);
});
