// Class colours (web/src/lib/classColor.js): picked from the class name
// alone, the same in every world and run, and apart for the classes the
// bundled sample and the example game use.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { classColor } from '../../web/src/lib/classColor.js';

test('a class has one colour, from its name alone', () => {
  // Known values: a change of hash or palette recolours every world.
  assert.equal(classColor('Enemy'), '#ff5f56');
  assert.equal(classColor('Light'), '#f5b700');
  for (const name of ['Enemy', 'Pickup', 'Inert', 'Light', 'Prop', 'A', '', 'Émetteur']) {
    assert.match(classColor(name), /^#[0-9a-f]{6}$/);
  }
});

test("the sample's and the example game's classes have different colours", () => {
  const names = ['Inert', 'Light', 'Prop', 'Enemy', 'Pickup'];
  assert.equal(new Set(names.map(classColor)).size, names.length);
});
