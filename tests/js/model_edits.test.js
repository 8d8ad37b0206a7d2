// The edit model (web/src/state/edits.js) under node:test: each edit goes
// through the engine, then shows in the table, the inspector and the
// pending changes, and is one undo step; a refused one changes nothing.
import assert from 'node:assert/strict';
import { test } from 'node:test';

import {
  addEntity,
  deleteEntity,
  setField,
  setFieldOfSelection,
  setPositionAxis,
  setPositionAxisOfSelection,
} from '../../web/src/state/edits.js';
import { undoStack } from '../../web/src/state/history.js';
import { pending } from '../../web/src/state/pending.js';
import { fieldErrors, select, selected, setSelection } from '../../web/src/state/selection.js';
import { changedRowsSince, revision, rowPosition, table } from '../../web/src/state/table.js';
import { checkCoordinateOrMove } from '../../web/src/state/typed.js';
import { INERT, LIGHT, LIGHT2, openWorld } from './models.js';

const paths = () => pending.value.map((p) => `${p.kind} ${p.id}`);

test('a field set on the selected entity shows in the inspector and is pending, as one undo step', async () => {
  await openWorld();
  await select(LIGHT);
  assert.equal(selected.value.fields.intensity, 18.1);
  await setField('intensity', 20);
  assert.equal(selected.value.fields.intensity, 20);
  assert.equal(selected.value.dirty, true);
  assert.deepEqual(paths(), [`modified ${LIGHT}`]);
  assert.deepEqual(
    undoStack.value.map((s) => s.label),
    ['intensity'],
  );
});

test('a position axis set on the selected entity moves its row', async () => {
  await openWorld();
  await select(LIGHT);
  await setPositionAxis(1, 7.5);
  assert.deepEqual(
    [...rowPosition(table.rowOf.get(LIGHT))].map((v) => Math.round(v * 100) / 100),
    [304.55, 7.5, -269.94],
  );
  assert.deepEqual(selected.value.position, [304.55, 7.5, -269.94]);
});

test('a value the engine refuses changes nothing and is shown under its field', async () => {
  await openWorld();
  await select(LIGHT);
  await setField('intensity', 'bright');
  assert.match(fieldErrors.value.intensity, /intensity/);
  assert.equal(selected.value.fields.intensity, 18.1);
  assert.deepEqual(paths(), []);
  assert.equal(undoStack.value.length, 0);
  // The next accepted value clears the message.
  await setField('intensity', 3);
  assert.equal(fieldErrors.value.intensity, undefined);
});

test('a field set on a selection changes every entity whose class has it, as one undo step', async () => {
  await openWorld();
  await setSelection([LIGHT, LIGHT2, INERT], LIGHT);
  await setFieldOfSelection('intensity', 5);
  assert.deepEqual(paths().sort(), [`modified ${LIGHT}`, `modified ${LIGHT2}`].sort());
  assert.equal(undoStack.value.length, 1);
  assert.deepEqual(undoStack.value[0].changes.map((c) => c.id).sort(), [LIGHT, LIGHT2].sort());
});

test('a delete takes the row out and lists the file as deleted; an add is new and selected', async () => {
  await openWorld();
  const size = table.size;
  await select(INERT);
  await deleteEntity();
  assert.equal(table.rowOf.has(INERT), false);
  assert.deepEqual(paths(), [`deleted ${INERT}`]);
  assert.notEqual(selected.value?.id, INERT, 'the deleted entity is no longer selected');

  await addEntity('Light', [1, 2, 3]);
  const added = selected.value;
  assert.equal(added.class, 'Light');
  assert.deepEqual(added.position, [1, 2, 3]);
  assert.ok(table.rowOf.has(added.id));
  assert.deepEqual(paths().sort(), [`deleted ${INERT}`, `new ${added.id}`].sort());
  assert.equal(table.size, size + 1, 'the deleted row is kept as a hole, the new one appended');
});

test("an edit's rows are told as changed since the revision before it, and a world opened again tells none", async () => {
  await openWorld();
  const before = revision.value;
  await select(LIGHT);
  await setPositionAxis(0, 1);
  await setField('intensity', 2);
  assert.deepEqual([...new Set(changedRowsSince(before))], [table.rowOf.get(LIGHT)]);
  assert.deepEqual(changedRowsSince(revision.value), []);
  await openWorld();
  assert.equal(changedRowsSince(before), null, 'every row may have changed');
});

test('a coordinate typed for several entities places them all, +5 or -=2.5 moves each by that much, as one undo step', async () => {
  await openWorld();
  await setSelection([LIGHT, INERT], LIGHT);
  const x = () => [LIGHT, INERT].map((id) => Math.round(rowPosition(table.rowOf.get(id))[0] * 100) / 100);
  const before = x();
  assert.deepEqual(await checkCoordinateOrMove('-2.5'), { value: { value: -2.5, by: false } });
  assert.deepEqual(await checkCoordinateOrMove('+5'), { value: { value: 5, by: true } });
  assert.deepEqual(await checkCoordinateOrMove(' += 5'), { value: { value: 5, by: true } });
  assert.deepEqual(await checkCoordinateOrMove('-=2.5'), { value: { value: -2.5, by: true } });
  assert.match((await checkCoordinateOrMove('+=far')).error, /number/);
  const { value, by } = (await checkCoordinateOrMove('+5')).value;
  await setPositionAxisOfSelection(0, value, { by });
  assert.deepEqual(
    x(),
    before.map((v) => Math.round((v + 5) * 100) / 100),
  );
  await setPositionAxisOfSelection(0, -2.5);
  assert.deepEqual(x(), [-2.5, -2.5]);
  assert.equal(undoStack.value.length, 2);
});
