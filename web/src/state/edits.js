// Edits of the open world: a field or the position of the selected entity
// (or of every selected entity), a world setting, a drag on the map, an
// add, a delete (of the selection), entities added at once (duplicates,
// pasted ones), and undo/redo's restore of entities' texts. Each one that
// goes through updates the table and the pending changes and emits
// 'edited' (or 'restored') for the history and the kept work: an edit of
// several entities is one 'edited', one undo step.
import { batch } from '@preact/signals';
import { SETTINGS } from '../lib/fields.js';
import { hasParentField, PARENT_FIELD } from '../lib/hierarchy.js';
import { getEngine } from './engine.js';
import { emit } from './events.js';
import { parentRefusal } from './hierarchy.js';
import { fail, notice } from './messages.js';
import { noteAdded, noteRemoved, noteTouched } from './pending.js';
import { select, selected, selectedId, selectedLive, setSelection, showFieldError } from './selection.js';
import { entityAt, previewPosition, putEntity, removeRow, rowClass, rowPosition, table } from './table.js';
import { busy, schemas, settings, status } from './world.js';

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

// The same for an edit of several entities: `changes` [{ id, before, after }].
function editedMany(label, changes) {
  for (const { id } of changes) noteTouched(id);
  emit('edited', { label, changes });
}

// Sets one field (or 'position') of the selected entity to a value the
// engine already checked (state/typed.js). `key` names where an error is
// shown.
export async function setField(field, value, key = field) {
  const id = selectedId.value;
  if (id === null || busy.value) return;
  if (refusedParent(field, [id], value, key)) return;
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

// Sets field `field` of every selected entity whose class has it (shown
// under `key` if refused) to `value`, as one undo step; all or none.
export function setFieldOfSelection(field, value, key = field) {
  const has = (className) => (schemas.value[className] ?? []).some((f) => f.name === field);
  const ids = selectedLive().filter((id) => has(rowClass(table.rowOf.get(id))));
  if (refusedParent(field, ids, value, key)) return;
  return setManyAt(
    key,
    ids.map((id) => [id, field, value]),
    field,
  );
}

// Whether setting field `field` of `ids` to `value` is refused as a parent
// that would make a cycle (told under `key`).
function refusedParent(field, ids, value, key) {
  const refusal = field === PARENT_FIELD ? parentRefusal(ids, value) : null;
  if (refusal) showFieldError(key, refusal);
  return refusal !== null;
}

/** Puts the entities `ids` whose class has the hierarchy's field under
 * entity `parentId` (null: at the top), as one undo step (a drag in the
 * list); a cycle is refused with a message. */
export function setParents(ids, parentId) {
  const children = ids.filter((id) => {
    const row = table.rowOf.get(id);
    return row !== undefined && hasParentField(schemas.value[rowClass(row)]) && table.parents[row] !== parentId;
  });
  const refusal = parentRefusal(children, parentId);
  if (refusal) {
    fail(refusal);
    return false;
  }
  return setFromView(
    children.map((id) => [id, PARENT_FIELD, parentId]),
    PARENT_FIELD,
  );
}

// Sets one axis of the position of every selected entity to `value`, or
// with `by` moves each by `value` along it; each keeps its other axes.
export function setPositionAxisOfSelection(axis, value, { by = false } = {}) {
  const sets = selectedLive().map((id) => {
    const position = rowPosition(table.rowOf.get(id));
    position[axis] = by ? position[axis] + value : value;
    return [id, 'position', position];
  });
  return setManyAt(`position.${axis}`, sets, 'position');
}

// Sets [[id, field, value]] as one undo step, true if done; a refusal
// changes nothing and is told to `refused(error)`.
async function setMany(sets, label, refused) {
  if (sets.length === 0 || busy.value) return false;
  try {
    const { entities, changes } = await getEngine().setMany(sets);
    batch(() => {
      for (const entity of entities) applyEntity(entity);
    });
    editedMany(label, changes);
    return true;
  } catch (err) {
    refused(err);
    return false;
  }
}

// setMany from a field of the inspector: a refusal is shown under `key`.
async function setManyAt(key, sets, label) {
  if (await setMany(sets, label, (err) => showFieldError(key, err.message))) showFieldError(key, null);
}

// Commits a drag of several entities on the map: [{ id, to, from }], as
// one undo step (the rows are put back where they were if it is refused).
export async function moveEntities(moves) {
  try {
    const { entities, changes } = await getEngine().setMany(moves.map((m) => [m.id, 'position', m.to]));
    batch(() => {
      for (const entity of entities) applyEntity(entity);
    });
    editedMany('position', changes);
  } catch (err) {
    batch(() => {
      for (const m of moves) previewPosition(m.id, m.from);
    });
    fail(`Could not move ${moves.length} entities`, err);
  }
}

// Sets [[id, field, value]] from a view of the level (the 3D view's rotate
// gizmo, a drag in the list) as one undo step; a refusal is a message and
// changes nothing.
export function setFromView(sets, label) {
  return setMany(sets, label, (err) => fail(`Could not change the ${label} of ${sets.length} entities`, err));
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

// Deletes entity `id`, or every selected entity (one undo step).
export async function deleteEntity(id = selectedId.value) {
  if (id === null || busy.value) return;
  const ids = selectedLive();
  if (ids.length > 1 && ids.includes(id)) return deleteEntities(ids);
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

async function deleteEntities(ids) {
  try {
    const { changes } = await getEngine().removeMany(ids);
    const last = table.rowOf.get(ids[ids.length - 1]);
    batch(() => {
      for (const id of ids) {
        noteRemoved(id);
        removeRow(id);
      }
      notice.value = `Deleted ${ids.length} entities`;
    });
    editedMany('delete', changes);
    await select(nextAlive(last));
  } catch (err) {
    fail(`Could not delete ${ids.length} entities`, err);
  }
}

// Entities the engine added at once (duplicates, pasted ones: `result` as
// its duplicate and paste answer) join the list and the map, selected, as
// one undo step labelled `label`; `what` is the notice shown.
export async function addedEntities(result, label, what) {
  batch(() => {
    for (const entity of result.entities) {
      noteAdded(entity.id);
      applyEntity(entity);
    }
    notice.value = what;
  });
  editedMany(label, result.changes);
  await setSelection(result.ids);
}

// A change link the engine applied (`result` as its applyChangeLink
// answer): its entities and settings shown, the pending changes following,
// one undo step labelled 'change link'.
export function appliedChanges(result) {
  batch(() => {
    for (const { id, entity } of result.entities) {
      if (entity) {
        if (!table.rowOf.has(id)) noteAdded(id);
        applyEntity(entity);
      } else if (table.rowOf.has(id)) {
        noteRemoved(id);
        removeRow(id);
      }
    }
    settings.value = result.settings;
  });
  editedMany('change link', result.changes);
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
    });
    if (entity) await select(id);
    else if (selectedId.value === id) await select(nextAlive(row));
    // Said once the inspector shows the entity it speaks of.
    notice.value = what;
    emit('restored', { id });
    return true;
  } catch (err) {
    fail(`Could not restore ${id}`, err);
    return false;
  }
}

// Undo and redo of an edit of several entities: each of [[id, text or
// null]] becomes its text again, all or none, and those that exist are
// selected. Returns false (with the error shown) if the engine refused.
export async function restoreEntities(items, what) {
  try {
    const { entities, settings: nowSettings } = await getEngine().restoreMany(items);
    batch(() => {
      for (const { id, entity } of entities) {
        noteTouched(id);
        if (id === SETTINGS) {
          settings.value = nowSettings;
        } else if (entity) {
          if (!table.rowOf.has(id)) noteAdded(id);
          applyEntity(entity);
        } else if (table.rowOf.has(id)) {
          noteRemoved(id);
          removeRow(id);
        }
      }
    });
    const alive = entities.filter((e) => e.entity).map((e) => e.id);
    await setSelection(alive);
    notice.value = what;
    for (const { id } of entities) emit('restored', { id });
    return true;
  } catch (err) {
    fail(`Could not restore ${items.length} entities`, err);
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
