// The world model: which world is open, the selected entity, pending
// changes, diagnostics and messages, and the named actions that change them
// (open, select, edit, move, add, delete, save). Every engine call goes
// through here; components only read signals and call actions.
import { batch, computed, signal } from '@preact/signals';
import { createEngine } from '../engine/client.js';
import { SETTINGS, SETTINGS_PATH, entityPath, isNullRef, sameBytes } from '../lib/fields.js';
import {
  canPickFolder,
  downloadChanges,
  ensureWritable,
  pickFolder,
  readFolderHandle,
  readUploadedFiles,
  writeToFolder,
} from './folders.js';
import { clearHistory, record } from './history.js';
import { forgetKept, keepSoon, restoreKept } from './keep.js';
import { endProgress, reportProgress } from './progress.js';
import {
  clearTable,
  loadTable,
  setDirtyIds,
  previewPosition,
  putEntity,
  removeRow,
  addedIds,
  revision,
  rowPosition,
  table,
} from './table.js';

export const status = signal('empty'); // 'empty' | 'opening' | 'ready' | 'saving'
export const worldName = signal('');
// { kind: 'sample' | 'folder' | 'upload' | 'link', key, handle?, text? }: key
// names the world for the unsaved work kept in browser storage (keep.js).
export const source = signal(null);
export const schemas = signal({}); // class name -> [{ name, type, default, ... }]
export const classNames = computed(() => Object.keys(schemas.value));
export const diagnostics = signal([]);
export const errorMessage = signal(null); // the last failure, shown as an alert
export const notice = signal(null); // the last success (e.g. the save report)
export const saveReport = signal(null); // { written, deleted, target }

// The world settings: { fields, dirty, readOnly, failed } (world.settings())
// and their fields [{ name, type, default, ... }].
export const settings = signal(null);
export const settingsSchema = signal([]);

export const selectedId = signal(null);
export const selected = signal(null); // world.get(selectedId) or null
export const fieldErrors = signal({}); // field key -> message, for the selection

export const busy = computed(() => status.value === 'opening' || status.value === 'saving');

// Pending changes since the last save: entities created, removed, and files
// that a save wrote in memory but could not copy to the user's folder.
const created = new Set(); // IDs created since the last save
const removed = new Map(); // ID -> path of files to delete at the next save
const unflushed = new Map(); // path -> { kind, id } still to copy or delete
const touched = new Set(); // IDs changed in any way since the world was opened
const pendingRevision = signal(0);

export const pending = computed(() => {
  revision.value;
  pendingRevision.value;
  const out = [];
  const seen = new Set();
  for (let row = 0; row < table.size; row++) {
    if (!table.alive[row] || !table.dirty[row]) continue;
    const id = table.ids[row];
    const path = entityPath(id);
    out.push({ kind: created.has(id) ? 'new' : 'modified', id, path });
    seen.add(path);
  }
  if (settings.value?.dirty) {
    out.push({ kind: 'modified', id: SETTINGS, path: SETTINGS_PATH });
    seen.add(SETTINGS_PATH);
  }
  for (const [id, path] of removed) {
    out.push({ kind: 'deleted', id, path });
    seen.add(path);
  }
  for (const [path, entry] of unflushed) {
    if (!seen.has(path)) out.push({ ...entry, path });
  }
  return out;
});

let engine = null;
function getEngine() {
  engine ??= createEngine({
    onProgress: ({ label, done, total }) => reportProgress(label, done, total),
  });
  return engine;
}

function fail(message, err) {
  errorMessage.value = err ? `${message}: ${err.message ?? err}` : message;
}

// Asks before dropping unsaved changes; dropped changes are dropped from
// browser storage too.
function confirmDiscard() {
  if (pending.value.length === 0) return true;
  if (!window.confirm('Discard the unsaved changes of this world?')) return false;
  forgetKept(source.value?.key);
  return true;
}

// Opens a world from [{ path, bytes | file }].
// Marks the moment the user's choice reaches the app (for measurements).
function markOpenStart() {
  performance.clearMarks('juliet:open-start');
  performance.clearMarks('juliet:open-shown');
  performance.mark('juliet:open-start');
}

async function openFiles(name, files, origin) {
  reportProgress('Reading files', 0, files.length);
  await openWith(name, origin, () => getEngine().open(files));
}

// Opens the world that `load` makes the engine open, and shows it. If it
// fails, the engine still has the world it had when `keepOnFailure`.
async function openWith(name, origin, load, { keepOnFailure = false } = {}) {
  const previous = status.value;
  batch(() => {
    status.value = 'opening';
    errorMessage.value = null;
    notice.value = null;
  });
  try {
    const result = await load();
    result.timings.engineMs = performance.now() - performance.getEntriesByName('juliet:open-start')[0].startTime;
    const shownAt = performance.now();
    batch(() => {
      created.clear();
      removed.clear();
      unflushed.clear();
      touched.clear();
      clearHistory();
      // A world from a link has no files yet: every entity is new.
      if (origin.kind === 'link') for (const id of result.table.ids) created.add(id);
      pendingRevision.value++;
      loadTable(result.table);
      schemas.value = result.schemas;
      settings.value = result.settings;
      settingsSchema.value = result.settingsSchema;
      diagnostics.value = result.diagnostics;
      worldName.value = name;
      source.value = origin;
      selectedId.value = null;
      selected.value = null;
      fieldErrors.value = {};
      saveReport.value = null;
      status.value = 'ready';
      notice.value = `Opened ${name}: ${table.size.toLocaleString('en')} entities`;
    });
    result.timings.applyMs = performance.now() - shownAt;
    requestAnimationFrame(() => performance.mark('juliet:open-shown', { detail: result.timings }));
    await restoreKept(origin.key);
    return true;
  } catch (err) {
    if (keepOnFailure) {
      status.value = previous === 'ready' ? 'ready' : 'empty';
    } else {
      batch(() => {
        clearTable();
        status.value = 'empty';
        worldName.value = '';
        source.value = null;
        selectedId.value = null;
        selected.value = null;
        settings.value = null;
        diagnostics.value = [];
      });
    }
    fail(`Could not open ${name}`, err);
    return false;
  } finally {
    endProgress();
  }
}

// Opens a shared level: a link (or its part after '#') or the text of a
// snapshot file. It becomes a new world with no folder: Save asks for one.
export async function openSnapshotText(text, name = 'the shared link') {
  if (busy.value || !confirmDiscard()) return false;
  markOpenStart();
  reportProgress('Opening the shared level', 0, 0);
  const origin = { kind: 'link', key: `link:${textKey(text)}`, text };
  return openWith(name, origin, () => getEngine().openSnapshot(text), { keepOnFailure: true });
}

// The current world (unsaved edits included) as snapshot text.
export function snapshotText() {
  return getEngine().snapshot();
}

export async function openSample() {
  if (busy.value || !confirmDiscard()) return;
  markOpenStart();
  const { default: sample } = await import('virtual:sample-world');
  const files = sample.files.map(({ path, base64 }) => ({
    path,
    bytes: Uint8Array.from(atob(base64), (c) => c.charCodeAt(0)),
  }));
  await openFiles(sample.name, files, { kind: 'sample', key: 'sample' });
}

// Opens a folder through the File System Access API, so Save writes back.
// Returns false when the browser has no folder picker.
export async function openFolder() {
  if (busy.value || !canPickFolder()) return false;
  if (!confirmDiscard()) return true;
  let handle;
  try {
    handle = await pickFolder();
  } catch (err) {
    if (err?.name !== 'AbortError') fail('Could not open the folder', err);
    return true;
  }
  await openFolderHandle(handle);
  return true;
}

// Opens a folder from a directory handle (picked, or kept from an earlier
// session with its permission granted again).
export async function openFolderHandle(handle) {
  try {
    markOpenStart();
    reportProgress('Listing files', 0, 0);
    const files = await readFolderHandle(handle);
    await openFiles(handle.name, files, { kind: 'folder', key: `folder:${handle.name}`, handle });
  } catch (err) {
    endProgress();
    fail(`Could not read the folder "${handle.name}"`, err);
  }
}

// Opens the files of an <input type=file webkitdirectory>.
export async function openUpload(fileList) {
  if (busy.value || !confirmDiscard()) return;
  markOpenStart();
  status.value = 'opening';
  const { name, files } = await readUploadedFiles(fileList);
  status.value = table.size ? 'ready' : 'empty';
  await openFiles(name, files, { kind: 'upload', key: `upload:${name}` });
}

// A short fingerprint of a shared level's text (53-bit cyrb53 hash).
function textKey(text) {
  let h1 = 0xdeadbeef;
  let h2 = 0x41c6ce57;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    h1 = Math.imul(h1 ^ c, 2654435761);
    h2 = Math.imul(h2 ^ c, 1597334677);
  }
  h1 = Math.imul(h1 ^ (h1 >>> 16), 2246822507) ^ Math.imul(h2 ^ (h2 >>> 13), 3266489909);
  h2 = Math.imul(h2 ^ (h2 >>> 16), 2246822507) ^ Math.imul(h1 ^ (h1 >>> 13), 3266489909);
  return (4294967296 * (2097151 & h2) + (h1 >>> 0)).toString(36) + `.${text.length}`;
}

// Selection and edits.

export async function select(id) {
  if (selectedId.value === id) return;
  batch(() => {
    selectedId.value = id;
    fieldErrors.value = {};
    if (id === null) selected.value = null;
  });
  if (id === null) return;
  try {
    const entity = await getEngine().get(id);
    if (selectedId.value === id) selected.value = entity;
  } catch (err) {
    if (selectedId.value === id) fail(`Could not read ${id}`, err);
  }
}

function applyEntity(entity) {
  batch(() => {
    putEntity(entity);
    if (selectedId.value === entity.id) selected.value = entity;
  });
}

function setFieldError(key, message) {
  const next = { ...fieldErrors.value };
  if (message) next[key] = message;
  else delete next[key];
  fieldErrors.value = next;
}

export function showFieldError(key, message) {
  setFieldError(key, message);
}

// Sets one field (or 'position') of the selected entity to a value already
// checked by lib/fields.js. `key` names where an error is shown.
export async function setField(field, value, key = field) {
  const id = selectedId.value;
  if (id === null || busy.value) return;
  // A new position shows in the list and on the map at once (it passed the
  // checks of lib/fields.js); the engine's answer confirms or undoes it.
  const row = table.rowOf.get(id);
  const before = field === 'position' && row !== undefined ? rowPosition(row) : null;
  if (before) previewPosition(id, value);
  try {
    const change = await getEngine().set(id, field, value);
    applyEntity(change.entity);
    if (selectedId.value === id) setFieldError(key, null);
    changed(id, field, change);
  } catch (err) {
    if (before) previewPosition(id, before);
    if (selectedId.value === id) setFieldError(key, err.message);
  }
}

// Sets one world setting to a value already checked by lib/fields.js.
// `errorKey` names where an error is shown.
export async function setSetting(field, value, errorKey = `${SETTINGS}.${field}`) {
  if (status.value !== 'ready') return;
  try {
    const change = await getEngine().setSetting(field, value);
    batch(() => {
      settings.value = change.settings;
      setFieldError(errorKey, null);
    });
    changed(SETTINGS, field, change);
  } catch (err) {
    setFieldError(errorKey, err.message);
  }
}

// After an edit went through: one undo step, and the work kept in storage.
function changed(id, label, { before, after }) {
  touched.add(id);
  if (!sameBytes(before, after)) record({ id, label, before, after });
  keepSoon();
}

// Undo and redo: makes entity `id` be `text` again (null: deleted), with the
// pending changes following (an entity back at its saved text is clean, one
// back from a delete is no longer deleted), and selects it so the change is
// in view. Returns false (with the error shown) if the engine refused.
export async function restoreEntity(id, text, what) {
  if (id === SETTINGS) return restoreSettings(text, what);
  const wasAlive = table.rowOf.has(id);
  try {
    const { entity } = await getEngine().restore(id, text);
    touched.add(id);
    const row = table.rowOf.get(id);
    batch(() => {
      if (entity) {
        if (!wasAlive) {
          if (removed.has(id)) removed.delete(id);
          else created.add(id);
        }
        applyEntity(entity);
      } else if (wasAlive) {
        if (created.has(id)) created.delete(id);
        else removed.set(id, entityPath(id));
        removeRow(id);
      }
      pendingRevision.value++;
      notice.value = what;
    });
    if (entity) await select(id);
    else if (selectedId.value === id) await select(nextAlive(row));
    keepSoon();
    return true;
  } catch (err) {
    fail(`Could not restore ${id}`, err);
    return false;
  }
}

async function restoreSettings(text, what) {
  try {
    const result = await getEngine().restore(SETTINGS, text);
    batch(() => {
      settings.value = result.settings;
      notice.value = what;
    });
    keepSoon();
    return true;
  } catch (err) {
    fail('Could not restore the world settings', err);
    return false;
  }
}

export function setPositionAxis(axis, value) {
  const entity = selected.value;
  if (!entity) return;
  const position = [...entity.position];
  position[axis] = value;
  return setField('position', position, `position.${axis}`);
}

// Commits a map drag; `from` is where the entity was before it.
export async function moveEntity(id, position, from) {
  try {
    const change = await getEngine().set(id, 'position', position);
    applyEntity(change.entity);
    changed(id, 'position', change);
  } catch (err) {
    putEntity({ ...entityOf(id), position: from });
    fail(`Could not move ${id}`, err);
  }
}

function entityOf(id) {
  const row = table.rowOf.get(id);
  return {
    id,
    class: table.classNames[table.cls[row]],
    position: [table.pos[row * 3], table.pos[row * 3 + 1], table.pos[row * 3 + 2]],
    dirty: table.dirty[row] === 1,
  };
}

export async function addEntity(className, position) {
  if (busy.value) return;
  try {
    const change = await getEngine().create(className, position);
    const { entity } = change;
    created.add(entity.id);
    applyEntity(entity);
    pendingRevision.value++;
    changed(entity.id, 'add', change);
    await select(entity.id);
    notice.value = `Added ${className} ${entity.id}`;
  } catch (err) {
    fail(`Could not add a ${className}`, err);
  }
}

export async function deleteEntity(id = selectedId.value) {
  if (id === null || busy.value) return;
  try {
    const change = await getEngine().remove(id);
    const row = table.rowOf.get(id);
    batch(() => {
      if (created.has(id)) created.delete(id);
      else removed.set(id, entityPath(id));
      pendingRevision.value++;
      removeRow(id);
      notice.value = `Deleted ${id}`;
    });
    changed(id, 'delete', change);
    await select(nextAlive(row));
  } catch (err) {
    fail(`Could not delete ${id}`, err);
  }
}

function nextAlive(row) {
  for (let r = row + 1; r < table.size; r++) if (table.alive[r]) return table.ids[r];
  for (let r = row - 1; r >= 0; r--) if (table.alive[r]) return table.ids[r];
  return null;
}

export function entityExists(id) {
  return !isNullRef(id) && table.rowOf.has(id);
}

// Save: writes exactly the pending changes. The engine saves into its
// in-memory copy of the world; the written files are then copied into the
// user's folder (or offered as a download). Whatever could not be copied
// stays pending, with the reason shown.
export async function save() {
  if (status.value !== 'ready') return;
  const before = pending.value;
  if (before.length === 0) {
    notice.value = 'Nothing to save';
    return;
  }
  // A world from a link has no folder yet: ask for one (or download it all).
  let newFolder = null;
  if (source.value.kind === 'link' && canPickFolder()) {
    try {
      newFolder = await pickFolder();
    } catch (err) {
      if (err?.name !== 'AbortError') fail('Could not open the folder', err);
      else notice.value = 'Choose a folder to save the shared level into';
      return;
    }
  }
  // Ask for write access while the click that asked to save still counts
  // as the user's gesture.
  if (source.value.kind === 'folder') {
    try {
      await ensureWritable(source.value.handle);
    } catch (err) {
      fail('Save failed, nothing was written', err);
      return;
    }
  }
  batch(() => {
    status.value = 'saving';
    errorMessage.value = null;
    notice.value = null;
  });
  reportProgress('Saving', 0, before.length);
  let report;
  try {
    report = await getEngine().save();
  } catch (err) {
    status.value = 'ready';
    endProgress();
    fail('Save failed, nothing was written', err);
    return;
  }
  // What the engine wrote into its in-memory copy stays pending (unflushed)
  // until it reaches the user's folder.
  const kindOf = new Map(before.map((entry) => [entry.path, entry]));
  const files = report.files;
  const writtenPaths = new Set(files.map((f) => f.path));
  const deletions = report.deleted;
  for (const path of writtenPaths) unflushed.set(path, kindOf.get(path) ?? { kind: 'modified', id: null });
  for (const path of deletions) unflushed.set(path, kindOf.get(path) ?? { kind: 'deleted', id: null });
  const stale = [...unflushed.keys()].filter((p) => !writtenPaths.has(p) && !deletions.includes(p));
  const staleWrites = stale.filter((p) => unflushed.get(p).kind !== 'deleted');
  const staleDeletes = stale.filter((p) => unflushed.get(p).kind === 'deleted');
  const stillDirty = new Set(report.stillDirty);
  batch(() => {
    for (const id of [...created]) if (!stillDirty.has(id)) created.delete(id);
    for (const path of deletions) {
      for (const [id, p] of removed) if (p === path) removed.delete(id);
    }
    if (!report.failure) removed.clear();
    setDirtyIds(report.stillDirty);
    settings.value = report.settings;
    pendingRevision.value++;
    const entity = selected.value;
    if (entity) selected.value = { ...entity, dirty: stillDirty.has(entity.id) };
  });
  try {
    if (staleWrites.length) files.push(...(await getEngine().read(staleWrites)));
    const allDeletes = [...deletions, ...staleDeletes];
    if (newFolder) source.value = { kind: 'folder', key: `folder:${newFolder.name}`, handle: newFolder };
    else if (source.value.kind === 'link') source.value = { kind: 'upload', key: `upload:${worldName.value}` };
    const src = source.value;
    let target;
    if (files.length === 0 && allDeletes.length === 0) {
      target = null;
    } else if (src.kind === 'folder') {
      await ensureWritable(src.handle);
      await writeToFolder(src.handle, files, allDeletes);
      target = `the folder "${src.handle.name}"`;
    } else {
      target = `the download ${downloadChanges(worldName.value, files, allDeletes)}`;
    }
    unflushed.clear();
    const written = files.map((f) => f.path);
    batch(() => {
      pendingRevision.value++;
      saveReport.value = { written, deleted: allDeletes, target };
      if (report.failure) {
        fail(`Save failed for some files, ${plural(pending.value.length, 'change')} still pending`, report.failure);
      } else {
        notice.value = `Saved ${plural(written.length, 'file')} and deleted ${plural(allDeletes.length, 'file')}${target ? ` in ${target}` : ''}`;
      }
    });
  } catch (err) {
    for (const path of err.done ?? []) unflushed.delete(path);
    // Entities whose files did not reach the folder still show as unsaved.
    const unsaved = [...report.stillDirty];
    for (const entry of unflushed.values()) if (entry.id && entry.kind !== 'deleted') unsaved.push(entry.id);
    setDirtyIds(unsaved);
    pendingRevision.value++;
    fail(`Save failed, ${plural(pending.value.length, 'change')} still pending`, err);
  } finally {
    status.value = 'ready';
    endProgress();
    keepSoon();
  }
}

function plural(n, word) {
  return `${n} ${word}${n === 1 ? '' : 's'}`;
}

// What keep.js stores of the open world's unsaved work: every entity
// changed since the world was opened ([id, text or null, dirty]), the
// entities created (for a world with files) and the files to delete, in the
// order the pending list shows them.
export async function unsavedWork() {
  const ids = [...touched];
  const texts = ids.length ? await getEngine().texts(ids) : [];
  const changes = ids.map((id, i) => {
    if (id === SETTINGS) return [id, texts[i], settings.value.dirty];
    const row = table.rowOf.get(id);
    return [id, texts[i], row !== undefined && table.dirty[row] === 1];
  });
  const list = pending.value;
  return {
    changes,
    created: source.value.kind === 'link' ? null : [...created],
    removed: list.filter((e) => e.kind === 'deleted' && e.id).map((e) => [e.id, e.path]),
    added: addedIds(),
    count: list.length,
  };
}

// Re-applies work kept by unsavedWork() to the world just opened.
export async function applyUnsavedWork(work) {
  const result = await getEngine().applyChanges(work.changes, work.added);
  batch(() => {
    loadTable(result.table, { added: work.added.filter((id) => result.table.ids.includes(id)).length });
    created.clear();
    if (work.created === null) for (const id of table.ids) created.add(id);
    else for (const id of work.created) if (table.rowOf.has(id)) created.add(id);
    removed.clear();
    for (const [id, path] of work.removed) if (!table.rowOf.has(id)) removed.set(id, path);
    for (const [id] of work.changes) touched.add(id);
    settings.value = result.settings;
    pendingRevision.value++;
    diagnostics.value = result.diagnostics;
    selectedId.value = null;
    selected.value = null;
  });
  return result.failed;
}

export function dismissError() {
  errorMessage.value = null;
}
