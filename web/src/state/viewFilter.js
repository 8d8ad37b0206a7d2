// What the views of the level (the 2D map, the 3D view) show and let the
// pointer take, on top of the list's filters: classes hidden, classes
// locked (drawn, but neither picked nor dragged there; the list still
// selects them) and the entities isolated (only they are drawn). The list
// shows every entity its filters pass, whatever is hidden. Hidden and
// locked classes are kept per world with the view (viewMode.js).
import { batch, computed, signal } from '@preact/signals';
import { visibleRows } from './listView.js';
import { selectedIds } from './selection.js';
import { table } from './table.js';

export const hiddenClasses = signal(new Set());
export const lockedClasses = signal(new Set());
export const isolated = signal(null); // a Set of IDs, or null: none isolated

// The rows the views draw: the list's, less hidden classes and, while some
// are isolated, every other entity.
export const viewRows = computed(() => {
  const rows = visibleRows.value;
  const hidden = hiddenClasses.value;
  const only = isolated.value;
  if (hidden.size === 0 && only === null) return rows;
  const out = new Int32Array(rows.length);
  let n = 0;
  for (const row of rows) {
    if (hidden.has(table.classNames[table.cls[row]])) continue;
    if (only !== null && !only.has(table.ids[row])) continue;
    out[n++] = row;
  }
  return out.subarray(0, n);
});

/** Whether the pointer may take the entity of `row` in a view (its class
 * is not locked). Read without subscribing: event handlers call it. */
export function pickable(row) {
  return !lockedClasses.peek().has(table.classNames[table.cls[row]]);
}

function toggled(set, name) {
  const next = new Set(set);
  if (!next.delete(name)) next.add(name);
  return next;
}

export function toggleHidden(className) {
  hiddenClasses.value = toggled(hiddenClasses.value, className);
}

export function toggleLocked(className) {
  lockedClasses.value = toggled(lockedClasses.value, className);
}

/** Isolates the selected entities (only they are drawn), or ends the
 * isolation. */
export function toggleIsolation() {
  isolated.value = isolated.value === null && selectedIds.value.size > 0 ? new Set(selectedIds.value) : null;
}

/** The classes hidden and locked of a world opened (arrays of names, as
 * kept), nothing isolated. */
export function setViewFilter({ hidden = [], locked = [] } = {}) {
  batch(() => {
    hiddenClasses.value = new Set(hidden);
    lockedClasses.value = new Set(locked);
    isolated.value = null;
  });
}
