// checks.js - argument checks of the public API. A wrong JavaScript type
// throws a TypeError here, before anything reaches C; what a value means
// (its grammar, its range) is never decided here but by the engine.

const PATH_MAX = 4000; // below the C side's JL_ERROR_PATH_MAX and stack use

/** A short description of a value for error messages. */
export function describe(value) {
  if (value === null) return 'null';
  if (Array.isArray(value)) return `an array of ${value.length}`;
  if (typeof value === 'string') return JSON.stringify(value.length > 40 ? value.slice(0, 40) + '...' : value);
  if (typeof value === 'number' || typeof value === 'boolean') return String(value);
  return typeof value;
}

/** A non-empty string of at most max characters without NUL (C strings and paths). */
export function checkString(value, what, max = PATH_MAX) {
  if (typeof value !== 'string' || value.length === 0) {
    throw new TypeError(`${what} must be a non-empty string, got ${describe(value)}`);
  }
  if (value.length > max || value.includes('\0')) {
    throw new TypeError(`${what} must be at most ${max} characters without NUL`);
  }
  return value;
}

/** Text for the engine: a string, or a file's bytes kept exactly. */
export function checkText(text) {
  if (typeof text !== 'string' && !(text instanceof Uint8Array)) {
    throw new TypeError(`text must be a string or a Uint8Array, got ${describe(text)}`);
  }
}

/** An options argument: an object (its members are checked by the caller). */
export function checkOptions(options) {
  if (options === null || typeof options !== 'object') throw new TypeError('options must be an object');
  return options;
}

/** An optional boolean option, `fallback` when absent. */
export function booleanOption(options, name, fallback) {
  const value = options[name] === undefined ? fallback : options[name];
  if (typeof value !== 'boolean') throw new TypeError(`options.${name} must be a boolean`);
  return value;
}

/** Three finite numbers (a position handed to C as floats, not as text). */
export function checkVec3(value, what) {
  if (!Array.isArray(value) && !ArrayBuffer.isView(value)) {
    throw new TypeError(`${what} must be an array [x, y, z] of numbers, got ${describe(value)}`);
  }
  if (value.length !== 3) throw new TypeError(`${what} must have 3 numbers, got ${value.length}`);
  for (let i = 0; i < 3; i++) {
    if (typeof value[i] !== 'number' || !Number.isFinite(value[i])) {
      throw new TypeError(`${what}[${i}] must be a finite number, got ${describe(value[i])}`);
    }
  }
  return [value[0], value[1], value[2]];
}
