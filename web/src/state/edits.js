// Edits of the open world: a field or the position of the selected entity,
// a world setting, a drag on the map, an add, a delete, and undo/redo's
// restore of an entity's text. Each one that goes through updates the table
// and the pending changes and emits 'edited' (or 'restored') for the history
// and the kept work.
import { batch } from '@preact/signals';
import { SETTINGS } from '../lib/fields.js';
import { getEngine } from './engine.js';
import { emit } from './events.js';
import { fail, notice } from './messages.js';
import { noteAdded, noteRemoved, noteTouched } from './pending.js';
import { select, selected, selectedId, showFieldError } from './selection.js';
import { entityAt, previewPosition, putEntity, removeRow, rowPosition, table } from './table.js';
import { busy, settings, status } from './world.js';

// The engine's answer for an entity: its row, and the inspector if shown.
function applyEntity(entity) {
  batch(() => {
    putEntity(entity);
    if (selectedId.value === entity.id) selected.value = entity;
  });
}

// After an edit went through: one undo step, and the work kept in storage.
function edited(id, label, { before, after }) {
  noteTouched(id);
  emit('edited', { id, label, before, after });
}

// Sets one field (or 'position') of the selected entity to a value the
// engine already checked (state/typed.js). `key` names where an error is
// shown.
export async function setField(field, value, key = field) {
  const id = selectedId.value;
  if (id === null || busy.value) return;
  // A new position shows in the list and on the map at once (the engine
  // checked its text); the engine's answer confirms or undoes it.
  const row = table.rowOf.get(id);
  const before = field === 'position' && row !== undefined ? rowPosition(row) : null;
  if (before) previewPosition(id, value);
  try {
    const change = await getEngine().set(id, field, value);
    applyEntity(change.entity);
    if (selectedId.value === id) showFieldError(key, null);
    edited(id, field, change);
  } catch (err) {
    if (before) previewPosition(id, before);
    if (selectedId.value === id) showFieldError(key, err.message);
  }
}

export function setPositionAxis(axis, value) {
  const entity = selected.value;
  if (!entity) return;
  const position = [...entity.position];
  position[axis] = value;
  return setField('position', position, `position.${axis}`);
}

// Sets one world setting to a value the engine already checked
// (state/typed.js). `errorKey` names where an error is shown.
export async function setSetting(field, value, errorKey = `${SETTINGS}.${field}`) {
  if (status.value !== 'ready') return;
  try {
    const change = await getEngine().setSetting(field, value);
    batch(() => {
      settings.value = change.settings;
      showFieldError(errorKey, null);
    });
    edited(SETTINGS, field, change);
  } catch (err) {
    showFieldError(errorKey, err.message);
  }
}

// Commits a map drag; `from` is where the entity was before it.
export async function moveEntity(id, position, from) {
  try {
    const change = await getEngine().set(id, 'position', position);
    applyEntity(change.entity);
    edited(id, 'position', change);
  } catch (err) {
    const row = table.rowOf.get(id);
    if (row !== undefined) putEntity({ ...entityAt(row), position: from });
    fail(`Could not move ${id}`, err);
  }
}

export async function addEntity(className, position) {
  if (busy.value) return;
  try {
    const change = await getEngine().create(className, position);
    const { entity } = change;
    noteAdded(entity.id);
    applyEntity(entity);
    edited(entity.id, 'add', change);
    await select(entity.id);
    notice.value = `Added ${className} ${entity.id}`;
  } catch (err) {
    fail(`Could not add a ${className}`, err);
  }
}

export async function deleteEntity(id = selectedId.value) {
  if (id === null || busy.value) return;
  try {
    const change = await getEngine().remove(id);
    const row = table.rowOf.get(id);
    batch(() => {
      noteRemoved(id);
      removeRow(id);
      notice.value = `Deleted ${id}`;
    });
    edited(id, 'delete', change);
    await select(nextAlive(row));
  } catch (err) {
    fail(`Could not delete ${id}`, err);
  }
}

// The live entity after `row` (else before it) to select once it is gone.
function nextAlive(row) {
  for (let r = row + 1; r < table.size; r++) if (table.alive[r]) return table.ids[r];
  for (let r = row - 1; r >= 0; r--) if (table.alive[r]) return table.ids[r];
  return null;
}

// Undo and redo: makes entity `id` be `text` again (null: deleted), with the
// pending changes following (an entity back at its saved text is clean, one
// back from a delete is no longer deleted), and selects it so the change is
// in view. `what` is the notice shown. Returns false (with the error shown)
// if the engine refused.
export async function restoreEntity(id, text, what) {
  if (id === SETTINGS) return restoreSettings(text, what);
  const wasAlive = table.rowOf.has(id);
  try {
    const { entity } = await getEngine().restore(id, text);
    noteTouched(id);
    const row = table.rowOf.get(id);
    batch(() => {
      if (entity) {
        if (!wasAlive) noteAdded(id);
        applyEntity(entity);
      } else if (wasAlive) {
        noteRemoved(id);
        removeRow(id);
      }
      notice.value = what;
    });
    if (entity) await select(id);
    else if (selectedId.value === id) await select(nextAlive(row));
    emit('restored', { id });
    return true;
  } catch (err) {
    fail(`Could not restore ${id}`, err);
    return false;
  }
}

async function restoreSettings(text, what) {
  try {
    const result = await getEngine().restore(SETTINGS, text);
    batch(() => {
      settings.value = result.settings;
      notice.value = what;
    });
    emit('restored', { id: SETTINGS });
    return true;
  } catch (err) {
    fail('Could not restore the world settings', err);
    return false;
  }
}
