// snapshot.js - a world's snapshot bytes (encoded and decoded by C) as the
// short URL-safe text of a link and back: deflate-raw here, base64url and
// the link's payload in C.
import { deflate, inflate, inflateHead } from './deflate.js';
import { JulietError } from './errors.js';

const encoder = new TextEncoder();
const decoder = new TextDecoder();

/**
 * The text of snapshot bytes: deflated, then base64url.
 * @param {import('./wasm.js').Wasm} wasm
 * @param {Uint8Array} bytes
 * @returns {Promise<string>}
 */
export async function snapshotText(wasm, bytes) {
  const { c } = wasm;
  const packed = await deflate(bytes);
  const inPtr = wasm.copyIn(packed);
  let outPtr = 0;
  try {
    outPtr = wasm.malloc(c.jlw_base64url_encoded_size(packed.length));
    const length = c.jlw_base64url_encode(inPtr, packed.length, outPtr);
    return decoder.decode(wasm.copyOut(outPtr, length));
  } finally {
    wasm.free(outPtr);
    wasm.free(inPtr);
  }
}

/**
 * The snapshot bytes of a snapshot's text or of a whole link `...#TEXT`;
 * rejects with a JulietError 'corrupt' for text that cannot be one.
 * @param {import('./wasm.js').Wasm} wasm
 * @param {string} text
 * @returns {Promise<Uint8Array>}
 */
export async function snapshotBytes(wasm, text) {
  const { c } = wasm;
  const maxText = c.jlw_snapshot_max_text();
  // A link may add its base and whitespace; anything much longer cannot
  // hold a snapshot the decoder would accept.
  if (text.length > maxText + 4096) {
    throw new JulietError('corrupt', `snapshot text longer than ${maxText} characters`);
  }
  let packed;
  const textBytes = encoder.encode(text);
  const textPtr = wasm.copyIn(textBytes);
  let outPtr = 0;
  const argsPtr = wasm.out;
  try {
    c.jlw_snapshot_link_payload(textPtr, textBytes.length, argsPtr, argsPtr + 4);
    const offset = wasm.u32(argsPtr);
    const size = wasm.u32(argsPtr + 4);
    if (size === 0) throw new JulietError('corrupt', 'the snapshot text is empty');
    if (size > maxText) throw new JulietError('corrupt', `snapshot text longer than ${maxText} characters`);
    const capacity = c.jlw_base64url_decoded_size_max(size);
    outPtr = wasm.malloc(capacity);
    const status = c.jlw_base64url_decode(textPtr + offset, size, outPtr, capacity, argsPtr);
    if (status !== 0) throw wasm.lastError(status);
    packed = wasm.copyOut(outPtr, wasm.u32(argsPtr));
  } finally {
    wasm.free(outPtr);
    wasm.free(textPtr);
  }
  return inflate(packed, c.jlw_snapshot_max_bytes());
}

const MAGIC = [0x4a, 0x4c, 0x57]; // "JLW": every snapshot starts so (snapshot.h)
const BASE64URL = /^[A-Za-z0-9_-]+$/;

/**
 * snapshotProblem for a link whose bytes start with `magic` (a change
 * link's, changes.js): the same reasons in the same terms.
 * @param {import('./wasm.js').Wasm} wasm
 * @param {string} text
 * @param {Error} err
 * @param {number[]} magic
 * @returns {Promise<'foreign'|'truncated'|'version'|'damaged'|null>}
 */
export async function linkProblem(wasm, text, err, magic) {
  if (err?.code !== 'corrupt') return null;
  const start = await linkStart(wasm, text, magic.length);
  if (!start || start.head.length < magic.length || magic.some((b, i) => start.head[i] !== b)) return 'foreign';
  const { end } = await inflateHead(start.bytes, 0, wasm.c.jlw_snapshot_max_bytes());
  if (end === 'truncated') return 'truncated';
  if (end === 'invalid') return 'damaged';
  if (/format version/.test(err.message)) return 'version';
  return 'damaged';
}

/**
 * The first `size` bytes a link's text (or a whole link) inflates to, as
 * far as it does ({ head, bytes: the deflated bytes }), or null for text
 * that is not base64url. What a link is, told by its magic, without
 * inflating all of it.
 * @param {import('./wasm.js').Wasm} wasm
 * @param {string} text
 * @param {number} size
 * @returns {Promise<{head: Uint8Array, bytes: Uint8Array}|null>}
 */
export async function linkStart(wasm, text, size) {
  if (text.length > wasm.c.jlw_snapshot_max_text() + 4096) return null;
  const payload = linkPayload(wasm, text);
  if (!BASE64URL.test(payload)) return null;
  // Every byte the text holds, whatever its end (a text cut one character
  // into a byte loses that character).
  const usable = payload.length % 4 === 1 ? payload.slice(0, -1) : payload;
  const bytes = Uint8Array.from(atob(usable.replace(/-/g, '+').replace(/_/g, '/')), (c) => c.charCodeAt(0));
  const maxBytes = wasm.c.jlw_snapshot_max_bytes();
  // A Juliet link starts with the magic as soon as anything inflates: look
  // at a short start first, so that damage further on does not hide it.
  let head;
  for (let n = 64; ; n *= 8) {
    head = await inflateHead(bytes.subarray(0, n), size, maxBytes);
    if (head.head.length === size || head.end === 'invalid' || n >= bytes.length) break;
  }
  return { head: head.head, bytes };
}

/**
 * Why snapshot text (or a link) that failed to open with `err` is not a
 * level, in the terms of someone holding a link: 'foreign' (not a Juliet
 * link at all), 'truncated' (its text stops short, as when a chat app or a
 * paste cuts a long link), 'version' (a Juliet link another version of the
 * format), 'damaged' (characters changed on the way: the data or its
 * checksum is wrong). Null when the failure is not about the text (e.g.
 * a class the snapshot needs).
 * @param {import('./wasm.js').Wasm} wasm
 * @param {string} text
 * @param {Error} err the failure of openSnapshot(text)
 * @returns {Promise<'foreign'|'truncated'|'version'|'damaged'|null>}
 */
export async function snapshotProblem(wasm, text, err) {
  return linkProblem(wasm, text, err, MAGIC);
}

/**
 * The entities a snapshot holds, as the engine tells them when a world is
 * too small for it (a 'capacity' error, met in its header before any of
 * them is read: snapshot_decode.c), else null.
 * @param {Error} err the failure of decoding a snapshot into a world
 * @returns {number|null}
 */
export function entitiesHeld(err) {
  const held = err?.code === 'capacity' ? /^(?:snapshot byte \d+: )?snapshot has (\d+) entities/.exec(err.message) : null;
  return held ? Number(held[1]) : null;
}

// The snapshot text inside a link (after its last '#', blanks trimmed): the
// C rule (jl_snapshot_link_payload).
function linkPayload(wasm, text) {
  const textBytes = encoder.encode(text);
  const textPtr = wasm.copyIn(textBytes);
  const argsPtr = wasm.out;
  try {
    wasm.c.jlw_snapshot_link_payload(textPtr, textBytes.length, argsPtr, argsPtr + 4);
    const offset = wasm.u32(argsPtr);
    return decoder.decode(textBytes.subarray(offset, offset + wasm.u32(argsPtr + 4)));
  } finally {
    wasm.free(textPtr);
  }
}
