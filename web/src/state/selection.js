// The selection: the selected entities (several with Shift or Ctrl/Cmd on
// the list and the map, or a rubber band on the map), the primary one among
// them (the one clicked last: the inspector's when it is alone, where a
// Shift-click range starts from), the primary entity as the engine last
// sent it, and the errors shown next to the inspector's fields (and the
// world settings' fields). A single selection costs one set of one ID:
// nothing here walks the world's entities. A click on an entity in any
// view goes through takeClick first: in pick mode (state/refPick.js) it sets
// a reference instead of selecting; selecting another entity ends that mode.
import { batch, computed, signal } from '@preact/signals';
import { isNullRef } from '../lib/fields.js';
import { getEngine } from './engine.js';
import { fail } from './messages.js';
import { cancelPick, finishPick } from './refPick.js';
import { visibleRows } from './listView.js';
import { revision, table } from './table.js';
import { nameRecord } from 'juliet-world';

const NONE = new Set();

export const selectedId = signal(null); // the primary entity's ID
export const selectedIds = signal(NONE); // every selected ID (a Set, replaced on change)
export const selected = signal(null); // world.get(selectedId) or null
export const fieldErrors = signal(nameRecord()); // field key (a field's name, ...) -> message
export const selectionCount = computed(() => selectedIds.value.size);

// Where a Shift-click range starts: the entity last clicked without Shift.
let anchor = null;

export function selectionAnchor() {
  return anchor !== null && table.rowOf.has(anchor) ? anchor : selectedId.value;
}

// A click on entity `id` in the list, on the map or in the 3D view: whether
// a mode took it (pick mode set a reference to it), in which case the view
// selects nothing and starts no drag.
export function takeClick(id) {
  return finishPick(id);
}

// An entity read ahead of its selection: the pointer coming to rest on it
// in a view, or a press that may become a click on it, starts the engine's
// read, so that the inspector can show it at the release (a press lasts
// about 100 ms; the read, one frame). Kept until another is read ahead or
// the world changes.
let ahead = null; // { id, at: revision, entity: Promise }

/** The pointer resting on entity `id`, or a press on it, that may select it (null: on none). */
export function readAhead(id) {
  if (id === null || (ahead?.id === id && ahead.at === revision.peek())) return;
  const entity = getEngine().get(id);
  entity.catch(() => {}); // told when it is selected, if it is
  ahead = { id, at: revision.peek(), entity };
}

// Entity `id` from the engine, or its read ahead if the world is the same.
function readEntity(id) {
  const read = ahead?.id === id && ahead.at === revision.peek() ? ahead.entity : getEngine().get(id);
  ahead = null;
  return read;
}

// Selects entity `id` alone (null: none) and reads it from the engine; a
// read that fails shows an error, one overtaken by another selection is
// dropped.
export async function select(id) {
  anchor = id;
  if (selectedId.value === id && selectedIds.value.size === (id === null ? 0 : 1)) return;
  return setSelection(id === null ? [] : [id], id);
}

// Selects exactly `ids`, `primary` (one of them, or null) the primary.
export async function setSelection(ids, primary = ids.length ? ids[ids.length - 1] : null) {
  const changed = selectedId.value !== primary;
  batch(() => {
    selectedIds.value = ids.length ? new Set(ids) : NONE;
    if (!changed) return;
    cancelPick(); // it was for the entity shown until now
    selectedId.value = primary;
    fieldErrors.value = nameRecord();
    if (primary === null) selected.value = null;
  });
  if (primary === null || !changed) return;
  try {
    const entity = await readEntity(primary);
    if (selectedId.value === primary) selected.value = entity;
  } catch (err) {
    if (selectedId.value === primary) fail(`Could not read ${primary}`, err);
  }
}

// Ctrl/Cmd-click: adds `id` to the selection (as the primary), or takes it
// out (another selected entity becomes the primary).
export function toggleSelected(id) {
  anchor = id;
  const ids = [...selectedIds.value];
  if (!selectedIds.value.has(id)) return setSelection([...ids, id], id);
  const rest = ids.filter((x) => x !== id);
  return setSelection(rest, selectedId.value === id ? (rest[rest.length - 1] ?? null) : selectedId.value);
}

// Adds `ids` to the selection (a Shift-click range or a rubber band with
// Shift), keeping `primary` the primary.
export function addToSelection(ids, primary = selectedId.value) {
  return setSelection([...new Set([...selectedIds.value, ...ids])], primary);
}

// Ctrl/Cmd+A: selects every entity the list shows (its filter, search and
// query applied), keeping the primary one if it is among them.
export function selectAllShown() {
  const ids = Array.from(visibleRows.value, (row) => table.ids[row]);
  const keep = selectedId.value !== null && table.rowOf.has(selectedId.value) && ids.includes(selectedId.value);
  return setSelection(ids, keep ? selectedId.value : (ids[0] ?? null));
}

// A key pressed in a view of the entities (the list, the map): Ctrl/Cmd+A
// selects all shown. Whether it was that key (then nothing else is done).
export function selectAllOnKey(event) {
  if (!(event.ctrlKey || event.metaKey) || event.key.toLowerCase() !== 'a') return false;
  event.preventDefault();
  selectAllShown();
  return true;
}

// The selected entities that exist, in list order (by table row).
export function selectedLive() {
  const ids = [...selectedIds.value].filter((id) => table.rowOf.has(id));
  return ids.sort((a, b) => table.rowOf.get(a) - table.rowOf.get(b));
}

/** Table rows of the selected entities, and of the primary one (-1: none). */
export function selectedRows() {
  const rows = [];
  for (const id of selectedIds.value) {
    const row = table.rowOf.get(id);
    if (row !== undefined) rows.push(row);
  }
  return { rows, main: table.rowOf.get(selectedId.value) ?? -1 };
}

// Nothing selected and no field errors (another world was opened).
export function clearSelection() {
  anchor = null;
  cancelPick();
  batch(() => {
    selectedId.value = null;
    selectedIds.value = NONE;
    selected.value = null;
    fieldErrors.value = nameRecord();
  });
}

// Shows `message` next to the field `key`; null clears it.
export function showFieldError(key, message) {
  const next = nameRecord(fieldErrors.value);
  if (message) next[key] = message;
  else delete next[key];
  fieldErrors.value = next;
}

export function entityExists(id) {
  return !isNullRef(id) && table.rowOf.has(id);
}

// Above this many selected entities the inspector does not read their
// fields (it shows each as mixed): a read costs the engine about 20
// microseconds per entity.
export const SHARED_VALUES_LIMIT = 5000;

// What the selected entities `ids` hold in fields `names`: name -> { value,
// mixed } (value: the first one's; mixed: they differ), a nameRecord. Null
// above SHARED_VALUES_LIMIT.
export async function sharedValues(ids, names) {
  if (ids.length > SHARED_VALUES_LIMIT) return null;
  const rows = (await getEngine().values(ids, names)).filter((v) => v !== null);
  const out = nameRecord();
  names.forEach((name, k) => {
    const first = rows.length ? JSON.stringify(rows[0][k]) : undefined;
    out[name] = { value: rows[0]?.[k], mixed: rows.some((v) => JSON.stringify(v[k]) !== first) };
  });
  return out;
}
