// values.js - field values between JavaScript and the engine's text. The
// engine (C) owns the text form of a value: it parses and checks every
// value set() sends and formats every value get() reads. This side only
// prints a JavaScript value as text (numbers as JavaScript prints them) and
// reads the engine's canonical text back as a JavaScript value. A string
// is taken as a value's text as typed and left for the engine to judge
// (but for a string field, where a string is the value itself); a
// JavaScript type a field cannot take is a TypeError.
import { describe } from './checks.js';

/** INDEX fields: this value (JL_INDEX_MAX) means "no index". */
export const INDEX_NONE = 4294967295;
/** jl_field flag JL_FIELD_ALLOW_INF: an f32 field that may hold +/-inf. */
export const FIELD_ALLOW_INF = 1;

/** What a field of each type takes besides its text. */
const TAKES = {
  f32: 'a number or its text',
  index: 'an integer, null (none) or its text',
  bool: 'true, false or its text',
  vec3: 'an array [x, y, z] of numbers or its text',
  color: 'a colour string "#rrggbb"',
  entity_ref: 'an ID string or null',
  i32: 'an integer or its text',
  u32: 'an integer or its text',
  string: 'a string',
  enum: 'the name of one of its values',
  vec2: 'an array [x, y] of numbers or its text',
  quat: 'an array [x, y, z, w] of numbers or its text',
};

/** Components of the vector types. */
const LENGTHS = { vec2: 2, vec3: 3, quat: 4 };

/** A number as text the engine reads ("inf", "-0", JavaScript's shortest form). */
function numberText(value) {
  if (value === Infinity) return 'inf';
  if (value === -Infinity) return '-inf';
  if (Object.is(value, -0)) return '-0';
  return String(value);
}

/**
 * The quoted text of a string value: the engine reads "..." (with \" and
 * \\ inside) as exactly the string between the quotes, whatever it holds,
 * and writes it back in its canonical form.
 */
function quotedText(value) {
  return `"${value.replace(/["\\]/g, '\\$&')}"`;
}

/**
 * The text of `value` for a field of type `type`, for the engine to check
 * and store: a string as it is (for a string field, the string itself,
 * quoted), else the JavaScript value printed. `what` names the field in a
 * TypeError.
 * @returns {string}
 */
export function valueText(type, value, what) {
  if (!(type in TAKES)) throw new TypeError(`${what} has a type this API does not know`);
  if (type === 'string') {
    if (typeof value === 'string') return quotedText(value);
    throw new TypeError(`${what} takes ${TAKES[type]}, got ${describe(value)}`);
  }
  if (typeof value === 'string') return value;
  switch (type) {
    case 'f32':
      if (typeof value === 'number') return numberText(value);
      break;
    case 'index':
      if (value === null) return 'none';
      if (typeof value === 'number') return String(value);
      break;
    case 'i32':
    case 'u32':
      if (typeof value === 'number') return String(value);
      break;
    case 'bool':
      if (typeof value === 'boolean') return value ? 'true' : 'false';
      break;
    case 'vec2':
    case 'vec3':
    case 'quat':
      if (
        (Array.isArray(value) || ArrayBuffer.isView(value)) &&
        value.length === LENGTHS[type] &&
        Array.prototype.every.call(value, (v) => typeof v === 'number')
      ) {
        return Array.prototype.map.call(value, numberText).join(' ');
      }
      break;
    case 'entity_ref':
      if (value === null) return 'none';
      break;
  }
  throw new TypeError(`${what} takes ${TAKES[type]}, got ${describe(value)}`);
}

function numberOf(text) {
  if (text === 'inf') return Infinity;
  if (text === '-inf') return -Infinity;
  return Number(text);
}

/**
 * The JavaScript value of the engine's canonical text for a value of type
 * `type`: f32 a number, index a number (INDEX_NONE for none), i32 and u32
 * numbers, bool, vec2 [x, y], vec3 [x, y, z], quat [x, y, z, w], color
 * '#rrggbb', entity_ref an ID string or null, string the string (its
 * quotes and escapes undone), enum the value's name. The text comes from C
 * (jl_field_format), so it is never checked again here.
 */
export function textValue(type, text) {
  switch (type) {
    case 'f32':
      return numberOf(text);
    case 'index':
      return text === 'none' ? INDEX_NONE : Number(text);
    case 'i32':
    case 'u32':
      return Number(text);
    case 'bool':
      return text === 'true';
    case 'vec2':
    case 'vec3':
    case 'quat':
      return text.split(' ').map(numberOf);
    case 'string':
      return text.startsWith('"') ? text.slice(1, -1).replace(/\\(["\\])/g, '$1') : text;
    case 'entity_ref':
      return text === 'none' ? null : text;
    default:
      return text;
  }
}

/**
 * A record of names read from files: an object with no prototype, so that
 * a name such as `__proto__` or `constructor` is an own key like any other
 * and no inherited member reads as one. Its keys are looked up with
 * `Object.hasOwn(record, name)`, never through methods of its own.
 * @returns {Object<string, *>}
 */
export function nameRecord(entries = []) {
  const out = Object.create(null);
  for (const [name, value] of Array.isArray(entries) ? entries : Object.entries(entries)) out[name] = value;
  return out;
}

/**
 * The values of a schema's fields, { name: value } in field order (a
 * nameRecord: field names come from class files), each read as canonical
 * text by textOf(name) (a C getter).
 */
export function fieldValues(schema, textOf) {
  const fields = nameRecord();
  for (const field of schema.fields) fields[field.name] = textValue(field.type, textOf(field.name));
  return fields;
}
