// The entity query of the inspector (web/src/lib/query.js): parsing, with
// the word at fault named in each error, and matching a term against a
// field's canonical text.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { matchTerm, numberOf, parseQuery, unknownField } from '../../web/src/lib/query.js';

const terms = (text) => {
  const parsed = parseQuery(text);
  assert.ok(parsed.terms, parsed.error);
  return parsed.terms;
};
const matches = (text, value) => terms(text).every((t) => matchTerm(t, value));

test('an empty query has no terms', () => {
  assert.deepEqual(parseQuery('  '), { terms: [] });
});

test('terms are split at blanks and ANDed, each field, operator and value', () => {
  assert.deepEqual(terms('class:Light intensity>10'), [
    { field: 'class', component: null, op: ':', value: 'Light', number: null },
    { field: 'intensity', component: null, op: '>', value: '10', number: 10 },
  ]);
  for (const op of ['=', '!=', '<', '<=', '>', '>=', ':']) assert.equal(terms(`radius${op}3`)[0].op, op);
});

test('a quoted value keeps its blanks', () => {
  assert.equal(terms('name:"big grunt"')[0].value, 'big grunt');
});

test('class matches the whole name, case-insensitive', () => {
  assert.ok(matches('class:light', 'Light'));
  assert.ok(!matches('class:Lig', 'Light'));
  assert.ok(matches('class!=Prop', 'Light'));
});

test(': finds the value in the text, case-insensitive (names, strings, an ID prefix)', () => {
  assert.ok(matches('name:grunt', 'Big Grunt'));
  assert.ok(!matches('name:grunt', 'Archer'));
  assert.ok(matches('parent:0x77a31d75', '0x77a31d750000000c'));
});

test('comparisons are on numbers, = and != also on text', () => {
  assert.ok(matches('intensity>10', '18.1'));
  assert.ok(!matches('intensity>10', '10'));
  assert.ok(matches('intensity>=10', '10'));
  assert.ok(matches('intensity<=18.1', '18.1'));
  assert.ok(matches('intensity=18.10', '18.1'), 'as numbers');
  assert.ok(matches('cast_shadows=TRUE', 'true'));
  assert.ok(matches('cast_shadows!=true', 'false'));
  assert.ok(!matches('intensity>10', 'none'), 'a text is no number');
  assert.ok(matches('radius>1e6', 'inf'));
});

test('a component of a vector is compared on its own', () => {
  assert.ok(matches('position.y>2', '1 2.5 3'));
  assert.ok(!matches('position.x>2', '1 2.5 3'));
  assert.ok(!matches('position.w>0', '1 2 3'), 'a vec3 has no w');
});

test('an ID is text, not a number', () => {
  assert.ok(Number.isNaN(numberOf('0x10')));
  assert.equal(terms('parent=0x10')[0].number, null);
  assert.ok(!matches('parent=0x10', '0x0000000000000010'));
});

test('a bad query says which word is wrong and why, never throws', () => {
  const cases = [
    ['grunt', /^grunt: expected field, operator and value/],
    [':grunt', /^:grunt: a field name must come before :/],
    ['intensity>', /^intensity>: a value must follow >/],
    ['intensity>abc', /^intensity>abc: > compares numbers/],
    ['intensity>>1', /one operator per term/],
    ['name:"big', /the quote is not closed/],
    ['class>3', /^class>3: class takes a name/],
    ['class:Light 12', /^12: expected field/],
  ];
  for (const [text, want] of cases) {
    const parsed = parseQuery(text);
    assert.equal(parsed.terms, undefined, text);
    assert.match(parsed.error, want, text);
  }
});

test('a field no class has is named', () => {
  const fields = new Set(['intensity', 'radius']);
  assert.equal(unknownField(terms('class:Light intensity>1 position.x<0'), fields), null);
  assert.equal(unknownField(terms('intensty>1'), fields), 'intensty: no class of this world has that field');
});
