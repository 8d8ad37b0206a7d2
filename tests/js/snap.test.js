// Snap to grid's maths (web/src/lib/mapGrid.js snapToStep): the nearest
// multiple of the step, written without floating-point noise.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { snapToStep } from '../../web/src/lib/mapGrid.js';

test('a coordinate snaps to the nearest multiple of the step', () => {
  assert.equal(snapToStep(12.3, 5), 10);
  assert.equal(snapToStep(12.6, 5), 15);
  assert.equal(snapToStep(-7.4, 5), -5);
  assert.equal(snapToStep(0.74, 0.5), 0.5);
  assert.equal(snapToStep(3.1, 2.5), 2.5);
  assert.equal(snapToStep(123.456, 0.01), 123.46);
});

test('a snapped coordinate carries no floating-point noise and is never -0', () => {
  assert.equal(snapToStep(0.29, 0.1), 0.3);
  assert.equal(snapToStep(0.7, 0.1), 0.7);
  assert.equal(snapToStep(1e6 + 0.33, 0.1), 1000000.3);
  assert.ok(Object.is(snapToStep(-0.2, 1), 0), '-0 is written 0');
  for (let i = -50; i <= 50; i++) {
    const v = snapToStep(i * 0.1 + 0.03, 0.1);
    assert.equal(String(v), (Math.round(i) / 10).toString(), `${i} tenths`);
  }
});
