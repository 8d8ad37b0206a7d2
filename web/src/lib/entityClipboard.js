// Entities as clipboard text (docs/format.md, "Entities on the clipboard"):
// a header line, then each entity's own .jasset text after a line naming
// it (a line starting with '#' where a key line is due: a key line starts
// with ';'). Splitting is all this file does: each
// entity's text is read by the engine, which alone knows the format.

const HEADER = '# juliet entities';

/**
 * The clipboard text of entities [{ id, className, text }] (text: each
 * one's .jasset text as a string, ending with a newline).
 * @param {{id: string, className: string, text: string}[]} entities
 * @returns {string}
 */
export function formatEntities(entities) {
  const parts = [`${HEADER} ${entities.length}\n`];
  for (const { id, className, text } of entities) {
    parts.push(`# ${className} ${id}\n`, text.endsWith('\n') ? text : `${text}\n`);
  }
  return parts.join('');
}

/**
 * The entities in clipboard text: [{ text, line }], each entity's .jasset
 * text and the line of the clipboard text it starts on (1-based), so that
 * the engine's line in an entity's text gives the clipboard's. Also takes
 * the text of one .jasset file as it is. Throws an Error saying why for
 * text that is neither (nothing changes then).
 * @param {string} text
 * @returns {{text: string, line: number}[]}
 */
export function parseEntities(text) {
  const lines = String(text)
    .replace(/^\uFEFF/, '')
    .split('\n');
  const first = lines.findIndex((l) => l.trim() !== '');
  if (first < 0) throw new Error('The clipboard is empty');
  const head = lines[first].trim();
  if (head.startsWith(';')) return [{ text: lines.slice(first).join('\n'), line: first + 1 }];
  if (!head.startsWith(HEADER)) {
    throw new Error(`The clipboard holds no entity text: it starts with "${shorten(head)}", not "${HEADER}" or a .jasset key line`);
  }
  // Key and value lines alternate: a value line may start with '#' (a
  // colour, a string), so only a line where a key is due can separate.
  const out = [];
  let start = -1;
  const close = (end) => {
    if (start >= 0) out.push({ text: lines.slice(start, end).join('\n'), line: start + 1 });
  };
  for (let i = first + 1; i < lines.length; i++) {
    if (lines[i].startsWith(';')) {
      i++; // its value line
    } else if (lines[i].startsWith('#')) {
      close(i);
      start = i + 1;
    }
  }
  close(lines.length);
  const entities = out.filter((e) => e.text.trim() !== '');
  if (entities.length === 0) throw new Error('The clipboard names entities but holds none');
  return entities;
}

function shorten(line) {
  return line.length > 40 ? `${line.slice(0, 40)}…` : line;
}

const encoder = new TextEncoder();

/**
 * The bytes of a .jasset text (bytes, or a string) with the value of its
 * `id` key made `id`: every other byte kept, line ends included. Returns
 * null if no line is the key line `; id` followed by a value line (the
 * engine then reports the text as it is).
 * @param {Uint8Array|string} text
 * @param {string} id
 * @returns {Uint8Array|null}
 */
export function withId(text, id) {
  const bytes = typeof text === 'string' ? encoder.encode(text) : text;
  for (let at = 0; at < bytes.length;) {
    let end = bytes.indexOf(0x0a, at);
    if (end < 0) end = bytes.length;
    if (isIdKeyLine(bytes, at, end) && end < bytes.length) {
      const valueStart = end + 1;
      let valueEnd = bytes.indexOf(0x0a, valueStart);
      if (valueEnd < 0) valueEnd = bytes.length;
      if (valueEnd > valueStart && bytes[valueEnd - 1] === 0x0d) valueEnd--; // keep a CR line end
      const value = encoder.encode(id);
      const out = new Uint8Array(bytes.length - (valueEnd - valueStart) + value.length);
      out.set(bytes.subarray(0, valueStart));
      out.set(value, valueStart);
      out.set(bytes.subarray(valueEnd), valueStart + value.length);
      return out;
    }
    at = end + 1;
  }
  return null;
}

// "; id" with blanks (and a CR) after it tolerated, as a value's are.
function isIdKeyLine(bytes, at, end) {
  if (bytes[at] !== 0x3b || bytes[at + 1] !== 0x20 || bytes[at + 2] !== 0x69 || bytes[at + 3] !== 0x64) return false;
  for (let i = at + 4; i < end; i++) if (![0x20, 0x09, 0x0d].includes(bytes[i])) return false;
  return true;
}
