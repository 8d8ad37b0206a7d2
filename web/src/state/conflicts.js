// Conflicts: files changed on disk while the page holds unsaved changes of
// them (or found so by a save). Both versions are kept, the user picks one;
// until then nothing is overwritten either way: the page keeps its version,
// and a save leaves the file on disk alone.
import { computed, signal } from '@preact/signals';
import { applyDiskVersions, noteBase } from './diskFiles.js';
import { getEngine } from './engine.js';
import { emit } from './events.js';
import { fail, notice } from './messages.js';
import { rebaseReview } from './review.js';

// [{ id, path, seq, disk }]: `disk` the text on disk (null: deleted there),
// `seq` its version.
export const conflicts = signal([]);
export const conflictPaths = computed(() => new Set(conflicts.value.map((c) => c.path)));

/** Adds conflicts (a newer disk version replaces an older one of a file). */
export function noteConflicts(list) {
  const paths = new Set(list.map((c) => c.path));
  conflicts.value = [...conflicts.value.filter((c) => !paths.has(c.path)), ...list];
}

export function clearConflicts() {
  conflicts.value = [];
}

/** Forgets the conflicts of `paths` (the disk came back to the page's text). */
export function dropConflicts(paths) {
  const drop = new Set(paths);
  if (conflicts.value.some((c) => drop.has(c.path))) conflicts.value = conflicts.value.filter((c) => !drop.has(c.path));
}

/** The page's version of a conflict's file: its bytes, null if deleted in
 * the page. */
export async function pageVersion(conflict) {
  const [text] = await getEngine().texts([conflict.id]);
  return text;
}

function take(path) {
  const conflict = conflicts.value.find((c) => c.path === path);
  if (conflict) dropConflicts([path]);
  return conflict;
}

/** Keeps the page's version: the next save writes it over the disk's, so
 * Pending changes reviews it against the disk's. */
export async function keepPageVersion(path) {
  const conflict = take(path);
  if (!conflict) return;
  noteBase(path, conflict.seq);
  notice.value = `Kept this page's version of ${path}: Save writes it over the one on disk`;
  await rebaseReview(conflict.id, conflict.disk);
}

/** Takes the disk's version: the page's changes of that file are dropped.
 * The conflict leaves the panel only once the page shows the disk's version. */
export async function takeDiskVersion(path) {
  const conflict = conflicts.value.find((c) => c.path === path);
  if (!conflict) return;
  try {
    await applyDiskVersions([{ path, seq: conflict.seq, bytes: conflict.disk }]);
    conflicts.value = conflicts.value.filter((c) => c !== conflict);
    emit('reverted', { id: conflict.id }); // the page's edits of it are gone, their undo steps too
    notice.value = `Took the version on disk of ${path}`;
  } catch (err) {
    fail(`Could not take the version on disk of ${path}`, err);
  }
}
