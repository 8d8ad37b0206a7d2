// preread.js - under Node, the files of a world on the host's disk read
// with Node's own fs before the engine loads the world (jl_world_load_preread):
// through Emscripten's NODEFS each file cost a dozen path lookups in
// JavaScript and as many host calls, 60 µs where Node reads one in 7. The
// engine takes each file read here from memory, with the stamp it was read
// with, and reads any other the usual way: a file left out here (unreadable,
// not a regular file, too large, changed while read) is read again by the
// engine, which reports it as it always did. Reading one file after another
// is the fastest here: Node's asynchronous reads (many in flight on its
// thread pool) took four to eight times as long on a 2-core machine.
import { ENTITIES_DIR, FILE_MAX, SETTINGS_FILE } from './constants.js';

const encoder = new TextEncoder();
const SECOND = 1_000_000_000n;
// The bytes read ahead at most (they are copied into the wasm heap, which
// never shrinks): the files past it the engine reads itself.
const BUDGET = 256 << 20;

/**
 * The settings file and the entity files of host directory `host` (the
 * world mounted at `vpath` in the module's file system), read now: paths
 * as the engine names them (NUL after each), their bytes one after
 * another, per file its size, inode, device, and modification time in
 * seconds and nanoseconds (`facts`), and `readMs`, the time before the
 * first read.
 * @returns {{ count: number, paths: Uint8Array, data: Uint8Array, facts: Float64Array, readMs: number }}
 */
export function prereadWorld(host, vpath) {
  const fs = process.getBuiltinModule('fs');
  const readMs = Date.now();
  const reader = new Reader(fs);
  reader.file(`${host}/${SETTINGS_FILE}`, `${vpath}/${SETTINGS_FILE}`);
  let names = [];
  try {
    names = fs.readdirSync(`${host}/${ENTITIES_DIR}`);
  } catch {
    // No Entities folder, or none to read: the engine says which.
  }
  for (const name of names) {
    if (reader.full) break;
    // Links are followed, as the engine follows them; a folder, FIFO or
    // socket is left to the engine once opened (without blocking).
    if (name.endsWith('.jasset')) reader.file(`${host}/${ENTITIES_DIR}/${name}`, `${vpath}/${ENTITIES_DIR}/${name}`);
  }
  return reader.done(readMs);
}

// Files read one after another into one growing buffer.
class Reader {
  constructor(fs) {
    this._fs = fs;
    this._flags = fs.constants.O_RDONLY | fs.constants.O_NONBLOCK; // a FIFO never blocks the open
    this._bytes = new Uint8Array(1 << 20);
    this._at = 0;
    this.full = false; // the budget is spent
    this._paths = [];
    this._facts = [];
  }

  // Reads the file at host path `path` (the engine's `vpath`), unless it
  // is one the engine has to read and report itself.
  file(path, vpath) {
    const fs = this._fs;
    let fd;
    try {
      fd = fs.openSync(path, this._flags);
    } catch {
      return;
    }
    try {
      const before = fs.fstatSync(fd, { bigint: true });
      if (!before.isFile() || before.size > BigInt(FILE_MAX)) return;
      const size = Number(before.size);
      if (this._at + size > BUDGET) {
        this.full = true;
        return;
      }
      this._room(size + 1);
      // One byte more than the size: a file longer than it said is read
      // again by the engine, as is one changed in place meanwhile.
      const got = fs.readSync(fd, this._bytes, this._at, size + 1, 0);
      if (got !== size) return;
      const after = fs.fstatSync(fd, { bigint: true });
      if (after.size !== before.size || after.mtimeNs !== before.mtimeNs) return;
      this._at += size;
      this._paths.push(vpath);
      this._facts.push(size, Number(before.ino), Number(before.dev), Number(before.mtimeNs / SECOND), Number(before.mtimeNs % SECOND));
    } catch {
      // Unreadable after all: the engine reads it and says why.
    } finally {
      fs.closeSync(fd);
    }
  }

  // Room for n more bytes.
  _room(n) {
    if (this._at + n <= this._bytes.length) return;
    const grown = new Uint8Array(Math.max(2 * this._bytes.length, this._at + n));
    grown.set(this._bytes.subarray(0, this._at));
    this._bytes = grown;
  }

  done(readMs) {
    const count = this._paths.length;
    const paths = encoder.encode(count ? this._paths.join('\0') + '\0' : '');
    return { count, paths, data: this._bytes.subarray(0, this._at), facts: Float64Array.from(this._facts), readMs };
  }
}
