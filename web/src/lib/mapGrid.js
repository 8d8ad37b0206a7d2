// The map's grid: a "nice" spacing (1, 2 or 5 times a power of ten world
// units) that keeps lines a readable distance apart at any zoom, the lines
// that fall inside a range, and their labels.

/**
 * The smallest step of 1, 2 or 5 x 10^n world units that is at least
 * `minPixels` apart on screen at `scale` pixels per unit.
 */
export function niceStep(scale, minPixels) {
  const raw = minPixels / scale;
  const power = 10 ** Math.floor(Math.log10(raw));
  for (const m of [1, 2, 5, 10]) {
    const step = m * power;
    // A little slack: 10^n computed by ** is not always exact.
    if (step >= raw * (1 - 1e-9)) return step;
  }
  return 10 * power;
}

/** The multiples of `step` from `min` to `max` (both in world units). */
export function gridValues(min, max, step) {
  const out = [];
  const first = Math.ceil(min / step);
  const last = Math.floor(max / step);
  for (let k = first; k <= last; k++) out.push(k * step);
  return out;
}

/**
 * Text of a grid value, with as many decimals as the step needs (0.2 ->
 * "0.2", 500 -> "500", 20000 -> "20k", never "0.30000000000000004").
 */
export function formatGridValue(value, step) {
  if (Math.abs(value) < step / 2) return '0';
  if (step >= 1000 && Math.abs(value) >= 1000) {
    const k = value / 1000;
    return `${trim(k, Math.max(0, -Math.floor(Math.log10(step / 1000) + 1e-9)))}k`;
  }
  return trim(value, Math.max(0, -Math.floor(Math.log10(step) + 1e-9)));
}

function trim(value, decimals) {
  return String(Number(value.toFixed(decimals)));
}

/** A world coordinate as shown under the cursor: two decimals at most. */
export function formatCoordinate(value, scale) {
  // Finer than a pixel means nothing on screen: decimals by the zoom.
  const decimals = Math.min(2, Math.max(0, Math.ceil(Math.log10(scale))));
  const text = value.toFixed(decimals);
  return Number(text) === 0 ? (0).toFixed(decimals) : text;
}

/**
 * `v` on the nearest multiple of `step` (> 0), written with no more
 * decimals than the step needs: a step of 0.1 gives 0.3, not
 * 0.30000000000000004, and never -0.
 */
export function snapToStep(v, step) {
  const decimals = Math.min(12, Math.max(0, -Math.floor(Math.log10(step)) + 3));
  return Number((Math.round(v / step) * step).toFixed(decimals)) + 0;
}
