// Counts in the inspector's messages (web/src/lib/plural.js).
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { plural } from '../../web/src/lib/plural.js';

test('one takes the singular, any other count the plural', () => {
  assert.equal(plural(1, 'file'), '1 file');
  assert.equal(plural(0, 'file'), '0 files');
  assert.equal(plural(2, 'entity', 'entities'), '2 entities');
});

test('thousands are separated with commas', () => {
  assert.equal(plural(1000, 'change'), '1,000 changes');
  assert.equal(plural(100000, 'entity', 'entities'), '100,000 entities');
});
