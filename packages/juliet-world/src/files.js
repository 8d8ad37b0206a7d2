// files.js - the module's file system as worlds use it: the in-memory
// calls of the API (writeFiles, readFile, listFiles, removeFiles), which
// never reach a mounted host directory, and the directory of each world:
// under Node a host directory mounted with NODEFS, with the paths C reports
// mapped back into the caller's terms; in the browser (or in memory) a
// directory of MEMFS used as it is.
import { checkString, describe } from './checks.js';
import { JulietError } from './errors.js';

/** True under Node (>= 20.16), where host directories can be mounted. */
export const isNode =
  typeof process === 'object' && !!process.versions && !!process.versions.node && typeof process.getBuiltinModule === 'function';

/** The directory of one world: the caller's path and where C sees it. */
export class WorldDir {
  /**
   * @param {string} path the directory as the caller named it (host path under Node)
   * @param {string} vpath the same directory inside the module's file system
   * @param {{point: string, hostRoot: string, unmount: () => void}|null} [mount]
   *   under Node: the host directory mounted at `point`
   */
  constructor(path, vpath, mount = null) {
    this.path = path;
    this.vpath = vpath;
    this._mount = mount;
  }

  /** A path the C side reported, in the caller's terms (host path under Node). */
  mapPath(path) {
    const m = this._mount;
    if (m && (path === m.point || path.startsWith(m.point + '/'))) return m.hostRoot + path.slice(m.point.length);
    return path;
  }

  /** A message the C side wrote, with mount paths in the caller's terms. */
  mapText(text) {
    const m = this._mount;
    return m && text ? text.split(m.point + '/').join(m.hostRoot + '/') : text;
  }

  /** Unmounts the host directory, if any (the paths stay). Safe twice. */
  release() {
    if (this._mount) this._mount.unmount();
    this._mount = null;
  }
}

/** The file system of one module instance. */
export class Files {
  /** @param {object} module the Emscripten module instance */
  constructor(module) {
    this._module = module;
    this._mounts = 0;
  }

  /**
   * The existing directory a world is opened from. Under Node (unless
   * inMemory) the host directory is mounted (NODEFS) at a fresh mount
   * point; otherwise the path names a directory of memory, used as is.
   * @returns {WorldDir}
   */
  existingDir(path, inMemory) {
    const FS = this._module.FS;
    if (!inMemory) {
      const nodeFs = process.getBuiltinModule('fs');
      const host = process.getBuiltinModule('path').resolve(path);
      if (!nodeFs.existsSync(host)) throw new JulietError('not_found', 'no such directory', { path });
      if (!nodeFs.statSync(host).isDirectory()) throw new JulietError('not_found', 'not a directory', { path });
      const mount = this._mountHost(host);
      return new WorldDir(host, mount.point, mount);
    }
    const dir = normalizeDir(path);
    const found = FS.analyzePath(dir);
    if (!found.exists) throw new JulietError('not_found', 'no such directory', { path });
    if (!FS.isDir(found.object.mode)) throw new JulietError('not_found', 'not a directory', { path });
    return new WorldDir(dir, dir);
  }

  /**
   * The directory a world without one is first saved to. The engine
   * writes it beside that directory and renames it into place, so under
   * Node the parent directory is mounted.
   * @returns {WorldDir}
   */
  newDir(path, inMemory) {
    if (!inMemory) {
      const nodePath = process.getBuiltinModule('path');
      const host = nodePath.resolve(path);
      const parent = nodePath.dirname(host);
      process.getBuiltinModule('fs').mkdirSync(parent, { recursive: true });
      const mount = this._mountHost(parent);
      const vpath = host === parent ? mount.point : `${mount.point}/${nodePath.basename(host)}`;
      return new WorldDir(host, vpath, mount);
    }
    const dir = normalizeDir(path);
    mkdirTree(this._module.FS, parentPath(dir));
    return new WorldDir(dir, dir);
  }

  /** Mounts host directory `host` at a fresh mount point (NODEFS). */
  _mountHost(host) {
    const FS = this._module.FS;
    const point = `/host/${++this._mounts}`;
    mkdirTree(FS, point);
    FS.mount(this._module.NODEFS, { root: host }, point);
    const unmount = () => {
      try {
        FS.unmount(point);
        FS.rmdir(point);
      } catch {
        // A mount point that cannot go only costs an empty directory.
      }
    };
    return { point, hostRoot: host, unmount };
  }

  // ---- the in-memory calls ----
  // These calls only reach memory: a path on, under (or, to list or remove,
  // above) a host directory that a world mounted under Node throws, so
  // they never read or delete a real world. Every failure is a JulietError.

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
    const root = this._memoryPath(dir);
    const mounts = this._otherMounts();
    const parents = new Set([root]); // directories known to be in memory
    const writes = files.map((file) => {
      if (!file || typeof file !== 'object') throw new TypeError('each file must be an object { path, bytes }');
      const rel = checkRelative(file.path);
      const bytes = file.bytes;
      if (!(bytes instanceof Uint8Array) && typeof bytes !== 'string') {
        throw new TypeError(`bytes of ${rel} must be a Uint8Array or a string, got ${describe(bytes)}`);
      }
      const full = childPath(root, rel);
      // A mount below dir: checked by name, and by node once per directory
      // (a lookup per file would cost as much as the writes).
      const parent = parentPath(full);
      const mount = mounts.find((point) => isWithin(full, point)) || (parents.has(parent) ? null : this._linkedMount(parent));
      if (mount) throw notInMemory(full, mount);
      parents.add(parent);
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
    const abs = this._memoryPath(path);
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
    const root = this._memoryPath(dir, true);
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
    const root = this._memoryPath(dir, true);
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

  /**
   * `path` as an absolute path of the module's file system ('.' and '..'
   * resolved as the file system resolves them), checked to be in memory:
   * on or under the mount of another file system (a host directory), it
   * throws a JulietError 'invalid_argument'. With `holding`, a path with
   * such a mount below it throws too (a walk of it would reach the mount).
   */
  _memoryPath(path, holding = false) {
    const abs = resolvePath(path);
    const mount = this._otherMounts().find((point) => isWithin(abs, point) || (holding && isWithin(point, abs)));
    if (mount) throw notInMemory(abs, mount);
    const linked = this._linkedMount(abs);
    if (linked) throw notInMemory(abs, linked);
    return abs;
  }

  /** Mount points of the file systems that are not in memory (MEMFS). */
  _otherMounts() {
    const FS = this._module.FS;
    return FS.getMounts(FS.root.mount)
      .filter((m) => m.type !== this._module.MEMFS)
      .map((m) => m.mountpoint);
  }

  /**
   * The mount point of a file system not in memory that `abs` (or its
   * nearest existing parent) is on once symbolic links are followed, or
   * null: a link can lead where its name does not say.
   */
  _linkedMount(abs) {
    const FS = this._module.FS;
    for (let path = abs; ; path = parentPath(path)) {
      let node;
      try {
        node = FS.lookupPath(path, { follow: true }).node;
      } catch {
        continue; // missing: its parent decides ('/' always exists)
      }
      return node.mount.type === this._module.MEMFS ? null : node.mount.mountpoint;
    }
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

/** True if absolute path `abs` is `dir` or lies under it. */
function isWithin(abs, dir) {
  return abs === dir || abs.startsWith(dir === '/' ? '/' : `${dir}/`);
}

function notInMemory(path, mount) {
  return new JulietError(
    'invalid_argument',
    `not in memory: ${mount} is a mounted host directory (or other file system), ` +
      'which writeFiles, readFile, listFiles and removeFiles never touch',
    { path },
  );
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
