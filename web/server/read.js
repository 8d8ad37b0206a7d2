// Reading world files for the server's store (store.js): one at a time
// (readWorldFile), or many at once, as its first read does (readFiles): each
// file's bytes go into large shared chunks (no buffer per file, which at
// 1,000,000 files costs more in garbage collection than the reads), beside
// its stamp, so that the engine thread can open the world from the same
// bytes without reading them again (juliet-world's openWorld `read`
// option). Four system calls a file: open, fstat, read, close. Never
// through a symbolic link, never a file that is not a regular file or is
// over the engine's limit.
import { closeSync, constants, fstatSync, lstatSync, openSync, readFileSync, readSync } from 'node:fs';
import { availableParallelism } from 'node:os';
import { join } from 'node:path';
import { Worker } from 'node:worker_threads';
import { FILE_MAX } from 'juliet-world';

const CHUNK = 16 << 20;
// O_NOFOLLOW: a symbolic link is not followed out of the world; O_NONBLOCK:
// opening a FIFO does not hang the server.
const FLAGS = constants.O_RDONLY | constants.O_NOFOLLOW | constants.O_NONBLOCK;
const UNREADABLE = ['ENOENT', 'ELOOP', 'ENOTDIR', 'EISDIR', 'ENXIO', 'EACCES'];
const FILE = 1;
const NOT_A_FILE = 2;
const SECOND = 1_000_000_000n;

// A typed array in shared memory: the engine thread is given it, not a copy.
const shared = (Type, n) => new Type(new SharedArrayBuffer(n * Type.BYTES_PER_ELEMENT));

// What tells a file rewritten from one left alone, without reading it:
// from a stat with { bigint: true }, or from readFiles' numbers (stampAt).
const stampOf = (st) => `${st.ino}:${st.size}:${st.mtimeNs}`;

/** Stamp of file i of readFiles' result, as stampOf gives it. */
export function stampAt({ stamps: s }, i) {
  return `${s[5 * i]}:${s[5 * i + 2]}:${BigInt(s[5 * i + 3]) * SECOND + BigInt(s[5 * i + 4])}`;
}

/** The stamp of what is at `abs` now (not following a link), or null. */
export function statStamp(abs) {
  try {
    return stampOf(lstatSync(abs, { bigint: true }));
  } catch (err) {
    if (UNREADABLE.includes(err.code)) return null;
    throw err;
  }
}

/** The bytes of the world file at `abs` (null when there is none a world
 * could use) and its stamp. */
export function readWorldFile(abs) {
  let fd;
  try {
    fd = openSync(abs, FLAGS);
  } catch (err) {
    if (UNREADABLE.includes(err.code)) return { bytes: null, stamp: null };
    throw err;
  }
  try {
    const st = fstatSync(fd, { bigint: true });
    const stamp = stampOf(st);
    if (!st.isFile() || st.size > FILE_MAX) return { bytes: null, stamp };
    const bytes = readFileSync(fd);
    return { bytes: bytes.length > FILE_MAX ? null : bytes, stamp };
  } finally {
    closeSync(fd);
  }
}

/**
 * Reads the files at `paths` (relative to `dir`). Returns { paths, sizes
 * (Int32Array: -1 for no file the world could use), kinds (Uint8Array: 1
 * a file read, 2 something there the world cannot use, 0 nothing there or
 * a file that changed while it was read: the caller reads it again), chunks
 * (SharedArrayBuffer[]), at (Float64Array: chunk index * CHUNK + offset),
 * stamps (Float64Array, 5 a file: inode, device, size, whole seconds and
 * nanoseconds of the modification time; 0s for kind 0), startedSec
 * (when the reading began, in seconds since the epoch) }. Every array is
 * in shared memory.
 */
export function readFiles(dir, paths) {
  const n = paths.length;
  const out = {
    paths,
    sizes: shared(Int32Array, n).fill(-1),
    chunks: [],
    at: shared(Float64Array, n),
    stamps: shared(Float64Array, 5 * n),
    kinds: shared(Uint8Array, n),
    startedSec: (performance.timeOrigin + performance.now()) / 1000,
  };
  let chunk = null;
  let used = 0;
  for (let i = 0; i < n; i++) {
    let fd;
    try {
      fd = openSync(join(dir, paths[i]), FLAGS);
    } catch (err) {
      if (UNREADABLE.includes(err.code)) continue;
      throw err;
    }
    try {
      const st = fstatSync(fd, { bigint: true });
      const s = out.stamps.subarray(5 * i, 5 * i + 5);
      s[0] = Number(st.ino);
      s[1] = Number(st.dev);
      s[2] = Number(st.size);
      s[3] = Number(st.mtimeNs / SECOND);
      s[4] = Number(st.mtimeNs % SECOND);
      out.kinds[i] = NOT_A_FILE;
      const size = Number(st.size);
      if (!st.isFile() || size > FILE_MAX) continue;
      if (!chunk || used + size + 1 > CHUNK) {
        chunk = new Uint8Array(new SharedArrayBuffer(CHUNK)); // FILE_MAX + 1 fits
        out.chunks.push(chunk.buffer);
        used = 0;
      }
      // One byte more than the size: a file that grew meanwhile is not
      // taken for its first bytes.
      if (readSync(fd, chunk, used, size + 1, 0) !== size) {
        // Changed while it was read: the caller reads it again, alone.
        out.kinds[i] = 0;
        s.fill(0);
        continue;
      }
      out.kinds[i] = FILE;
      out.sizes[i] = size;
      out.at[i] = (out.chunks.length - 1) * CHUNK + used;
      used += size;
    } finally {
      closeSync(fd);
    }
  }
  return out;
}

/** The bytes of file i of readFiles' result (a view), or null. */
export function bytesOf(read, i) {
  const { buffer, offset, size } = placeOf(read, i);
  return size < 0 ? null : Buffer.from(buffer, offset, size);
}

/** Where file i of readFiles' result lies: { buffer, offset, size } (size
 * -1: none). */
export function placeOf(read, i) {
  const size = read.sizes[i];
  if (size < 0) return { buffer: null, offset: 0, size };
  const at = read.at[i];
  const chunk = Math.floor(at / CHUNK);
  return { buffer: read.chunks[chunk], offset: at - chunk * CHUNK, size };
}

/** The paths (relative, '/'-separated, no line break) as UTF-8 in shared
 * memory, a '\n' between two: for another thread's pathIndex (juliet-world). */
export function sharePaths(paths) {
  const joined = paths.join('\n');
  const bytes = Buffer.from(new SharedArrayBuffer(Buffer.byteLength(joined)));
  bytes.write(joined);
  return new Uint8Array(bytes.buffer);
}

// Below this many files one thread reads them: a thread takes about 30 ms
// to start.
const ALONE_MAX = 20_000;

/** readFiles with the paths shared among threads, one a processor (the
 * disk's cache answers in parallel): half the time on two. Its result also
 * has the paths as sharePaths gives them (`pathBytes`): the engine thread
 * and the whole world's pack use those bytes. */
export async function readFilesInThreads(dir, paths, threads = Math.min(availableParallelism(), Math.ceil(paths.length / ALONE_MAX))) {
  const read = threads <= 1 ? readFiles(dir, paths) : joinReads(paths, await readInThreads(dir, paths, threads));
  read.pathBytes = sharePaths(paths);
  return read;
}

function readInThreads(dir, paths, threads) {
  const per = Math.ceil(paths.length / threads);
  return Promise.all(
    Array.from({ length: threads }, (_, k) => {
      const worker = new Worker(new URL('./readThread.js', import.meta.url), {
        workerData: { dir, paths: paths.slice(k * per, (k + 1) * per) },
      });
      return new Promise((resolve, reject) => {
        worker.once('message', resolve);
        worker.once('error', reject);
        worker.once('exit', (code) => reject(new Error(`a reading thread stopped (exit code ${code})`)));
      });
    }),
  );
}

// One result of readFiles from the results of consecutive runs of paths.
function joinReads(paths, parts) {
  const n = paths.length;
  const out = {
    paths,
    sizes: shared(Int32Array, n),
    chunks: [],
    at: shared(Float64Array, n),
    stamps: shared(Float64Array, 5 * n),
    kinds: shared(Uint8Array, n),
    startedSec: Math.min(...parts.map((p) => p.startedSec)),
  };
  let from = 0;
  for (const part of parts) {
    const shift = out.chunks.length * CHUNK;
    out.sizes.set(part.sizes, from);
    out.kinds.set(part.kinds, from);
    out.stamps.set(part.stamps, 5 * from);
    for (let i = 0; i < part.at.length; i++) out.at[from + i] = part.at[i] + shift;
    out.chunks.push(...part.chunks);
    from += part.sizes.length;
  }
  return out;
}
