// Where new and moved entities land: snap to grid (on or off, and its step
// in world units, remembered in this browser), and the place mode, in which
// a click on empty map space creates an entity of a chosen class there.
import { signal } from '@preact/signals';
import { snapToStep } from '../lib/mapGrid.js';
import { addEntity } from './edits.js';
import { axes } from './mapView.js';

const STORAGE_KEY = 'juliet.snap';
export const DEFAULT_STEP = 1;

function loadSnap() {
  try {
    const kept = JSON.parse(localStorage.getItem(STORAGE_KEY));
    if (kept && typeof kept.on === 'boolean' && validStep(kept.step)) return kept;
  } catch {
    // Storage unavailable or its text not ours: the defaults.
  }
  return { on: false, step: DEFAULT_STEP };
}

export const snap = signal(loadSnap()); // { on, step }

/** Whether `step` can be a grid step: a finite number above zero. */
export function validStep(step) {
  return typeof step === 'number' && Number.isFinite(step) && step > 0;
}

/** Snap on or off and its step (kept as it is when not valid). */
export function setSnap({ on = snap.value.on, step = snap.value.step }) {
  const next = { on, step: validStep(step) ? step : snap.value.step };
  snap.value = next;
  try {
    localStorage.setItem(STORAGE_KEY, JSON.stringify(next));
  } catch {
    // A browser without storage forgets the choice at the next load.
  }
}

/** A typed coordinate: on the grid when snap is on, else as typed. */
export function snapTyped(v) {
  return snap.value.on ? snapToStep(v, snap.value.step) : v;
}

/**
 * A coordinate picked with the pointer (a drag, a click to place): on the
 * grid when snap is on, else to the hundredth, finer than a pixel shows.
 */
export function snapPointer(v) {
  return snapToStep(v, snap.value.on ? snap.value.step : 0.01);
}

// The place mode: { className, position } (the position gives the axis the
// map does not show), or null.
export const placing = signal(null);

export function startPlacing(className, position = [0, 0, 0]) {
  placing.value = { className, position: [...position] };
}

export function stopPlacing() {
  placing.value = null;
}

/** In place mode, creates an entity at map point (wx, wy) (one undo step). */
export function placeAt(wx, wy) {
  const mode = placing.value;
  if (!mode) return;
  const [h, v] = axes.value;
  const position = [...mode.position];
  position[h] = wx;
  position[v] = wy;
  return placeAtPoint(position);
}

/** In place mode, creates an entity at world point `position` (one undo step). */
export function placeAtPoint(position) {
  const mode = placing.value;
  if (!mode) return;
  return addEntity(mode.className, position.map(snapPointer));
}
