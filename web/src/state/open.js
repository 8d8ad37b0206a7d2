// Opening a world: the bundled sample, a folder (picked, kept from an
// earlier session, or uploaded), a shared level (a link or snapshot text) or
// the world directory the local server serves.
// The world shown is replaced only once the engine has opened the new one;
// then the 'opened' event lets the history and the kept work follow.
import { batch } from '@preact/signals';
import { clearConflicts } from './conflicts.js';
import { resetDiskFiles } from './diskFiles.js';
import { getEngine } from './engine.js';
import { emit } from './events.js';
import { canPickFolder, pickFolder, readFolderHandle, readUploadedFiles } from './folders.js';
import { startLiveReload, stopLiveReload } from './liveReload.js';
import { errorMessage, fail, notice } from './messages.js';
import { pending, resetPending } from './pending.js';
import { endProgress, reportProgress } from './progress.js';
import { saveReport } from './save.js';
import { clearSelection } from './selection.js';
import { worldRequest } from './server.js';
import { brokenLink, clearLinkProblem } from './share.js';
import { clearTable, loadTable, table } from './table.js';
import { busy, diagnostics, opaqueClasses, schemas, settings, settingsSchema, source, status, worldName } from './world.js';
import { nameRecord } from 'juliet-world';

// Asks before dropping unsaved changes; dropped changes are dropped from
// browser storage too.
function confirmDiscard() {
  if (pending.value.length === 0) return true;
  if (!globalThis.confirm('Discard the unsaved changes of this world?')) return false;
  emit('discarded', { key: source.value?.key });
  return true;
}

// Marks the moment the user's choice reaches the app (for measurements).
function markOpenStart() {
  performance.clearMarks('juliet:open-start');
  performance.clearMarks('juliet:open-shown');
  performance.mark('juliet:open-start');
}

// Opens a world from [{ path, bytes | file }]; `timings` of the work before
// (listing a folder) go with the engine's into the 'juliet:open-shown' mark.
async function openFiles(name, files, origin, timings = {}) {
  reportProgress('Reading files', 0, files.length);
  await openWith(name, origin, async () => {
    const result = await getEngine().open(files);
    Object.assign(result.timings, timings);
    return result;
  });
}

// Opens the world that `load` makes the engine open, and shows it under
// `name` (or the name the engine's answer carries). If it fails, the engine
// still has the world it had when `keepOnFailure`.
async function openWith(name, origin, load, { keepOnFailure = false } = {}) {
  const previous = status.value;
  batch(() => {
    status.value = 'opening';
    errorMessage.value = null;
    notice.value = null;
    clearLinkProblem();
  });
  try {
    const result = await load();
    name = result.name ?? name;
    result.timings.engineMs = performance.now() - performance.getEntriesByName('juliet:open-start')[0].startTime;
    const shownAt = performance.now();
    // Only the served world follows the disk.
    if (origin.kind !== 'server') stopLiveReload();
    batch(() => {
      clearConflicts();
      // A world from a link has no files yet: every entity is new.
      resetPending(origin.kind === 'link' ? result.table.ids : []);
      loadTable(result.table);
      schemas.value = nameRecord(result.schemas);
      settings.value = result.settings;
      settingsSchema.value = result.settingsSchema;
      diagnostics.value = result.diagnostics;
      opaqueClasses.value = result.opaqueClasses;
      worldName.value = name;
      source.value = origin;
      clearSelection();
      saveReport.value = null;
    });
    result.timings.applyMs = performance.now() - shownAt;
    // The frame that shows it (none outside a page).
    globalThis.requestAnimationFrame?.(() => performance.mark('juliet:open-shown', { detail: result.timings }));
    // Still opening while the listeners re-apply kept work: an edit made
    // before that ends would be lost under the table it reloads (or its
    // own kept copy applied again, with the selection cleared).
    await emit('opened', { key: origin.key });
    batch(() => {
      status.value = 'ready';
      notice.value = `Opened ${name}: ${table.size.toLocaleString('en')} entities`;
    });
    return true;
  } catch (err) {
    if (keepOnFailure) {
      status.value = previous === 'ready' ? 'ready' : 'empty';
    } else {
      stopLiveReload();
      batch(() => {
        clearConflicts();
        clearTable();
        status.value = 'empty';
        worldName.value = '';
        source.value = null;
        clearSelection();
        settings.value = null;
        diagnostics.value = [];
        opaqueClasses.value = [];
      });
    }
    // A shared level's problem in plain words (also in Diagnostics).
    fail(`Could not open ${name}`, origin.kind === 'link' ? { message: brokenLink(err) } : err);
    return false;
  } finally {
    endProgress();
  }
}

// Opens the world directory the local server serves (the page was opened
// at the address it printed): every file in one pack, read by the engine as
// it downloads, then the changes on disk as they come. Its unsaved work is
// not kept in browser storage (no key): restored over files changed since,
// it would overwrite them.
export async function openServerWorld() {
  if (busy.value || !confirmDiscard()) return false;
  markOpenStart();
  reportProgress('Reading the world', 0, 0);
  let index = null;
  const opened = await openWith('the served world', { kind: 'server', key: null }, async () => {
    const result = await getEngine().openServed(worldRequest());
    index = result.index;
    result.name = index.meta.name;
    return result;
  });
  if (opened) {
    resetDiskFiles(index.pathBytes, index.seqs, index.meta.seq);
    startLiveReload();
  }
  return opened;
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
    const listed = performance.now();
    const files = await readFolderHandle(handle);
    const listMs = performance.now() - listed;
    await openFiles(handle.name, files, { kind: 'folder', key: `folder:${handle.name}`, handle }, { listMs });
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

/** Opens a world from files already read, [{ path, bytes }] (paths relative
 * to its folder), as an upload: Save asks for a folder. */
export async function openWorldFiles(name, files) {
  if (busy.value || !confirmDiscard()) return;
  markOpenStart();
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
