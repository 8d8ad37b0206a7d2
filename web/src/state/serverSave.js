// Saving a world served by the local server: the page's changed files go to
// the server in one pack, each with the version of the disk text it is based
// on; the server writes them with the engine's save (the CLI's), except a
// file that changed on disk since, which comes back as a conflict with its
// disk text: the page then merges both sides' changes key by key, for the
// next save to write (conflicts.js). Files already in conflict are not sent.
import { batch } from '@preact/signals';
import { decodePack, encodePack } from 'juliet-world';
import { conflictPaths, mergeConflicts } from './conflicts.js';
import { baseOf, noteBase } from './diskFiles.js';
import { getEngine } from './engine.js';
import { noteOnDisk } from './pending.js';
import { selected, selectedId } from './selection.js';
import { postSave } from './server.js';
import { putEntity } from './table.js';
import { settings } from './world.js';

const DONE = new Set(['written', 'deleted', 'unchanged']);

/**
 * Saves the pending `entries` ([{ kind, id, path }]). Returns { written,
 * deleted } (paths now on disk as the page has them), `merged` (paths
 * changed on disk, merged with the page's changes, still to save),
 * `conflicts` (how many files changed on disk are left to pick, those sent
 * and those held back) and `failures` ([{ path, message }]). What was not
 * saved stays pending.
 */
export async function saveToServer(entries) {
  const held = conflictPaths.value;
  const sending = entries.filter((e) => e.id !== null && !held.has(e.path));
  const texts = sending.length ? await getEngine().texts(sending.map((e) => e.id)) : [];
  const changes = sending.map((e, i) => ({
    path: e.path,
    seq: baseOf(e.path),
    bytes: e.kind === 'deleted' ? null : texts[i],
  }));
  const { meta, files } = decodePack(await postSave(encodePack({}, changes)));
  const diskOf = new Map(files.map((f) => [f.path, f]));
  const written = [];
  const deleted = [];
  const conflicting = [];
  const failures = [];
  meta.results.forEach((result, i) => {
    const { id, path } = sending[i];
    if (DONE.has(result.status)) {
      noteBase(path, result.seq);
      (changes[i].bytes === null ? deleted : written).push({ id, path });
    } else if (result.status === 'conflict') {
      conflicting.push({ id, path, seq: result.seq, disk: diskOf.get(path)?.bytes ?? null, reason: null });
    } else {
      failures.push({ path, message: result.message });
    }
  });
  const ids = (list) => list.map((e) => e.id);
  const saved = await getEngine().markSaved(ids(written), ids(deleted));
  batch(() => {
    for (const entity of saved.entities) {
      putEntity(entity);
      if (selectedId.value === entity.id) selected.value = entity;
    }
    noteOnDisk([...ids(written), ...ids(deleted)]);
    settings.value = saved.settings;
  });
  const merged = await mergeConflicts(conflicting);
  const paths = (list) => list.map((e) => e.path);
  return { written: paths(written), deleted: paths(deleted), merged, conflicts: conflicting.length - merged.length + held.size, failures };
}
