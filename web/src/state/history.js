// Undo and redo, one step per user action: a field, a position typed in the
// inspector, a drag on the map, an add, a delete. A step holds the entity's
// .jasset text before and after the action (null where it did not exist), so
// undoing puts the old text back through the engine: an entity back at the
// text of its file is clean again, one back from a delete keeps its ID and
// its file is no longer deleted.
import { computed, signal } from '@preact/signals';
import { SETTINGS, sameBytes } from '../lib/fields.js';
import { restoreEntity } from './edits.js';
import { busy } from './world.js';

const LIMIT = 500;

export const undoStack = signal([]); // [{ id, label, before, after }]
export const redoStack = signal([]);
export const canUndo = computed(() => undoStack.value.length > 0 && !busy.value);
export const canRedo = computed(() => redoStack.value.length > 0 && !busy.value);

// After an edit went through (the 'edited' event): one step, unless the
// entity's text did not change.
export function record(step) {
  if (sameBytes(step.before, step.after)) return;
  undoStack.value = [...undoStack.value, step].slice(-LIMIT);
  redoStack.value = [];
}

// A world was opened (the 'opened' event): its history starts empty.
export function clearHistory() {
  undoStack.value = [];
  redoStack.value = [];
}

const NAMES = { add: 'the add of', delete: 'the delete of' };

function describe(verb, step) {
  const what = step.id === SETTINGS ? 'the world settings' : step.id;
  return `${verb} ${NAMES[step.label] ?? `the change of ${step.label} of`} ${what}`;
}

let running = false;

async function replay(from, to, pick, verb) {
  const stack = from.value;
  if (stack.length === 0 || busy.value || running) return;
  running = true;
  const step = stack[stack.length - 1];
  from.value = stack.slice(0, -1);
  try {
    // A step the engine refuses is dropped, with the error shown.
    if (await restoreEntity(step.id, pick(step), describe(verb, step))) to.value = [...to.value, step];
  } finally {
    running = false;
  }
}

export function undo() {
  return replay(undoStack, redoStack, (step) => step.before, 'Undid');
}

export function redo() {
  return replay(redoStack, undoStack, (step) => step.after, 'Redid');
}
