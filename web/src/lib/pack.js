// The one binary form in which the local server (web/server/) and the page
// exchange world files: a whole world in one response, the files changed
// since a version, the changes of a save and its answer. Plain JavaScript,
// used by the server under Node and by the page and its worker.
//
//   "JLWP"  u32 (little endian) H  H bytes of JSON  file bytes...
//
// The JSON is { ...meta, files: [[path, seq, size], ...] }: `seq` is the
// server's version of the file (0: never seen), `size` -1 for no file (a
// deleted file, or a file to delete); the bytes of the files with a size
// follow in the same order. decodePack treats its input as hostile: every
// size is checked against what is there, nothing may trail.

const MAGIC = [0x4a, 0x4c, 0x57, 0x50]; // "JLWP"
const PREFIX = 8;
const encoder = new TextEncoder();
const decoder = new TextDecoder('utf-8', { fatal: true });

/**
 * Packs `files` ([{ path, seq, bytes: Uint8Array | null }]) with `meta`
 * (a JSON-able object without a `files` key) into one buffer.
 * @returns {Uint8Array}
 */
export function encodePack(meta, files) {
  const list = files.map((f) => [f.path, f.seq, f.bytes ? f.bytes.length : -1]);
  const head = encoder.encode(JSON.stringify({ ...meta, files: list }));
  let total = PREFIX + head.length;
  for (const f of files) if (f.bytes) total += f.bytes.length;
  const out = new Uint8Array(total);
  out.set(MAGIC, 0);
  new DataView(out.buffer).setUint32(4, head.length, true);
  out.set(head, PREFIX);
  let at = PREFIX + head.length;
  for (const f of files) {
    if (!f.bytes) continue;
    out.set(f.bytes, at);
    at += f.bytes.length;
  }
  return out;
}

/**
 * The meta and files of a pack (an ArrayBuffer or a Uint8Array). Each
 * file's bytes are a view into the input (null for no file). Throws an
 * Error saying what is wrong for anything that is not a well-formed pack.
 * @returns {{ meta: object, files: { path: string, seq: number, bytes: Uint8Array | null }[] }}
 */
export function decodePack(input) {
  const bytes = input instanceof Uint8Array ? input : new Uint8Array(input);
  if (bytes.length < PREFIX || MAGIC.some((b, i) => bytes[i] !== b)) throw new Error('not a world pack');
  const headLength = new DataView(bytes.buffer, bytes.byteOffset, bytes.length).getUint32(4, true);
  if (headLength > bytes.length - PREFIX) throw new Error('world pack: header longer than the pack');
  let head;
  try {
    head = JSON.parse(decoder.decode(bytes.subarray(PREFIX, PREFIX + headLength)));
  } catch {
    throw new Error('world pack: the header is not JSON');
  }
  if (head === null || typeof head !== 'object' || Array.isArray(head) || !Array.isArray(head.files)) {
    throw new Error('world pack: no file list');
  }
  const { files: list, ...meta } = head;
  const files = new Array(list.length);
  let at = PREFIX + headLength;
  for (let i = 0; i < list.length; i++) {
    const entry = list[i];
    if (!Array.isArray(entry) || entry.length !== 3) throw new Error(`world pack: file ${i} is not [path, seq, size]`);
    const [path, seq, size] = entry;
    if (typeof path !== 'string' || path.length === 0 || path.length > 1024) throw new Error(`world pack: file ${i} has no valid path`);
    if (!Number.isSafeInteger(seq) || seq < 0) throw new Error(`world pack: ${path}: bad version`);
    if (!Number.isSafeInteger(size) || size < -1) throw new Error(`world pack: ${path}: bad size`);
    if (size > bytes.length - at) throw new Error(`world pack: ${path}: ${size} bytes announced, fewer there`);
    files[i] = { path, seq, bytes: size < 0 ? null : bytes.subarray(at, at + size) };
    if (size > 0) at += size;
  }
  if (at !== bytes.length) throw new Error('world pack: bytes after the last file');
  return { meta, files };
}
