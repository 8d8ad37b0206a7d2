// The field types i32, u32, string, enum, vec2 and quat on the JavaScript
// side: the engine's checks of their text (checkValue, checkField), tested
// directly while no class reachable from JavaScript has fields of these
// types. The library's own conversions of their values are tested in
// packages/juliet-world/test/values.test.js.
import assert from 'node:assert/strict';
import { test } from 'node:test';

import { valueText } from 'juliet-world';
import { loadJuliet } from 'juliet-sample';
import { assertChecks } from './helpers.js';

const juliet = await loadJuliet();

test("checkValue gives the value and canonical text of the new types, or the engine's message", () => {
  const valid = [
    ['i32', '-0042', -42, '-42'],
    ['i32', '-2147483648', -2147483648, '-2147483648'],
    ['u32', '4294967295', 4294967295, '4294967295'],
    ['vec2', '1.50  -2', [1.5, -2], '1.5 -2'],
    ['quat', '0 0 0 1', [0, 0, 0, 1], '0 0 0 1'],
    ['quat', '-0 1e-7 2 3', [-0, 1e-7, 2, 3], '-0 1e-7 2 3'],
    ['string', 'Grunt the Second', 'Grunt the Second', 'Grunt the Second'],
    ['string', '"plain"', 'plain', 'plain'],
    ['string', '""', '', '""'],
    ['string', '" padded "', ' padded ', '" padded "'],
    ['string', '"\\"q\\" \\\\"', '"q" \\', '"\\"q\\" \\\\"'],
    ['string', 'caf\u00e9 \u2713 \u{1f600}', 'caf\u00e9 \u2713 \u{1f600}', 'caf\u00e9 \u2713 \u{1f600}'],
  ];
  const refused = [
    ['i32', '2147483648', 'number out of range (-2147483648 to 2147483647)', 1],
    ['i32', '1.5', 'unexpected character in whole number', 2],
    ['u32', 'none', 'expected a whole number', 1],
    ['u32', '-1', 'must be 0 or more', 1],
    ['vec2', '1', 'expected 2 numbers', 2],
    ['quat', '0 0 0', 'expected 4 numbers', 6],
    ['quat', '0 0 0 1 2', 'unexpected text after 4 numbers', 9],
    ['string', '', 'expected a string (the empty string is written "")', 1],
    ['string', ' a', 'a string starting with a space is written in quotes', 1],
    ['string', '"open', 'string has no closing quote', 6],
    ['string', 'a\tb', 'control character in string', 2],
    ['string', '"a\nb"', 'control character in string', 3],
  ];
  assertChecks(
    juliet,
    valid.map(([type, text, value, canonical]) => [type, text, {}, value, canonical]),
    refused,
  );
  // An enum's names come from its field: a type alone cannot check one.
  assert.throws(() => juliet.checkValue('enum', 'red'), { name: 'JulietError', code: 'invalid_argument' });
});

test('checkField checks a value against a class field, or names what is missing', () => {
  assert.deepEqual(juliet.checkField('Light', 'intensity', '2.50'), { value: 2.5, text: '2.5' });
  assert.deepEqual(juliet.checkField('Light', 'radius', 'inf'), { value: Infinity, text: 'inf' });
  assert.deepEqual(juliet.checkField('Prop', 'density', 'inf'), { error: 'infinity is not allowed here', col: 1 });
  assert.throws(() => juliet.checkField('Light', 'range', '1'), { name: 'JulietError', code: 'not_found' });
  assert.throws(() => juliet.checkField('Dragon', 'health', '1'), { name: 'JulietError', code: 'unknown_class' });
  assert.throws(() => juliet.checkField('Light', 'intensity', 1), TypeError);
});

test('schemas keep their shape: no enum names on other types, no internal index', () => {
  for (const field of juliet.schema('Prop')) {
    assert.deepEqual(Object.keys(field).sort(), ['allowInf', 'default', 'name', 'type']);
  }
});

test('a string goes through the engine and back unchanged', () => {
  const strings = ['', ' ', 'Grunt', ' lead', 'trail ', ';semi', '"', '\\', 'a "b" \\c', 'caf\u00e9 \u{1f600}', 'x'.repeat(4094)];
  for (const s of strings) {
    const checked = juliet.checkValue('string', valueText('string', s, 'f'));
    assert.equal(checked.value, s, JSON.stringify(s).slice(0, 40));
    // The canonical text reads back as itself.
    assert.deepEqual(juliet.checkValue('string', checked.text), checked);
  }
  // Too long for a line once quoted.
  assert.match(juliet.checkValue('string', valueText('string', ' '.repeat(4095), 'f')).error, /too long/);
});
