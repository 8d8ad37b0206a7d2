// Copies of entities (web/src/state/copies.js) with the in-process engine:
// Duplicate and Paste add entities with new IDs next to the originals, as
// one undo step, selected; text that is not entities pastes nothing.
import assert from 'node:assert/strict';
import { test } from 'node:test';

import { duplicateSelection, paste, selectionText } from '../../web/src/state/copies.js';
import { undo, undoStack } from '../../web/src/state/history.js';
import { errorMessage, notice } from '../../web/src/state/messages.js';
import { pending } from '../../web/src/state/pending.js';
import { selected, selectedIds, setSelection } from '../../web/src/state/selection.js';
import { table } from '../../web/src/state/table.js';
import { LIGHT, LIGHT2, openWorld } from './models.js';

const liveCount = () => table.alive.slice(0, table.size).reduce((n, alive) => n + (alive ? 1 : 0), 0);

test('copied entities paste as new entities with new IDs, moved by the offset, selected, as one undo step', async () => {
  await openWorld();
  const before = liveCount();
  await setSelection([LIGHT, LIGHT2], LIGHT);
  const text = await selectionText();
  assert.match(text, /# Light 0x77a31d7500000002\n; asset_type\n/);

  await paste(text);
  assert.equal(errorMessage.value, null);
  assert.equal(notice.value, 'Pasted 2 entities');
  assert.equal(liveCount(), before + 2);
  const pasted = [...selectedIds.value];
  assert.equal(pasted.length, 2);
  for (const id of pasted) assert.ok(id !== LIGHT && id !== LIGHT2, `${id} is a new ID`);
  assert.deepEqual(
    pending.value.map((p) => p.kind),
    ['new', 'new'],
  );
  assert.equal(selected.value.class, 'Light');
  assert.notDeepEqual(selected.value.position, [304.55, 16.74, -269.94], 'moved away from the original');

  assert.equal(undoStack.value.length, 1);
  await undo();
  assert.equal(liveCount(), before);
  assert.deepEqual(pending.value, []);
});

test('duplicates are new entities of the same class and fields', async () => {
  await openWorld();
  await setSelection([LIGHT]);
  await duplicateSelection();
  const [copy] = [...selectedIds.value];
  assert.notEqual(copy, LIGHT);
  assert.equal(selected.value.id, copy);
  assert.deepEqual(selected.value.fields, { color: '#a3e36d', intensity: 18.1, radius: 28.5, cast_shadows: true });
  assert.equal(notice.value, 'Duplicated 1 entity');
});

test('text that is not entities pastes nothing and says why', async () => {
  await openWorld();
  const before = liveCount();
  await paste('hello, world');
  assert.match(errorMessage.value, /^Nothing pasted: /);
  assert.equal(liveCount(), before);
  assert.deepEqual(pending.value, []);
  assert.equal(undoStack.value.length, 0);
});
