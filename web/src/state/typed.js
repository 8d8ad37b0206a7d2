// Text typed into a field editor, checked by the engine before anything
// changes. The engine alone knows a value's grammar (Juliet#checkValue, run
// in the worker: the parser files are read with); this side only tidies
// what a user types: blanks around it are dropped, an empty index or entity
// reference means none, and a reference typed as the decimal number of its
// entity's file name (Entities/<number>.jasset) stands for that ID. What is
// typed for a string is the string itself, blanks and quotes included: it
// goes to the engine quoted.
import { idOfNumber, valueText } from 'juliet-world';
import { getEngine } from './engine.js';

// The text the engine gets for `typed` in an editor of field type `type`.
function typedText(type, typed) {
  if (type === 'string') return valueText('string', typed, 'the text');
  const text = typed.trim();
  if (text === '' && (type === 'index' || type === 'entity_ref')) return 'none';
  if (type === 'entity_ref') return idOfNumber(text) ?? text;
  return text;
}

/**
 * Checks `typed` for a value of field type `type` ({ allowInf } for an f32
 * field that takes infinity). Resolves to { value }, the value as
 * world.get() gives it, or { error }, the engine's message (with the column
 * of the typed text it points at, past the first).
 * @param {string} type
 * @param {string} typed
 * @param {{allowInf?: boolean}} [options]
 * @returns {Promise<{value: *} | {error: string}>}
 */
export async function checkTyped(type, typed, { allowInf = false } = {}) {
  const text = typedText(type, typed);
  let checked;
  try {
    checked = await getEngine().check(type, text, { allowInf });
  } catch (err) {
    return { error: err.message };
  }
  if (!('error' in checked)) return { value: checked.value };
  // Only trimmed or quoted text can be refused (none and IDs are valid):
  // the column in what was typed is past the blanks dropped, or before the
  // opening quote. (A quote or backslash typed before the column counts
  // twice, escaped: good enough for a message.)
  const col = type === 'string' ? checked.col - 1 : checked.col + typed.length - typed.trimStart().length;
  return { error: col > 1 ? `${checked.error} (column ${col})` : checked.error };
}

/**
 * Checks `typed` for a coordinate of several entities at once: a place
 * (`12.5`), or a move of each by that much, typed `+5`, `+=5` or `-=2.5`
 * (as in Unity; a bare `-2.5` is a place, as it is for one entity).
 * Resolves to { value: { value, by } } (by: true for a move) or { error }.
 */
export async function checkCoordinateOrMove(typed) {
  const move = /^\s*(\+=?|-=)(.*)$/.exec(typed);
  const text = move ? (move[1] === '-=' ? `-${move[2].trim()}` : move[2]) : typed;
  const checked = await checkTyped('f32', text);
  return 'error' in checked ? checked : { value: { value: checked.value, by: move !== null } };
}
