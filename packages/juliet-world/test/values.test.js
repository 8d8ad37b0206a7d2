// The library's conversions between JavaScript values and the engine's
// canonical text (values.js), tested directly for the field types i32, u32,
// string, enum, vec2 and quat.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { textValue, valueText } from '../src/values.js';

test("values.js gives the text of each new type's JavaScript value", () => {
  assert.equal(valueText('i32', -7, 'f'), '-7');
  assert.equal(valueText('u32', 4294967295, 'f'), '4294967295');
  assert.equal(valueText('i32', '12', 'f'), '12', 'typed text is left to the engine');
  assert.equal(valueText('vec2', [1.5, -0], 'f'), '1.5 -0');
  assert.equal(valueText('quat', new Float32Array([0, 0, 0, 1]), 'f'), '0 0 0 1');
  assert.equal(valueText('quat', [0, 0, Infinity, 1], 'f'), '0 0 inf 1', 'the engine refuses it');
  assert.equal(valueText('enum', 'blue', 'f'), 'blue');
  // A string field's string is its value: always quoted, so the engine
  // keeps it exactly, blanks, quotes and backslashes included.
  assert.equal(valueText('string', 'Grunt', 'f'), '"Grunt"');
  assert.equal(valueText('string', '', 'f'), '""');
  assert.equal(valueText('string', ' a "b" \\c ', 'f'), '" a \\"b\\" \\\\c "');
  assert.throws(() => valueText('string', 12, 'field "name" (string)'), { name: 'TypeError', message: /takes a string, got/ });
  assert.throws(() => valueText('vec2', [1, 2, 3], 'f'), TypeError);
  assert.throws(() => valueText('quat', [0, 0, 1], 'f'), TypeError);
  assert.throws(() => valueText('i32', true, 'f'), TypeError);
  assert.throws(() => valueText('enum', 1, 'f'), TypeError);
});

test("values.js reads each new type's canonical text as a JavaScript value", () => {
  assert.equal(textValue('i32', '-2147483648'), -2147483648);
  assert.equal(textValue('u32', '4294967295'), 4294967295);
  assert.deepEqual(textValue('vec2', '1.5 -0'), [1.5, -0]);
  assert.deepEqual(textValue('quat', '0 0 0 1'), [0, 0, 0, 1]);
  assert.equal(textValue('enum', 'green'), 'green');
  assert.equal(textValue('string', 'Grunt the Second'), 'Grunt the Second');
  assert.equal(textValue('string', '""'), '');
  assert.equal(textValue('string', '" a \\"b\\" \\\\c "'), ' a "b" \\c ');
  assert.equal(textValue('string', 'C:\\games "x"'), 'C:\\games "x"', 'no escapes outside quotes');
});
