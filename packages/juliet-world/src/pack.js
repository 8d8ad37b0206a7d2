// pack.js - the world pack, the one binary form in which a server and a page
// exchange world files (the inspector's local server, web/server/, and its
// page): a whole world in one response, the files changed since a version,
// the changes of a save and its answer. Plain JavaScript without the wasm
// module, used under Node, in a page and in a worker.
//
//   "JLWP"  u32 M  meta (M bytes of JSON)  padding to 4
//   u32 N  u32 P  N x u32 seq  N x i32 size  paths (P bytes: UTF-8, '\n' between)
//   the bytes of each file with a size, in order
//
// All numbers little endian. `seq` is the server's version of the file (0:
// never seen), `size` -1 for no file (deleted, or to delete). The index is
// binary so that a 100,000-file world is read without building an object
// per file (readPackIndex). decodePack treats its input as hostile: every
// size is checked against what is there, nothing may trail.

const MAGIC = [0x4a, 0x4c, 0x57, 0x50]; // "JLWP"
const encoder = new TextEncoder();
const decoder = new TextDecoder('utf-8', { fatal: true });

const pad4 = (n) => (n + 3) & ~3;
const LITTLE_ENDIAN = new Uint8Array(new Uint32Array([1]).buffer)[0] === 1;
const PACK_MAX = 0x7fffffff; // what one ArrayBuffer holds everywhere

/**
 * Packs `files` ([{ path, seq, bytes: Uint8Array | null }]) with `meta`
 * (a JSON-able object) into one buffer. Paths may not hold '\n'.
 * @returns {Uint8Array}
 */
export function encodePack(meta, files) {
  const parts = encodePackParts(meta, files);
  const out = new Uint8Array(parts.reduce((sum, part) => sum + part.length, 0));
  let at = 0;
  for (const part of parts) {
    out.set(part, at);
    at += part.length;
  }
  return out;
}

/**
 * encodePack's bytes as parts to send one after another, without copying
 * the files: the header and index, then the files' bytes, those that lie
 * one after another in one buffer (views of one large read) as one part.
 * @returns {Uint8Array[]}
 */
export function encodePackParts(meta, files) {
  const runs = packRuns();
  for (const { bytes } of files) if (bytes) runs.add(bytes.buffer, bytes.byteOffset, bytes.length);
  const columns = {
    paths: files.map((f) => f.path),
    seqs: files.map((f) => f.seq),
    sizes: files.map((f) => (f.bytes ? f.bytes.length : -1)),
  };
  return encodePackColumns(meta, columns, runs.parts());
}

/**
 * encodePackParts from columns, as readPackIndex gives them back: `paths`,
 * `seqs` and `sizes` (-1: no file) a file, and `parts`, the files' bytes
 * one after another (packRuns). No object a file: a server packs 1,000,000
 * files this way in a fraction of the time. `pathBytes`, the paths already
 * as the pack holds them (UTF-8, '\n' between two), stands for `paths` and
 * is sent as it is, not copied.
 * @returns {Uint8Array[]}
 */
export function encodePackColumns(meta, { paths, seqs, sizes, pathBytes }, parts) {
  const head = encoder.encode(JSON.stringify(meta));
  const joined = pathBytes ?? encoder.encode(paths.join('\n'));
  const n = seqs.length;
  const indexAt = pad4(8 + head.length);
  const pathsAt = indexAt + 8 + n * 8;
  const first = new Uint8Array(pathsAt + (pathBytes ? 0 : joined.length));
  const view = new DataView(first.buffer);
  first.set(MAGIC, 0);
  view.setUint32(4, head.length, true);
  first.set(head, 8);
  view.setUint32(indexAt, n, true);
  view.setUint32(indexAt + 4, joined.length, true);
  if (LITTLE_ENDIAN) {
    // At once, not a number at a time (0.4 s at 1,000,000 files).
    new Uint32Array(first.buffer, indexAt + 8, n).set(seqs);
    new Int32Array(first.buffer, indexAt + 8 + n * 4, n).set(sizes);
  } else {
    for (let i = 0; i < n; i++) {
      view.setUint32(indexAt + 8 + i * 4, seqs[i], true);
      view.setInt32(indexAt + 8 + n * 4 + i * 4, sizes[i], true);
    }
  }
  if (pathBytes) return [first, pathBytes, ...parts];
  first.set(joined, pathsAt);
  return [first, ...parts];
}

/**
 * The parts of a pack's files' bytes, added in order as (buffer, offset,
 * size): bytes that follow the last ones in the same buffer extend its
 * part, not copied. add(buffer, offset, size); parts() gives them.
 */
export function packRuns() {
  const parts = [];
  let run = null; // { buffer, from, to }: the bytes added last, still one part
  const close = () => run && parts.push(new Uint8Array(run.buffer, run.from, run.to - run.from));
  return {
    add(buffer, offset, size) {
      if (size === 0) return;
      if (run && run.buffer === buffer && run.to === offset) {
        run.to += size;
        return;
      }
      close();
      run = { buffer, from: offset, to: offset + size };
    },
    parts() {
      close();
      run = null;
      return parts;
    },
  };
}

// size bytes of `bytes` from `at` on, without copying (a new view is much
// cheaper than subarray() when there are 100,000 of them).
const view = (bytes, at, size) => new Uint8Array(bytes.buffer, bytes.byteOffset + at, size);

function fail(what) {
  throw new Error(`world pack: ${what}`);
}

// The index of the pack at the start of `bytes`: { meta, paths, pathBytes,
// seqs, sizes, dataAt, end } (`end`: the pack's whole length). If `bytes` holds
// only the start of a pack, null (`whole`: it is an error, saying what is
// missing). Anything malformed throws.
function indexOf(bytes, whole) {
  const short = (what) => (whole ? fail(what) : null);
  if (bytes.length < 8) return whole ? fail('not a world pack') : null;
  if (MAGIC.some((b, i) => bytes[i] !== b)) throw new Error('not a world pack');
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.length);
  const headLength = view.getUint32(4, true);
  const indexAt = pad4(8 + headLength);
  if (indexAt + 8 > bytes.length) return short('header longer than the pack');
  const n = view.getUint32(indexAt, true);
  const pathsLength = view.getUint32(indexAt + 4, true);
  const pathsAt = indexAt + 8 + n * 8;
  if (pathsAt + pathsLength > bytes.length) return short('index longer than the pack');
  let meta;
  try {
    meta = JSON.parse(decoder.decode(bytes.subarray(8, 8 + headLength)));
  } catch {
    fail('the header is not JSON');
  }
  if (meta === null || typeof meta !== 'object' || Array.isArray(meta)) fail('the header is not an object');
  // Copied out (pathBytes too), so that they stay aligned and the input
  // may be handed on.
  const seqs = new Uint32Array(n);
  const sizes = new Int32Array(n);
  for (let i = 0; i < n; i++) {
    seqs[i] = view.getUint32(indexAt + 8 + i * 4, true);
    sizes[i] = view.getInt32(indexAt + 8 + n * 4 + i * 4, true);
  }
  let paths;
  try {
    paths = n === 0 ? [] : decoder.decode(bytes.subarray(pathsAt, pathsAt + pathsLength)).split('\n');
  } catch {
    fail('paths are not UTF-8');
  }
  if (paths.length !== n) fail(`${n} files announced, ${paths.length} paths there`);
  const dataAt = pathsAt + pathsLength;
  let end = dataAt;
  for (let i = 0; i < n; i++) {
    if (paths[i].length === 0 || paths[i].length > 1024) fail(`file ${i} has no valid path`);
    if (sizes[i] < -1) fail(`${paths[i]}: bad size`);
    if (sizes[i] > 0) end += sizes[i];
  }
  return { meta, paths, pathBytes: bytes.slice(pathsAt, dataAt), seqs, sizes, dataAt, end };
}

/**
 * The meta and the index of a pack (an ArrayBuffer or a Uint8Array),
 * without its files' bytes: { meta, paths, pathBytes (the paths as the
 * pack holds them, for pathIndex), seqs (Uint32Array), sizes (Int32Array,
 * -1 for no file), dataAt (where the first file's bytes start
 * in `bytes`), bytes }. Throws an Error saying what is wrong for anything
 * that is not a well-formed pack.
 */
export function readPackIndex(input) {
  const bytes = input instanceof Uint8Array ? input : new Uint8Array(input);
  const index = indexOf(bytes, true);
  if (index.end > bytes.length) fail(`${index.end - index.dataAt} bytes of files announced, fewer there`);
  if (index.end < bytes.length) fail('bytes after the last file');
  return { ...index, bytes };
}

/**
 * Reads a pack as its bytes arrive (the chunks of a download), so that its
 * files can be used before the last one is in. push(chunk) returns the
 * files complete since the last push, [{ path, seq, bytes }] with bytes a
 * view (null for no file); `index` is readPackIndex's, without `bytes`,
 * once the index is in; end() throws if the pack is not complete.
 * Malformed input throws as readPackIndex does. pushRuns(chunk) is push
 * without an object per file, for readers of 100,000 files: the files
 * complete since the last push as runs of the index, [{ from, to, bytes,
 * at }] (files from..to-1, their bytes one after another in `bytes` from
 * `at` on).
 *
 * The files' bytes are not gathered into one buffer: a run's bytes are the
 * chunk's own, and only a file split between chunks is copied, into a
 * buffer of its own. Copying a 220 MB pack into fresh memory took 0.7 s at
 * 1,000,000 files, most of it the memory's first touch.
 */
export function packReader() {
  let head = new Uint8Array(1 << 16); // the bytes until the index is whole
  let headLength = 0;
  let received = 0; // bytes of the pack so far
  let next = 0; // the next file to hand out
  let split = null; // the bytes of file `next`, begun in an earlier chunk
  let splitLength = 0;
  const reader = {
    index: null,
    pushRuns(chunk) {
      received += chunk.length;
      if (reader.index && received > reader.index.end) fail('bytes after the last file');
      if (!reader.index) {
        if (headLength + chunk.length > head.length) {
          const grown = new Uint8Array(Math.max(headLength + chunk.length, head.length * 2));
          grown.set(head.subarray(0, headLength));
          head = grown;
        }
        head.set(chunk, headLength);
        headLength += chunk.length;
        const index = indexOf(head.subarray(0, headLength), false);
        if (!index) return [];
        if (received > index.end) fail('bytes after the last file');
        if (index.end > PACK_MAX) fail(`${index.end} bytes announced, more than a pack may hold`);
        reader.index = index;
        chunk = head.subarray(index.dataAt, headLength);
        head = null;
      }
      const { sizes } = reader.index;
      const runs = [];
      let at = 0;
      if (split) {
        const take = Math.min(split.length - splitLength, chunk.length);
        split.set(chunk.subarray(0, take), splitLength);
        splitLength += take;
        at = take;
        if (splitLength < split.length) return runs;
        runs.push({ from: next, to: next + 1, bytes: split, at: 0 });
        next++;
        split = null;
      }
      const run = { from: next, to: next, bytes: chunk, at };
      while (next < sizes.length && at + Math.max(sizes[next], 0) <= chunk.length) at += Math.max(sizes[next++], 0);
      run.to = next;
      if (run.to > run.from) runs.push(run);
      if (at < chunk.length) {
        // File `next` begins here and ends in a later chunk.
        split = new Uint8Array(sizes[next]);
        split.set(chunk.subarray(at));
        splitLength = chunk.length - at;
      }
      return runs;
    },
    push(chunk) {
      const runs = reader.pushRuns(chunk);
      const { paths, seqs, sizes } = reader.index ?? {};
      const out = [];
      for (const run of runs) {
        for (let i = run.from, pos = run.at; i < run.to; i++) {
          const size = sizes[i];
          out.push({ path: paths[i], seq: seqs[i], bytes: size < 0 ? null : view(run.bytes, pos, size) });
          if (size > 0) pos += size;
        }
      }
      return out;
    },
    end() {
      if (!reader.index) indexOf(head.subarray(0, headLength), true);
      if (received < reader.index.end) fail(`${reader.index.end - reader.index.dataAt} bytes of files announced, fewer there`);
    },
  };
  return reader;
}

/**
 * The meta and files of a pack: [{ path, seq, bytes }], each file's bytes a
 * view into the input (null for no file). Throws as readPackIndex does.
 * @returns {{ meta: object, files: { path: string, seq: number, bytes: Uint8Array | null }[] }}
 */
export function decodePack(input) {
  const { meta, paths, seqs, sizes, dataAt, bytes } = readPackIndex(input);
  const files = new Array(paths.length);
  let at = dataAt;
  for (let i = 0; i < paths.length; i++) {
    const size = sizes[i];
    // subarray, not view: a Node Buffer's part stays a Buffer (the server
    // reads saved texts as such).
    files[i] = { path: paths[i], seq: seqs[i], bytes: size < 0 ? null : bytes.subarray(at, at + size) };
    if (size > 0) at += size;
  }
  return { meta, files };
}
