// The open world's hierarchy (lib/hierarchy.js) as the list shows it: the
// forest of the table's rows by their `parent` references, the entities
// whose subtree is collapsed (kept per world with the view, viewMode.js),
// and the rule that refuses a parent that would make a cycle.
import { computed, signal } from '@preact/signals';
import { buildForest, wouldCycle } from '../lib/hierarchy.js';
import { reparented, rowClass, structure, table } from './table.js';

export const collapsedIds = signal(new Set()); // IDs whose children are hidden

/** The forest of the live entities; rebuilt when rows come or go or a
 * parent changes, never on another edit. */
export const forest = computed(() => {
  structure.value;
  reparented.value;
  return buildForest(table.size, table.alive, (row) => {
    const parent = table.parents[row];
    return parent ? (table.rowOf.get(parent) ?? -1) : -1;
  });
});

/** The collapsed entities as a mask per row (null: none). */
export const collapsedRows = computed(() => {
  structure.value;
  const ids = collapsedIds.value;
  if (ids.size === 0) return null;
  const mask = new Uint8Array(table.size);
  for (const id of ids) {
    const row = table.rowOf.get(id);
    if (row !== undefined) mask[row] = 1;
  }
  return mask;
});

export function setCollapsed(id, collapsed) {
  if (collapsedIds.value.has(id) === collapsed) return;
  const next = new Set(collapsedIds.value);
  if (collapsed) next.add(id);
  else next.delete(id);
  collapsedIds.value = next;
}

/** Opens every collapsed ancestor of entity `id`, so that the list shows it. */
export function expandTo(id) {
  const { up } = forest.peek();
  let next = null;
  for (let at = up[table.rowOf.get(id) ?? -1] ?? -1; at >= 0; at = up[at]) {
    const ancestor = table.ids[at];
    if (!collapsedIds.peek().has(ancestor)) continue;
    next ??= new Set(collapsedIds.peek());
    next.delete(ancestor);
  }
  if (next) collapsedIds.value = next;
}

// How an entity is told in a message: its name, else its class and ID.
function told(row) {
  return table.names[row] ? `"${table.names[row]}"` : `${rowClass(row)} ${table.ids[row]}`;
}

/** Why entity `parentId` (null: none) cannot be the parent of the entities
 * `ids`, or null if it can: one of them is it, or it is under one of them. */
export function parentRefusal(ids, parentId) {
  const parent = parentId === null ? -1 : (table.rowOf.get(parentId) ?? -1);
  if (parent < 0) return null;
  const f = forest.peek();
  for (const id of ids) {
    const child = table.rowOf.get(id);
    if (child === parent) return `${told(child)} cannot be its own parent`;
    if (wouldCycle(f, child, parent)) return `${told(parent)} cannot be the parent of ${told(child)}: it is under it`;
  }
  return null;
}
