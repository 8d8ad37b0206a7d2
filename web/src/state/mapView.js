// The map's camera: which two axes it shows (the top view, X and Z, or the
// front view, X and Y), the world point at the centre and the zoom in pixels per unit.
import { signal } from '@preact/signals';
import { table } from './table.js';

export const axes = signal([0, 2]); // indexes into a position: horizontal, vertical
export const center = signal([0, 0]); // world coordinates on those axes
export const scale = signal(1); // pixels per world unit
export const viewSize = signal([0, 0]); // the canvas size in CSS pixels
// The grid's values along the left and top edges cover that much of the
// map (CSS pixels); framing keeps entities clear of them.
export const RULERS = { left: 40, top: 16 };
const FIT_MARGIN = 20;

const LONE_SPAN = 16; // world units around a lone entity framed

// The least and greatest of `axis` over `rows` (table rows; null: every
// live row).
function extent(axis, rows) {
  let min = Infinity;
  let max = -Infinity;
  const count = rows ? rows.length : table.size;
  for (let i = 0; i < count; i++) {
    const row = rows ? rows[i] : i;
    if (!table.alive[row]) continue;
    const v = table.pos[row * 3 + axis];
    if (v < min) min = v;
    if (v > max) max = v;
  }
  return [min, max];
}

// Chooses the ground plane (the vertical axis is the one that varies least)
// and frames every entity.
export function fitWorld({ chooseAxes = false } = {}) {
  if (chooseAxes) {
    const [y0, y1] = extent(1, null);
    const [z0, z1] = extent(2, null);
    axes.value = y1 - y0 > z1 - z0 ? [0, 1] : [0, 2];
  }
  frameRows(null);
}

/** Frames the entities of `rows` (table rows; null or none: every one). */
export function frameRows(rows) {
  const some = rows !== null && rows.length > 0;
  const [h, v] = axes.value;
  const [x0, x1] = extent(h, some ? rows : null);
  const [y0, y1] = extent(v, some ? rows : null);
  const [w, hgt] = viewSize.value;
  if (!Number.isFinite(x0) || w === 0 || hgt === 0) {
    center.value = [0, 0];
    scale.value = 4;
    return;
  }
  const least = some && rows.length === 1 ? LONE_SPAN : 1;
  const spanX = Math.max(x1 - x0, least);
  const spanY = Math.max(y1 - y0, least);
  // Into the map right of and below the rulers, with a margin each side.
  const s = Math.min((w - RULERS.left - 2 * FIT_MARGIN) / spanX, (hgt - RULERS.top - 2 * FIT_MARGIN) / spanY);
  // (The view's centre is the canvas' middle: the entities' middle sits
  // half a ruler right of it and half a ruler below.)
  center.value = [(x0 + x1) / 2 - RULERS.left / 2 / s, (y0 + y1) / 2 + RULERS.top / 2 / s];
  scale.value = s;
}

// The map's views: the axes each shows, named as a level editor names them.
export const VIEWS = [
  { name: 'Top', axes: [0, 2] },
  { name: 'Front', axes: [0, 1] },
];

// Shows the view with axes `pair`, framing every entity.
export function setView(pair) {
  axes.value = pair;
  fitWorld();
}

// Whether world point (wx, wy) is at least `margin` pixels inside the view,
// clear of the rulers. (Read without subscribing: an effect that calls it
// does not follow the view.)
function inView(wx, wy, margin) {
  const [w, h] = viewSize.peek();
  const [cx, cy] = center.peek();
  const s = scale.peek();
  const [px, py] = [(wx - cx) * s + w / 2, h / 2 - (wy - cy) * s];
  return px >= RULERS.left + margin && px <= w - margin && py >= RULERS.top + margin && py <= h - margin;
}

// Pans so that world point (wx, wy) is at least `margin` pixels inside the
// view, if it is not already.
export function keepInView(wx, wy, margin = 30) {
  if (!inView(wx, wy, margin)) center.value = [wx, wy];
}

/** Whether entity `row` shows on the map. */
export function rowInView(row) {
  const [h, v] = axes.peek();
  return inView(table.pos[row * 3 + h], table.pos[row * 3 + v], 0);
}

/** The map moved on the page from rectangle `from` to `to` (a bar shown
 * above or below it, the window resized): the world stays where it was on
 * the page, so that a click aimed before lands where it was aimed. */
export function stayOnPage(from, to) {
  const s = scale.peek();
  const [cx, cy] = center.peek();
  const dx = to.left + to.width / 2 - (from.left + from.width / 2);
  const dy = to.top + to.height / 2 - (from.top + from.height / 2);
  center.value = [cx + dx / s, cy - dy / s];
}

/** Pans so that entity `row` shows, if it lies outside the map. */
export function revealRow(row) {
  if (rowInView(row)) return;
  const [h, v] = axes.peek();
  center.value = [table.pos[row * 3 + h], table.pos[row * 3 + v]];
}

export function zoomAt(factor, px, py) {
  const [w, h] = viewSize.value;
  const [cx, cy] = center.value;
  const s = scale.value;
  const next = Math.min(Math.max(s * factor, 1e-4), 1e5);
  // Keep the world point under (px, py) where it is.
  const wx = cx + (px - w / 2) / s;
  const wy = cy - (py - h / 2) / s;
  center.value = [wx - (px - w / 2) / next, wy + (py - h / 2) / next];
  scale.value = next;
}

export function panBy(dx, dy) {
  const [cx, cy] = center.value;
  center.value = [cx - dx / scale.value, cy + dy / scale.value];
}

// World <-> screen (CSS pixels); the vertical axis grows upwards on screen.
export function toScreen(wx, wy) {
  const [w, h] = viewSize.value;
  const [cx, cy] = center.value;
  const s = scale.value;
  return [(wx - cx) * s + w / 2, h / 2 - (wy - cy) * s];
}

export function toWorld(px, py) {
  const [w, h] = viewSize.value;
  const [cx, cy] = center.value;
  const s = scale.value;
  return [cx + (px - w / 2) / s, cy - (py - h / 2) / s];
}
