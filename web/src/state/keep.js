// Unsaved work kept in browser storage (IndexedDB), so that a reload or a
// crash of the tab loses nothing. After every change (debounced) the open
// world's unsaved work is stored under the world's key ('sample', 'link:…',
// 'folder:NAME', 'upload:NAME'): the text of every entity changed since the
// world was opened, the created entities and the files to delete, and the
// undo history that goes with them. Opening a world that has work kept
// re-applies it (and its history), with a notice that it is not saved;
// a save that leaves nothing pending clears it. At start-up the last world
// with kept work is reopened by itself when it can be (the sample, a shared
// level, a folder whose permission still stands); otherwise a banner offers
// to reconnect the folder or upload it again. A storage failure (quota) is
// reported as an error, never ignored.
import { computed, signal } from '@preact/signals';
import { historyToKeep, restoreHistory } from './history.js';
import { errorMessage } from './messages.js';
import { openFolder, openFolderHandle, openSample, openSnapshotText } from './open.js';
import { pending } from './pending.js';
import { applyUnsavedWork, unsavedWork } from './unsaved.js';
import { source, status, worldName } from './world.js';

const DB_NAME = 'juliet-inspector';
const WORK = 'work'; // key -> record of unsaved work
const LEVELS = 'levels'; // key -> text of a shared level (what the work applies to)
const DELAY = 250;

export const keptState = signal(null); // null | 'saving' | 'kept' | 'failed'
export const restored = signal(null); // { name, savedAt }: the open world carries restored work
export const offered = signal([]); // kept records of other worlds: [{ key, name, kind, count, savedAt, handle }]
export const otherWork = computed(() => offered.value.filter((r) => r.key !== source.value?.key));
export const restoredShown = computed(() => (restored.value && pending.value.length > 0 ? restored.value : null));

let dbPromise = null;
function openDb() {
  dbPromise ??= new Promise((resolve, reject) => {
    const request = indexedDB.open(DB_NAME, 1);
    request.onupgradeneeded = () => {
      request.result.createObjectStore(WORK, { keyPath: 'key' });
      request.result.createObjectStore(LEVELS);
    };
    request.onsuccess = () => resolve(request.result);
    request.onerror = () => reject(request.error);
    request.onblocked = () => reject(new Error('the browser storage is held by another tab'));
  }).catch((err) => {
    dbPromise = null;
    throw err;
  });
  return dbPromise;
}

// Runs fn(stores) in one transaction; resolves with what fn returned (or
// its request's result) once the transaction has committed.
async function transact(names, mode, fn) {
  const db = await openDb();
  return new Promise((resolve, reject) => {
    let tx;
    let out;
    try {
      tx = db.transaction(names, mode);
      out = fn(...names.map((n) => tx.objectStore(n)));
    } catch (err) {
      tx?.abort();
      reject(err);
      return;
    }
    tx.oncomplete = () => resolve(out instanceof IDBRequest ? out.result : out);
    tx.onerror = (event) => event.preventDefault();
    tx.onabort = () => reject(tx.error ?? new Error('the browser storage transaction was aborted'));
  });
}

const getRecord = (key) => transact([WORK], 'readonly', (work) => work.get(key));
const allRecords = () => transact([WORK], 'readonly', (work) => work.getAll());
const getLevel = (key) => transact([LEVELS], 'readonly', (levels) => levels.get(key));

function dropRecord(key) {
  return transact([WORK, LEVELS], 'readwrite', (work, levels) => {
    work.delete(key);
    levels.delete(key);
  });
}

// Stores a record; a folder's handle goes with it where the browser can
// store handles (it then reconnects without a folder picker).
function putRecord(record, handle, levelText) {
  return transact([WORK, LEVELS], 'readwrite', (work, levels) => {
    try {
      work.put({ ...record, handle });
    } catch (err) {
      if (err?.name !== 'DataCloneError') throw err;
      work.put({ ...record, handle: null });
    }
    if (levelText !== null) levels.put(levelText, record.key);
  });
}

function reportFailure(what, err) {
  keptState.value = 'failed';
  errorMessage.value = `${what}: ${err?.name ?? 'Error'}: ${err?.message ?? err}`;
}

let timer = null;
let queue = Promise.resolve();
let openedKey = null; // the key the open world had when it was opened
const levelsKept = new Set();

// After every change (the 'edited', 'restored' and 'saved' events): stores
// the unsaved work a moment later.
export function keepSoon() {
  const key = source.value?.key;
  if (!key) return;
  keptState.value = 'saving';
  clearTimeout(timer);
  timer = setTimeout(() => {
    timer = null;
    queue = queue.then(() => keepNow(key));
  }, DELAY);
}

// Stores at once what is waiting (the page is being hidden or closed).
export function keepNowIfWaiting() {
  if (timer === null) return;
  clearTimeout(timer);
  timer = null;
  const key = source.value?.key;
  queue = queue.then(() => keepNow(key));
}

async function keepNow(key) {
  const src = source.value;
  // Another world opened since this was scheduled: its work is its own.
  if (!src?.key || src.key !== key) return;
  if (status.value !== 'ready') {
    keepSoon();
    return;
  }
  try {
    const work = await unsavedWork();
    // A saved level from a link now lives in a folder: its old key goes.
    if (openedKey && openedKey !== src.key) {
      await dropRecord(openedKey);
      openedKey = src.key;
    }
    if (work.count === 0) {
      await dropRecord(src.key);
      keptState.value = null;
      restored.value = null;
      return;
    }
    const level = src.kind === 'link' && !levelsKept.has(src.key) ? src.text : null;
    const record = {
      key: src.key,
      name: worldName.value,
      kind: src.kind,
      savedAt: Date.now(),
      ...work,
      history: historyToKeep(),
    };
    await putRecord(record, src.kind === 'folder' ? src.handle : null, level);
    if (level !== null) levelsKept.add(src.key);
    if (timer === null) keptState.value = 'kept';
  } catch (err) {
    reportFailure('Unsaved changes could not be kept in browser storage, save them to keep them', err);
  }
}

// Forgets the kept work of a world (its changes were discarded: the
// 'discarded' event, or the banner's Discard).
export function forgetKept(key) {
  if (!key) return;
  clearTimeout(timer);
  timer = null;
  restored.value = null;
  keptState.value = null;
  offered.value = offered.value.filter((r) => r.key !== key);
  queue = queue.then(() => dropRecord(key).catch((err) => reportFailure('Could not clear the browser storage', err)));
}

// After a world opened (the 'opened' event): re-applies the work kept for
// it, if any.
export async function restoreKept(key) {
  clearTimeout(timer);
  timer = null;
  openedKey = key ?? null;
  restored.value = null;
  keptState.value = null;
  if (!key) return;
  try {
    await queue;
    const record = await getRecord(key);
    offered.value = offered.value.filter((r) => r.key !== key);
    if (!record) return;
    const failed = await applyUnsavedWork(record);
    // The history fits the work only when all of it came back.
    if (failed.length === 0 && record.history) restoreHistory(record.history);
    restored.value = { name: record.name, savedAt: record.savedAt };
    keptState.value = 'kept';
    if (failed.length) {
      errorMessage.value = `${failed.length} kept change(s) could not be restored: ${failed[0].id}: ${failed[0].message}`;
    }
  } catch (err) {
    reportFailure('Unsaved changes kept in this browser could not be restored', err);
  }
}

// Start-up: opens the shared level in the address, else the last world
// with unsaved work when it can reopen by itself, else the sample (unless
// `openNone`). Work that waits for the user (a folder to reconnect or to
// upload again) is offered in a banner instead.
export async function startUp({ link, openNone }) {
  let records = [];
  try {
    records = (await allRecords()).sort((a, b) => b.savedAt - a.savedAt);
  } catch (err) {
    reportFailure('Unsaved changes kept in this browser could not be read', err);
  }
  offered.value = records.map(summary);
  if (link) {
    await openSnapshotText(link);
    return;
  }
  const latest = records[0];
  if (latest && !openNone) {
    if (latest.kind === 'sample') return openSample();
    if (latest.kind === 'link') {
      const text = await getLevel(latest.key).catch(() => undefined);
      if (text) return openSnapshotText(text, latest.name);
    }
    if (latest.kind === 'folder' && latest.handle && (await permission(latest.handle, false)) === 'granted') {
      return openFolderHandle(latest.handle);
    }
    return; // the banner offers it
  }
  if (!openNone) await openSample();
}

function summary(record) {
  return {
    key: record.key,
    name: record.name,
    kind: record.kind,
    count: record.count,
    savedAt: record.savedAt,
    handle: record.handle ?? null,
  };
}

async function permission(handle, ask) {
  try {
    const opts = { mode: 'readwrite' };
    const now = await handle.queryPermission(opts);
    return now === 'granted' || !ask ? now : await handle.requestPermission(opts);
  } catch {
    return 'denied';
  }
}

// The banner's Restore: reopens the world the kept work belongs to (which
// re-applies it). An upload is restored by uploading the folder again.
export async function reopenKept(entry) {
  if (entry.kind === 'sample') return openSample();
  if (entry.kind === 'link') {
    let text;
    try {
      text = await getLevel(entry.key);
    } catch (err) {
      return reportFailure('The shared level could not be read from browser storage', err);
    }
    if (!text) return (errorMessage.value = `The shared level "${entry.name}" is no longer in browser storage`);
    return openSnapshotText(text, entry.name);
  }
  if (entry.kind === 'folder') {
    if (entry.handle && (await permission(entry.handle, true)) === 'granted') return openFolderHandle(entry.handle);
    return openFolder();
  }
}
