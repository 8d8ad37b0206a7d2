// What the entity list and the map show: the class filter, the search (by
// name or ID), the query and the rows that pass all three (recomputed only
// when rows are added or removed, a filter changes or the query's answer
// comes, and while searching when a name changes; never on a plain edit);
// and the list's rows in the hierarchy's order (state/hierarchy.js).
import { computed, effect, signal } from '@preact/signals';
import { idOfNumber, nameRecord } from 'juliet-world';
import { listing } from '../lib/hierarchy.js';
import { parseQuery, unknownField } from '../lib/query.js';
import { getEngine } from './engine.js';
import { collapsedRows, forest } from './hierarchy.js';
import { renamed, revision, structure, table } from './table.js';
import { schemas, status } from './world.js';

export const classFilter = signal(''); // '' = every class
export const search = signal(''); // a name or an ID
export const query = signal(''); // the query's text (lib/query.js)

// What to look for, or null for "no search": the text anywhere in a name
// (case-insensitive), hex digits anywhere in the ID, and for a decimal
// number (a file name) its ID too.
function searchNeedles(text) {
  const name = text.trim().toLowerCase();
  if (name === '') return null;
  const t = name.endsWith('.jasset') ? name.slice(0, -7) : name;
  const hex = t.startsWith('0x') ? t.slice(2) : t;
  return { name, hex, fileId: /^\d+$/.test(t) ? idOfNumber(t) : null };
}

// True if the entity of `row` has what the search looks for.
function found(needles, row) {
  const id = table.ids[row];
  const name = table.names[row];
  return id.includes(needles.hex, 2) || id === needles.fileId || (name !== '' && name.toLowerCase().includes(needles.name));
}

/** Up to `limit` rows of live entities the search `text` finds (by name or
 * ID, as the list's search does), in table order; for empty text, the
 * first entities (to browse). */
export function searchRows(text, limit) {
  const needles = searchNeedles(text);
  const rows = [];
  for (let row = 0; row < table.size && rows.length < limit; row++) {
    if (table.alive[row] && (needles === null || found(needles, row))) rows.push(row);
  }
  return rows;
}

// The parsed query: { terms } (none for an empty query) or { error }, with
// the fields checked against the world's classes.
export const parsedQuery = computed(() => {
  const parsed = parseQuery(query.value);
  if (parsed.error) return parsed;
  const fields = new Set(Object.values(schemas.value).flatMap((fs) => fs.map((f) => f.name)));
  const error = unknownField(parsed.terms, fields);
  return error ? { error } : parsed;
});
export const queryError = computed(() => parsedQuery.value.error ?? null);

// The IDs passing the query (a Set), or null when no query applies. The
// engine worker reads the fields, a moment after the query or the world
// changed; until it answers the previous answer stands.
export const queryMatches = signal(null);
const DELAY = 150;
let timer = null;
let asked = 0;

async function runQuery(terms) {
  const ask = ++asked;
  try {
    const ids = await getEngine().query(terms);
    if (ask === asked) queryMatches.value = new Set(ids);
  } catch {
    // The world closed under it: the next open asks again.
  }
}

// Keeps queryMatches following the query and the world's edits; returns
// the function that stops it.
export function followQuery() {
  const stop = effect(() => {
    const { terms } = parsedQuery.value;
    revision.value;
    const open = status.value === 'ready' || status.value === 'saving';
    clearTimeout(timer);
    if (!terms || terms.length === 0 || !open) {
      // A bad query filters nothing (the list is as without one), nor does
      // one of a world being opened until it is asked again.
      asked++;
      queryMatches.value = null;
      return;
    }
    timer = setTimeout(() => runQuery(terms), DELAY);
  });
  return () => {
    stop();
    clearTimeout(timer);
  };
}

export const visibleRows = computed(() => {
  structure.value;
  const matches = queryMatches.value;
  const cls = classFilter.value;
  const needles = searchNeedles(search.value);
  if (needles !== null) renamed.value;
  const k = cls === '' ? -1 : table.classNames.indexOf(cls);
  const out = new Int32Array(table.size);
  let n = 0;
  if (cls !== '' && k < 0) return out.subarray(0, 0);
  for (let row = 0; row < table.size; row++) {
    if (!table.alive[row]) continue;
    if (k >= 0 && table.cls[row] !== k) continue;
    if (needles !== null && !found(needles, row)) continue;
    if (matches !== null && !matches.has(table.ids[row])) continue;
    out[n++] = row;
  }
  return out.subarray(0, n);
});

/** The list's rows ({ rows, index, context }, lib/hierarchy.js's listing):
 * each entity under its parent; while a filter leaves some out, the rows
 * that pass under their ancestors (shown as context), every subtree open. */
export const listRows = computed(() => {
  const rows = visibleRows.value;
  const f = forest.value;
  if (rows.length === f.order.length) return listing(f, { collapsed: collapsedRows.value });
  const matches = new Uint8Array(table.size);
  for (const row of rows) matches[row] = 1;
  return listing(f, { matches });
});

// Number of entities per class (for the filter's options), a nameRecord.
export const classCounts = computed(() => {
  structure.value;
  const counts = new Array(table.classNames.length).fill(0);
  for (let row = 0; row < table.size; row++) if (table.alive[row]) counts[table.cls[row]]++;
  return nameRecord(table.classNames.map((name, k) => [name, counts[k]]));
});

export const totalCount = computed(() => {
  structure.value;
  return table.rowOf.size;
});
