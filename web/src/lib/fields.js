// Field values as the inspector shows them: display formatting, the names
// that stand for the world settings, and byte comparison of file texts.
// What a user types is checked by the engine, never here (state/typed.js).

import { INDEX_NONE } from 'juliet-world';

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

// A position as the list shows it: each axis as stored (0.37, not 0.4).
export function formatPosition(position) {
  return position.map(formatF32).join(', ');
}

export function formatIndex(value) {
  return value === INDEX_NONE || value === null || value === undefined ? '' : String(value);
}

export function isNullRef(id) {
  return !id || /^0x0+$/i.test(id);
}

// The name that stands for the settings (the library's SETTINGS_FILE) where
// the inspector's edits, undo steps and kept work name an entity by its ID.
export const SETTINGS = 'settings';

// File of an entity inside the world folder (Entities/<decimal ID>.jasset):
// the core library's, which has no wasm in it.
export { entityPath } from 'juliet-world';

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
