// The map: every entity that passes the list's filter as a mark coloured by
// class (a light by its own colour, with its reach and the references
// while few are in view: lib/levelOfDetail.js), over a grid in world
// units, in a top (X/Z) or front (X/Y) view. Click selects (Shift-click
// adds, Ctrl/Cmd-click adds or takes out), dragging an entity moves it (with
// every other selected entity), dragging empty space selects what the
// rubber band encloses (with Shift or Ctrl/Cmd: adds it), dragging with the
// middle button (or Alt) pans, the wheel zooms; hovering names the entity
// under the cursor and shows the cursor's coordinates.
// Keyboard: arrows move the selection to the nearest entity that way,
// Shift+arrows pan, + and - zoom, F frames the selection (Fit: the world),
// an entity selected elsewhere is panned into view, Enter selects the
// entity nearest the centre, Delete removes the selected entities. The
// grid and the marks are written straight into the canvas's pixels (lib/mapRaster.js) so that 100,000 entities
// redraw within a frame; circles, lines and text are drawn on top.
import { batch, effect, useSignalEffect } from '@preact/signals';
import { useEffect, useRef, useState } from 'preact/hooks';
import { classColor } from '../lib/classColor.js';
import { DETAIL_LIMIT } from '../lib/levelOfDetail.js';
import { formatCoordinate, formatGridValue, gridValues, niceStep } from '../lib/mapGrid.js';
import { nearestInDirection, nearestPoint } from '../lib/mapNearest.js';
import { abgr, horizontalLine, markRadius, paintMarks, verticalLine } from '../lib/mapRaster.js';
import { deleteEntity, moveEntities, moveEntity } from '../state/edits.js';
import { clearLayers, lights, links, refFieldNames, refreshLayers } from '../state/mapLayers.js';
import {
  axes,
  center,
  fitWorld,
  frameRows,
  keepInView,
  revealRow,
  rowInView,
  stayOnPage,
  panBy,
  RULERS,
  scale,
  setView,
  toScreen,
  toWorld,
  VIEWS,
  viewSize,
  zoomAt,
} from '../state/mapView.js';
import { placeAt, placing, snapPointer } from '../state/placement.js';
import {
  addToSelection,
  readAhead,
  select,
  selectAllOnKey,
  selected,
  selectedId,
  selectedIds,
  selectedLive,
  selectedRows,
  setSelection,
  takeClick,
  toggleSelected,
} from '../state/selection.js';
import { changedRowsSince, previewPosition, revision, rowClass, rowPosition, structure, table } from '../state/table.js';
import { showViewport } from '../state/viewMode.js';
import { pickable, toggleIsolation, viewRows } from '../state/viewFilter.js';
import { status } from '../state/world.js';
import { EntityTooltip } from './EntityTooltip.jsx';
import { Legend } from './Legend.jsx';
import { PickStatus } from './PickStatus.jsx';
import { PlacementTools } from './PlacementTools.jsx';
import { RubberBand } from './RubberBand.jsx';

const AXIS = ['X', 'Y', 'Z'];
const BACKGROUND = abgr('#14191e');
const GRID_MINOR = abgr('#192027');
const GRID_MAJOR = abgr('#222b34');
const GRID_ORIGIN = abgr('#36424e');
const DIRTY_RING = 0xffffffff;
const HIT_RADIUS = 8;
// Grid labels at least this far apart (CSS pixels), minor lines this far.
const LABEL_SPACING = 70;
const MINOR_SPACING = 18;
// Above this many references only the selected entity's are drawn.
const ALL_LINKS_LIMIT = 20000;

// Scratch buffers reused from one frame to the next (100,000 entities).
let pixelAt = new Int32Array(0);
let markColors = new Uint32Array(0);
let counts = new Uint16Array(0);
// A row's index among the rows drawn (their reach and lines too), else -1.
let drawnIndex = new Int32Array(0);
let base = new Uint32Array(0); // the grid alone, under the marks
// Past this many changed rows the raster is painted whole; past RECTS_MAX
// rectangles to repaint, their bounding box is.
const PATCH_MAX = 256;
const RECTS_MAX = 8;

export function WorldMap() {
  const canvas = useRef(null);
  const frame = useRef(0);
  const image = useRef(null);
  const raster = useRef(null); // paintRaster's answer for the pixels in `image`
  const gesture = useRef(null);
  const hoverFrame = useRef(0);
  const [hover, setHover] = useState(null); // { row, x, y }
  const hoverRow = useRef(-1); // the hovered row as the next frame draws it
  const [cursor, setCursor] = useState(null); // world coordinates under the pointer
  const [announce, setAnnounce] = useState('');
  const [band, setBand] = useState(null); // the rubber band: { x0, y0, x1, y1 } in CSS pixels

  function draw() {
    frame.current = 0;
    const started = performance.now();
    const el = canvas.current;
    if (!el) return;
    if (!drewThisFrame.current) {
      drewThisFrame.current = true;
      requestAnimationFrame(() => (drewThisFrame.current = false));
    }
    const [w, h] = viewSize.value;
    const dpr = window.devicePixelRatio || 1;
    const W = Math.max(1, Math.round(w * dpr));
    const H = Math.max(1, Math.round(h * dpr));
    if (el.width !== W || el.height !== H) {
      el.width = W;
      el.height = H;
      image.current = null;
      raster.current = null;
    }
    const ctx = el.getContext('2d');
    if (!image.current) {
      image.current = ctx.createImageData(W, H);
      counts = new Uint16Array(W * H);
    }
    const img = image.current;
    const pixels = new Uint32Array(img.data.buffer);
    // The raster is kept from frame to frame (see paintRaster).
    const kept = raster.current;
    const changes = kept && sameView(kept, W, H, dpr) ? changedRowsSince(kept.revision) : null;
    let painted = 'kept';
    if (changes === null || changes.length > PATCH_MAX) {
      raster.current = paintRaster(pixels, W, H, dpr);
      painted = 'all';
    } else if (changes.length) {
      patchRaster(kept, pixels, changes);
      painted = 'around changes';
    }
    const { rows, shown, r, grid, ha, va } = raster.current;
    raster.current.revision = revision.peek();
    ctx.putImageData(img, 0, 0);

    ctx.save();
    ctx.scale(dpr, dpr);
    const sel = selectedId.value === null ? undefined : table.rowOf.get(selectedId.value);
    const hovered = hoverRow.current;
    // Every light's reach and every reference while few are in view; past
    // that, the selected and hovered entities' alone.
    const few = shown <= DETAIL_LIMIT;
    drawLights(ctx, w, h, few ? null : [sel, hovered]);
    drawLinks(ctx, sel, few);
    drawSelection(ctx, sel);
    if (hovered >= 0 && hovered !== sel && table.alive[hovered]) ring(ctx, hovered, 6, 'rgba(255,255,255,0.6)', 1);
    drawGridLabels(ctx, w, h, grid, ha, va);
    ctx.restore();

    el.dataset.revision = String(revision.peek());
    el.dataset.drawMs = (performance.now() - started).toFixed(2);
    el.dataset.view = JSON.stringify({ axes: axes.value, center: center.value, scale: scale.value });
    el.dataset.marks = r === 0 ? 'density' : `squares of ${2 * r + 1} px`;
    el.dataset.gridStep = String(grid.step);
    el.dataset.shown = String(rows.length); // the entities drawn
    el.dataset.details = few ? 'all' : 'selection'; // whose reach and references are drawn
    el.dataset.painted = painted; // how much of the raster this frame painted
  }

  // The raster: the grid and a mark per entity shown, in the pixels. It is
  // painted whole for a new view (zoom, pan, size, filter, layers) or many
  // changed rows; a frame that only selects or hovers keeps it, and a few
  // changed rows (an edit, a save) repaint the rectangles around their old
  // and new marks (patchRaster): at 1,000,000 entities a whole painting
  // takes a third of a second. Returns what a later frame needs of it.
  function paintRaster(pixels, W, H, dpr) {
    pixels.fill(BACKGROUND);
    const [ha, va] = axes.value;
    const [cx, cy] = center.value;
    const s = scale.value * dpr;
    const ox = W / 2 - cx * s;
    const oy = H / 2 + cy * s;
    const grid = drawGridLines(pixels, W, H, s, ox, oy, dpr);
    if (base.length !== pixels.length) base = new Uint32Array(pixels.length);
    base.set(pixels);

    // Project every shown entity once: its pixel, or -1 off the picture.
    const rows = viewRows.value;
    if (pixelAt.length < rows.length) {
      pixelAt = new Int32Array(rows.length);
      markColors = new Uint32Array(rows.length);
    }
    if (drawnIndex.length < table.size) drawnIndex = new Int32Array(table.size);
    drawnIndex.fill(-1);
    const view = {
      W,
      H,
      dpr,
      rows,
      axes: axes.value,
      center: center.value,
      scale: scale.value,
      lights: lights.value,
      classNames: table.classNames.length,
      ha,
      va,
      s,
      ox,
      oy,
      grid,
      colors: table.classNames.map((name) => abgr(classColor(name))),
      lightColor: lightColors(),
    };
    // How crowded the marks are: how many share the box they span.
    let shown = 0;
    let left = W;
    let right = 0;
    let top = H;
    let bottom = 0;
    for (let i = 0; i < rows.length; i++) {
      const row = rows[i];
      drawnIndex[row] = i;
      const p = pixelOf(view, row);
      pixelAt[i] = p;
      if (p < 0) continue;
      const px = p % W;
      const py = (p / W) | 0;
      markColors[i] = markColor(view, row);
      shown++;
      if (px < left) left = px;
      if (px > right) right = px;
      if (py < top) top = py;
      if (py > bottom) bottom = py;
    }
    // (A row of marks along one axis is not a crowd: spans count 40 px at least.)
    const span = 40 * dpr;
    const r = markRadius(shown, Math.max(span, right - left) * Math.max(span, bottom - top), dpr);
    paintMarks(pixels, W, H, marksOf(rows.length, r));
    return { ...view, shown, r };
  }

  // Whether the raster `kept` was painted for this view.
  function sameView(kept, W, H, dpr) {
    return (
      kept.W === W &&
      kept.H === H &&
      kept.dpr === dpr &&
      kept.rows === viewRows.value &&
      kept.axes === axes.value &&
      kept.center === center.value &&
      kept.scale === scale.value &&
      kept.lights === lights.value &&
      kept.classNames === table.classNames.length
    );
  }

  // The pixel index of row's mark in `view`, or -1 off the picture.
  function pixelOf({ W, H, ha, va, s, ox, oy }, row) {
    const px = (table.pos[row * 3 + ha] * s + ox + 0.5) | 0;
    const py = (oy - table.pos[row * 3 + va] * s + 0.5) | 0;
    return px < 0 || py < 0 || px >= W || py >= H ? -1 : py * W + px;
  }

  const markColor = (view, row) => (view.lightColor && view.lightColor[row]) || view.colors[table.cls[row]];
  const marksOf = (n, r) => ({
    at: pixelAt,
    colors: markColors,
    rows: viewRows.peek(),
    dirty: table.dirty,
    n,
    r,
    ring: DIRTY_RING,
    background: BACKGROUND,
    counts,
  });

  // The raster `kept` brought up to date with the rows `changed` (moved,
  // saved, edited): each one's mark is projected again, and the rectangles
  // its old and new marks cover (merged into one past RECTS_MAX) are given
  // back their grid and painted again, each pixel as a whole painting
  // would leave it (lib/mapRaster.js paintMarks).
  function patchRaster(kept, pixels, changed) {
    const { W, H, r } = kept;
    const half = r === 0 ? 0 : r + 1;
    let rects = [];
    const around = (p) => {
      const x = p % W;
      const y = (p / W) | 0;
      rects.push({ x0: Math.max(0, x - half), y0: Math.max(0, y - half), x1: Math.min(W - 1, x + half), y1: Math.min(H - 1, y + half) });
    };
    for (const row of new Set(changed)) {
      const i = row < drawnIndex.length ? drawnIndex[row] : -1;
      if (i < 0) continue;
      const before = pixelAt[i];
      const now = pixelOf(kept, row);
      pixelAt[i] = now;
      markColors[i] = markColor(kept, row);
      kept.shown += (now >= 0) - (before >= 0);
      if (before >= 0) around(before);
      if (now >= 0) around(now);
    }
    if (rects.length === 0) return;
    if (rects.length > RECTS_MAX) {
      rects = [
        rects.reduce((a, b) => ({
          x0: Math.min(a.x0, b.x0),
          y0: Math.min(a.y0, b.y0),
          x1: Math.max(a.x1, b.x1),
          y1: Math.max(a.y1, b.y1),
        })),
      ];
    }
    // The marks that reach into a rectangle (half is the most a mark
    // spans from its pixel), in their order: one pass for all of them.
    const near = [];
    const n = kept.rows.length;
    for (let i = 0; i < n; i++) {
      const p = pixelAt[i];
      if (p < 0) continue;
      const x = p % W;
      const y = (p / W) | 0;
      for (const c of rects) {
        if (x >= c.x0 - half && x <= c.x1 + half && y >= c.y0 - half && y <= c.y1 + half) {
          near.push(i);
          break;
        }
      }
    }
    const at = new Int32Array(near.length);
    const colors = new Uint32Array(near.length);
    const rows = new Int32Array(near.length);
    near.forEach((i, k) => {
      at[k] = pixelAt[i];
      colors[k] = markColors[i];
      rows[k] = kept.rows[i];
    });
    for (const c of rects) {
      for (let y = c.y0; y <= c.y1; y++) pixels.set(base.subarray(y * W + c.x0, y * W + c.x1 + 1), y * W + c.x0);
      paintMarks(pixels, W, H, { ...marksOf(near.length, r), at, colors, rows }, c);
    }
  }

  // Minor lines, major (labelled) lines and the axes through the origin,
  // into the pixels. Returns the major step and the visible world range.
  function drawGridLines(pixels, W, H, s, ox, oy, dpr) {
    const step = niceStep(scale.value, LABEL_SPACING);
    const minor = niceStep(scale.value, MINOR_SPACING);
    const [wx0, wy1] = toWorld(0, 0);
    const [wx1, wy0] = toWorld(W / dpr, H / dpr);
    const out = { step, xs: gridValues(wx0, wx1, step), ys: gridValues(wy0, wy1, step) };
    if (minor < step) {
      for (const v of gridValues(wx0, wx1, minor)) verticalLine(pixels, W, H, Math.round(v * s + ox), GRID_MINOR);
      for (const v of gridValues(wy0, wy1, minor)) horizontalLine(pixels, W, H, Math.round(oy - v * s), GRID_MINOR);
    }
    for (const v of out.xs) verticalLine(pixels, W, H, Math.round(v * s + ox), GRID_MAJOR);
    for (const v of out.ys) horizontalLine(pixels, W, H, Math.round(oy - v * s), GRID_MAJOR);
    verticalLine(pixels, W, H, Math.round(ox), GRID_ORIGIN);
    horizontalLine(pixels, W, H, Math.round(oy), GRID_ORIGIN);
    return out;
  }

  // Each table row's light colour (0: not a light), for the marks.
  function lightColors() {
    const l = lights.value;
    if (!l) return null;
    const out = new Uint32Array(table.size);
    for (let k = 0; k < l.rows.length; k++) if (l.rows[k] < out.length && l.colors[k]) out[l.rows[k]] = abgr(l.colors[k]);
    return out;
  }

  // Each light's reach (or only those of the rows `only`, when given): a
  // circle of its radius in its colour, where it is big enough to see and
  // crosses the view.
  function drawLights(ctx, w, h, only) {
    const l = lights.value;
    if (!l) return;
    const [ha, va] = axes.value;
    const s = scale.value;
    ctx.lineWidth = 1;
    for (let k = 0; k < l.rows.length; k++) {
      const row = l.rows[k];
      const radius = l.radii[k] * s;
      if (drawnIndex[row] < 0 || !Number.isFinite(radius) || radius < 3 || !l.colors[k]) continue;
      if (only && !only.includes(row)) continue;
      const [x, y] = toScreen(table.pos[row * 3 + ha], table.pos[row * 3 + va]);
      if (x + radius < 0 || y + radius < 0 || x - radius > w || y - radius > h) continue;
      ctx.beginPath();
      ctx.arc(x, y, radius, 0, Math.PI * 2);
      ctx.fillStyle = `${l.colors[k]}1a`;
      ctx.fill();
      ctx.strokeStyle = `${l.colors[k]}99`;
      ctx.stroke();
    }
  }

  // References: every one faintly (with `every`, when there are not too
  // many), the selected entity's own in the accent colour with an
  // arrowhead, and those that point at it dashed.
  function drawLinks(ctx, sel, every) {
    const [ha, va] = axes.value;
    const at = (row) => toScreen(table.pos[row * 3 + ha], table.pos[row * 3 + va]);
    const all = links.value;
    if (all && every && all.from.length <= ALL_LINKS_LIMIT) {
      ctx.strokeStyle = 'rgba(200,215,230,0.22)';
      ctx.lineWidth = 1;
      ctx.beginPath();
      for (let k = 0; k < all.from.length; k++) {
        if (drawnIndex[all.from[k]] < 0 || drawnIndex[all.to[k]] < 0) continue;
        const [x0, y0] = at(all.from[k]);
        const [x1, y1] = at(all.to[k]);
        ctx.moveTo(x0, y0);
        ctx.lineTo(x1, y1);
      }
      ctx.stroke();
    }
    if (sel === undefined) return;
    if (all) {
      ctx.strokeStyle = '#f5b700';
      ctx.lineWidth = 1.5;
      ctx.setLineDash([5, 4]);
      for (let k = 0; k < all.to.length; k++) {
        if (all.to[k] === sel && table.alive[all.from[k]]) arrow(ctx, at(all.from[k]), at(sel));
      }
      ctx.setLineDash([]);
    }
    ctx.strokeStyle = '#4ea1ff';
    ctx.lineWidth = 2;
    for (const target of selectedTargets()) arrow(ctx, at(sel), at(target));
  }

  // Rows the selected entity's reference fields point at (its fields as
  // the inspector has them, so drawn even when the layers are not read).
  function selectedTargets() {
    const entity = selected.value;
    if (!entity || entity.id !== selectedId.value) return [];
    const out = [];
    for (const name of refFieldNames(entity.class)) {
      const row = entity.fields[name] ? table.rowOf.get(entity.fields[name]) : undefined;
      if (row !== undefined) out.push(row);
    }
    return out;
  }

  // A ring around each selected entity (one path; not above
  // ALL_LINKS_LIMIT, where the rings would hide the marks), the primary's
  // bolder.
  function drawSelection(ctx, sel) {
    const ids = selectedIds.value;
    if (ids.size > 1 && ids.size <= ALL_LINKS_LIMIT) {
      const [ha, va] = axes.value;
      ctx.strokeStyle = '#ffffff';
      ctx.lineWidth = 1.5;
      ctx.beginPath();
      for (const id of ids) {
        const row = table.rowOf.get(id);
        if (row === undefined || row === sel) continue;
        const [x, y] = toScreen(table.pos[row * 3 + ha], table.pos[row * 3 + va]);
        ctx.moveTo(x + 6, y);
        ctx.arc(x, y, 6, 0, Math.PI * 2);
      }
      ctx.stroke();
    }
    if (sel !== undefined) ring(ctx, sel, 7, '#ffffff', 2);
  }

  function ring(ctx, row, radius, color, width) {
    const [ha, va] = axes.value;
    const [x, y] = toScreen(table.pos[row * 3 + ha], table.pos[row * 3 + va]);
    ctx.strokeStyle = color;
    ctx.lineWidth = width;
    ctx.beginPath();
    ctx.arc(x, y, radius, 0, Math.PI * 2);
    ctx.stroke();
  }

  // The major lines' values along the top and left edges, and the axes'
  // names in the corner.
  function drawGridLabels(ctx, w, h, grid, ha, va) {
    ctx.font = '11px ui-monospace, Menlo, Consolas, monospace';
    ctx.textBaseline = 'top';
    ctx.fillStyle = 'rgba(20,25,30,0.8)';
    ctx.fillRect(0, 0, w, RULERS.top);
    ctx.fillRect(0, RULERS.top, RULERS.left, h - RULERS.top);
    ctx.fillStyle = '#8c99a6';
    ctx.textAlign = 'center';
    for (const v of grid.xs) {
      const [x] = toScreen(v, 0);
      if (x > 56 && x < w - 44) ctx.fillText(formatGridValue(v, grid.step), x, 3);
    }
    ctx.textAlign = 'right';
    ctx.textBaseline = 'middle';
    for (const v of grid.ys) {
      const [, y] = toScreen(0, v);
      if (y > 24 && y < h - 30) ctx.fillText(formatGridValue(v, grid.step), 37, y);
    }
    // Each axis named where its values grow: X at the right, Y or Z at the top.
    ctx.fillStyle = '#e3e8ed';
    ctx.textAlign = 'right';
    ctx.textBaseline = 'top';
    ctx.fillText(`${AXIS[ha]} →`, w - 6, 3);
    ctx.textAlign = 'center';
    ctx.fillText(`${AXIS[va]} ↑`, 20, 3);
  }

  function schedule() {
    if (!frame.current) frame.current = requestAnimationFrame(draw);
  }

  // Whatever the picture depends on, a change of it is drawn at the end of
  // the task that made it (useSignalEffect would wait for the next frame,
  // and schedule() for the one after): an edit shows on the map in the same
  // frame as in the list and the inspector. More changes within that frame
  // wait for the next one, so that a burst of them costs one picture a frame.
  const drawQueued = useRef(false);
  const drewThisFrame = useRef(false);
  function drawSoon() {
    if (drewThisFrame.current) return schedule();
    if (drawQueued.current) return;
    drawQueued.current = true;
    queueMicrotask(() => {
      drawQueued.current = false;
      cancelAnimationFrame(frame.current);
      draw();
    });
  }
  useEffect(
    () =>
      effect(() => {
        revision.value;
        viewRows.value;
        selectedId.value;
        selectedIds.value;
        selected.value;
        axes.value;
        center.value;
        scale.value;
        viewSize.value;
        lights.value;
        links.value;
        drawSoon();
      }),
    [],
  );
  useEffect(() => {
    hoverRow.current = hover ? hover.row : -1;
    schedule();
  }, [hover?.row]);

  // The lights and references are read again after every change.
  useSignalEffect(() => {
    revision.value;
    if (status.value === 'ready') refreshLayers();
    if (status.value === 'opening') clearLayers();
  });

  // The entity selected in the list (or by Go to) comes into view.
  useSignalEffect(() => {
    const row = selectedId.value === null ? undefined : table.rowOf.get(selectedId.value);
    if (row !== undefined) revealRow(row);
  });

  // Frame the world when one is opened.
  const framedFor = useRef(-1);
  useSignalEffect(() => {
    const opened = status.value === 'ready';
    const s = structure.value;
    const size = viewSize.value;
    if (opened && framedFor.current < 0 && size[0] > 0) {
      framedFor.current = s;
      fitWorld({ chooseAxes: true });
    }
    if (status.value === 'opening') framedFor.current = -1;
  });

  useEffect(() => {
    const el = canvas.current;
    let placed = null; // where on the page the map was
    const observer = new ResizeObserver(() => {
      const rect = el.getBoundingClientRect();
      // The selection shown stays in view, though the map got smaller.
      const row = selectedId.peek() === null ? undefined : table.rowOf.get(selectedId.peek());
      const shown = row !== undefined && rowInView(row);
      batch(() => {
        if (placed) stayOnPage(placed, rect);
        viewSize.value = [el.clientWidth, el.clientHeight];
      });
      placed = rect;
      if (shown) revealRow(row);
    });
    observer.observe(el);
    return () => {
      observer.disconnect();
      cancelAnimationFrame(frame.current);
      cancelAnimationFrame(hoverFrame.current);
    };
  }, []);

  function local(event) {
    const rect = canvas.current.getBoundingClientRect();
    return [event.clientX - rect.left, event.clientY - rect.top];
  }

  // The row of the entity drawn nearest to (px, py), within HIT_RADIUS
  // pixels, or -1.
  function hit(px, py) {
    const [ha, va] = axes.value;
    const [w, h] = viewSize.value;
    const [cx, cy] = center.value;
    const s = scale.value;
    const ox = w / 2 - cx * s;
    const oy = h / 2 + cy * s;
    const rows = viewRows.value;
    const pos = table.pos;
    let best = -1;
    let bestD = HIT_RADIUS * HIT_RADIUS;
    for (let i = 0; i < rows.length; i++) {
      const row = rows[i];
      if (!pickable(row)) continue;
      const dx = pos[row * 3 + ha] * s + ox - px;
      const dy = oy - pos[row * 3 + va] * s - py;
      const d = dx * dx + dy * dy;
      if (d <= bestD) {
        bestD = d;
        best = row;
      }
    }
    return best;
  }

  function onPointerDown(event) {
    const pan = event.button === 1 || (event.button === 0 && event.altKey);
    if (event.button !== 0 && !pan) return;
    if (event.button === 1) event.preventDefault(); // no autoscroll
    const [px, py] = local(event);
    canvas.current.setPointerCapture(event.pointerId);
    if (pan) {
      gesture.current = { kind: 'pan', last: [px, py] };
      return;
    }
    const adding = event.shiftKey || event.ctrlKey || event.metaKey;
    const row = hit(px, py);
    if (row < 0) {
      gesture.current = { kind: 'band', start: [px, py], adding };
      return;
    }
    const id = table.ids[row];
    if (takeClick(id)) return;
    if (event.ctrlKey || event.metaKey) {
      toggleSelected(id);
      return;
    }
    const inSelection = selectedIds.value.has(id);
    if (event.shiftKey) addToSelection([id], id);
    else if (!inSelection) select(id);
    // Dragging an entity of the selection moves every selected one.
    const ids = inSelection || event.shiftKey ? [...new Set([...selectedLive(), id])] : [id];
    const froms = ids.map((x) => rowPosition(table.rowOf.get(x)));
    gesture.current = { kind: 'drag', id, ids, froms, start: [px, py], moved: false, alone: inSelection && !event.shiftKey };
  }

  // Selects the shown entities inside the rubber band (added to the
  // selection with Shift or Ctrl/Cmd).
  function selectBand(g, [px, py]) {
    const [x0, x1] = [Math.min(g.start[0], px), Math.max(g.start[0], px)];
    const [y0, y1] = [Math.min(g.start[1], py), Math.max(g.start[1], py)];
    const [ha, va] = axes.value;
    const rows = viewRows.value;
    const ids = [];
    for (let i = 0; i < rows.length; i++) {
      const row = rows[i];
      if (!pickable(row)) continue;
      const [x, y] = toScreen(table.pos[row * 3 + ha], table.pos[row * 3 + va]);
      if (x >= x0 && x <= x1 && y >= y0 && y <= y1) ids.push(table.ids[row]);
    }
    if (g.adding) addToSelection(ids);
    else setSelection(ids);
    setAnnounce(`${ids.length} ${ids.length === 1 ? 'entity' : 'entities'} in the rubber band`);
  }

  // The entity under the pointer (read ahead: it may be clicked next) and
  // the pointer's world coordinates, once a frame.
  function hoverAt(px, py) {
    cancelAnimationFrame(hoverFrame.current);
    hoverFrame.current = requestAnimationFrame(() => {
      setCursor(toWorld(px, py));
      const row = gesture.current?.kind === 'drag' ? -1 : hit(px, py);
      if (row < 0) {
        setHover(null);
        return;
      }
      readAhead(table.ids[row]);
      setHover({ row, x: px, y: py });
    });
  }

  function onPointerMove(event) {
    const g = gesture.current;
    const [px, py] = local(event);
    hoverAt(px, py);
    if (!g) return;
    if (g.kind === 'pan') {
      panBy(px - g.last[0], py - g.last[1]);
      g.last = [px, py];
      return;
    }
    if (!g.moved && Math.hypot(px - g.start[0], py - g.start[1]) < 3) return;
    g.moved = true;
    if (g.kind === 'band') {
      setBand({ x0: g.start[0], y0: g.start[1], x1: px, y1: py });
      return;
    }
    // Every dragged entity moves by the same world distance on the view's axes.
    const [ha, va] = axes.value;
    const dh = (px - g.start[0]) / scale.value;
    const dv = -(py - g.start[1]) / scale.value;
    g.tos = g.froms.map((from) => {
      const to = [...from];
      to[ha] = snapPointer(from[ha] + dh);
      to[va] = snapPointer(from[va] + dv);
      return to;
    });
    batch(() => g.ids.forEach((id, i) => previewPosition(id, g.tos[i])));
  }

  function onPointerUp(event) {
    const g = gesture.current;
    gesture.current = null;
    if (g?.kind === 'band') {
      setBand(null);
      if (g.moved) selectBand(g, local(event));
      // In place mode a click on empty space places there.
      else if (placing.value && event.type === 'pointerup') placeAt(...toWorld(...local(event)));
    } else if (g?.kind === 'drag' && g.moved && g.tos) {
      if (g.ids.length === 1) moveEntity(g.id, g.tos[0], g.froms[0]);
      else moveEntities(g.ids.map((id, i) => ({ id, to: g.tos[i], from: g.froms[i] })));
    } else if (g?.kind === 'drag' && g.alone) {
      select(g.id); // a click on one of several selected selects it alone
    }
  }

  function onPointerLeave() {
    cancelAnimationFrame(hoverFrame.current);
    setHover(null);
    setCursor(null);
  }

  function onWheel(event) {
    event.preventDefault();
    const [px, py] = local(event);
    zoomAt(Math.exp(-event.deltaY * 0.0015), px, py);
  }

  // The shown entities' positions on the view's axes, for keyboard moves.
  function shownPoints() {
    const [ha, va] = axes.value;
    const rows = viewRows.value.filter(pickable);
    const xs = new Float64Array(rows.length);
    const ys = new Float64Array(rows.length);
    for (let i = 0; i < rows.length; i++) {
      xs[i] = table.pos[rows[i] * 3 + ha];
      ys[i] = table.pos[rows[i] * 3 + va];
    }
    return { rows, xs, ys };
  }

  // Selects the shown entity k of `points`, keeps it in view and says so.
  function selectShown({ rows, xs, ys }, k) {
    const row = rows[k];
    select(table.ids[row]);
    keepInView(xs[k], ys[k]);
    const [ha, va] = axes.value;
    setAnnounce(
      `${rowClass(row)} ${table.ids[row]} at ${AXIS[ha]} ${formatCoordinate(xs[k], 100)}, ${AXIS[va]} ${formatCoordinate(ys[k], 100)}`,
    );
  }

  // Arrow keys: the nearest entity in that direction on screen (up is the
  // vertical axis growing), from the selected one or the view's centre.
  function step(dx, dy) {
    const points = shownPoints();
    const n = points.rows.length;
    if (n === 0) return;
    const selRow = selectedId.value === null ? undefined : table.rowOf.get(selectedId.value);
    const from = selRow === undefined ? -1 : points.rows.indexOf(selRow);
    if (from < 0) {
      const [cx, cy] = center.value;
      selectShown(points, nearestPoint(points.xs, points.ys, n, cx, cy));
      return;
    }
    const k = nearestInDirection(points.xs, points.ys, n, points.xs[from], points.ys[from], dx, dy, from);
    if (k < 0) setAnnounce(`No entity further ${dx < 0 ? 'left' : dx > 0 ? 'right' : dy > 0 ? 'up' : 'down'}`);
    else selectShown(points, k);
  }

  function selectNearCenter() {
    const points = shownPoints();
    const [cx, cy] = center.value;
    const k = nearestPoint(points.xs, points.ys, points.rows.length, cx, cy);
    if (k >= 0) selectShown(points, k);
  }

  function onKeyDown(event) {
    if (selectAllOnKey(event)) return;
    if (event.ctrlKey || event.metaKey || event.altKey) return;
    const [w, h] = viewSize.value;
    const arrows = { ArrowLeft: [-1, 0], ArrowRight: [1, 0], ArrowUp: [0, 1], ArrowDown: [0, -1] };
    const keys = {
      '+': () => zoomAt(1.25, w / 2, h / 2),
      '=': () => zoomAt(1.25, w / 2, h / 2),
      '-': () => zoomAt(0.8, w / 2, h / 2),
      f: () => frameRows(selectedRows().rows),
      i: toggleIsolation,
      I: toggleIsolation,
      // In place mode Enter places at the centre (the keyboard's click).
      Enter: placing.value ? () => placeAt(...center.value) : selectNearCenter,
      Escape: () => select(null),
      Delete: () => selectedId.value !== null && deleteEntity(),
    };
    const dir = arrows[event.key];
    let action = keys[event.key];
    if (dir && event.shiftKey) action = () => panBy(-dir[0] * 40, dir[1] * 40);
    else if (dir) action = () => step(dir[0], dir[1]);
    if (action) {
      event.preventDefault();
      action();
    }
  }

  const [ha, va] = axes.value;
  const shownHover = hover && table.alive[hover.row] ? hover.row : -1;
  return (
    <section class="pane map-pane" aria-label="Map">
      <div class="map-tools">
        <div class="views" role="group" aria-label="View">
          {VIEWS.map((view) => {
            const on = view.axes[0] === ha && view.axes[1] === va;
            return (
              <button key={view.name} type="button" class="small" aria-pressed={on ? 'true' : 'false'} onClick={() => setView(view.axes)}>
                {view.name} ({AXIS[view.axes[0]]}/{AXIS[view.axes[1]]})
              </button>
            );
          })}
        </div>
        <button type="button" class="small" onClick={() => fitWorld()}>
          Fit
        </button>
        <button type="button" class="small" onClick={() => showViewport(true)}>
          3D
        </button>
        <PlacementTools />
        <PickStatus />
        <Legend />
      </div>
      <div class="map-stage">
        <canvas
          ref={canvas}
          class={placing.value ? 'map placing' : 'map'}
          role="img"
          aria-label="World map"
          aria-describedby="map-keys"
          tabIndex={0}
          onPointerDown={onPointerDown}
          onPointerMove={onPointerMove}
          onPointerUp={onPointerUp}
          onPointerCancel={onPointerUp}
          onContextMenu={(e) => e.preventDefault()}
          onPointerLeave={onPointerLeave}
          onWheel={onWheel}
          onKeyDown={onKeyDown}
        />
        {band && <RubberBand band={band} />}
        {shownHover >= 0 && <EntityTooltip hover={hover} size={viewSize.value} />}
        {cursor && (
          <div class="map-cursor">
            {`${AXIS[ha]} ${formatCoordinate(cursor[0], scale.value)}   ${AXIS[va]} ${formatCoordinate(cursor[1], scale.value)}`}
          </div>
        )}
      </div>
      <p id="map-keys" class="visually-hidden">
        Arrow keys select the nearest entity in that direction, Shift with an arrow key pans, plus and minus zoom, F fits the world, Enter
        selects the entity nearest the centre, Escape clears the selection, Control A selects every entity shown, Delete removes the
        selected entities. Drag on empty space to select the entities inside a rectangle; drag with the middle button or with Alt to pan.
      </p>
      <div class="visually-hidden" aria-live="polite">
        {announce}
      </div>
    </section>
  );
}

// A line from a to b (screen points) with an arrowhead at b, stopping
// short of b's mark.
function arrow(ctx, [x0, y0], [x1, y1]) {
  const len = Math.hypot(x1 - x0, y1 - y0);
  if (len < 12) return;
  const ux = (x1 - x0) / len;
  const uy = (y1 - y0) / len;
  const tx = x1 - ux * 8;
  const ty = y1 - uy * 8;
  ctx.beginPath();
  ctx.moveTo(x0, y0);
  ctx.lineTo(tx, ty);
  ctx.moveTo(tx - ux * 7 - uy * 4, ty - uy * 7 + ux * 4);
  ctx.lineTo(tx, ty);
  ctx.lineTo(tx - ux * 7 + uy * 4, ty - uy * 7 - ux * 4);
  ctx.stroke();
}
