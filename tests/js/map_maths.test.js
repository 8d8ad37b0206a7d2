// The map's maths (web/src/lib/mapGrid.js, mapNearest.js): grid steps of 1,
// 2 or 5 x 10^n that follow the zoom, grid values and their labels, and the
// entity a keyboard step in a direction lands on, and (web/src/lib/mapRaster.js)
// the size of the marks and the density picture when they crowd.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { formatCoordinate, formatGridValue, gridValues, niceStep } from '../../web/src/lib/mapGrid.js';
import { nearestInDirection, nearestPoint } from '../../web/src/lib/mapNearest.js';
import { abgr, markRadius, paintDensity, paintMarks } from '../../web/src/lib/mapRaster.js';

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

test('marks painted again inside a rectangle leave each pixel there as painting the whole picture would, and none outside', () => {
  const W = 64;
  const H = 48;
  const background = abgr('#14191e');
  const grid = new Uint32Array(W * H).fill(background);
  for (let x = 0; x < W; x += 8) for (let y = 0; y < H; y++) grid[y * W + x] = abgr('#222b34');
  // A seeded walk of marks, crowded enough to overlap, some of them dirty.
  let seed = 7;
  const random = () => (seed = (seed * 16807) % 2147483647) / 2147483647;
  const n = 400;
  const rows = Int32Array.from({ length: n }, (_, k) => k);
  const at = Int32Array.from({ length: n }, () => (random() < 0.05 ? -1 : ((random() * W) | 0) + ((random() * H) | 0) * W));
  const colors = Uint32Array.from({ length: n }, (_, k) => abgr(['#ff0000', '#00ff00', '#0000ff', '#ffff00'][k % 4]));
  const dirty = Uint8Array.from({ length: n }, () => (random() < 0.1 ? 1 : 0));
  const counts = new Uint16Array(W * H);
  for (const r of [0, 1, 2]) {
    const marks = { at, colors, rows, dirty, n, r, ring: 0xffffffff, background, counts };
    const before = grid.slice();
    paintMarks(before, W, H, marks);
    // Some marks move, some are saved: the whole picture after that...
    const moved = { ...marks, at: at.slice(), dirty: dirty.slice() };
    for (const k of [3, 50, 51, 200, 399]) moved.at[k] = ((random() * W) | 0) + ((random() * H) | 0) * W;
    moved.dirty[10] = 1 - moved.dirty[10];
    const whole = grid.slice();
    paintMarks(whole, W, H, moved);
    // ...and the picture before, with a rectangle given back its grid and painted again.
    const clip = { x0: 10, y0: 5, x1: 40, y1: 30 };
    const patched = before.slice();
    for (let y = clip.y0; y <= clip.y1; y++) patched.set(grid.subarray(y * W + clip.x0, y * W + clip.x1 + 1), y * W + clip.x0);
    paintMarks(patched, W, H, moved, clip);
    for (let y = 0; y < H; y++) {
      for (let x = 0; x < W; x++) {
        const inside = x >= clip.x0 && x <= clip.x1 && y >= clip.y0 && y <= clip.y1;
        assert.equal(patched[y * W + x], (inside ? whole : before)[y * W + x], `r ${r}: pixel ${x}, ${y}`);
      }
    }
    assert.ok(counts.every((c) => c === 0));
    assert.notDeepEqual(whole, before, 'the change shows');
  }
});
