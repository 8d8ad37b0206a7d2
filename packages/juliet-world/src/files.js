// files.js - the module's file system as worlds use it: the in-memory
// calls of the API (writeFiles, readFile, listFiles, removeFiles), and the
// directory of each world. Under Node a world's directory is the host's,
// which the engine reaches through Node's fs (jl_fs_host, c/wasm/pre.js),
// never through the module's file system: the in-memory calls cannot reach
// it. In the browser (or in memory) it is a directory of MEMFS.
import { checkString, describe } from './checks.js';
import { JulietError } from './errors.js';

/** True under Node (>= 20.16), where worlds live on the host's disk. */
export const isNode =
  typeof process === 'object' && !!process.versions && !!process.versions.node && typeof process.getBuiltinModule === 'function';

/** The file system of one module instance. */
export class Files {
  /** @param {object} module the Emscripten module instance */
  constructor(module) {
    this._module = module;
  }

  /**
   * The existing directory a world is opened from, as the engine names it:
   * under Node (unless inMemory) the absolute host path, else a directory
   * of memory.
   * @returns {string}
   */
  existingDir(path, inMemory) {
    if (!inMemory) {
      const nodeFs = process.getBuiltinModule('fs');
      const host = process.getBuiltinModule('path').resolve(path);
      if (!nodeFs.existsSync(host)) throw new JulietError('not_found', 'no such directory', { path });
      if (!nodeFs.statSync(host).isDirectory()) throw new JulietError('not_found', 'not a directory', { path });
      return host;
    }
    const FS = this._module.FS;
    const dir = normalizeDir(path);
    const found = FS.analyzePath(dir);
    if (!found.exists) throw new JulietError('not_found', 'no such directory', { path });
    if (!FS.isDir(found.object.mode)) throw new JulietError('not_found', 'not a directory', { path });
    return dir;
  }

  /**
   * Runs load() with the engine's reads of files under the host directory
   * `dir` answered from `read` (openWorld's option of that name; c/wasm/
   * pre.js, readGiven).
   */
  withRead(dir, read, load) {
    const host = this._module.jlHost;
    if (!read || !host) return load();
    let indexOf = read.indexOf;
    if (!indexOf) {
      const index = new Map();
      read.paths.forEach((path, i) => index.set(path, i));
      indexOf = (path) => index.get(path) ?? -1;
    }
    host.given = {
      dir: `${dir}/`,
      indexOf,
      stamps: read.stamps,
      bytes: read.bytes,
      startedSec: read.startedSec,
    };
    try {
      return load();
    } finally {
      host.given = null;
    }
  }

  /**
   * The directory a world without one is first saved to, as the engine
   * names it. The engine writes it beside that directory and renames it
   * into place, so its parent is made first.
   * @returns {string}
   */
  newDir(path, inMemory) {
    if (!inMemory) {
      const nodePath = process.getBuiltinModule('path');
      const host = nodePath.resolve(path);
      process.getBuiltinModule('fs').mkdirSync(nodePath.dirname(host), { recursive: true });
      return host;
    }
    const dir = normalizeDir(path);
    mkdirTree(this._module.FS, parentPath(dir));
    return dir;
  }

  // ---- the in-memory calls ----
  // These calls only reach the module's file system, which under Node holds
  // no world: a host path names a directory of memory there. Every failure
  // is a JulietError.

  /**
   * Writes files under directory `dir` of the in-memory file system,
   * creating directories as needed. Each file is { path, bytes } with a
   * relative path ('Entities/12.jasset') and a Uint8Array (or string).
   * Every path is checked before anything is written; a file system error
   * (a file where a directory should be) throws a JulietError 'io' naming
   * the file, after the files before it were written.
   * @param {string} dir
   * @param {{path: string, bytes: Uint8Array|string}[]} files
   */
  writeFiles(dir, files) {
    checkString(dir, 'dir');
    if (!Array.isArray(files)) throw new TypeError(`files must be an array of { path, bytes }, got ${describe(files)}`);
    const FS = this._module.FS;
    const root = resolvePath(dir);
    const writes = files.map((file) => {
      if (!file || typeof file !== 'object') throw new TypeError('each file must be an object { path, bytes }');
      const rel = checkRelative(file.path);
      const bytes = file.bytes;
      if (!(bytes instanceof Uint8Array) && typeof bytes !== 'string') {
        throw new TypeError(`bytes of ${rel} must be a Uint8Array or a string, got ${describe(bytes)}`);
      }
      const full = childPath(root, rel);
      return { full, bytes };
    });
    const made = new Set();
    for (const { full, bytes } of writes) {
      onPath(full, () => {
        const parent = full.slice(0, full.lastIndexOf('/'));
        if (parent && !made.has(parent)) {
          mkdirTree(FS, parent);
          made.add(parent);
        }
        FS.writeFile(full, bytes);
      });
    }
  }

  /**
   * The bytes of a file of the in-memory file system (a copy).
   * @param {string} path
   * @returns {Uint8Array}
   */
  readFile(path) {
    checkString(path, 'path');
    const abs = resolvePath(path);
    return onPath(abs, () => this._module.FS.readFile(abs));
  }

  /**
   * The files under a directory of the in-memory file system, as sorted
   * relative paths ('Entities/12.jasset'); [] if it does not exist.
   * @param {string} dir
   * @returns {string[]}
   */
  listFiles(dir) {
    checkString(dir, 'dir');
    const FS = this._module.FS;
    const root = resolvePath(dir);
    const out = [];
    const walk = (abs, rel) => {
      for (const name of onPath(abs, () => FS.readdir(abs))) {
        if (name === '.' || name === '..') continue;
        const childAbs = childPath(abs, name);
        const childRel = rel ? `${rel}/${name}` : name;
        if (FS.isDir(onPath(childAbs, () => FS.lstat(childAbs)).mode)) walk(childAbs, childRel);
        else out.push(childRel);
      }
    };
    if (FS.analyzePath(root).exists) walk(root, '');
    return out.sort();
  }

  /**
   * Deletes a directory of the in-memory file system and everything in it
   * (for instance a world folder no longer needed). Missing is not an error;
   * the root directory is refused.
   * @param {string} dir
   */
  removeFiles(dir) {
    checkString(dir, 'dir');
    const FS = this._module.FS;
    if (resolvePath(dir) === '/') {
      throw new JulietError('invalid_argument', 'the root directory cannot be removed', { path: dir });
    }
    const root = resolvePath(dir);
    if (!FS.analyzePath(root).exists) return;
    // lstat: a symbolic link goes, never what it points to.
    const remove = (abs) => {
      if (FS.isDir(onPath(abs, () => FS.lstat(abs)).mode)) {
        for (const name of onPath(abs, () => FS.readdir(abs))) {
          if (name !== '.' && name !== '..') remove(childPath(abs, name));
        }
        onPath(abs, () => FS.rmdir(abs));
      } else {
        onPath(abs, () => FS.unlink(abs));
      }
    };
    remove(root);
  }
}

function normalizeDir(dir) {
  const trimmed = dir.replace(/\/+$/, '');
  return trimmed.startsWith('/') ? trimmed : `/${trimmed}`;
}

function checkRelative(path) {
  checkString(path, 'file path');
  const parts = path.replace(/\\/g, '/').split('/');
  if (path.startsWith('/') || parts.some((p) => p === '' || p === '.' || p === '..')) {
    throw new TypeError(`file path must be relative without . or .. parts, got ${describe(path)}`);
  }
  return parts.join('/');
}

function mkdirTree(FS, dir) {
  let current = '';
  for (const part of dir.split('/')) {
    if (!part) continue;
    current += '/' + part;
    const found = FS.analyzePath(current);
    if (!found.exists) {
      FS.mkdir(current);
    } else if (!FS.isDir(found.object.mode)) {
      // The file system itself would only say "permission denied" further on.
      throw new JulietError('io', 'a file is in the way of a directory', { path: current });
    }
  }
}

/** An absolute path with '.', '..' and repeated '/' resolved ('/' for the root). */
function resolvePath(path) {
  const parts = [];
  for (const part of path.split('/')) {
    if (part === '..') parts.pop();
    else if (part && part !== '.') parts.push(part);
  }
  return '/' + parts.join('/');
}

function parentPath(abs) {
  return abs.slice(0, abs.lastIndexOf('/')) || '/';
}

function childPath(dir, name) {
  return dir === '/' ? `/${name}` : `${dir}/${name}`;
}

/** What the file system's errno values mean (Emscripten's numbering). */
// Emscripten's errno numbers are its own: their POSIX names and words, as
// the engine's diagnostics give them (c/src/base/fs.c).
const ERRNO_TEXT = {
  2: ['EACCES', 'permission denied'],
  10: ['EBUSY', 'device or resource busy'],
  20: ['EEXIST', 'file exists'],
  28: ['EINVAL', 'invalid argument'],
  29: ['EIO', 'input/output error'],
  31: ['EISDIR', 'is a directory'],
  32: ['ELOOP', 'too many levels of symbolic links'],
  33: ['EMFILE', 'too many open files'],
  37: ['ENAMETOOLONG', 'file name too long'],
  44: ['ENOENT', 'no such file or directory'],
  48: ['ENOMEM', 'out of memory'],
  51: ['ENOSPC', 'no space left on device'],
  54: ['ENOTDIR', 'not a directory'],
  55: ['ENOTEMPTY', 'directory not empty'],
  63: ['EPERM', 'operation not permitted'],
  69: ['EROFS', 'read-only file system'],
};

/**
 * A JulietError for an error the file system raised on `path` (its
 * ErrnoError carries only a number and "FS error").
 */
function fsError(err, path) {
  if (err instanceof JulietError) return err;
  const errno = err && typeof err.errno === 'number' ? err.errno : null;
  const known = ERRNO_TEXT[errno];
  const message = errno === null ? String((err && err.message) || err) : known ? `${known[1]} (${known[0]})` : `file system error ${errno}`;
  return new JulietError(errno === 44 ? 'not_found' : 'io', message, { path });
}

/** Runs call(), turning what the file system throws into a JulietError naming `path`. */
function onPath(path, call) {
  try {
    return call();
  } catch (err) {
    throw fsError(err, path);
  }
}
