// The map's raster layer: grid lines and one mark per entity written
// straight into a canvas's pixels (32-bit ABGR words, as an ImageData's
// buffer seen on a little-endian machine), which is what lets 100,000
// entities redraw within a frame. Vector drawing (circles, lines, text)
// goes on top with the canvas's own context.

/** The pixel word (ABGR) of colour "#rrggbb". */
export function abgr(hex) {
  const n = parseInt(hex.slice(1), 16);
  return (0xff000000 | ((n & 0xff) << 16) | (n & 0xff00) | (n >> 16)) >>> 0;
}

/** A vertical line at column x of a W x H picture. */
export function verticalLine(pixels, W, H, x, color) {
  if (x < 0 || x >= W) return;
  for (let i = x; i < W * H; i += W) pixels[i] = color;
}

/** A horizontal line at row y of a W x H picture. */
export function horizontalLine(pixels, W, H, y, color) {
  if (y < 0 || y >= H) return;
  pixels.fill(color, y * W, y * W + W);
}

/**
 * A filled square of half-size r centred on (px, py), clipped to the
 * picture (and to `clip`, a rectangle, when given); with `ring` its
 * outermost pixels take that colour instead.
 */
export function square(pixels, W, H, px, py, r, color, ring = 0, clip = null) {
  let x0 = px - r < 0 ? 0 : px - r;
  let x1 = px + r >= W ? W - 1 : px + r;
  let y0 = py - r < 0 ? 0 : py - r;
  let y1 = py + r >= H ? H - 1 : py + r;
  if (clip) {
    x0 = Math.max(x0, clip.x0);
    x1 = Math.min(x1, clip.x1);
    y0 = Math.max(y0, clip.y0);
    y1 = Math.min(y1, clip.y1);
  }
  for (let y = y0; y <= y1; y++) {
    const line = y * W;
    if (ring && (y === py - r || y === py + r)) {
      pixels.fill(ring, line + x0, line + x1 + 1);
      continue;
    }
    pixels.fill(color, line + x0, line + x1 + 1);
    if (ring) {
      if (px - r >= x0 && px - r <= x1) pixels[line + px - r] = ring;
      if (px + r <= x1 && px + r >= x0) pixels[line + px + r] = ring;
    }
  }
}

/**
 * The entity marks over a picture of the grid: mark k, of table row
 * rows[k], at pixel index at[k] (-1: off the picture) in colour
 * colors[k], `n` of them: squares of half-size r, those of rows whose
 * dirty[row] is 1 (unsaved changes) last, larger and ringed in `ring`; or
 * for r 0 the density picture (paintDensity), where a crowd hides rings.
 * With `clip` ({ x0, y0, x1, y1 }, inclusive) only the pixels inside it
 * change, each as painting the whole picture would leave it, so that a
 * few marks that changed repaint the rectangles around them alone (the
 * rectangle first given back its grid).
 */
export function paintMarks(pixels, W, H, { at, colors, rows, dirty, n, r, ring, background, counts }, clip = null) {
  // Marks whose square reaches into the clip: their pixel within it grown
  // by their half-size (r + 1 for a ringed one).
  const inside = (p, grow) => {
    if (!clip) return true;
    const x = p % W;
    const y = (p / W) | 0;
    return x >= clip.x0 - grow && x <= clip.x1 + grow && y >= clip.y0 - grow && y <= clip.y1 + grow;
  };
  if (r === 0) {
    if (!clip) paintDensity(pixels, counts, at, colors, n, background);
    else {
      let m = 0;
      for (let k = 0; k < n; k++) if (at[k] >= 0 && inside(at[k], 0)) m++;
      const atIn = new Int32Array(m);
      const colorsIn = new Uint32Array(m);
      for (let k = 0, j = 0; k < n; k++) {
        if (at[k] < 0 || !inside(at[k], 0)) continue;
        atIn[j] = at[k];
        colorsIn[j++] = colors[k];
      }
      paintDensity(pixels, counts, atIn, colorsIn, m, background);
    }
    return;
  }
  for (let k = 0; k < n; k++) {
    const p = at[k];
    if (p >= 0 && dirty[rows[k]] !== 1 && inside(p, r)) square(pixels, W, H, p % W, (p / W) | 0, r, colors[k], 0, clip);
  }
  for (let k = 0; k < n; k++) {
    const p = at[k];
    if (p >= 0 && dirty[rows[k]] === 1 && inside(p, r + 1)) square(pixels, W, H, p % W, (p / W) | 0, r + 1, colors[k], ring, clip);
  }
}

/**
 * Half-size of the entity marks (in device pixels, 0 for a density
 * picture) when `count` marks share `area` device pixels: big marks when
 * they stand apart, one pixel each when they crowd.
 */
export function markRadius(count, area, dpr = 1) {
  if (count === 0) return 3;
  const spacing = Math.sqrt(area / count) / dpr;
  const unit = Math.max(1, Math.round(Math.min(dpr, 2)));
  if (spacing < 4) return 0;
  if (spacing < 10) return unit;
  if (spacing < 22) return 2 * unit;
  return 3 * unit;
}

/**
 * The density picture: `n` marks at pixel indexes `at` (-1: off the
 * picture) with colours `colors`, one pixel each. A pixel many marks fall
 * on shows brighter, from dim (one) through the mark's colour to white, so
 * crowds read as crowds. `counts` is a scratch Uint16Array of the
 * picture's size, zero on entry and on return.
 */
export function paintDensity(pixels, counts, at, colors, n, background) {
  if (touched.length < n) touched = new Int32Array(n);
  let m = 0;
  for (let k = 0; k < n; k++) {
    const p = at[k];
    if (p < 0) continue;
    if (counts[p] === 0) touched[m++] = p;
    if (counts[p] < SATURATED) counts[p]++;
    // The last mark on a pixel gives its colour.
    pixels[p] = colors[k];
  }
  for (let i = 0; i < m; i++) {
    const p = touched[i];
    pixels[p] = shade(pixels[p], counts[p], background);
    counts[p] = 0;
  }
}

// Pixels written by one density picture (reused: 100,000 marks).
let touched = new Int32Array(0);

// Colour `color` for `count` marks on one pixel: one is a dim mark, four
// the class's colour, sixty-four (SATURATED) paler towards white. The
// weights by count are worked out once.
const SATURATED = 64;
const OPACITY = new Float32Array(SATURATED + 1);
const WHITENESS = new Float32Array(SATURATED + 1);
for (let count = 1; count <= SATURATED; count++) {
  const t = Math.log2(count) / 6;
  OPACITY[count] = count === 1 ? 0.55 : Math.min(1, 0.55 + t * 1.5);
  WHITENESS[count] = Math.max(0, t - 0.35) * 0.9;
}

function shade(color, count, background) {
  const a = OPACITY[count];
  const white = WHITENESS[count];
  let out = 0xff000000;
  for (let shift = 0; shift < 24; shift += 8) {
    const c = (color >>> shift) & 0xff;
    const b = (background >>> shift) & 0xff;
    const mixed = b + (c - b) * a;
    out |= Math.round(mixed + (255 - mixed) * white) << shift;
  }
  return out >>> 0;
}
