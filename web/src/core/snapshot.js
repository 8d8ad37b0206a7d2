// snapshot.js - a world's snapshot bytes (encoded and decoded by C) as the
// short URL-safe text of a link and back: deflate-raw here, base64url and
// the link's payload in C.
import { deflate, inflate } from './deflate.js';
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
