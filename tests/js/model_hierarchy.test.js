// The hierarchy with the in-process engine (web/src/state/hierarchy.js,
// listView.js's listRows, edits.js's setParents): the sample world's
// `parent` references make the list's tree; a drag puts entities under
// another as one undo step; a parent that would make a cycle is refused,
// from a drag and from the inspector's field, and changes nothing.
import assert from 'node:assert/strict';
import { test } from 'node:test';

import { setFieldOfSelection, setParents } from '../../web/src/state/edits.js';
import { collapsedIds, expandTo, forest, setCollapsed } from '../../web/src/state/hierarchy.js';
import { redo, undo, undoStack } from '../../web/src/state/history.js';
import { listRows, search } from '../../web/src/state/listView.js';
import { errorMessage } from '../../web/src/state/messages.js';
import { fieldErrors, select } from '../../web/src/state/selection.js';
import { table } from '../../web/src/state/table.js';
import { openWorld, until } from './models.js';

const P2 = '0x77a31d7500000002'; // a Light, at the top
const P5 = '0x77a31d7500000005'; // an Inert (no parent field), at the top
const P6 = '0x77a31d7500000006'; // a Prop under P5
const P7 = '0x77a31d7500000007'; // a Prop under P6

const rowOf = (id) => table.rowOf.get(id);
const listed = () => Array.from(listRows.value.rows, (row) => table.ids[row]);
const parentOf = (id) => table.parents[rowOf(id)];

test('the list shows each entity under its parent, and a closed subtree hides its children', async () => {
  await openWorld();
  const f = forest.value;
  assert.equal(f.nested, true);
  assert.equal(f.depth[rowOf(P7)], 2);
  const ids = listed();
  assert.equal(ids.length, table.rowOf.size, 'every entity listed');
  assert.deepEqual(ids.slice(ids.indexOf(P5), ids.indexOf(P5) + 3), [P5, P6, P7]);

  setCollapsed(P5, true);
  assert.equal(listRows.value.index[rowOf(P6)], -1);
  assert.equal(listRows.value.index[rowOf(P7)], -1);
  expandTo(P7);
  assert.equal(collapsedIds.value.size, 0, 'its ancestors opened');
  assert.notEqual(listRows.value.index[rowOf(P7)], -1);
});

test('a search shows what it finds under its ancestors, as context', async () => {
  await openWorld();
  search.value = P7;
  try {
    assert.deepEqual(listed(), [P5, P6, P7]);
    const { context } = listRows.value;
    assert.deepEqual([context[rowOf(P5)], context[rowOf(P6)], context[rowOf(P7)]], [1, 1, 0]);
  } finally {
    search.value = '';
  }
});

test('a drag puts entities under another as one undo step, and at the top again', async () => {
  await openWorld();
  const steps = undoStack.value.length;
  assert.equal(await setParents([P5, P6, P7], P2), true);
  assert.equal(parentOf(P5), null, 'an Inert has no parent field: left');
  assert.equal(parentOf(P6), P2);
  assert.equal(parentOf(P7), P2);
  assert.equal(undoStack.value.length, steps + 1, 'one undo step');
  assert.equal(forest.value.depth[rowOf(P7)], 1);
  await undo();
  await until(() => parentOf(P6) === P5 && parentOf(P7) === P6, 'undone');
  await redo();
  await until(() => parentOf(P6) === P2, 'redone');
  assert.equal(await setParents([P6], null), true);
  assert.equal(parentOf(P6), null, 'at the top');
});

test('a parent under the entity, or the entity itself, is refused and changes nothing', async () => {
  await openWorld();
  const steps = undoStack.value.length;
  assert.equal(await setParents([P6], P7), false);
  assert.match(errorMessage.value, /cannot be the parent of .*: it is under it/);
  assert.equal(await setParents([P6], P6), false);
  assert.match(errorMessage.value, /cannot be its own parent/);
  assert.equal(parentOf(P6), P5);

  await select(P6);
  await setFieldOfSelection('parent', P7);
  assert.match(fieldErrors.value.parent, /it is under it/);
  assert.equal(parentOf(P6), P5);
  assert.equal(undoStack.value.length, steps, 'no undo step');
});
