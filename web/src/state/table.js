// The entity table: every entity's ID, class, position, dirty mark, name
// (lib/names.js; '' for none) and parent (lib/hierarchy.js; null for none)
// in columns (typed arrays but for the strings),
// so that the list and the map can show 100,000 entities without an object
// per entity. Rows never move; a removed entity leaves a dead row.
// `revision` changes on every data change, `structure` when rows are added
// or removed (what the list's filter depends on; while it searches names,
// on `renamed` too: an entity's name changed), `reparented` when a parent
// changed (what the hierarchy depends on) and `marks` when a row's
// dirty or alive mark changes (what Pending changes depends on).
// changedRowsSince tells which rows a few changes touched, so that an edit
// costs its own rows, not a walk of the whole table.
import { signal } from '@preact/signals';
import { RowIndex } from '../lib/rowIndex.js';

export const revision = signal(0);
export const structure = signal(0);
export const renamed = signal(0);
export const reparented = signal(0);
export const marks = signal(0);

// The rows changed, in order, since revision `logFrom` (a change of many
// rows, or too many changes, starts the log again).
const LOG_LIMIT = 4096;
let log = [];
let logFrom = 0;

function changed(row) {
  if (log.length === LOG_LIMIT) restartLog();
  else log.push(row);
  revision.value++;
}

function restartLog() {
  log = [];
  logFrom = revision.peek() + 1;
}

/** The rows changed since revision `since` (each once, some maybe twice),
 * or null when the table no longer knows (more changed: look at every row). */
export function changedRowsSince(since) {
  if (since < logFrom) return null;
  return log.slice(log.length - (revision.peek() - since));
}

export const table = {
  size: 0, // rows in use, dead ones included
  ids: [],
  classNames: [],
  cls: new Uint8Array(0),
  pos: new Float32Array(0),
  dirty: new Uint8Array(0),
  names: [],
  parents: [],
  alive: new Uint8Array(0),
  rowOf: new RowIndex([]), // ID -> row of a live entity (a Map's calls)
  deadRowOf: new Map(), // ID -> row of a removed entity, revived if it comes back
  loaded: 0, // rows from the opened world; later rows were added in this session
};

function grow(capacity) {
  const cls = new Uint8Array(capacity);
  const pos = new Float32Array(capacity * 3);
  const dirty = new Uint8Array(capacity);
  const alive = new Uint8Array(capacity);
  cls.set(table.cls.subarray(0, table.size));
  pos.set(table.pos.subarray(0, table.size * 3));
  dirty.set(table.dirty.subarray(0, table.size));
  alive.set(table.alive.subarray(0, table.size));
  Object.assign(table, { cls, pos, dirty, alive });
}

// Replaces the whole table with the columns sent by the engine worker. The
// last `added` rows count as added in this session (restored unsaved work).
export function loadTable({ ids, classNames, cls, pos, dirty, names, parents }, { added = 0 } = {}) {
  const n = ids.length;
  const alive = new Uint8Array(n).fill(1);
  const rowOf = new RowIndex(ids);
  Object.assign(table, {
    size: n,
    ids,
    classNames: [...classNames],
    cls,
    pos,
    dirty,
    names,
    parents,
    alive,
    rowOf,
    deadRowOf: new Map(),
    loaded: n - added,
  });
  restartLog();
  revision.value++;
  structure.value++;
  marks.value++;
}

export function clearTable() {
  loadTable({
    ids: [],
    classNames: [],
    cls: new Uint8Array(0),
    pos: new Float32Array(0),
    dirty: new Uint8Array(0),
    names: [],
    parents: [],
  });
}

function classIndex(name) {
  let k = table.classNames.indexOf(name);
  if (k < 0) {
    k = table.classNames.length;
    table.classNames.push(name);
  }
  return k;
}

// Adds or updates the row of one entity ({ id, class, position, dirty, name,
// parent }).
export function putEntity(entity) {
  let row = table.rowOf.get(entity.id);
  const added = row === undefined;
  if (added && table.deadRowOf.has(entity.id)) {
    // An entity back from the dead (an undone delete) takes its old row.
    row = table.deadRowOf.get(entity.id);
    table.deadRowOf.delete(entity.id);
    table.rowOf.set(entity.id, row);
    table.alive[row] = 1;
  } else if (added) {
    if (table.size === table.alive.length) grow(Math.max(16, table.size * 2));
    row = table.size++;
    table.ids[row] = entity.id;
    table.rowOf.set(entity.id, row);
    table.alive[row] = 1;
  }
  table.cls[row] = classIndex(entity.class);
  table.pos[row * 3] = entity.position[0];
  table.pos[row * 3 + 1] = entity.position[1];
  table.pos[row * 3 + 2] = entity.position[2];
  const dirty = entity.dirty ? 1 : 0;
  const marked = added || table.dirty[row] !== dirty;
  table.dirty[row] = dirty;
  if (table.names[row] !== entity.name) {
    table.names[row] = entity.name;
    if (!added) renamed.value++;
  }
  if (table.parents[row] !== entity.parent) {
    table.parents[row] = entity.parent;
    reparented.value++;
  }
  changed(row);
  if (added) structure.value++;
  if (marked) marks.value++;
}

// Moves an entity's row without telling the engine (a map drag in progress).
export function previewPosition(id, position) {
  const row = table.rowOf.get(id);
  if (row === undefined) return;
  table.pos.set(position, row * 3);
  changed(row);
}

export function removeRow(id) {
  const row = table.rowOf.get(id);
  if (row === undefined) return;
  table.alive[row] = 0;
  table.rowOf.delete(id);
  table.deadRowOf.set(id, row);
  changed(row);
  structure.value++;
  marks.value++;
}

// After a save: exactly the entities in `ids` stay dirty.
export function setDirtyIds(ids) {
  table.dirty.fill(0);
  for (const id of ids) {
    const row = table.rowOf.get(id);
    if (row !== undefined) table.dirty[row] = 1;
  }
  restartLog();
  revision.value++;
  marks.value++;
}

export function rowPosition(row) {
  return [table.pos[row * 3], table.pos[row * 3 + 1], table.pos[row * 3 + 2]];
}

export function rowClass(row) {
  return table.classNames[table.cls[row]];
}

// IDs of the live entities added in this session, in the order added.
export function addedIds() {
  const out = [];
  for (let row = table.loaded; row < table.size; row++) if (table.alive[row]) out.push(table.ids[row]);
  return out;
}

export function entityAt(row) {
  return {
    id: table.ids[row],
    class: rowClass(row),
    position: rowPosition(row),
    dirty: table.dirty[row] === 1,
    name: table.names[row],
    parent: table.parents[row],
  };
}
