// Pick mode for a reference field: the next click on an entity (in the
// list, on the map or in the 3D view) sets the field to that entity instead
// of selecting it. The field's editor starts it with how its value is set
// (its own edit path: the engine checks the value, one undo step); Escape,
// its Pick button again, or another selection cancels it.
import { signal } from '@preact/signals';

// { id, field, label, set } or null: the entity whose field `field` is
// picked for, `label` its name or ID (for the status line), and `set(id)`
// that commits a target.
export const pickingFor = signal(null);

/** Whether field `field` of entity `id` is being picked for. */
export function isPicking(id, field) {
  const mode = pickingFor.value;
  return mode !== null && mode.id === id && mode.field === field;
}

/** Starts pick mode for field `field` of entity `id` (ends another one). */
export function startPick(id, field, label, set) {
  pickingFor.value = { id, field, label, set };
}

export function cancelPick() {
  if (pickingFor.peek() !== null) pickingFor.value = null;
}

/**
 * In pick mode, sets the field picked for to entity `targetId` and ends the
 * mode: whether there was a mode to take it (the click then selects nothing).
 */
export function finishPick(targetId) {
  const mode = pickingFor.peek();
  if (mode === null) return false;
  pickingFor.value = null;
  mode.set(targetId);
  return true;
}
