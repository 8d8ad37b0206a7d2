// The hierarchy's tree (web/src/lib/hierarchy.js): order, depths, spans,
// collapsed subtrees, filtered listings with their ancestors, cycles in the
// data cut and cycles refused.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { buildForest, hasParentField, listing, wouldCycle } from '../../web/src/lib/hierarchy.js';

// A forest from parents by row (-1: none), every row alive unless `dead`.
function forestOf(parents, dead = []) {
  const alive = new Uint8Array(parents.length).fill(1);
  for (const row of dead) alive[row] = 0;
  return buildForest(parents.length, alive, (row) => parents[row]);
}

test('only an entity reference named parent makes the hierarchy', () => {
  assert.equal(hasParentField([{ name: 'parent', type: 'entity_ref' }]), true);
  assert.equal(hasParentField([{ name: 'parent', type: 'string' }]), false);
  assert.equal(hasParentField([{ name: 'target', type: 'entity_ref' }]), false);
  assert.equal(hasParentField(undefined), false);
});

test('each parent comes before its children, in row order, with depths and subtree sizes', () => {
  //   0          3
  //   ├ 1        └ 4
  //   │ └ 2
  //   └ 5
  const f = forestOf([-1, 0, 1, -1, 3, 0]);
  assert.deepEqual([...f.order], [0, 1, 2, 5, 3, 4]);
  assert.deepEqual([...f.depth], [0, 1, 2, 0, 1, 1]);
  assert.deepEqual([...f.span], [4, 2, 1, 2, 1, 1]);
  assert.deepEqual([...f.kids], [2, 1, 0, 1, 0, 0]);
  assert.equal(f.nested, true);
  assert.equal(forestOf([-1, -1]).nested, false);
});

test('a dead row is left out, and its children show at the top', () => {
  const f = forestOf([-1, 0, 1], [1]);
  assert.deepEqual([...f.order], [0, 2]);
  assert.equal(f.up[2], -1);
  assert.equal(f.kids[0], 0);
});

test('a cycle in the files is cut at its first entity met, which shows at the top; nothing is lost', () => {
  // 0 -> 1 -> 2 -> 0 (a cycle), 3 under 2, 4 its own parent.
  const f = forestOf([2, 0, 1, 2, 4]);
  assert.equal(f.order.length, 5);
  assert.deepEqual([...f.order].sort(), [0, 1, 2, 3, 4]);
  assert.equal(f.up[0], -1);
  assert.deepEqual([...f.order], [4, 0, 1, 2, 3], 'its own parent is at the top from the start');
  assert.equal(f.depth[3], 3);
  assert.equal(f.span[0], 4);
  assert.equal(f.kids[2], 1, 'the cut link is no child');
});

test('a collapsed row hides its subtree; a filter shows the matches under their ancestors, open', () => {
  const f = forestOf([-1, 0, 1, -1, 3, 0]);
  const collapsed = new Uint8Array(6);
  collapsed[1] = 1;
  const closed = listing(f, { collapsed });
  assert.deepEqual([...closed.rows], [0, 1, 5, 3, 4]);
  assert.equal(closed.index[2], -1);
  assert.equal(closed.index[5], 2);
  assert.equal(closed.context, null);

  const matches = new Uint8Array(6);
  matches[2] = 1;
  matches[4] = 1;
  const found = listing(f, { matches, collapsed });
  assert.deepEqual([...found.rows], [0, 1, 2, 3, 4]);
  assert.deepEqual([...found.context], [1, 1, 0, 1, 0, 0]);
  // Each row's place among its shown siblings, and their number.
  assert.deepEqual([...closed.rank], [0, 0, 0, 1, 0, 1]);
  assert.deepEqual([...closed.siblings], [2, 2, 0, 0, 1, 0, 0]);
  assert.equal(found.siblings[0 + 1], 1, 'under 0 only 1 is shown');
});

test('a parent under its child, or the entity itself, would make a cycle', () => {
  const f = forestOf([-1, 0, 1, -1]);
  assert.equal(wouldCycle(f, 0, 2), true);
  assert.equal(wouldCycle(f, 1, 1), true);
  assert.equal(wouldCycle(f, 2, 0), false);
  assert.equal(wouldCycle(f, 0, 3), false);
});
