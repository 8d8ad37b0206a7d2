// A table's string columns as they cross from the engine's worker to the
// page (web/src/engine/columns.js).
import assert from 'node:assert/strict';
import { test } from 'node:test';

import { columnTexts, columnsOf } from '../../web/src/engine/columns.js';

test("a table's IDs, names and parents come back as they were, in the order given", () => {
  const idWords = new Uint32Array([2, 0, 0x89abcdef, 0x01234567, 1, 0]);
  const names = ['', 'Grunt, the "first"', 'é ✓'];
  const parents = [null, '0x0000000000000001', null];
  const texts = columnTexts(idWords, [2, 0, 1], names, parents);
  assert.deepEqual(columnsOf(texts), { ids: ['0x0000000000000001', '0x0000000000000002', '0x0123456789abcdef'], names, parents });
  assert.deepEqual(columnsOf(columnTexts(idWords, [], [], [])), { ids: [], names: [], parents: [] });
  assert.deepEqual(columnsOf(columnTexts(idWords, [0], [''], [null])), { ids: ['0x0000000000000002'], names: [''], parents: [null] });
});
