// The top-down map: every entity that passes the list's filter as a dot
// coloured by class. Click selects, dragging an entity moves it, dragging
// empty space pans, the wheel zooms. Keyboard: arrows pan, + and - zoom,
// F frames the world. Dots are written straight into an ImageData so that
// 100,000 entities redraw within a frame.
import { useSignalEffect } from '@preact/signals';
import { useEffect, useRef } from 'preact/hooks';
import { classColor } from '../lib/classColor.js';
import { moveEntity } from '../state/edits.js';
import { classCounts, visibleRows } from '../state/listView.js';
import {
  axes,
  center,
  fitWorld,
  panBy,
  scale,
  toScreen,
  toggleAxes,
  toWorld,
  viewSize,
  zoomAt,
} from '../state/mapView.js';
import { select, selectedId } from '../state/selection.js';
import { previewPosition, revision, rowPosition, structure, table } from '../state/table.js';
import { status } from '../state/world.js';

const AXIS = ['X', 'Y', 'Z'];
const BACKGROUND = 0xff1e1914; // ABGR of #14191e
const DIRTY_RING = 0xffffffff;
const HIT_RADIUS = 8;

function abgr(hex) {
  const n = parseInt(hex.slice(1), 16);
  return (0xff000000 | ((n & 0xff) << 16) | (n & 0xff00) | (n >> 16)) >>> 0;
}

export function WorldMap() {
  const canvas = useRef(null);
  const frame = useRef(0);
  const image = useRef(null);
  const gesture = useRef(null);

  function draw() {
    frame.current = 0;
    const started = performance.now();
    const el = canvas.current;
    if (!el) return;
    const [w, h] = viewSize.value;
    const dpr = window.devicePixelRatio || 1;
    const W = Math.max(1, Math.round(w * dpr));
    const H = Math.max(1, Math.round(h * dpr));
    if (el.width !== W || el.height !== H) {
      el.width = W;
      el.height = H;
      image.current = null;
    }
    const ctx = el.getContext('2d');
    if (!image.current) image.current = ctx.createImageData(W, H);
    const img = image.current;
    const pixels = new Uint32Array(img.data.buffer);
    pixels.fill(BACKGROUND);

    const [ha, va] = axes.value;
    const [cx, cy] = center.value;
    const s = scale.value * dpr;
    const ox = W / 2 - cx * s;
    const oy = H / 2 + cy * s;
    const colors = table.classNames.map((name, k) => abgr(classColor(name)));
    const rows = visibleRows.value;
    // Dot half-size in device pixels: bigger when there are few to show.
    const r = Math.round((rows.length < 2000 ? 3 : rows.length < 20000 ? 2 : 1) * Math.min(dpr, 2));
    const pos = table.pos;
    const cls = table.cls;
    const dirtyRows = [];
    // The hot loop: one square of (2r+1)^2 pixels per entity, clipped only
    // when it touches an edge. Dirty entities are drawn last, ringed.
    for (let i = 0; i < rows.length; i++) {
      const row = rows[i];
      const px = (pos[row * 3 + ha] * s + ox + 0.5) | 0;
      const py = (oy - pos[row * 3 + va] * s + 0.5) | 0;
      if (px < -r || py < -r || px >= W + r || py >= H + r) continue;
      if (table.dirty[row] === 1) {
        dirtyRows.push(px, py, row);
        continue;
      }
      const color = colors[cls[row]];
      const x0 = px - r < 0 ? 0 : px - r;
      const x1 = px + r >= W ? W - 1 : px + r;
      const y1 = py + r >= H ? H - 1 : py + r;
      for (let y = py - r < 0 ? 0 : py - r; y <= y1; y++) {
        const line = y * W;
        for (let x = x0; x <= x1; x++) pixels[line + x] = color;
      }
    }
    const rr = r + 1;
    for (let i = 0; i < dirtyRows.length; i += 3) {
      const px = dirtyRows[i];
      const py = dirtyRows[i + 1];
      const color = colors[cls[dirtyRows[i + 2]]];
      for (let y = Math.max(0, py - rr); y <= Math.min(H - 1, py + rr); y++) {
        const line = y * W;
        for (let x = Math.max(0, px - rr); x <= Math.min(W - 1, px + rr); x++) {
          const edge = y === py - rr || y === py + rr || x === px - rr || x === px + rr;
          pixels[line + x] = edge ? DIRTY_RING : color;
        }
      }
    }
    ctx.putImageData(img, 0, 0);

    // Axes through the origin and the selection ring, with vector drawing.
    ctx.save();
    ctx.scale(dpr, dpr);
    const [x0, y0] = toScreen(0, 0);
    ctx.strokeStyle = 'rgba(255,255,255,0.12)';
    ctx.lineWidth = 1;
    ctx.beginPath();
    ctx.moveTo(x0, 0);
    ctx.lineTo(x0, h);
    ctx.moveTo(0, y0);
    ctx.lineTo(w, y0);
    ctx.stroke();
    const sel = selectedId.value === null ? undefined : table.rowOf.get(selectedId.value);
    if (sel !== undefined) {
      const [sx, sy] = toScreen(pos[sel * 3 + ha], pos[sel * 3 + va]);
      ctx.strokeStyle = '#ffffff';
      ctx.lineWidth = 2;
      ctx.beginPath();
      ctx.arc(sx, sy, 7, 0, Math.PI * 2);
      ctx.stroke();
    }
    ctx.restore();
    el.dataset.revision = String(revision.peek());
    el.dataset.drawMs = (performance.now() - started).toFixed(2);
    el.dataset.view = JSON.stringify({ axes: axes.value, center: center.value, scale: scale.value });
  }

  function schedule() {
    if (!frame.current) frame.current = requestAnimationFrame(draw);
  }

  // Redraw whenever anything the picture depends on changes.
  useSignalEffect(() => {
    revision.value;
    visibleRows.value;
    selectedId.value;
    axes.value;
    center.value;
    scale.value;
    viewSize.value;
    schedule();
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
    const observer = new ResizeObserver(() => {
      viewSize.value = [el.clientWidth, el.clientHeight];
    });
    observer.observe(el);
    return () => {
      observer.disconnect();
      cancelAnimationFrame(frame.current);
    };
  }, []);

  function local(event) {
    const rect = canvas.current.getBoundingClientRect();
    return [event.clientX - rect.left, event.clientY - rect.top];
  }

  function hit(px, py) {
    const [ha, va] = axes.value;
    const rows = visibleRows.value;
    let best = -1;
    let bestD = HIT_RADIUS * HIT_RADIUS;
    for (let i = 0; i < rows.length; i++) {
      const row = rows[i];
      const [sx, sy] = toScreen(table.pos[row * 3 + ha], table.pos[row * 3 + va]);
      const d = (sx - px) ** 2 + (sy - py) ** 2;
      if (d <= bestD) {
        bestD = d;
        best = row;
      }
    }
    return best;
  }

  function onPointerDown(event) {
    if (event.button !== 0) return;
    const [px, py] = local(event);
    canvas.current.setPointerCapture(event.pointerId);
    const row = hit(px, py);
    if (row >= 0) {
      const id = table.ids[row];
      select(id);
      gesture.current = { kind: 'drag', id, start: [px, py], from: rowPosition(row), moved: false };
    } else {
      gesture.current = { kind: 'pan', last: [px, py] };
    }
  }

  function onPointerMove(event) {
    const g = gesture.current;
    if (!g) return;
    const [px, py] = local(event);
    if (g.kind === 'pan') {
      panBy(px - g.last[0], py - g.last[1]);
      g.last = [px, py];
      return;
    }
    if (!g.moved && Math.hypot(px - g.start[0], py - g.start[1]) < 3) return;
    g.moved = true;
    const [ha, va] = axes.value;
    const [sx, sy] = toScreen(g.from[ha], g.from[va]);
    const [wx, wy] = toWorld(sx + px - g.start[0], sy + py - g.start[1]);
    const to = [...g.from];
    to[ha] = round2(wx);
    to[va] = round2(wy);
    g.to = to;
    previewPosition(g.id, to);
  }

  function onPointerUp() {
    const g = gesture.current;
    gesture.current = null;
    if (g?.kind === 'drag' && g.moved && g.to) moveEntity(g.id, g.to, g.from);
  }

  function onWheel(event) {
    event.preventDefault();
    const [px, py] = local(event);
    zoomAt(Math.exp(-event.deltaY * 0.0015), px, py);
  }

  function onKeyDown(event) {
    const [w, h] = viewSize.value;
    const keys = {
      ArrowLeft: () => panBy(40, 0),
      ArrowRight: () => panBy(-40, 0),
      ArrowUp: () => panBy(0, 40),
      ArrowDown: () => panBy(0, -40),
      '+': () => zoomAt(1.25, w / 2, h / 2),
      '=': () => zoomAt(1.25, w / 2, h / 2),
      '-': () => zoomAt(0.8, w / 2, h / 2),
      f: () => fitWorld(),
    };
    const action = keys[event.key];
    if (action) {
      event.preventDefault();
      action();
    }
  }

  const [ha, va] = axes.value;
  return (
    <section class="pane map-pane" aria-label="Map">
      <div class="map-tools">
        <span class="muted">
          Top view {AXIS[ha]}/{AXIS[va]}
        </span>
        <button type="button" class="small" onClick={toggleAxes}>
          Show {AXIS[ha]}/{va === 2 ? 'Y' : 'Z'}
        </button>
        <button type="button" class="small" onClick={() => fitWorld()}>
          Fit
        </button>
        <ul class="legend" aria-label="Classes">
          {legendNames(classCounts.value).map((name) => (
            <li key={name}>
              <span class="swatch" style={{ background: classColor(name) }} />
              {name}
            </li>
          ))}
        </ul>
      </div>
      <canvas
        ref={canvas}
        class="map"
        role="img"
        aria-label="World map"
        tabIndex={0}
        onPointerDown={onPointerDown}
        onPointerMove={onPointerMove}
        onPointerUp={onPointerUp}
        onPointerCancel={onPointerUp}
        onWheel={onWheel}
        onKeyDown={onKeyDown}
      />
    </section>
  );
}

function round2(v) {
  return Math.round(v * 100) / 100;
}

// The classes the legend names: those with entities in the world.
function legendNames(counts) {
  return Object.keys(counts).filter((name) => counts[name] > 0);
}
