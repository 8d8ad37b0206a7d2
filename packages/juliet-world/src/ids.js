// ids.js - entity IDs on the JavaScript side: the "0x" + 16 hex digits
// form, its two 32-bit halves (how an ID crosses the wasm boundary), and
// the file an entity is saved in, Entities/<decimal ID>.jasset (and the
// path of a class file, Classes/<Name>.jclass). Plain
// JavaScript without the wasm module, so the inspector page uses it too.
// The C home of the same rules is jl_world_entity_path and
// jl_world_id_of_file_name (world_paths.c): the engine checks names itself
// when it loads a file (World#reloadFile).
import { describe } from './checks.js';
import { CLASSES_DIR, ENTITIES_DIR } from './constants.js';

const ID_PATTERN = /^0x[0-9a-fA-F]{16}$/;
const DECIMAL_PATTERN = /^[0-9]{1,20}$/;
// A canonical decimal ID: no leading zero (the loader refuses "012.jasset").
const PATH_PATTERN = new RegExp(`^${ENTITIES_DIR}/([1-9][0-9]{0,19})\\.jasset$`);
const ID_MAX = 0xffffffffffffffffn;
// A class name is an identifier (JL_CLASS_NAME_MAX bytes at most).
const CLASS_FILE_PATTERN = new RegExp(`^${CLASSES_DIR}/[A-Za-z_][A-Za-z0-9_]{0,62}\\.jclass$`);

/** Checks an entity ID argument and returns its [lo, hi] halves. */
export function splitId(id, what = 'id') {
  if (typeof id !== 'string' || !ID_PATTERN.test(id)) {
    throw new TypeError(`${what} must be an ID string like 0x00000000000000a1, got ${describe(id)}`);
  }
  return [parseInt(id.slice(10), 16), parseInt(id.slice(2, 10), 16)];
}

// The two hex digits of each byte: Number#toString(16) of a number above
// 2^31 takes V8's slow path (about 1 µs an ID, most of world.create()).
const HEX_BYTES = Array.from({ length: 256 }, (_, b) => (b + 256).toString(16).slice(1));

/** The length of an ID string: '0x' and 16 hex digits. */
export const ID_TEXT_LENGTH = 18;

const HEX_CODES = new Uint8Array([...'0123456789abcdef'].map((c) => c.charCodeAt(0)));
const ascii = new TextDecoder();

/**
 * The IDs of `idWords` (lo, hi halves per entity, as World#rows gives
 * them), those at `order` one after another, as one text of
 * ID_TEXT_LENGTH characters an ID: a million IDs cross to another thread
 * as one string far faster than as a million, and are not made one by one.
 * @param {Uint32Array} idWords
 * @param {ArrayLike<number>} order
 * @returns {string}
 */
export function idsText(idWords, order) {
  const out = new Uint8Array(order.length * ID_TEXT_LENGTH);
  for (let i = 0, at = 0; i < order.length; i++) {
    out[at++] = 48; // '0'
    out[at++] = 120; // 'x'
    for (const word of [idWords[2 * order[i] + 1], idWords[2 * order[i]]]) {
      for (let shift = 28; shift >= 0; shift -= 4) out[at++] = HEX_CODES[(word >>> shift) & 15];
    }
  }
  return ascii.decode(out);
}

/** The canonical ID string of two 32-bit halves. */
export function joinId(lo, hi) {
  const h = HEX_BYTES;
  return (
    '0x' +
    h[hi >>> 24] +
    h[(hi >>> 16) & 255] +
    h[(hi >>> 8) & 255] +
    h[hi & 255] +
    h[lo >>> 24] +
    h[(lo >>> 16) & 255] +
    h[(lo >>> 8) & 255] +
    h[lo & 255]
  );
}

/**
 * The file of an entity inside its world's directory:
 * 'Entities/<decimal ID>.jasset'.
 * @param {string} id
 * @returns {string}
 */
export function entityPath(id) {
  splitId(id);
  return `${ENTITIES_DIR}/${BigInt(id).toString(10)}.jasset`;
}

/**
 * The ID of the entity saved in `path` (relative to the world's directory,
 * as entityPath gives it), or null for any other file.
 * @param {string} path
 * @returns {string|null}
 */
export function idOfPath(path) {
  const match = typeof path === 'string' ? PATH_PATTERN.exec(path) : null;
  return match ? idOfNumber(match[1]) : null;
}

/**
 * The ID whose file name is the decimal number `digits` (leading zeros
 * allowed: a number a user typed, not a file name the loader reads), or
 * null if `digits` is not 1 to 20 decimal digits or is past 64 bits.
 * @param {string} digits
 * @returns {string|null}
 */
export function idOfNumber(digits) {
  if (typeof digits !== 'string' || !DECIMAL_PATTERN.test(digits)) return null;
  const id = BigInt(digits);
  return id > ID_MAX ? null : '0x' + id.toString(16).padStart(16, '0');
}

/** True for the path of a class file in a world folder: Classes/<Name>.jclass. */
export function isClassFilePath(path) {
  return CLASS_FILE_PATTERN.test(path);
}
