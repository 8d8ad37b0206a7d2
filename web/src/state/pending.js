// The pending changes: exactly the files the next save will write or delete,
// and what the page must remember to list them. Dirty entities come from the
// table; this module keeps the rest: the entities created and the files to
// delete since the last save, the files a save wrote in memory but could not
// copy to the user's folder yet (unflushed), and every entity touched since
// the world was opened (what unsaved.js keeps in browser storage).
import { SETTINGS_FILE } from 'juliet-world';
import { computed, signal } from '@preact/signals';
import { SETTINGS, entityPath } from '../lib/fields.js';
import { marks, table } from './table.js';
import { settings } from './world.js';

const created = new Set(); // IDs created since the last save
const removed = new Map(); // ID -> path of files to delete at the next save
const unflushed = new Map(); // path -> { kind, id } still to copy or delete
const touched = new Set(); // IDs changed in any way since the world was opened
const pendingRevision = signal(0);
// Each entity's entry, made once: a level opened from a link has every
// entity pending, and the list is made again on every edit.
const entries = new Map(); // ID -> { kind, id, path }
function entryOf(id, kind) {
  let entry = entries.get(id);
  if (entry?.kind !== kind) entries.set(id, (entry = { kind, id, path: entry?.path ?? entityPath(id) }));
  return entry;
}

// [{ kind: 'new' | 'modified' | 'deleted', id, path }], in the order shown.
export const pending = computed(() => {
  marks.value;
  pendingRevision.value;
  const out = [];
  for (let row = 0; row < table.size; row++) {
    if (table.alive[row] && table.dirty[row]) {
      const id = table.ids[row];
      out.push(entryOf(id, created.has(id) ? 'new' : 'modified'));
    }
  }
  if (settings.value?.dirty) out.push({ kind: 'modified', id: SETTINGS, path: SETTINGS_FILE });
  for (const [id, path] of removed) out.push({ kind: 'deleted', id, path });
  if (unflushed.size) {
    const seen = new Set(out.map((e) => e.path));
    for (const [path, entry] of unflushed) {
      if (!seen.has(path)) out.push({ ...entry, path });
    }
  }
  return out;
});

// A world was opened: nothing is pending but the entities `newIds`, which
// have no files yet (every entity of a level from a link).
export function resetPending(newIds = []) {
  entries.clear();
  created.clear();
  removed.clear();
  unflushed.clear();
  touched.clear();
  for (const id of newIds) created.add(id);
  pendingRevision.value++;
}

// Unsaved work kept from an earlier session was re-applied: the entities
// created and the files to delete ([id, path]) are those it kept, and the
// entities it changed count as touched.
export function restorePending({ created: newIds, removed: files, touched: changed }) {
  created.clear();
  for (const id of newIds) created.add(id);
  removed.clear();
  for (const [id, path] of files) removed.set(id, path);
  for (const id of changed) touched.add(id);
  pendingRevision.value++;
}

// Entity (or SETTINGS) `id` was changed: its text goes into the kept work.
export function noteTouched(id) {
  touched.add(id);
}

// Entity `id` came into being (added, or back from a delete by undo): a new
// file, or one no longer to delete.
export function noteAdded(id) {
  if (removed.has(id)) removed.delete(id);
  else created.add(id);
  pendingRevision.value++;
}

// Entity `id` is gone (deleted, or an add undone): its file is to delete,
// unless it never had one.
export function noteRemoved(id) {
  if (created.has(id)) created.delete(id);
  else removed.set(id, entityPath(id));
  pendingRevision.value++;
}

// The files of entities `ids` (or SETTINGS) now hold what the page shows
// (saved by the local server, or reloaded from disk): none of them is new
// or to delete any more.
export function noteOnDisk(ids) {
  for (const id of ids) {
    created.delete(id);
    removed.delete(id);
  }
  pendingRevision.value++;
}

export const touchedIds = () => [...touched];
export const createdIds = () => [...created];

// After the engine saved into its in-memory copy of the world (`before`:
// the pending list then; `report`: the worker's save answer): what it wrote
// or deleted stays pending (unflushed) until it reaches the user's folder,
// created entities written and files deleted are no longer pending. Returns
// the earlier unflushed paths this save did not write again, to copy too.
export function noteEngineSaved(before, report) {
  const kindOf = new Map(before.map((entry) => [entry.path, entry]));
  const writtenPaths = new Set(report.files.map((f) => f.path));
  const deletions = report.deleted;
  for (const path of writtenPaths) unflushed.set(path, kindOf.get(path) ?? { kind: 'modified', id: null });
  for (const path of deletions) unflushed.set(path, kindOf.get(path) ?? { kind: 'deleted', id: null });
  const stale = [...unflushed.keys()].filter((p) => !writtenPaths.has(p) && !deletions.includes(p));
  const stillDirty = new Set(report.stillDirty);
  for (const id of [...created]) if (!stillDirty.has(id)) created.delete(id);
  for (const path of deletions) {
    for (const [id, p] of removed) if (p === path) removed.delete(id);
  }
  if (!report.failure) removed.clear();
  pendingRevision.value++;
  return {
    staleWrites: stale.filter((p) => unflushed.get(p).kind !== 'deleted'),
    staleDeletes: stale.filter((p) => unflushed.get(p).kind === 'deleted'),
  };
}

// The saved files reached the user's folder (or the download): `done`
// paths of them, every one if `done` is null. Returns the IDs of entities
// whose files are still to copy.
export function noteFlushed(done = null) {
  if (done === null) unflushed.clear();
  else for (const path of done) unflushed.delete(path);
  pendingRevision.value++;
  const ids = [];
  for (const entry of unflushed.values()) if (entry.id && entry.kind !== 'deleted') ids.push(entry.id);
  return ids;
}
