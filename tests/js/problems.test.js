// The inspector's pure pieces behind what it says when something is wrong:
// the line of a file a diagnostic points at, with its caret, and the undo
// history kept with unsaved work, bounded in size.
import assert from 'node:assert/strict';
import { test } from 'node:test';

import { lineExcerpt } from '../../web/src/lib/excerpt.js';
import { historyToKeep, record, redoStack, restoreHistory, undoStack } from '../../web/src/state/history.js';

const bytes = (text) => new TextEncoder().encode(text);

test('the line a diagnostic points at, with the caret under its column', () => {
  const text = bytes('; id\n0x1\n; position\n1 2\n');
  assert.deepEqual(lineExcerpt(text, 4, 4), { text: '1 2', caret: 3 });
  assert.deepEqual(lineExcerpt(text, 1, 1), { text: '; id', caret: 0 });
  assert.deepEqual(lineExcerpt(text, 2, 0), { text: '0x1', caret: -1 }, 'no column: no caret');
  assert.equal(lineExcerpt(text, 9, 1), null, 'no such line');
  assert.equal(lineExcerpt(null, 1, 1), null, 'no file');
  assert.equal(lineExcerpt(text, 0, 0), null, 'the whole file');
});

test('a CRLF line ends before its CR; a tab is one space, so the caret stays under its character', () => {
  assert.deepEqual(lineExcerpt(bytes('a\r\n\tb = 1\r\n'), 2, 2), { text: ' b = 1', caret: 1 });
  // A column past the line's end points just after it.
  assert.deepEqual(lineExcerpt(bytes('ab\n'), 1, 9), { text: 'ab', caret: 2 });
  // Characters of several bytes count once.
  assert.deepEqual(lineExcerpt(bytes('é = x\n'), 1, 6), { text: 'é = x', caret: 4 });
});

test('a long line is cut to a window around the column', () => {
  const line = `${'a'.repeat(5000)}X${'b'.repeat(5000)}`;
  const { text, caret } = lineExcerpt(bytes(line), 1, 5001);
  assert.ok(text.length <= 122, `${text.length} characters`);
  assert.ok(text.startsWith('…') && text.endsWith('…'));
  assert.equal(text[caret], 'X');
  const start = lineExcerpt(bytes(line), 1, 1);
  assert.equal(start.text[start.caret], 'a');
  assert.ok(!start.text.startsWith('…'));
});

test('the history kept with unsaved work keeps the steps nearest the present within its bound', () => {
  const big = (n) => new Uint8Array(n);
  // 12 steps of 1 MB (text before and after): more than the 4 MB kept.
  for (let i = 0; i < 12; i++) record({ id: `0x${i}`, label: 'position', before: big(1 << 19), after: big((1 << 19) + 1) });
  const kept = historyToKeep();
  assert.ok(kept.undo.length >= 3 && kept.undo.length < 12, `${kept.undo.length} steps kept`);
  const idOf = (step) => step.changes[0].id;
  assert.deepEqual(kept.undo.map(idOf), undoStack.value.slice(-kept.undo.length).map(idOf), 'the latest ones');
  const size = kept.undo.flatMap((s) => s.changes).reduce((n, c) => n + c.before.length + c.after.length, 0);
  assert.ok(size <= 4 << 20, `${size} bytes`);

  // Restored, it is the history again.
  restoreHistory({ undo: [{ label: 'x', changes: [{ id: '0xa', before: big(1), after: big(2) }] }], redo: [] });
  assert.deepEqual(undoStack.value.map(idOf), ['0xa']);
  assert.deepEqual(redoStack.value, []);
});
