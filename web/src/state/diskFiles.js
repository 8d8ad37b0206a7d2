// The files on disk of a world served by the local server, as the page
// knows them: for each file, the server's version (seq) of the disk text
// the page's entity is based on, and the world's version the page has
// caught up with. A save sends those versions, so the server can refuse to
// write over a file that changed since. Showing a disk version in the page
// (a change on disk, the disk's side of a conflict, or a merge of both
// sides) goes through here.
import { batch } from '@preact/signals';
import { SETTINGS_FILE, idOfPath, pathIndex } from 'juliet-world';
import { SETTINGS } from '../lib/fields.js';
import { getEngine } from './engine.js';
import { noteOnDisk } from './pending.js';
import { select, selected, selectedId } from './selection.js';
import { putEntity, removeRow } from './table.js';
import { diagnostics, settings } from './world.js';

// The seq of the disk text the page's file is based on: as the pack the
// world was opened from gives it (its paths' bytes, and their pathIndex,
// made once the world shows or when first asked: a Map of 1,000,000 paths
// took 0.8 s before the world showed), or as noted since.
let opened = { index: () => () => -1, seqs: new Uint32Array(0) };
const bases = new Map(); // path -> seq, noted since
let caughtUp = 0; // the world's version the page has every change of

/** The ID of the entity whose file `path` is (SETTINGS for the settings), or null. */
export const idOfFile = (path) => (path === SETTINGS_FILE ? SETTINGS : idOfPath(path));

/** A world was opened from a pack of the files whose paths are
 * `pathBytes` (the pack's index: PackIndex.pathBytes) at the versions
 * `seqs`, the world being at version `seq`. */
export function resetDiskFiles(pathBytes, seqs, seq) {
  bases.clear();
  let indexOf = null;
  const index = () => (indexOf ??= pathIndex(pathBytes));
  opened = { index, seqs };
  caughtUp = seq;
  // After the frame that shows the world (an idle callback could come
  // before it).
  globalThis.requestAnimationFrame?.(() => setTimeout(index));
}

/** The version of the disk text the page's file at `path` is based on (0: none seen). */
export function baseOf(path) {
  const noted = bases.get(path);
  if (noted !== undefined) return noted;
  const i = opened.index()(path);
  return i < 0 ? 0 : opened.seqs[i];
}

/** The page's text of `path` is now based on the disk's version `seq`. */
export function noteBase(path, seq) {
  bases.set(path, seq);
}

export const caughtUpTo = () => caughtUp;

/** The page has every change of the world up to version `seq`. */
export function noteCaughtUp(seq) {
  caughtUp = Math.max(caughtUp, seq);
}

/**
 * Shows the disk versions `files` ([{ path, seq, bytes | null }]) in the
 * page: each entity (or the settings) becomes its file's text, clean, and
 * nothing about it is pending any more. With keepEdited, an entity edited in
 * the page meanwhile is left alone. Returns the paths left alone.
 */
export async function applyDiskVersions(files, { keepEdited = false } = {}) {
  const result = await getEngine().putFiles(
    files.map((f) => ({ path: f.path, text: f.bytes })),
    { keepEdited },
  );
  const skipped = new Set(result.skipped);
  await show(
    files.filter((f) => !skipped.has(f.path)),
    result,
  );
  return result.skipped;
}

/**
 * Merges the disk version `disk` (version `seq`) of file `path`, whose
 * entity (or the settings) `id` the page changed too, with the page's
 * changes, key by key (the worker's mergeDisk). Applied unless keys both
 * changed are left to pick (`theirs` null) or the engine refuses the
 * merged text: the entity becomes the merged text, still to save, and the
 * page's text is based on that disk version, so a save writes it over.
 * Answers { applied, conflicts: [{ key, base, ours, theirs }], reason }.
 */
export async function mergeDiskVersion({ id, path, seq, disk }, { theirs = null } = {}) {
  const result = await getEngine().mergeDisk({ id, path, disk, theirs, apply: true });
  if (result.applied) await show([{ path, seq }], result);
  return result;
}

// The files `applied` ([{ path, seq }]) are shown as the engine's `result`
// (putFiles' answer) has them: rows, selection, settings and diagnostics.
async function show(applied, result) {
  const paths = new Set(applied.map((f) => f.path));
  let selectionGone = false;
  batch(() => {
    for (const f of applied) bases.set(f.path, f.seq);
    for (const { id, entity } of result.entities) {
      if (entity) putEntity(entity);
      else removeRow(id);
      if (selectedId.value === id) {
        if (entity) selected.value = entity;
        else selectionGone = true;
      }
    }
    noteOnDisk(result.entities.map((e) => e.id));
    if (paths.has(SETTINGS_FILE)) settings.value = result.settings;
    // The references are checked again as a whole: a file changed on disk
    // may settle or break references written in other files.
    const kept = diagnostics.value.filter((d) => !paths.has(d.path) && !d.reference);
    diagnostics.value = [...kept, ...result.diagnostics, ...result.references];
  });
  if (selectionGone) await select(null);
}
