// The server's engine: a worker thread holding the world opened from its
// real directory through the JavaScript API (juliet.openWorld under Node),
// so that a save goes through the engine's own save path, the one the CLI
// takes: pending deletions, atomic temporary + fsync + rename, directory
// fsync, the world lock. Opening a large world takes a while; in a thread it
// never holds up the server's answers.
//
// Messages: { id, op: 'save', changes } answered { id, ok, result | error };
// once the world is open: { ready: { ms, count } } (or { failed: message }).
//
// The world here is the disk as it was when opened; it is never brought up
// to date with later changes on disk, and need not be: a save writes only
// the entities it is given (loaded from the page's text, dirty) and deletes
// only those it is told to (loaded from the disk's current text first if the
// world does not have them).
import { relative, sep } from 'node:path';
import { parentPort, workerData } from 'node:worker_threads';
import { idOfPath, loadJuliet } from 'juliet-world';

const SETTINGS_FILE = 'WorldSettings.jasset';
const { dir } = workerData;

const juliet = await loadJuliet();
let world = null;
// A second world that never saves: a page's text is loaded there first, to
// learn the ID it holds without touching the real world.
const scratch = juliet.newWorld({ inMemory: true, capacity: 1024 });
// Files that failed to load: the engine never writes over them. Once one is
// to be written (it changed on disk since), the world is opened again.
let failedPaths = new Set();
let stale = false;

const rel = (path) => (path ? relative(dir, path).split(sep).join('/') : path);

function open() {
  world?.close();
  world = null;
  const started = performance.now();
  world = juliet.openWorld(dir, { capacity: capacityFor(dir) });
  // A missing reference ('not_found') is not a file that failed.
  failedPaths = new Set(world.diagnostics().filter((d) => d.path && d.code !== 'not_found').map((d) => rel(d.path)));
  stale = false;
  return { ms: Math.round(performance.now() - started), count: world.count };
}

// Room for the entities on disk and as many again (the default is 100,000).
function capacityFor(path) {
  const fs = process.getBuiltinModule('fs');
  let n = 0;
  try {
    n = fs.readdirSync(`${path}/Entities`).length;
  } catch {
    // No Entities folder yet.
  }
  return Math.max(100_000, n * 2);
}

// The ID a page's text holds, checked against its path.
function idOfText(path, bytes) {
  const id = scratch.loadEntityText(bytes, { path, dirty: false });
  scratch.remove(id);
  if (id !== idOfPath(path)) throw new Error(`${path}: the text is entity ${id}, whose file this is not`);
  return id;
}

// One change into the world: bytes to write (dirty), or null to delete
// (the disk's current text, `disk`, is loaded first if the world lacks it).
function apply({ path, bytes, disk }) {
  if (path === SETTINGS_FILE) {
    world.loadSettingsText(bytes, { dirty: true });
    return;
  }
  const id = idOfPath(path);
  if (bytes === null) {
    if (!world.has(id)) {
      if (disk === null) return;
      world.loadEntityText(disk, { path, dirty: false });
    }
    world.remove(id);
    return;
  }
  idOfText(path, bytes);
  const old = world.has(id) ? world.entityBytes(id) : null;
  if (old) world.remove(id);
  try {
    world.loadEntityText(bytes, { path, dirty: true });
  } catch (err) {
    // Alive again with its old text: its file is neither written nor deleted.
    if (old) world.loadEntityText(old, { path, dirty: false });
    throw err;
  }
}

// Applies the changes and saves. Returns the paths written and deleted
// and the failures [{ path, message }]; after a failure the world is opened
// again, so that nothing of it lingers into the next save.
function save({ changes }) {
  if (stale || changes.some((c) => failedPaths.has(c.path))) open();
  const failures = [];
  for (const change of changes) {
    try {
      apply(change);
    } catch (err) {
      failures.push({ path: change.path, message: err.message });
    }
  }
  let report;
  try {
    report = world.save();
  } catch (err) {
    report = { written: err.written ?? [], deleted: err.deleted ?? [] };
    failures.push({ path: rel(err.path) ?? null, message: err.message });
  }
  if (failures.length) stale = true;
  return { written: report.written.map(rel), deleted: report.deleted.map(rel), failures };
}

parentPort.on('message', ({ id, op, args }) => {
  try {
    if (op !== 'save') throw new Error(`unknown operation ${op}`);
    parentPort.postMessage({ id, ok: true, result: save(args) });
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
// JavaScript): one entity's text loaded into the scratch world, and a
// throwaway world saved into the system's temporary folder, never the
// world's.
function warmUp() {
  const [id] = world.rows().ids;
  if (!id) return;
  const text = world.entityBytes(id);
  for (let i = 0; i < 20; i++) scratch.remove(scratch.loadEntityText(text, { path: 'warm-up', dirty: true }));
  const { mkdtempSync, rmSync } = process.getBuiltinModule('fs');
  const tmp = mkdtempSync(`${process.getBuiltinModule('os').tmpdir()}/juliet-warm-up-`);
  const throwaway = juliet.newWorld({ capacity: 16 });
  try {
    throwaway.loadEntityText(text, { dirty: true });
    throwaway.save(`${tmp}/world`);
    throwaway.set(id, 'position', [0, 0, 0]);
    throwaway.save();
  } finally {
    throwaway.close();
    rmSync(tmp, { recursive: true, force: true });
  }
}

const opened = openOrReport();
if (opened) {
  try {
    warmUp();
  } catch {
    // Only a first save a little slower.
  }
  parentPort.postMessage({ ready: opened });
}
