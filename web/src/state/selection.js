// The selected entity (as the engine last sent it) and the errors shown next
// to its fields (and the world settings' fields).
import { batch, signal } from '@preact/signals';
import { isNullRef } from '../lib/fields.js';
import { getEngine } from './engine.js';
import { fail } from './messages.js';
import { table } from './table.js';

export const selectedId = signal(null);
export const selected = signal(null); // world.get(selectedId) or null
export const fieldErrors = signal({}); // field key -> message

// Selects entity `id` (null: none) and reads it from the engine; a read
// that fails shows an error, one overtaken by another selection is dropped.
export async function select(id) {
  if (selectedId.value === id) return;
  batch(() => {
    selectedId.value = id;
    fieldErrors.value = {};
    if (id === null) selected.value = null;
  });
  if (id === null) return;
  try {
    const entity = await getEngine().get(id);
    if (selectedId.value === id) selected.value = entity;
  } catch (err) {
    if (selectedId.value === id) fail(`Could not read ${id}`, err);
  }
}

// Nothing selected and no field errors (another world was opened).
export function clearSelection() {
  batch(() => {
    selectedId.value = null;
    selected.value = null;
    fieldErrors.value = {};
  });
}

// Shows `message` next to the field `key`; null clears it.
export function showFieldError(key, message) {
  const next = { ...fieldErrors.value };
  if (message) next[key] = message;
  else delete next[key];
  fieldErrors.value = next;
}

export function entityExists(id) {
  return !isNullRef(id) && table.rowOf.has(id);
}
