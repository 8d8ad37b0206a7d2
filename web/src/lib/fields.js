// Field values as the inspector shows them: display formatting, the names
// that stand for the world settings, and byte comparison of file texts.
//
// The parse functions below are the page's pre-check of what a user types,
// kept (names and messages) until the field editors ask the engine instead:
// the engine alone owns a value's grammar (juliet.checkValue, called in the
// worker, or set() with the typed text), and it refuses some text these
// accept ("+1", "1."). New code should not call them.

import { INDEX_NONE } from '../core/values.js';

export { INDEX_NONE };
export const NULL_REF = '0x0000000000000000';
const F32_MAX = 3.4028234663852886e38;
const NUMBER = /^[-+]?(\d+\.?\d*|\.\d+)(e[-+]?\d+)?$/i;

// The shortest decimal text that reads back as the same 32-bit float.
export function formatF32(value) {
  if (value === Infinity) return 'inf';
  if (value === -Infinity) return '-inf';
  if (!Number.isFinite(value)) return String(value);
  const f = Math.fround(value);
  for (let digits = 1; digits <= 9; digits++) {
    const text = f.toPrecision(digits);
    if (Math.fround(Number(text)) === f) return String(Number(text));
  }
  return String(f);
}

export function formatPosition(position) {
  return position.map((v) => v.toFixed(1)).join(', ');
}

export function parseF32(text, { allowInf = false } = {}) {
  const t = String(text).trim();
  if (t === '') return { error: 'Enter a number' };
  if (/^[-+]?inf(inity)?$/i.test(t)) {
    if (!allowInf) return { error: 'Must be a finite number' };
    return { value: t.startsWith('-') ? -Infinity : Infinity };
  }
  if (!NUMBER.test(t)) return { error: `"${t}" is not a number` };
  const value = Number(t);
  if (!Number.isFinite(value) || Math.abs(value) > F32_MAX) {
    return { error: 'Out of range for a 32-bit float' };
  }
  return { value };
}

export function parseIndex(text) {
  const t = String(text).trim();
  if (t === '' || /^none$/i.test(t)) return { value: INDEX_NONE };
  if (!/^\d+$/.test(t)) return { error: 'Enter a whole number of 0 or more, or leave empty for none' };
  const value = Number(t);
  if (value >= INDEX_NONE) return { error: `Must be below ${INDEX_NONE}` };
  return { value };
}

export function formatIndex(value) {
  return value === INDEX_NONE || value === null || value === undefined ? '' : String(value);
}

// An entity ID typed as 0x + up to 16 hex digits or as the decimal number of
// its file name; empty means none.
export function parseEntityId(text) {
  const t = String(text).trim();
  if (t === '' || /^none$/i.test(t)) return { value: NULL_REF };
  let n;
  if (/^0x[0-9a-f]{1,16}$/i.test(t)) n = BigInt(t);
  else if (/^\d{1,20}$/.test(t)) n = BigInt(t);
  else return { error: 'Enter an ID like 0x0000000000000001, or leave empty for none' };
  if (n > 0xffffffffffffffffn) return { error: 'An ID has at most 64 bits' };
  return { value: '0x' + n.toString(16).padStart(16, '0') };
}

export function parseColor(text) {
  const t = String(text).trim();
  if (!/^#[0-9a-f]{6}$/i.test(t)) return { error: 'Enter a colour as #rrggbb' };
  return { value: t.toLowerCase() };
}

export function isNullRef(id) {
  return !id || /^0x0+$/i.test(id);
}

// The world settings' file, and the name that stands for the settings where
// the inspector's edits, undo steps and kept work name an entity by its ID.
export const SETTINGS_PATH = 'WorldSettings.jasset';
export const SETTINGS = 'settings';

// File of an entity inside the world folder (Entities/<decimal ID>.jasset)
// and back: the core library's, which has no wasm in it.
export { entityPath, idOfPath } from '../core/ids.js';

// True if two texts of an entity file hold the same bytes. Edits, undo steps
// and kept work carry a file's text as its bytes (Uint8Array, null where no
// entity is), so that bytes that are not UTF-8 in an unknown key's value go
// back into the engine exactly.
export function sameBytes(a, b) {
  if (a === b) return true;
  if (!a || !b || a.length !== b.length) return false;
  for (let i = 0; i < a.length; i++) if (a[i] !== b[i]) return false;
  return true;
}
