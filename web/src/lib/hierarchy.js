// The entity hierarchy: the tree that reference fields named `parent` make,
// as the list shows it (an outliner). Pure: the rows of the page's table in
// (state/table.js), typed arrays out, so that 100,000 entities cost a few
// passes and no object per entity.

export const PARENT_FIELD = 'parent';

/** Whether a class of fields `schema` ([{ name, type }]) has the
 * hierarchy's field: an entity reference named `parent`. */
export function hasParentField(schema = []) {
  return schema.some((f) => f.name === PARENT_FIELD && f.type === 'entity_ref');
}

/**
 * The forest of the live rows of a table of `size` rows (`alive[row]`),
 * each under its parent's row (`parentOf(row)`: -1 for none, or a parent
 * not in the world). Children come in row order. A cycle (files edited by
 * hand) is cut at the entity of it met first, which shows at the top.
 * Returns { order, up, depth, span, kids, nested }: `order` every live row,
 * each parent before its subtree; per row the row it shows under (`up`, -1
 * at the top), its `depth`, its subtree's size in `order` (`span`, itself
 * included) and its number of children (`kids`); `nested` is whether any
 * entity shows under another.
 */
export function buildForest(size, alive, parentOf) {
  const up = new Int32Array(size).fill(-1);
  const kids = new Int32Array(size);
  let nested = false;
  for (let row = 0; row < size; row++) {
    if (!alive[row]) continue;
    const p = parentOf(row);
    if (p >= 0 && p !== row && p < size && alive[p]) {
      up[row] = p;
      kids[p]++;
      nested = true;
    }
  }
  // Children of each row, in row order (one array, a slice per parent).
  const start = new Int32Array(size + 1);
  for (let row = 0; row < size; row++) start[row + 1] = start[row] + kids[row];
  const next = start.slice(0, size);
  const children = new Int32Array(start[size]);
  for (let row = 0; row < size; row++) if (up[row] >= 0) children[next[up[row]]++] = row;

  const order = new Int32Array(size);
  const depth = new Int32Array(size);
  const span = new Int32Array(size);
  const placed = new Uint8Array(size);
  let n = 0;
  const stack = [];
  const visit = (root) => {
    depth[root] = 0;
    stack.push(root);
    while (stack.length > 0) {
      const row = stack.pop();
      placed[row] = 1;
      order[n++] = row;
      for (let i = start[row + 1] - 1; i >= start[row]; i--) {
        const child = children[i];
        if (up[child] !== row || placed[child]) continue; // a cut of a cycle
        depth[child] = depth[row] + 1;
        stack.push(child);
      }
    }
  };
  for (let row = 0; row < size; row++) if (alive[row] && up[row] < 0) visit(row);
  // What is left hangs from a cycle: cut each cycle at the first of its
  // entities met going up (its subtree then holds `row`).
  const walked = new Int32Array(size);
  for (let row = 0; row < size; row++) {
    if (!alive[row] || placed[row]) continue;
    let at = row;
    while (walked[at] !== row + 1) {
      walked[at] = row + 1;
      at = up[at];
    }
    kids[up[at]]--;
    up[at] = -1;
    visit(at);
  }
  for (let i = n - 1; i >= 0; i--) {
    const row = order[i];
    span[row] += 1;
    if (up[row] >= 0) span[up[row]] += span[row];
  }
  return { order: order.subarray(0, n), up, depth, span, kids, nested };
}

/**
 * The rows the list shows, in the forest's order: with `matches` (a mask
 * per row, or null when nothing filters) the rows it holds and their
 * ancestors, every subtree open; without, every row but those under a row
 * of `collapsed` (a mask per row). Returns { rows, index, context, rank,
 * siblings }: the rows, each row's place in them (-1: not shown), for a
 * filter the ancestors shown only to place a match (a mask, or null), each
 * shown row's place among its shown siblings (`rank`, from 0) and how many
 * shown rows each row has under it (`siblings[row + 1]`; `siblings[0]` at
 * the top).
 */
export function listing(forest, { matches = null, collapsed = null } = {}) {
  const { order, up, span } = forest;
  const size = up.length;
  const index = new Int32Array(size).fill(-1);
  const rows = new Int32Array(order.length);
  const rank = new Int32Array(size);
  const siblings = new Int32Array(size + 1);
  let n = 0;
  let context = null;
  if (matches !== null) {
    const shown = new Uint8Array(size);
    for (let row = 0; row < size; row++) {
      for (let at = matches[row] ? row : -1; at >= 0 && !shown[at]; at = up[at]) shown[at] = 1;
    }
    context = new Uint8Array(size);
    for (const row of order) {
      if (!shown[row]) continue;
      index[row] = n;
      rows[n++] = row;
      if (!matches[row]) context[row] = 1;
    }
  } else {
    for (let i = 0; i < order.length; i++) {
      const row = order[i];
      index[row] = n;
      rows[n++] = row;
      if (collapsed !== null && collapsed[row]) i += span[row] - 1;
    }
  }
  for (let i = 0; i < n; i++) rank[rows[i]] = siblings[up[rows[i]] + 1]++;
  return { rows: rows.subarray(0, n), index, context, rank, siblings };
}

/** Whether making `parent` the parent of `child` (rows of `forest`) would
 * make a cycle: `parent` is `child` or shows under it. */
export function wouldCycle(forest, child, parent) {
  for (let at = parent; at >= 0; at = forest.up[at]) if (at === child) return true;
  return false;
}
