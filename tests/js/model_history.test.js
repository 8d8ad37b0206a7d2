// The undo history (web/src/state/history.js) with the edit model and the
// in-process engine: undo puts back the text an entity had, which the
// engine then judges clean or not; redo replays; a new edit drops redo.
import assert from 'node:assert/strict';
import { test } from 'node:test';

import { deleteEntity, setField, setFieldOfSelection } from '../../web/src/state/edits.js';
import { canRedo, redo, redoStack, undo, undoStack } from '../../web/src/state/history.js';
import { notice } from '../../web/src/state/messages.js';
import { pending } from '../../web/src/state/pending.js';
import { select, selected, setSelection } from '../../web/src/state/selection.js';
import { table } from '../../web/src/state/table.js';
import { INERT, LIGHT, LIGHT2, openWorld } from './models.js';

// The sample open, with LIGHT's intensity set to 20 (from 18.1).
async function lightEdited() {
  await openWorld();
  await select(LIGHT);
  await setField('intensity', 20);
}

const paths = () => pending.value.map((p) => `${p.kind} ${p.id}`);

test('undo puts the field back and the entity is clean again; redo sets it again', async () => {
  await lightEdited();
  await undo();
  assert.equal(selected.value.fields.intensity, 18.1);
  assert.equal(selected.value.dirty, false, 'back to its file: clean');
  assert.deepEqual(paths(), []);
  assert.equal(notice.value, `Undid the change of intensity of ${LIGHT}`);
  assert.equal(canRedo.value, true);

  await redo();
  assert.equal(selected.value.fields.intensity, 20);
  assert.deepEqual(paths(), [`modified ${LIGHT}`]);
  assert.equal(undoStack.value.length, 1);
  assert.equal(redoStack.value.length, 0);
});

test('two edits undo one at a time, the latest first', async () => {
  await lightEdited();
  await setField('radius', 3);
  await undo();
  assert.deepEqual([selected.value.fields.intensity, selected.value.fields.radius], [20, 28.5]);
  assert.deepEqual(paths(), [`modified ${LIGHT}`], 'still changed by the first edit');
  await undo();
  assert.deepEqual([selected.value.fields.intensity, selected.value.fields.radius], [18.1, 28.5]);
  assert.deepEqual(paths(), []);
});

test('undo of a delete brings the entity back, clean, with nothing pending', async () => {
  await openWorld();
  await select(INERT);
  await deleteEntity();
  assert.equal(table.rowOf.has(INERT), false);
  await undo();
  assert.equal(table.rowOf.has(INERT), true);
  assert.deepEqual(paths(), []);
});

test('an edit of a selection undoes as one step', async () => {
  await openWorld();
  await setSelection([LIGHT, LIGHT2], LIGHT);
  await setFieldOfSelection('intensity', 5);
  assert.equal(pending.value.length, 2);
  await undo();
  assert.deepEqual(paths(), []);
  assert.equal(undoStack.value.length, 0);
  assert.equal(redoStack.value.length, 1);
});

test('a new edit after an undo drops what could be redone', async () => {
  await lightEdited();
  await undo();
  await setField('radius', 3);
  assert.equal(redoStack.value.length, 0);
  assert.equal(canRedo.value, false);
});

test('opening another world starts its history empty', async () => {
  await lightEdited();
  await openWorld();
  assert.equal(undoStack.value.length, 0);
  assert.deepEqual(paths(), []);
});
