// Conflicts: files changed on disk while the page holds unsaved changes of
// them (or found so by a save). Both sides' changes are merged key by key
// first (mergeConflicts): changes of different keys merge without asking.
// What is left is a conflict: keys both sides changed differently, picked
// key by key, or a whole file when it cannot be merged so (deleted on one
// side, a text the engine refuses), picked whole. Until then nothing is
// overwritten either way: the page keeps its version, and a save leaves the
// file on disk alone.
import { computed, signal } from '@preact/signals';
import { applyDiskVersions, mergeDiskVersion, noteBase } from './diskFiles.js';
import { getEngine } from './engine.js';
import { emit } from './events.js';
import { fail, notice } from './messages.js';
import { rebaseReview } from './review.js';

// [{ id, path, seq, disk, reason }]: `disk` the text on disk (null: deleted
// there), `seq` its version, `reason` why it is not merged key by key (null:
// it may be, see conflictView).
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

/**
 * Merges the page's changes of the files in `list` (conflicts without a
 * reason) with the disk's, key by key. A file with no key changed
 * differently on both sides is merged at once, and leaves the conflicts
 * if it was one; the others are noted as conflicts. Returns the paths merged.
 */
export async function mergeConflicts(list) {
  const merged = [];
  const left = [];
  for (const conflict of list) {
    const { applied, reason } = await mergeDiskVersion(conflict);
    if (applied) {
      settle(conflict);
      merged.push(conflict.path);
    } else {
      left.push({ ...conflict, reason });
    }
  }
  if (left.length) noteConflicts(left);
  return merged;
}

/**
 * Settles the conflict of `path` with the merge of both versions, taking
 * the disk's value of the keys in `theirs` and the page's of the other keys
 * both changed. If the engine refuses that text, the conflict stays, to be
 * picked whole, and the error says why.
 */
export async function mergeWithPicks(path, theirs) {
  const conflict = conflicts.value.find((c) => c.path === path);
  if (!conflict) return;
  try {
    const { applied, reason } = await mergeDiskVersion(conflict, { theirs });
    if (applied) {
      settle(conflict);
      notice.value = `Merged ${path} with the values picked: Save writes it over the one on disk`;
    } else {
      conflicts.value = conflicts.value.map((c) => (c === conflict ? { ...c, reason } : c));
      fail(`Could not merge ${path}, pick one of its versions`, reason);
    }
  } catch (err) {
    fail(`Could not merge ${path}`, err);
  }
}

// A conflict settled by a merge: the page shows it (mergeDiskVersion).
// The earlier edits of that entity leave the undo history, as when the
// disk's version is taken: undoing one would put back a text from before
// the disk's change, dropping that change unseen. So the merge is no undo
// step either; the review shows what it changed against the disk.
function settle(conflict) {
  dropConflicts([conflict.path]);
  emit('reverted', { id: conflict.id });
}

/**
 * What the Conflicts panel shows of `conflict` now: { keys } (the keys both
 * sides changed differently: [{ key, base, ours, theirs }], null for a
 * value a side lacks), or { reason, page } when it is not merged key by
 * key (why, and the page's version: pageVersion).
 */
export async function conflictView(conflict) {
  let reason = conflict.reason;
  if (!reason) {
    const merge = await getEngine().mergeDisk({ id: conflict.id, path: conflict.path, disk: conflict.disk });
    if (!merge.reason) return { keys: merge.conflicts, reason: null, page: null };
    reason = merge.reason;
  }
  return { keys: null, reason, page: await pageVersion(conflict) };
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
