// The world's files as the server last read them from disk, each with the
// version (`seq`) of the world in which it last changed. A page holds the
// version of every file it has; it asks for the files changed since its
// version, and a save is refused for a file whose version moved on since
// the page got it (a conflict). Only the files a world is made of are read:
// its class files (Classes/<Name>.jclass: read, never saved), then
// WorldSettings.jasset and Entities/*.jasset, never through a symbolic link,
// never a file that is not a regular file or is over the engine's limit.
import { lstatSync, readdirSync } from 'node:fs';
import { basename, join } from 'node:path';
import { CLASSES_DIR, ENTITIES_DIR, SETTINGS_FILE, encodePackParts, isClassFilePath } from 'juliet-world';
import { bytesOf, readFilesInThreads, readWorldFile, stampAt, statStamp } from './read.js';
// No separator, and no line break (a pack lists paths one a line).
const ENTITY_NAME = /^[^/\\\n\r]+\.jasset$/;

/** True for the paths (relative, '/'-separated) a world's files have. */
export function isWorldPath(path) {
  if (path === SETTINGS_FILE || isClassFilePath(path)) return true;
  return path.startsWith(`${ENTITIES_DIR}/`) && ENTITY_NAME.test(path.slice(ENTITIES_DIR.length + 1));
}

function sameBytes(a, b) {
  if (a === null || b === null) return a === b;
  return a.length === b.length && Buffer.compare(a, b) === 0;
}

// Entity file names in ID order (decimal names: shorter is smaller), so
// that a world is packed in the order the page lists it.
function byIdOrder(a, b) {
  return a.length - b.length || (a < b ? -1 : a > b ? 1 : 0);
}

/** True if dir/sub is a real directory (not a link out of the world). */
function isRealDir(dir, sub) {
  try {
    return lstatSync(join(dir, sub)).isDirectory();
  } catch {
    return false;
  }
}

/** True if dir/Entities is a real directory (not a link out of the world). */
export function entitiesDirIsReal(dir) {
  return isRealDir(dir, ENTITIES_DIR);
}

// The names in dir/sub when it is a real directory, else none.
function namesIn(dir, sub) {
  if (!isRealDir(dir, sub)) return [];
  try {
    return readdirSync(join(dir, sub));
  } catch (err) {
    if (err.code !== 'ENOENT') throw err;
    return [];
  }
}

/** True if a save may write into dir/Entities: it is a real directory, or
 * there is none yet (the engine creates it). */
export function entitiesDirIsWritable(dir) {
  try {
    return lstatSync(join(dir, ENTITIES_DIR)).isDirectory();
  } catch (err) {
    return err.code === 'ENOENT';
  }
}

export class WorldFiles {
  /** @param {string} dir the world directory (absolute, symbolic links resolved) */
  constructor(dir) {
    this.dir = dir;
    this.seq = 0;
    // path -> { bytes: Buffer | null, seq, stamp }; a stamp is a string
    // (read.js), or for a file as the first read left it, its index there
    // (made into a string only when asked: 1,000,000 of them cost 0.4 s).
    this._files = new Map();
    this._firstStamps = null; // the first read's stamps
    this._listeners = [];
    this._pack = null; // the whole world packed, for this.seq
  }

  /** Calls listener(seq) after every change of version. */
  onChange(listener) {
    this._listeners.push(listener);
    return () => {
      this._listeners = this._listeners.filter((l) => l !== listener);
    };
  }

  /** The file at `path` as last read: { bytes (null: none), seq }. */
  file(path) {
    const entry = this._files.get(path);
    return entry ? { bytes: entry.bytes, seq: entry.seq } : { bytes: null, seq: 0 };
  }

  // The world files on disk now, in the order a page loads them: class
  // files first (a page loads them before the entities of their classes),
  // the settings, then the entities by ID.
  _listed() {
    const found = namesIn(this.dir, CLASSES_DIR)
      .sort()
      .map((name) => `${CLASSES_DIR}/${name}`)
      .filter(isClassFilePath);
    found.push(SETTINGS_FILE);
    for (const name of namesIn(this.dir, ENTITIES_DIR).sort(byIdOrder)) {
      const path = `${ENTITIES_DIR}/${name}`;
      if (isWorldPath(path)) found.push(path);
    }
    return found;
  }

  /** The first read of the world: every file, read by several threads
   * (read.js). What was read stays in `firstRead` for the engine thread
   * to open the world from, until dropFirstRead(). Resolves with the
   * number of files found. */
  async load() {
    const paths = this._listed().filter(this._readable());
    const read = await readFilesInThreads(this.dir, paths);
    const seq = this.seq + 1;
    let found = 0;
    for (let i = 0; i < paths.length; i++) {
      const entry = read.kinds[i] === 0 ? { ...readWorldFile(join(this.dir, paths[i])), seq } : { bytes: bytesOf(read, i), seq, stamp: i };
      if (entry.bytes === null) continue; // nothing a world could use (as _update)
      this._files.set(paths[i], entry);
      found++;
    }
    this._firstStamps = { stamps: read.stamps }; // not the rest of the read
    this.firstRead = read;
    if (found === 0) return 0;
    this.seq = seq;
    this._pack = null;
    for (const listener of this._listeners) listener(seq);
    return found;
  }

  // Whether a world file's path may be read now: its folder is a real
  // directory, not a link out of the world (asked once a call).
  _readable() {
    const entitiesReal = entitiesDirIsReal(this.dir);
    const classesReal = isRealDir(this.dir, CLASSES_DIR);
    return (path) => path === SETTINGS_FILE || (isClassFilePath(path) ? classesReal : entitiesReal);
  }

  // An entry's stamp as a string (see _files).
  _stampOf(entry) {
    return typeof entry.stamp === 'number' ? stampAt(this._firstStamps, entry.stamp) : entry.stamp;
  }

  dropFirstRead() {
    this.firstRead = null;
  }

  /** Reads every world file on disk (a file unchanged by its inode, size and
   * time is not read again). Returns the paths that changed. */
  scan() {
    const found = this._listed();
    const seen = new Set(found);
    const gone = [...this._files.keys()].filter((p) => !seen.has(p));
    return this._update([...found, ...gone], { trustStamps: true });
  }

  /** Reads the files at `paths` again (others than world files are
   * ignored). Returns the paths that changed. */
  refresh(paths) {
    return this._update(paths.filter(isWorldPath), { trustStamps: false });
  }

  _update(paths, { trustStamps }) {
    const changed = [];
    const next = this.seq + 1;
    const isReadable = this._readable();
    for (const path of paths) {
      const old = this._files.get(path);
      const abs = join(this.dir, path);
      const readable = isReadable(path);
      if (trustStamps && old && readable && old.stamp !== null && statStamp(abs) === this._stampOf(old)) continue;
      const read = readable ? readWorldFile(abs) : { bytes: null, stamp: null };
      if (old ? sameBytes(old.bytes, read.bytes) : read.bytes === null) {
        if (old) old.stamp = read.stamp;
        continue;
      }
      this._files.set(path, { bytes: read.bytes, seq: next, stamp: read.stamp });
      changed.push(path);
    }
    if (changed.length) {
      this.seq = next;
      this._pack = null;
      for (const listener of this._listeners) listener(next);
    }
    return changed;
  }

  /** The files changed since version `since` (all files there are for 0),
   * packed with { name, seq }: the world's name and version, as parts to
   * send one after another (encodePackParts: the files' bytes not copied). */
  packSince(since) {
    if (since === 0 && this._pack) return this._pack;
    const files = [];
    for (const [path, entry] of this._files) {
      if (entry.seq > since && (since > 0 || entry.bytes !== null)) files.push({ path, seq: entry.seq, bytes: entry.bytes });
    }
    const pack = encodePackParts({ name: basename(this.dir), seq: this.seq }, files);
    if (since === 0) this._pack = pack;
    return pack;
  }
}
