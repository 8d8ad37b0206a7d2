// values.js - field values between JavaScript and the engine's text. The
// engine (C) owns the text form of a value: it parses and checks every
// value set() sends and formats every value get() reads. This side only
// prints a JavaScript value as text (numbers as JavaScript prints them) and
// reads the engine's canonical text back as a JavaScript value. A string
// is taken as a value's text as typed and left for the engine to judge; a
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
};

/** A number as text the engine reads ("inf", "-0", JavaScript's shortest form). */
function numberText(value) {
  if (value === Infinity) return 'inf';
  if (value === -Infinity) return '-inf';
  if (Object.is(value, -0)) return '-0';
  return String(value);
}

/**
 * The text of `value` for a field of type `type`, for the engine to check
 * and store: a string as it is, else the JavaScript value printed. `what`
 * names the field in a TypeError.
 * @returns {string}
 */
export function valueText(type, value, what) {
  if (!(type in TAKES)) throw new TypeError(`${what} has a type this API does not know`);
  if (typeof value === 'string') return value;
  switch (type) {
    case 'f32':
      if (typeof value === 'number') return numberText(value);
      break;
    case 'index':
      if (value === null) return 'none';
      if (typeof value === 'number') return String(value);
      break;
    case 'bool':
      if (typeof value === 'boolean') return value ? 'true' : 'false';
      break;
    case 'vec3':
      if ((Array.isArray(value) || ArrayBuffer.isView(value)) && value.length === 3 &&
          Array.prototype.every.call(value, (v) => typeof v === 'number')) {
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
 * `type`: f32 a number, index a number (INDEX_NONE for none), bool, vec3
 * [x, y, z], color '#rrggbb', entity_ref an ID string or null. The text
 * comes from C (jl_value_format), so it is never checked again here.
 */
export function textValue(type, text) {
  switch (type) {
    case 'f32':
      return numberOf(text);
    case 'index':
      return text === 'none' ? INDEX_NONE : Number(text);
    case 'bool':
      return text === 'true';
    case 'vec3':
      return text.split(' ').map(numberOf);
    case 'entity_ref':
      return text === 'none' ? null : text;
    default:
      return text;
  }
}

/**
 * The values of a schema's fields, { name: value } in field order, each
 * read as canonical text by textOf(name) (a C getter).
 */
export function fieldValues(schema, textOf) {
  const fields = {};
  for (const field of schema.fields) fields[field.name] = textValue(field.type, textOf(field.name));
  return fields;
}
