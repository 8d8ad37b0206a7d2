// Undo and redo of edits, one step per user action: a field, a position
// typed in the inspector, a drag on the map. A step holds the entity, the
// field ('position' or a class field) and its value before and after, so
// undoing sets the value back through the engine like any other edit.
import { computed, signal } from '@preact/signals';
import { applyValue, busy } from './world.js';

const LIMIT = 500;

export const undoStack = signal([]); // [{ id, field, before, after }]
export const redoStack = signal([]);
export const canUndo = computed(() => undoStack.value.length > 0 && !busy.value);
export const canRedo = computed(() => redoStack.value.length > 0 && !busy.value);

// Called by the world model after an edit went through.
export function record(step) {
  undoStack.value = [...undoStack.value, step].slice(-LIMIT);
  redoStack.value = [];
}

export function clearHistory() {
  undoStack.value = [];
  redoStack.value = [];
}

async function replay(from, to, pick) {
  const stack = from.value;
  if (stack.length === 0 || busy.value) return;
  const step = stack[stack.length - 1];
  from.value = stack.slice(0, -1);
  // A step whose entity is gone (deleted since) is dropped with the error.
  if (await applyValue(step.id, step.field, pick(step))) to.value = [...to.value, step];
}

export function undo() {
  return replay(undoStack, redoStack, (step) => step.before);
}

export function redo() {
  return replay(redoStack, undoStack, (step) => step.after);
}
