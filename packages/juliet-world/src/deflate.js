// deflate.js - raw deflate of snapshot bytes through the platform's
// CompressionStream / DecompressionStream('deflate-raw') (Node and browsers
// have them; an Emscripten zlib port cannot be built here). Streams only,
// hence asynchronous.
import { JulietError } from './errors.js';

/** Pipes bytes through a (de)compression stream, stopping past maxBytes. */
async function pipeBytes(bytes, stream, maxBytes) {
  const writer = stream.writable.getWriter();
  const reader = stream.readable.getReader();
  // The writer's promises reject too when the data is bad; the reader
  // reports it, so these are only observed, never awaited first.
  const written = writer.write(bytes).then(() => writer.close());
  written.catch(() => {});
  const chunks = [];
  let total = 0;
  try {
    for (;;) {
      const { done, value } = await reader.read();
      if (done) break;
      total += value.length;
      if (total > maxBytes) {
        throw new JulietError('corrupt', `snapshot expands past ${maxBytes} bytes`);
      }
      chunks.push(value);
    }
  } catch (err) {
    reader.cancel().catch(() => {});
    writer.abort().catch(() => {});
    if (err instanceof JulietError) throw err;
    throw new JulietError('corrupt', `snapshot data is not valid deflate data (${err.message})`);
  }
  await written;
  const out = new Uint8Array(total);
  let offset = 0;
  for (const chunk of chunks) {
    out.set(chunk, offset);
    offset += chunk.length;
  }
  return out;
}

export async function deflate(bytes) {
  return pipeBytes(bytes, new CompressionStream('deflate-raw'), Infinity);
}

/**
 * Inflates at most maxBytes and rejects bytes after the end of the deflate
 * stream. Chromium's DecompressionStream rejects them itself; Node's
 * silently drops them, so inflate once more without the last byte: a
 * stream that really ends at the last byte then fails as truncated, one
 * followed by junk still succeeds.
 */
export async function inflate(bytes, maxBytes) {
  const out = await pipeBytes(bytes, new DecompressionStream('deflate-raw'), maxBytes);
  if (bytes.length > 0) {
    let shorter = true;
    try {
      await pipeBytes(bytes.subarray(0, bytes.length - 1), new DecompressionStream('deflate-raw'), maxBytes);
    } catch {
      shorter = false;
    }
    if (shorter) throw new JulietError('corrupt', 'bytes follow the end of the snapshot data');
  }
  return out;
}

/**
 * What inflating `bytes` gives, for telling why a link fails: the first
 * `headSize` bytes that come out, and how the data ends: 'complete',
 * 'truncated' (the data stops inside the stream, as a link cut short does)
 * or 'invalid' (bad data on the way). Past maxBytes of output it stops and
 * counts as complete. Node's stream names the zlib error (err.code);
 * Chromium's rejects the write for bad data and only the close for data
 * that stops short.
 * @returns {Promise<{head: Uint8Array, end: 'complete'|'truncated'|'invalid'}>}
 */
export async function inflateHead(bytes, headSize, maxBytes) {
  const stream = new DecompressionStream('deflate-raw');
  const writer = stream.writable.getWriter();
  const reader = stream.readable.getReader();
  const head = new Uint8Array(headSize);
  let got = 0;
  let total = 0;
  let failure = null;
  const reading = (async () => {
    try {
      for (;;) {
        const { done, value } = await reader.read();
        if (done) return;
        head.set(value.subarray(0, headSize - got), got);
        got = Math.min(headSize, got + value.length);
        total += value.length;
        if (total > maxBytes) return reader.cancel().catch(() => {});
      }
    } catch (err) {
      failure = err;
    }
  })();
  let written = true;
  try {
    await writer.write(bytes);
    // Node reports bad data a moment after the write, before the close.
    await new Promise((resolve) => setTimeout(resolve, 0));
  } catch {
    written = false;
  }
  const beforeClose = !written || failure !== null;
  if (!beforeClose && total <= maxBytes) writer.close().catch(() => {});
  else writer.abort().catch(() => {});
  await reading;
  let end = 'complete';
  if (failure) {
    const stoppedShort = failure.code ? failure.code === 'Z_BUF_ERROR' : !beforeClose;
    end = stoppedShort ? 'truncated' : 'invalid';
  }
  return { head: head.subarray(0, got), end };
}
