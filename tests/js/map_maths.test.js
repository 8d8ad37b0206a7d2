// The map's maths (web/src/lib/mapGrid.js, mapNearest.js): grid steps of 1,
// 2 or 5 x 10^n that follow the zoom, grid values and their labels, and the
// entity a keyboard step in a direction lands on, and (web/src/lib/mapRaster.js)
// the size of the marks and the density picture when they crowd.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { formatCoordinate, formatGridValue, gridValues, niceStep } from '../../web/src/lib/mapGrid.js';
import { nearestInDirection, nearestPoint } from '../../web/src/lib/mapNearest.js';
import { abgr, markRadius, paintDensity } from '../../web/src/lib/mapRaster.js';

test('the grid step is the smallest 1, 2 or 5 x 10^n at least the asked pixels apart', () => {
  assert.equal(niceStep(1, 80), 100); // 80 units -> 100
  assert.equal(niceStep(4, 80), 20); // 20 units exactly
  assert.equal(niceStep(3, 80), 50); // 26.7 units -> 50
  assert.equal(niceStep(0.01, 80), 10000);
  assert.equal(niceStep(500, 80), 0.2); // 0.16 units -> 0.2
  assert.equal(niceStep(8, 80), 10); // 10 units: a power of ten itself
  assert.equal(niceStep(1e5, 60), 0.001);
});

test('the grid step grows as the map zooms out, and never skips past 1-2-5', () => {
  let last = 0;
  for (let scale = 1000; scale > 0.001; scale *= 0.9) {
    const step = niceStep(scale, 80);
    assert.ok(step >= last, `step shrank at scale ${scale}`);
    assert.ok(step * scale >= 80 * (1 - 1e-9) && step * scale < 80 * 2.5 + 1e-9, `step ${step} at scale ${scale}`);
    const mantissa = Number((step / 10 ** Math.floor(Math.log10(step) + 1e-12)).toPrecision(6));
    assert.ok([1, 2, 5].includes(mantissa), `step ${step} is 1, 2 or 5 x 10^n`);
    last = step;
  }
});

test('grid values are the multiples of the step inside the range', () => {
  assert.deepEqual(gridValues(-25, 41, 20), [-20, 0, 20, 40]);
  assert.deepEqual(gridValues(0.05, 0.5, 0.2), [0.2, 0.4]);
  assert.deepEqual(gridValues(1, 2, 5), []);
});

test('grid labels have the decimals of the step and no float noise', () => {
  assert.equal(formatGridValue(0.30000000000000004, 0.1), '0.3');
  assert.equal(formatGridValue(500, 100), '500');
  assert.equal(formatGridValue(-40, 20), '-40');
  assert.equal(formatGridValue(20000, 5000), '20k');
  assert.equal(formatGridValue(2500, 500), '2500');
  assert.equal(formatGridValue(1e-17, 0.2), '0');
  assert.equal(formatGridValue(0.004, 0.002), '0.004');
});

test('cursor coordinates have the decimals the zoom can show', () => {
  assert.equal(formatCoordinate(12.3456, 0.5), '12');
  assert.equal(formatCoordinate(12.3456, 4), '12.3');
  assert.equal(formatCoordinate(12.3456, 40), '12.35');
  assert.equal(formatCoordinate(12.3456, 4000), '12.35');
  assert.equal(formatCoordinate(-0.001, 4), '0.0');
});

// A plus of points around the origin, and one far to the right.
const xs = new Float64Array([0, 10, -10, 0, 0, 100, 6]);
const ys = new Float64Array([0, 0, 0, 10, -10, 0, 5]);

test('a step in a direction lands on the nearest entity that way', () => {
  const n = xs.length;
  assert.equal(nearestInDirection(xs, ys, n, 0, 0, 1, 0, 0), 1);
  assert.equal(nearestInDirection(xs, ys, n, 0, 0, -1, 0, 0), 2);
  assert.equal(nearestInDirection(xs, ys, n, 0, 0, 0, 1, 0), 3);
  assert.equal(nearestInDirection(xs, ys, n, 0, 0, 0, -1, 0), 4);
  // From the right arm, right again: the far point, not the one behind.
  assert.equal(nearestInDirection(xs, ys, n, 10, 0, 1, 0, 1), 5);
  // Nothing further right than the far point.
  assert.equal(nearestInDirection(xs, ys, n, 100, 0, 1, 0, 5), -1);
});

test('an entity straight ahead wins over a nearer one off to the side', () => {
  // (6, 5) is nearer to the origin than (10, 0) but 5 units aside.
  assert.equal(nearestInDirection(xs, ys, xs.length, 0, 0, 1, 0, 0), 1);
  // Upwards, (6, 5) is ahead by 5 and aside by 6: (0, 10) wins.
  assert.equal(nearestInDirection(xs, ys, xs.length, 0, 0, 0, 1, 0), 3);
});

test('entities level with the start do not count in a direction', () => {
  const lx = new Float64Array([0, 0, 5]);
  const ly = new Float64Array([0, 0, 0]);
  assert.equal(nearestInDirection(lx, ly, 3, 0, 0, 0, 1, 0), -1);
  assert.equal(nearestInDirection(lx, ly, 3, 0, 0, 1, 0, 0), 2);
});

test('the nearest point to a spot', () => {
  assert.equal(nearestPoint(xs, ys, xs.length, 7, 4), 6);
  assert.equal(nearestPoint(xs, ys, 0, 7, 4), -1);
});

test('marks shrink as they crowd, down to a density picture', () => {
  assert.equal(markRadius(0, 1000 * 1000), 3);
  assert.equal(markRadius(36, 700 * 500), 3); // about 98 px apart
  assert.equal(markRadius(5000, 700 * 500), 1); // about 8 px apart
  assert.equal(markRadius(5000, 200 * 150), 0); // about 2.4 px apart
  assert.equal(markRadius(36, 700 * 500, 2), 6); // device pixels on a 2x screen
});

test('the density picture brightens a pixel with the marks on it and leaves the scratch counts at zero', () => {
  const background = abgr('#14191e');
  const color = abgr('#4dd0e1');
  const pixels = new Uint32Array(4).fill(background);
  const counts = new Uint16Array(4);
  // One mark on pixel 0, four on pixel 1, sixty-four on pixel 2, one off the picture.
  const at = Int32Array.from([0, ...Array(4).fill(1), ...Array(64).fill(2), -1]);
  const colors = new Uint32Array(at.length).fill(color);
  paintDensity(pixels, counts, at, colors, at.length, background);
  const lum = (p) => (p & 0xff) + ((p >>> 8) & 0xff) + ((p >>> 16) & 0xff);
  assert.ok(lum(pixels[0]) > lum(background) && lum(pixels[0]) < lum(color), 'one mark: dimmer than its colour');
  assert.equal(pixels[1], color, 'four marks: the colour itself');
  assert.ok(lum(pixels[2]) > lum(color), 'many marks: paler than the colour');
  assert.equal(pixels[3], background);
  assert.deepEqual([...counts], [0, 0, 0, 0]);
});
