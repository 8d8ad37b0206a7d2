// Shared set-up of the node:test suites: the fixtures shared with the
// browser tests (tests/shared/fixtures.js: paths of the repository, its
// fixtures and builds, temporary copies of worlds, the native CLI), and
// helpers of these suites only.
import assert from 'node:assert/strict';

export { assets, copyWorld, nativeCli, readTree, repo, runCli, sampleWorld, tempDir } from '../shared/fixtures.js';

/**
 * The `; key` -> value line pairs of a .jasset file's text, values as raw
 * strings: for checking what a save wrote to disk independently of the
 * engine (values are never interpreted here; the engine reads them).
 */
export function parseJasset(text) {
  const lines = text.replace(/\r\n/g, '\n').split('\n');
  const out = {};
  for (let i = 0; i + 1 < lines.length; i++) {
    if (lines[i].startsWith('; ')) {
      out[lines[i].slice(2).trim()] = lines[i + 1].trim();
      i++;
    }
  }
  return out;
}

/**
 * The text of an entity file: entity 0xb7 of class `cls` at 0 0 0 with
 * `key` holding value, then the `extra` lines.
 */
export function entityText(cls, key, value, extra = []) {
  return [
    '; asset_type',
    'entity_instance',
    '; id',
    '0x00000000000000b7',
    '; class',
    cls,
    '; version',
    '1',
    '; class_version',
    '1',
    '; position',
    '0 0 0',
    `; ${key}`,
    value,
    ...extra,
    '',
  ].join('\n');
}

/** A small deterministic random generator (mulberry32): next() in [0, 1). */
export function rng(seed) {
  let state = seed >>> 0;
  const next = () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
  next.int = (n) => Math.floor(next() * n);
  return next;
}

/**
 * Checks the engine's verdict on typed text (Juliet#checkValue): each row
 * of `valid` ([type, text, options, value, canonical]) gives its value and
 * canonical text, each row of `refused` ([type, text, error, col]) the
 * engine's message and column.
 */
export function assertChecks(juliet, valid, refused) {
  for (const [type, text, options, value, canonical] of valid) {
    assert.deepEqual(juliet.checkValue(type, text, options), { value, text: canonical }, `${type} ${text}`);
  }
  for (const [type, text, error, col] of refused) {
    assert.deepEqual(juliet.checkValue(type, text), { error, col }, `${type} ${JSON.stringify(text)}`);
  }
}

/** The snapshot text of the world in directory `dir` (opened, then closed). */
export async function snapshotOf(juliet, dir) {
  const world = juliet.openWorld(dir);
  try {
    return await world.snapshot();
  } finally {
    world.close();
  }
}

// A link's bytes by hand: deflate-raw and base64url, and back (what
// juliet-world does around the C codecs).
async function pipe(bytes, stream) {
  const response = new Response(new Blob([bytes]).stream().pipeThrough(stream));
  return new Uint8Array(await response.arrayBuffer());
}
export const deflate = (bytes) => pipe(bytes, new CompressionStream('deflate-raw'));
export const inflate = (bytes) => pipe(bytes, new DecompressionStream('deflate-raw'));
export const b64 = (bytes) => Buffer.from(bytes).toString('base64url');
export const unb64 = (text) => new Uint8Array(Buffer.from(text, 'base64url'));
