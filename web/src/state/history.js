// Undo and redo, one step per user action: a field, a position typed in the
// inspector, a drag on the map, an add, a delete, each of one entity or of
// every selected entity, a duplicate, a paste. A step holds each entity's
// .jasset text before and after the action (null where it did not exist), so
// undoing puts the old text back through the engine: an entity back at the
// text of its file is clean again, one back from a delete keeps its ID and
// its file is no longer deleted. The history is kept with the unsaved work
// in browser storage (keep.js), so that Ctrl+Z after a reload undoes the
// edits made before it.
import { computed, signal } from '@preact/signals';
import { SETTINGS, sameBytes } from '../lib/fields.js';
import { restoreEntities, restoreEntity } from './edits.js';
import { busy } from './world.js';

const LIMIT = 500;
const KEPT_BYTES = 4 << 20; // of entity text kept with the unsaved work

export const undoStack = signal([]); // [{ label, changes: [{ id, before, after }] }]
export const redoStack = signal([]);
export const canUndo = computed(() => undoStack.value.length > 0 && !busy.value);
export const canRedo = computed(() => redoStack.value.length > 0 && !busy.value);

// After an edit went through (the 'edited' event: one entity's { id,
// label, before, after }, or { label, changes } for several): one step,
// unless no entity's text changed.
export function record(edit) {
  const changes = (edit.changes ?? [edit]).filter((c) => !sameBytes(c.before, c.after));
  if (changes.length === 0) return;
  undoStack.value = [...undoStack.value, { label: edit.label, changes }].slice(-LIMIT);
  redoStack.value = [];
}

// The disk's version of entity `id` replaced the page's (the 'reverted'
// event): its changes leave every step, for undoing or redoing them would
// bring back the page's edits the user dropped. Steps of it alone go.
export function forgetEntity(id) {
  const without = (stack) =>
    stack.map((step) => ({ ...step, changes: step.changes.filter((c) => c.id !== id) })).filter((step) => step.changes.length > 0);
  undoStack.value = without(undoStack.value);
  redoStack.value = without(redoStack.value);
}

// A world was opened (the 'opened' event): its history starts empty.
export function clearHistory() {
  undoStack.value = [];
  redoStack.value = [];
}

// The steps to keep with the unsaved work: { undo, redo }, the steps
// nearest the present first kept, within KEPT_BYTES of entity text.
export function historyToKeep() {
  let budget = KEPT_BYTES;
  const size = (step) => step.changes.reduce((n, c) => n + (c.before?.length ?? 0) + (c.after?.length ?? 0), 0);
  const fits = (step) => (budget -= size(step)) >= 0;
  const undo = [];
  const redo = [];
  for (let i = undoStack.value.length - 1; i >= 0 && fits(undoStack.value[i]); i--) undo.unshift(undoStack.value[i]);
  for (let i = redoStack.value.length - 1; i >= 0 && fits(redoStack.value[i]); i--) redo.unshift(redoStack.value[i]);
  return { undo, redo };
}

// The history kept with unsaved work that was just re-applied.
export function restoreHistory({ undo, redo }) {
  undoStack.value = undo.slice(-LIMIT);
  redoStack.value = redo.slice(-LIMIT);
}

const NAMES = {
  add: 'the add of',
  delete: 'the delete of',
  duplicate: 'the duplicate of',
  paste: 'the paste of',
  'change link': 'the change link of',
};

function describe(verb, { label, changes }) {
  const id = changes[0].id;
  const what = changes.length > 1 ? `${changes.length} entities` : id === SETTINGS ? 'the world settings' : id;
  return `${verb} ${NAMES[label] ?? `the change of ${label} of`} ${what}`;
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
    const what = describe(verb, step);
    const [one] = step.changes;
    const done =
      step.changes.length === 1
        ? await restoreEntity(one.id, pick(one), what)
        : await restoreEntities(
            step.changes.map((c) => [c.id, pick(c)]),
            what,
          );
    if (done) to.value = [...to.value, step];
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
