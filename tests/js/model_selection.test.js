// The selection model (web/src/state/selection.js) with the in-process
// engine: the primary entity is read from the engine, Ctrl-click adds and
// takes out, the values shared by a selection are read in one call.
import assert from 'node:assert/strict';
import { test } from 'node:test';

import { setFieldOfSelection } from '../../web/src/state/edits.js';
import {
  addToSelection,
  entityExists,
  readAhead,
  select,
  selected,
  selectedId,
  selectedIds,
  selectedLive,
  setSelection,
  sharedValues,
  toggleSelected,
} from '../../web/src/state/selection.js';
import { table } from '../../web/src/state/table.js';
import { INERT, LIGHT, LIGHT2, openWorld } from './models.js';

test('selecting an entity reads it from the engine; selecting none clears it', async () => {
  await openWorld();
  await select(LIGHT);
  assert.equal(selected.value.id, LIGHT);
  assert.equal(selected.value.class, 'Light');
  assert.deepEqual([...selectedIds.value], [LIGHT]);
  await select(null);
  assert.equal(selected.value, null);
  assert.equal(selectedIds.value.size, 0);
});

test('Ctrl-click adds an entity as the primary and takes it out again, the previous one primary again', async () => {
  await openWorld();
  await select(LIGHT);
  await toggleSelected(INERT);
  assert.equal(selectedId.value, INERT);
  assert.equal(selected.value.class, 'Inert');
  assert.deepEqual(new Set(selectedIds.value), new Set([LIGHT, INERT]));
  await toggleSelected(INERT);
  assert.equal(selectedId.value, LIGHT);
  assert.equal(selected.value.id, LIGHT);
  assert.deepEqual([...selectedIds.value], [LIGHT]);
});

test('adding a range keeps the primary; the live selection is in list order', async () => {
  await openWorld();
  await select(LIGHT2);
  await addToSelection([INERT, LIGHT]);
  assert.equal(selectedId.value, LIGHT2);
  const rows = selectedLive().map((id) => table.rowOf.get(id));
  assert.deepEqual(
    rows,
    [...rows].sort((a, b) => a - b),
  );
  assert.equal(rows.length, 3);
});

test('the values a selection shares are one value, mixed where they differ', async () => {
  await openWorld();
  await setSelection([LIGHT, LIGHT2]);
  await setFieldOfSelection('radius', 4);
  const shared = await sharedValues([LIGHT, LIGHT2], ['radius', 'intensity']);
  assert.deepEqual(shared.radius, { value: 4, mixed: false });
  assert.equal(shared.intensity.mixed, true);
});

test('an ID that names no entity of the world does not exist, nor does the null reference', async () => {
  await openWorld();
  assert.equal(entityExists(LIGHT), true);
  assert.equal(entityExists('0x77a31d75000000ff'), false);
  assert.equal(entityExists('0x0000000000000000'), false);
});

test('an entity read ahead of its click is the one shown; one changed meanwhile is read again', async () => {
  await openWorld();
  readAhead(LIGHT);
  await select(LIGHT);
  assert.equal(selected.value.id, LIGHT);
  // A press on it, then the world changes before the release.
  readAhead(LIGHT);
  await setFieldOfSelection('radius', 4);
  await select(null);
  await select(LIGHT);
  assert.equal(selected.value.fields.radius, 4);
});
