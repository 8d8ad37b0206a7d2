// The line of a file a diagnostic points at (path:line:col), to show it
// with a caret under the column. A long line is cut to a window around the
// column, marked with '…' where it was cut.
const WIDTH = 120; // characters of a long line kept around the column
const decoder = new TextDecoder();

// { text, caret } for line `line` (1-based) of `bytes`, the caret being the
// 0-based character index under column `col` (a byte column, 1-based; 0:
// no column, no caret: -1), or null when the file has no such line.
export function lineExcerpt(bytes, line, col) {
  if (!bytes || !(line > 0)) return null;
  let start = 0;
  for (let n = 1; n < line; n++) {
    const next = bytes.indexOf(0x0a, start);
    if (next < 0) return null;
    start = next + 1;
  }
  let end = bytes.indexOf(0x0a, start);
  if (end < 0) end = bytes.length;
  if (end > start && bytes[end - 1] === 0x0d) end--;
  const at = col > 0 ? Math.min(col - 1, end - start) : -1;
  // Tabs as one space each, so the caret stays under its character.
  // eslint-disable-next-line no-control-regex -- matching control characters is the point: each becomes a space.
  const clean = (b) => decoder.decode(b).replace(/[\t\0-\x08\x0b-\x1f\x7f]/g, ' ');
  let text = clean(bytes.subarray(start, end));
  let caret = at < 0 ? -1 : clean(bytes.subarray(start, start + at)).length;
  if (text.length > WIDTH) {
    const from = Math.max(0, Math.min((caret < 0 ? 0 : caret) - WIDTH / 2, text.length - WIDTH));
    const cut = text.slice(from, from + WIDTH);
    text = (from > 0 ? '…' : '') + cut + (from + WIDTH < text.length ? '…' : '');
    if (caret >= 0) caret = caret - from + (from > 0 ? 1 : 0);
  }
  return { text, caret };
}
