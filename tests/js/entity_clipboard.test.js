// Entities as clipboard text (web/src/lib/entityClipboard.js): the text
// several entities make, read back into each entity's text and its line,
// one .jasset file taken as it is, text that is no entity text refused with
// a reason, and an entity's ID rewritten with every other byte kept.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { formatEntities, parseEntities, withId } from '../../web/src/lib/entityClipboard.js';

const A = '; id\n0x0000000000000001\n; class\nInert\n; position\n1 2 3\n';
// A value line starting with '#' (a colour) is a value, not a separator.
const B = '; id\n0x0000000000000002\n; class\nPickup\n; glow\n#ffd700\n; note\n# not a separator\n';

test('entities written as clipboard text read back as their texts, each with its starting line', () => {
  const text = formatEntities([
    { id: '0x0000000000000001', className: 'Inert', text: A },
    { id: '0x0000000000000002', className: 'Pickup', text: B },
  ]);
  assert.match(text, /^# juliet entities 2\n# Inert 0x0000000000000001\n; id\n/);
  const entries = parseEntities(text);
  assert.deepEqual(
    entries.map((e) => e.text.trimEnd()),
    [A.trimEnd(), B.trimEnd()],
  );
  assert.deepEqual(
    entries.map((e) => e.line),
    [3, 3 + A.split('\n').length],
  );
  assert.equal(text.split('\n')[entries[1].line - 1], '; id');
});

test('the text of one .jasset file is taken as one entity', () => {
  assert.deepEqual(parseEntities(`\n${A}`), [{ text: A, line: 2 }]);
});

test('text that is not entity text is refused with the reason', () => {
  assert.throws(() => parseEntities('hello world'), /no entity text: it starts with "hello world"/);
  assert.throws(() => parseEntities('  \n'), /empty/);
  assert.throws(() => parseEntities('# juliet entities 0\n'), /holds none/);
});

test('withId rewrites the id value only, CRLF line ends kept', () => {
  const decoder = new TextDecoder();
  assert.equal(decoder.decode(withId(A, '0x00000000000000ff')), A.replace('0x0000000000000001', '0x00000000000000ff'));
  const crlf = A.replace(/\n/g, '\r\n');
  assert.equal(decoder.decode(withId(crlf, '0x00000000000000ff')), crlf.replace('0x0000000000000001', '0x00000000000000ff'));
  // Bytes that are not UTF-8 elsewhere stay exactly.
  const bytes = new Uint8Array([...new TextEncoder().encode(`${A}; note\n`), 0xff, 0x0a]);
  const out = withId(bytes, '0x00000000000000ff');
  assert.equal(out[out.length - 2], 0xff);
  assert.equal(withId('; class\nInert\n', '0x00000000000000ff'), null);
});
