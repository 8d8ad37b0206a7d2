// The server's engine: a worker thread holding the world opened from its
// real directory through the JavaScript API (juliet.openWorld under Node;
// the sample game's build of it, juliet-sample, as the page uses), so that a save goes through the engine's own save path, the one the CLI
// takes: pending deletions, atomic temporary + fsync + rename, directory
// fsync, the world lock. Opening a large world takes a while; in a thread it
// never holds up the server's answers.
//
// Messages: { id, op: 'save', changes } answered { id, ok, result | error };
// once the world is open: { ready: { ms, count } } (or { failed: message });
// { op: 'close' }: the world is closed and the thread ends. A save runs in
// batches of growing size, and stops between two batches once the server
// sets control[STOP] (it is stopping at once: engine.js close({ now })).
//
// The world here is the disk as it was when opened, brought up to date one
// file at a time: a save reads again each file it is given (apply), then
// writes the page's text for it or deletes it, and the engine replaces or
// deletes a file only while it is still the version read (a 'conflict'
// otherwise, which the server answers with the disk's version).
import { lstatSync, readdirSync, readFileSync } from 'node:fs';
import { join, relative, sep } from 'node:path';
import { parentPort, workerData } from 'node:worker_threads';
import { CLASSES_DIR, DEFAULT_CAPACITY, ENTITIES_DIR, SETTINGS_FILE, idOfPath, isClassFilePath, pathIndex } from 'juliet-world';
import { loadJuliet } from 'juliet-sample';
import { bytesOf } from './read.js';

const { dir, control } = workerData;
// The files as the server read them (read.js readFilesInThreads, their
// paths as its pathBytes), for the first open only (later ones read the disk).
let firstRead = workerData.read;
workerData.read = null;
const STOP = 0;
// Files per world.save(): FIRST_BATCH, then twice as many each time, up to
// MAX_BATCH. A stop waits for the batch being written (at most as many
// files as the save wrote before it, or FIRST_BATCH); each batch waits for
// the disk a few times (its files' syncs together, the directory, the
// lock): 5 batches for 1,500 files.
const FIRST_BATCH = 64;
const MAX_BATCH = 4096;
// Classes of entities created then deleted stay in the world's registry
// (JL_CLASS_MAX of them at most): past this many more than it opened with,
// the world is opened again, which keeps only those its files name.
const SPARE_CLASSES = 16;

const juliet = await loadJuliet();
let world = null;
// Files that failed to load: the engine never writes over them. Once one is
// to be written (it changed on disk since), the world is opened again.
let failedPaths = new Set();
let stale = false;
// The class files the world was opened with (path -> bytes), and the
// number of its opaque classes then.
let classFiles = new Map();
let opaqueAtOpen = 0;

const rel = (path) => (path ? relative(dir, path).split(sep).join('/') : path);

function open() {
  world?.close();
  world = null;
  const started = performance.now();
  classFiles = readClassFiles();
  const given = firstRead;
  const read = given && { ...given, bytes: (i) => bytesOf(given, i), indexOf: pathIndex(given.pathBytes) };
  firstRead = null;
  world = juliet.openWorld(dir, { capacity: capacityFor(dir, read), read });
  opaqueAtOpen = world.opaqueClasses().length;
  // A missing reference ('not_found') is not a file that failed.
  failedPaths = new Set(
    world
      .diagnostics()
      .filter((d) => d.path && d.code !== 'not_found')
      .map((d) => rel(d.path)),
  );
  stale = false;
  return { ms: Math.round(performance.now() - started), count: world.count };
}

// Room for the entities on disk (as many as files were read, else as the
// folder lists) and DEFAULT_CAPACITY more, as openSnapshot gives a large
// snapshot: twice as many took 350 MB more at 1,000,000.
function capacityFor(path, read) {
  let n = read?.sizes.length ?? 0;
  try {
    if (!read) n = readdirSync(`${path}/Entities`).length;
  } catch {
    // No Entities folder yet.
  }
  return n + DEFAULT_CAPACITY;
}

// The class files on disk now: path -> bytes (null: not readable).
function readClassFiles() {
  const out = new Map();
  let names = [];
  try {
    names = readdirSync(join(dir, CLASSES_DIR));
  } catch {
    // No Classes folder: no class files.
  }
  for (const name of names.sort()) {
    const path = `${CLASSES_DIR}/${name}`;
    if (!isClassFilePath(path)) continue;
    try {
      out.set(path, readFileSync(join(dir, path)));
    } catch {
      out.set(path, null);
    }
  }
  return out;
}

// True if a class file was changed, added or removed since the world was
// opened: the world then has to be opened again, as a class of the
// registry is never replaced (the page's engine says so of a changed file
// too, and uses the new one once it opens the world again).
function classFilesChanged() {
  const now = readClassFiles();
  if (now.size !== classFiles.size) return true;
  for (const [path, bytes] of now) {
    const old = classFiles.get(path);
    if (old === undefined || (old === null) !== (bytes === null) || (bytes && !bytes.equals(old))) return true;
  }
  return false;
}

// The class files' problems, as the page lists them, on the server's
// console: the entities of a class whose file does not load are kept as
// text.
function reportClassProblems() {
  for (const d of world.diagnostics()) {
    const path = rel(d.path);
    if (path?.startsWith(`${CLASSES_DIR}/`)) console.error(`juliet: ${path}:${d.line}:${d.col}: ${d.message}`);
  }
}

// One change into the world. Its file is read again through the engine
// first and must still be the version the server compared the page's with
// (`disk`; else a 'conflict'): the save then replaces or deletes it only
// while it is still that version, even if it changes a moment later.
function apply({ path, bytes, disk }) {
  try {
    // A symbolic link is no file of the world to the server (store.js): the
    // save replaces the link, never reading or writing through it.
    if (disk === null && isLink(join(dir, path))) world.reloadFile(path, null);
    else world.refreshFile(path, disk);
  } catch (err) {
    // A disk version that does not load is the engine's to refuse below.
    if (err.code === 'conflict') throw err;
  }
  if (path === SETTINGS_FILE) {
    world.restoreSettingsText(bytes);
    return;
  }
  const id = idOfPath(path);
  if (bytes === null) {
    if (world.has(id)) world.remove(id);
    return;
  }
  // A text of another entity is refused there, naming its line.
  world.restoreEntityText(id, bytes);
}

function isLink(path) {
  try {
    return lstatSync(path).isSymbolicLink();
  } catch {
    return false;
  }
}

// After a conflict the world takes the disk's version of the file again
// (the page decides what to do with its own): no edit lingers into the
// next save. Returns false if that fails (the world is then opened again).
function retake(path) {
  let bytes = null;
  try {
    bytes = readFileSync(join(dir, path));
  } catch {
    // Gone on disk.
  }
  try {
    world.reloadFile(path, bytes);
    return true;
  } catch {
    return false;
  }
}

// Applies the changes and saves. Returns the paths written and deleted,
// the conflicts (paths another program changed since they were read: left
// alone) and the failures [{ path, message }]; after a failure the world is
// opened again, so that nothing of it lingers into the next save.
function save({ changes }) {
  if (stale || changes.some((c) => failedPaths.has(c.path))) open();
  const failures = [];
  const conflicts = [];
  for (const change of changes) {
    try {
      apply(change);
    } catch (err) {
      if (err.code === 'conflict') conflicts.push(change.path);
      else failures.push({ path: change.path, message: err.message });
    }
  }
  let report;
  try {
    report = world.save();
  } catch (err) {
    report = { written: err.written ?? [], deleted: err.deleted ?? [] };
    conflicts.push(...(err.conflicts ?? []).map(rel));
    if (err.code !== 'conflict') failures.push({ path: rel(err.path) ?? null, message: err.message });
  }
  if (report.notice) console.error(`juliet: ${report.notice}`);
  for (const path of conflicts) if (!retake(path)) stale = true;
  if (failures.length) stale = true;
  return { written: report.written.map(rel), deleted: report.deleted.map(rel), conflicts, failures };
}

// A page's save in batches (FIRST_BATCH above), each saved before the next
// is applied, so that a stop (control[STOP]) comes between two files, never
// in one: the changes not reached are failures. Class files changed on disk
// are loaded first (the world opened again).
function saveInBatches(args) {
  const reloadClasses = classFilesChanged();
  if (reloadClasses) stale = true;
  const out = { written: [], deleted: [], conflicts: [], failures: [] };
  const { changes } = args;
  for (let at = 0, size = FIRST_BATCH; at < changes.length; at += size, size = Math.min(size * 2, MAX_BATCH)) {
    if (Atomics.load(control, STOP)) {
      const message = 'not saved: the server stopped before this file';
      for (const { path } of changes.slice(at)) out.failures.push({ path, message });
      break;
    }
    let report;
    try {
      report = save({ ...args, changes: changes.slice(at, at + size) });
    } catch (err) {
      // The world could not be opened again: what the batches before
      // wrote is still to be told.
      if (at === 0) throw err;
      for (const { path } of changes.slice(at)) out.failures.push({ path, message: err.message });
      break;
    }
    if (at === 0 && reloadClasses) reportClassProblems();
    out.written.push(...report.written);
    out.deleted.push(...report.deleted);
    out.conflicts.push(...report.conflicts);
    out.failures.push(...report.failures);
  }
  if (world && world.opaqueClasses().length > opaqueAtOpen + SPARE_CLASSES) stale = true;
  return out;
}

// Ends the thread: the world is closed (no save holds its lock between two
// messages), and the port too, which lets the thread end once the answers
// posted before have gone.
function closeAll() {
  world?.close();
  parentPort.close();
}

parentPort.on('message', ({ id, op, args }) => {
  if (op === 'close') return closeAll();
  try {
    if (op !== 'save') throw new Error(`unknown operation ${op}`);
    parentPort.postMessage({ id, ok: true, result: saveInBatches(args) });
  } catch (err) {
    parentPort.postMessage({ id, ok: false, error: err.message });
  }
  if (stale) openOrReport();
});

// Opens the world; a failure is reported and the next save tries again.
function openOrReport() {
  try {
    return open();
  } catch (err) {
    stale = true;
    parentPort.postMessage({ failed: err.message });
    return null;
  }
}

// Runs a save's paths once, so that the first real save does not pay for
// their first run (the wasm compiler's first pass, the file system's
// JavaScript): one entity's text restored again and again in a throwaway
// world, saved into the system's temporary folder, never the world's.
function warmUp(id) {
  if (!id || !world.has(id)) return;
  const text = world.entityBytes(id);
  const { mkdtempSync, rmSync } = process.getBuiltinModule('fs');
  const tmp = mkdtempSync(`${process.getBuiltinModule('os').tmpdir()}/juliet-warm-up-`);
  const throwaway = juliet.newWorld({ capacity: 16 });
  try {
    throwaway.loadEntityText(text, { dirty: true });
    throwaway.save(`${tmp}/world`);
    for (let i = 0; i < 20; i++) throwaway.restoreEntityText(id, text);
    throwaway.set(id, 'position', [0, 0, 0]);
    throwaway.save();
  } finally {
    throwaway.close();
    rmSync(tmp, { recursive: true, force: true });
  }
}

// An entity's ID for warmUp, from the first read's paths (read.js pathBytes):
// world.rows() would make all 1,000,000 IDs for it, 140 MB that stay a while.
function firstEntityId(pathBytes) {
  const bytes = Buffer.from(pathBytes.buffer, pathBytes.byteOffset, pathBytes.length);
  const from = bytes.indexOf(`${ENTITIES_DIR}/`);
  if (from < 0) return null;
  const to = bytes.indexOf('\n', from);
  return idOfPath(bytes.toString('utf8', from, to < 0 ? bytes.length : to));
}

const warmId = firstRead ? firstEntityId(firstRead.pathBytes) : null;
const opened = openOrReport();
if (opened) {
  try {
    warmUp(warmId ?? world.rows().ids[0]);
  } catch {
    // Only a first save a little slower.
  }
  parentPort.postMessage({ ready: opened });
}
