// What the entity list and the map show: the class filter, the ID search and
// the rows that pass both (recomputed only when rows are added or removed,
// or the filter changes, never on a plain edit).
import { computed, signal } from '@preact/signals';
import { idOfNumber } from 'juliet-world';
import { structure, table } from './table.js';

export const classFilter = signal(''); // '' = every class
export const idSearch = signal('');

// Lower-case hex digits to look for in IDs, or null for "no search". A
// decimal number (a file name) is searched as its hex ID.
function searchNeedle(text) {
  let t = text.trim().toLowerCase();
  if (t === '') return null;
  if (t.endsWith('.jasset')) t = t.slice(0, -7);
  // Three digits or more are a file name; fewer are looked for as hex digits.
  const id = t.length >= 3 ? idOfNumber(t) : null;
  if (id !== null) return id.slice(2);
  return t.startsWith('0x') ? t.slice(2) : t;
}

export const visibleRows = computed(() => {
  structure.value;
  const cls = classFilter.value;
  const needle = searchNeedle(idSearch.value);
  const k = cls === '' ? -1 : table.classNames.indexOf(cls);
  const out = new Int32Array(table.size);
  let n = 0;
  if (cls !== '' && k < 0) return out.subarray(0, 0);
  for (let row = 0; row < table.size; row++) {
    if (!table.alive[row]) continue;
    if (k >= 0 && table.cls[row] !== k) continue;
    if (needle !== null && !table.ids[row].toLowerCase().includes(needle, 2)) continue;
    out[n++] = row;
  }
  return out.subarray(0, n);
});

// Number of entities per class (for the filter's options).
export const classCounts = computed(() => {
  structure.value;
  const counts = new Array(table.classNames.length).fill(0);
  for (let row = 0; row < table.size; row++) if (table.alive[row]) counts[table.cls[row]]++;
  return Object.fromEntries(table.classNames.map((name, k) => [name, counts[k]]));
});

export const totalCount = computed(() => {
  structure.value;
  return table.rowOf.size;
});
