// The entity query typed beside the ID search: terms separated by blanks,
// all of which an entity must pass, each `field` `op` `value`:
//   class:Light         the class, case-insensitive (also class=, class!=)
//   name:grunt          `:` the field's text holds the value, case-insensitive
//   parent:0x77a3       (an entity_ref's text is its ID, so a prefix finds it)
//   intensity>10        = != < <= > >= compare numbers (= and != also text)
//   position.y>=2       .x .y .z .w: one component of a vector, colour or quat
//   name:"big grunt"    double quotes around a value with blanks
// A field's text is the engine's canonical text of its value (what the
// engine's get gives, read here, never parsed by rules of our own beyond a
// number); an entity without the field does not match. Parsing runs in the
// page (errors shown next to the box); matching runs where the values are:
// the engine worker, one field's text at a time.

const OPS = ['<=', '>=', '!=', '=', '<', '>', ':'];
const COMPONENTS = ['x', 'y', 'z', 'w'];
// Keys every entity has beside its class's fields.
export const BASE_FIELDS = ['id', 'class', 'position', 'class_version'];

const TERM = /^([A-Za-z_][A-Za-z0-9_]*)(?:\.([xyzw]))?(<=|>=|!=|=|<|>|:)(.*)$/s;

const DECIMAL = /^[+-]?(\d+\.?\d*|\.\d+)(e[+-]?\d+)?$/;

// The number a field's canonical text (or a typed value) stands for, or NaN
// (an ID such as 0x1f is text, not a number).
export function numberOf(text) {
  const t = text.trim().toLowerCase();
  if (t === 'inf' || t === '+inf') return Infinity;
  if (t === '-inf') return -Infinity;
  return DECIMAL.test(t) ? Number(t) : NaN;
}

// The words of the query: split at blanks outside double quotes. Returns
// { words: [{ text, start }] } or { error }.
function words(text) {
  const out = [];
  let i = 0;
  while (i < text.length) {
    if (/\s/.test(text[i])) {
      i++;
      continue;
    }
    const start = i;
    let word = '';
    let quoted = false;
    while (i < text.length && (quoted || !/\s/.test(text[i]))) {
      if (text[i] === '"') quoted = !quoted;
      else word += text[i];
      i++;
    }
    if (quoted) return { error: `${text.slice(start)}: the quote is not closed` };
    out.push({ text: word, raw: text.slice(start, i), start });
  }
  return { words: out };
}

/**
 * Parses a query. Returns { terms: [{ field, component, op, value, number }] }
 * (`component` null or 0..3, `number` the value as a number or null; no
 * terms for an empty query) or { error } naming the word at fault and why.
 * Never throws.
 * @param {string} text
 */
export function parseQuery(text) {
  const split = words(text);
  if (split.error) return { error: split.error };
  const terms = [];
  for (const { text: word, raw } of split.words) {
    const m = TERM.exec(word);
    if (!m) {
      const op = OPS.find((o) => word.includes(o));
      if (op && word.startsWith(op)) return { error: `${raw}: a field name must come before ${op}` };
      return { error: `${raw}: expected field, operator and value, as class:Light, name:grunt or intensity>10` };
    }
    const [, field, component, op, value] = m;
    if (value === '' && !raw.endsWith('""')) return { error: `${raw}: a value must follow ${op}` };
    if (OPS.some((o) => value.startsWith(o))) return { error: `${raw}: one operator per term` };
    const number = numberOf(value);
    const isNumber = !Number.isNaN(number);
    if (['<', '<=', '>', '>='].includes(op) && !isNumber) {
      return { error: `${raw}: ${op} compares numbers, and ${JSON.stringify(value)} is not one` };
    }
    if (field === 'class' && (component || !['=', '!=', ':'].includes(op))) {
      return { error: `${raw}: class takes a name, as class:Light or class!=Light` };
    }
    terms.push({
      field,
      component: component ? COMPONENTS.indexOf(component) : null,
      op,
      value,
      number: isNumber ? number : null,
    });
  }
  return { terms };
}

/**
 * The first term naming a field no class of the world has, as an error
 * message, or null. `fields`: the names of every class's fields.
 * @param {{field: string}[]} terms
 * @param {Set<string>} fields
 */
export function unknownField(terms, fields) {
  const term = terms.find((t) => !fields.has(t.field) && !BASE_FIELDS.includes(t.field));
  return term ? `${term.field}: no class of this world has that field` : null;
}

/**
 * True if `text` (the canonical text of the term's field of one entity, or
 * its class name for `class`) passes the term.
 * @param {{field: string, component: number|null, op: string, value: string, number: number|null}} term
 * @param {string} text
 */
export function matchTerm(term, text) {
  let t = text;
  if (term.component !== null) {
    t = text.trim().split(/\s+/)[term.component];
    if (t === undefined) return false;
  }
  const same = () =>
    term.number !== null && !Number.isNaN(numberOf(t)) ? numberOf(t) === term.number : t.toLowerCase() === term.value.toLowerCase();
  switch (term.op) {
    case ':':
      return term.field === 'class' ? same() : t.toLowerCase().includes(term.value.toLowerCase());
    case '=':
      return same();
    case '!=':
      return !same();
    default: {
      const n = numberOf(t);
      if (Number.isNaN(n)) return false;
      if (term.op === '<') return n < term.number;
      if (term.op === '<=') return n <= term.number;
      if (term.op === '>') return n > term.number;
      return n >= term.number;
    }
  }
}
