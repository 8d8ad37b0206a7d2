// A page's save: the files it changed, each with the version of the file it
// started from, written through the engine unless the file changed on disk
// since that version (a conflict: the file is left alone and its disk
// version sent back for the page to show). Saves run one at a time.
import { ENTITIES_DIR, FILE_MAX, SETTINGS_FILE, encodePack, idOfPath } from 'juliet-world';
import { entitiesDirIsWritable } from './store.js';

const FILES_MAX = 1_000_000;

/** A request the page got wrong: answered 400 with the message. */
export class BadRequest extends Error {}

/** A save refused because the server is stopping: answered 503. */
export class Stopping extends Error {
  status = 503;
  constructor() {
    super('the server is stopping: nothing of this save was written');
  }
}

function sameBytes(a, b) {
  if (a === null || b === null) return a === b;
  return a.length === b.length && Buffer.compare(Buffer.from(a.buffer, a.byteOffset, a.length), b) === 0;
}

// Only the file of an entity (by its canonical decimal name) or the
// settings may be written: nothing else, nothing outside the world.
function checkChanges(files) {
  if (files.length > FILES_MAX) throw new BadRequest(`more than ${FILES_MAX} files`);
  const seen = new Set();
  for (const { path, bytes } of files) {
    if (path !== SETTINGS_FILE && idOfPath(path) === null) throw new BadRequest(`not a world file: ${JSON.stringify(path)}`);
    if (seen.has(path)) throw new BadRequest(`${path} given twice`);
    seen.add(path);
    if (path === SETTINGS_FILE && bytes === null) throw new BadRequest(`${SETTINGS_FILE} cannot be deleted`);
    if (bytes && bytes.length > FILE_MAX) throw new BadRequest(`${path} is over ${FILE_MAX} bytes`);
  }
}

/**
 * The saves of one world: `files` (store.js) and `engine` (engine.js).
 * save(files) takes the decoded pack's files ([{ path, seq, bytes | null }],
 * seq the version the page started from) and returns the answer pack:
 * meta { seq, results: [{ path, status, seq, message? }] } with status
 * 'written', 'deleted', 'unchanged' (the disk already holds it), 'conflict'
 * or 'failed'; the files are the disk versions of the conflicts.
 * stop() refuses the saves not begun (Stopping) and resolves once the one
 * in progress is done.
 */
export function createSaver(files, engine) {
  let queue = Promise.resolve();
  let stopped = false;

  async function saveNow(changes) {
    checkChanges(changes);
    // What is on disk now, not what the watcher last reported.
    files.refresh(changes.map((c) => c.path));
    const results = new Map();
    const conflicts = [];
    const toWrite = [];
    for (const change of changes) {
      const disk = files.file(change.path);
      if (sameBytes(change.bytes, disk.bytes)) {
        results.set(change.path, { path: change.path, status: 'unchanged', seq: disk.seq });
      } else if (change.path !== SETTINGS_FILE && !entitiesDirIsWritable(files.dir)) {
        // Written through a link, the file would land outside the world.
        const message = `${ENTITIES_DIR} is not a folder of the world (a symbolic link?): not written`;
        results.set(change.path, { path: change.path, status: 'failed', seq: disk.seq, message });
      } else if (disk.seq !== change.seq) {
        results.set(change.path, { path: change.path, status: 'conflict', seq: disk.seq });
        conflicts.push({ path: change.path, seq: disk.seq, bytes: disk.bytes });
      } else {
        toWrite.push({ path: change.path, bytes: change.bytes, disk: disk.bytes });
      }
    }
    if (toWrite.length) {
      const report = await engine.save(toWrite);
      files.refresh([...report.written, ...report.deleted, ...toWrite.map((c) => c.path)]);
      const failed = new Map(report.failures.map((f) => [f.path, f.message]));
      const written = new Set(report.written);
      const deleted = new Set(report.deleted);
      // Changed on disk after the check above, before the engine replaced it.
      const changedSince = new Set(report.conflicts);
      for (const { path } of toWrite) {
        const seq = files.file(path).seq;
        if (written.has(path)) results.set(path, { path, status: 'written', seq });
        else if (deleted.has(path)) results.set(path, { path, status: 'deleted', seq });
        else if (changedSince.has(path)) {
          results.set(path, { path, status: 'conflict', seq });
          conflicts.push({ path, seq, bytes: files.file(path).bytes });
        } else {
          // A failure that names no file (the lock, say) is every file's.
          const message = failed.get(path) ?? report.failures.find((f) => !f.path || !toWrite.some((c) => c.path === f.path))?.message;
          results.set(path, { path, status: 'failed', seq: files.file(path).seq, message: message ?? 'not written' });
        }
      }
    }
    return encodePack({ seq: files.seq, results: changes.map((c) => results.get(c.path)) }, conflicts);
  }

  return {
    save(changes) {
      const run = queue.then(() => {
        if (stopped) throw new Stopping();
        return saveNow(changes);
      });
      queue = run.catch(() => {});
      return run;
    },
    stop() {
      stopped = true;
      return queue;
    },
  };
}
