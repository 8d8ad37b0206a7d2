// The open world's unsaved work as data, and back: what keep.js stores in
// browser storage and re-applies to the same world opened again.
import { batch } from '@preact/signals';
import { SETTINGS } from '../lib/fields.js';
import { getEngine } from './engine.js';
import { createdIds, pending, restorePending, touchedIds } from './pending.js';
import { clearSelection } from './selection.js';
import { addedIds, loadTable, table } from './table.js';
import { diagnostics, settings, source } from './world.js';

// Every entity changed since the world was opened ([id, text or null,
// dirty]), the entities created (for a world with files) and the files to
// delete, in the order the pending list shows them.
export async function unsavedWork() {
  const ids = touchedIds();
  const texts = ids.length ? await getEngine().texts(ids) : [];
  const changes = ids.map((id, i) => {
    if (id === SETTINGS) return [id, texts[i], settings.value.dirty];
    const row = table.rowOf.get(id);
    return [id, texts[i], row !== undefined && table.dirty[row] === 1];
  });
  const list = pending.value;
  return {
    changes,
    created: source.value.kind === 'link' ? null : createdIds(),
    removed: list.filter((e) => e.kind === 'deleted' && e.id).map((e) => [e.id, e.path]),
    added: addedIds(),
    count: list.length,
  };
}

// Re-applies work kept by unsavedWork() to the world just opened. Returns
// the changes that could not be applied ([{ id, message }]).
export async function applyUnsavedWork(work) {
  const result = await getEngine().applyChanges(work.changes, work.added);
  batch(() => {
    loadTable(result.table, { added: work.added.filter((id) => result.table.ids.includes(id)).length });
    restorePending({
      created: work.created === null ? table.ids : work.created.filter((id) => table.rowOf.has(id)),
      removed: work.removed.filter(([id]) => !table.rowOf.has(id)),
      touched: work.changes.map(([id]) => id),
    });
    settings.value = result.settings;
    diagnostics.value = result.diagnostics;
    clearSelection();
  });
  return result.failed;
}
