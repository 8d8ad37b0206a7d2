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
import { CLASSES_DIR, ENTITIES_DIR, SETTINGS_FILE, encodePackColumns, isClassFilePath, packRuns } from 'juliet-world';
import { bytesOf, placeOf, readFilesInThreads, readWorldFile, stampAt, statStamp } from './read.js';
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

// Where a path comes in the order _listed() gives: class files by name,
// the settings, then the entities by ID.
function rankOf(path) {
  return isClassFilePath(path) ? 0 : path === SETTINGS_FILE ? 1 : 2;
}
function inListedOrder(a, b) {
  const rank = rankOf(a);
  if (rank !== rankOf(b)) return rank - rankOf(b);
  if (rank === 2) return byIdOrder(a, b);
  return a < b ? -1 : a > b ? 1 : 0;
}

export class WorldFiles {
  /** @param {string} dir the world directory (absolute, symbolic links resolved) */
  constructor(dir) {
    this.dir = dir;
    this.seq = 0;
    // The first read as it came (read.js readFiles' columns: no object a
    // file, which at 1,000,000 files took 170 MB), its files all of
    // version `_firstSeq`; a file's stamp there is its index.
    this.firstRead = null;
    this._firstSeq = 0;
    // path -> { bytes: Buffer | null, seq, stamp (a string, or an index in
    // the first read) }: the files read since, over the first read's.
    this._files = new Map();
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
    const entry = this._entry(path);
    return entry ? { bytes: entry.bytes, seq: entry.seq } : { bytes: null, seq: 0 };
  }

  // The entry of `path` (see the constructor), or undefined.
  _entry(path) {
    const entry = this._files.get(path);
    if (entry) return entry;
    const i = this._firstIndex(path);
    return i < 0 ? undefined : this._firstEntry(i);
  }

  _firstEntry(i) {
    return { bytes: bytesOf(this.firstRead, i), seq: this._firstSeq, stamp: i };
  }

  // The index of `path` among the first read's files (-1: not one of
  // them, or nothing a world could use then).
  _firstIndex(path) {
    const i = this._firstPlace(path);
    return i >= 0 && this.firstRead.sizes[i] >= 0 ? i : -1;
  }

  // The index of `path` among the paths the first read was given, or -1:
  // a binary search, as it was given them in the order _listed() gives.
  _firstPlace(path) {
    const paths = this.firstRead?.paths ?? [];
    let lo = 0;
    let hi = paths.length - 1;
    while (lo <= hi) {
      const mid = (lo + hi) >>> 1;
      const order = inListedOrder(paths[mid], path);
      if (order === 0) return mid;
      if (order < 0) lo = mid + 1;
      else hi = mid - 1;
    }
    return -1;
  }

  // The [path, entry] of every file changed since version `since`, in the
  // order a page loads them: the first read's (or what replaced them),
  // then those found since. A file as the first read left it has its index
  // there for entry (no object a file). The first read's are looked at one
  // by one only when they are newer than `since`.
  *_entries(since = 0) {
    const read = this.firstRead;
    const replacing = [];
    const found = [];
    for (const [path, entry] of this._files) {
      if (entry.seq <= since) continue;
      const place = this._firstPlace(path);
      if (place < 0) found.push([path, entry]);
      else replacing.push([place, path, entry]);
    }
    if (read && this._firstSeq > since) {
      for (let i = 0; i < read.paths.length; i++) {
        const path = read.paths[i];
        const entry = this._files.get(path) ?? (read.sizes[i] < 0 ? undefined : i);
        if (typeof entry === 'number' || entry?.seq > since) yield [path, entry];
      }
    } else {
      for (const [, path, entry] of replacing.sort((a, b) => a[0] - b[0])) yield [path, entry];
    }
    yield* found;
  }

  // The world files on disk now, in the order a page loads them: class
  // files first (a page loads them before the entities of their classes),
  // the settings, then the entities by ID (inListedOrder).
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
   * (read.js). What was read stays in `firstRead`, which the engine thread
   * opens the world from too. Resolves with the number of files found. */
  async load() {
    const paths = this._listed().filter(this._readable());
    const read = await readFilesInThreads(this.dir, paths);
    const seq = this.seq + 1;
    let found = 0;
    for (let i = 0; i < paths.length; i++) {
      if (read.kinds[i] === 0) {
        // Changed while it was read: read again alone.
        const again = readWorldFile(join(this.dir, paths[i]));
        if (again.bytes === null) continue; // nothing a world could use (as _update)
        this._files.set(paths[i], { ...again, seq });
      } else if (read.sizes[i] < 0) continue;
      found++;
    }
    this.firstRead = read;
    this._firstSeq = seq;
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
    return typeof entry.stamp === 'number' ? stampAt(this.firstRead, entry.stamp) : entry.stamp;
  }

  /** Reads every world file on disk (a file unchanged by its inode, size and
   * time is not read again). Returns the paths that changed. */
  scan() {
    const found = this._listed();
    const seen = new Set(found);
    const gone = [];
    for (const [path] of this._entries()) if (!seen.has(path)) gone.push(path);
    return this._update([...found, ...gone], { trustStamps: true });
  }

  /** Reads the files at `paths` again, each once however often it is
   * named (others than world files are ignored). Returns the paths that
   * changed. */
  refresh(paths) {
    return this._update([...new Set(paths)].filter(isWorldPath), { trustStamps: false });
  }

  _update(paths, { trustStamps }) {
    const changed = [];
    const next = this.seq + 1;
    const isReadable = this._readable();
    for (const path of paths) {
      const old = this._entry(path);
      const abs = join(this.dir, path);
      const readable = isReadable(path);
      if (trustStamps && old && readable && old.stamp !== null && statStamp(abs) === this._stampOf(old)) continue;
      const read = readable ? readWorldFile(abs) : { bytes: null, stamp: null };
      if (old ? sameBytes(old.bytes, read.bytes) : read.bytes === null) {
        if (old) this._files.set(path, { ...old, stamp: read.stamp });
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
   * send one after another (encodePackColumns: the files' bytes not copied). */
  packSince(since) {
    if (since === 0 && this._pack) return this._pack;
    const read = this.firstRead;
    const most = (read?.paths.length ?? 0) + this._files.size;
    const paths = [];
    const seqs = new Uint32Array(most);
    const sizes = new Int32Array(most);
    const runs = packRuns();
    const add = (path, seq, size) => {
      seqs[paths.length] = seq;
      sizes[paths.length] = size;
      paths.push(path);
    };
    for (const [path, entry] of this._entries(since)) {
      if (typeof entry === 'number') {
        const { buffer, offset, size } = placeOf(read, entry);
        add(path, this._firstSeq, size);
        runs.add(buffer, offset, size);
      } else if (entry.bytes) {
        add(path, entry.seq, entry.bytes.length);
        runs.add(entry.bytes.buffer, entry.bytes.byteOffset, entry.bytes.length);
      } else if (since > 0) add(path, entry.seq, -1); // gone
    }
    const columns = { paths, seqs: seqs.subarray(0, paths.length), sizes: sizes.subarray(0, paths.length) };
    // The first read as it was, every path a file: its paths' bytes, which
    // the engine is given too, are the pack's (one copy, not made again).
    if (since === 0 && this._files.size === 0 && paths.length === read?.paths.length) columns.pathBytes = read.pathBytes;
    const pack = encodePackColumns({ name: basename(this.dir), seq: this.seq }, columns, runs.parts());
    if (since === 0) this._pack = pack;
    return pack;
  }
}
