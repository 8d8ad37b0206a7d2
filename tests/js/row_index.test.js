// The entity table's index of rows by ID (web/src/lib/rowIndex.js) against
// a Map doing the same: rows added, removed and revived at random, the index
// made again from every row, and growing past its first size.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { RowIndex } from '../../web/src/lib/rowIndex.js';

// A small generator with a seed, so that a failure can be replayed.
function random(seed) {
  let s = seed >>> 0;
  return () => {
    s = (Math.imul(s, 1664525) + 1013904223) >>> 0;
    return s / 2 ** 32;
  };
}

const idOf = (k) => `0x${k.toString(16).padStart(16, '0')}`;

test('the row index answers get, has and size as a Map does, through additions, removals and revivals', () => {
  const next = random(7);
  const ids = Array.from({ length: 500 }, (_, k) => idOf(k * 7919));
  const index = new RowIndex(ids);
  const map = new Map(ids.map((id, row) => [id, row]));
  const dead = new Map();
  for (let step = 0; step < 20_000; step++) {
    const pick = next();
    if (pick < 0.4) {
      // A new entity: a new row.
      const id = idOf(1e6 + step);
      ids.push(id);
      index.set(id, ids.length - 1);
      map.set(id, ids.length - 1);
    } else if (pick < 0.75 && map.size > 0) {
      const id = ids[Math.floor(next() * ids.length)];
      if (!map.has(id)) continue;
      dead.set(id, map.get(id));
      assert.equal(index.delete(id), map.delete(id));
    } else if (dead.size > 0) {
      // Back from the dead, in its old row.
      const [id, row] = dead.entries().next().value;
      dead.delete(id);
      index.set(id, row);
      map.set(id, row);
    }
    assert.equal(index.size, map.size);
  }
  for (const id of [...ids, idOf(3), 'nothing', null, undefined]) {
    assert.equal(index.get(id), map.get(id), id);
    assert.equal(index.has(id), map.has(id), id);
  }
  assert.ok(ids.length > 5000, 'it grew well past its first size');
  // Made again from the rows as they are: the same answers.
  const again = new RowIndex(ids);
  ids.forEach((id, row) => assert.equal(again.get(id), row));
  assert.equal(again.delete('nothing'), false);
});
