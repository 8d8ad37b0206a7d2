// Links that carry a change: Share changes makes a link of the pending
// edits alone (juliet-world's change links: only the changed keys, with a
// fingerprint of each file they were made against); opening one applies it
// over the world that is open, as pending changes and one undo step. An
// entity whose file changed since the link was made is a conflict: it is
// listed, in plain words, and nothing is applied to it. Where no world, or
// another, is open, the link says which world it needs.
import { signal } from '@preact/signals';
import { LINK_MAX } from 'juliet-world';
import { plural } from '../lib/plural.js';
import { appliedChanges } from './edits.js';
import { getEngine } from './engine.js';
import { errorMessage, notice } from './messages.js';
import { openFolder } from './open.js';
import { pending } from './pending.js';
import { fromLink } from './review.js';
import { brokenLink, linkFor, shared, whereLinksOpen } from './share.js';
import { busy, status, worldName } from './world.js';

// Why Share changes cannot make a link now, or null when it can.
export function changesUnavailable() {
  if (status.value !== 'ready') return 'No world is open.';
  if (fromLink.value) return 'A level opened from a link has no files to make changes against: save it first.';
  if (pending.value.length === 0) return 'Nothing is pending: there are no changes to share.';
  return null;
}

export async function shareChanges() {
  if (changesUnavailable()) return;
  let text;
  try {
    text = await getEngine().changesLink(worldName.value);
  } catch (err) {
    errorMessage.value = `Could not share the changes: ${err.message}`;
    return;
  }
  const opensAt = whereLinksOpen();
  const url = linkFor(text, opensAt.base);
  let copied = false;
  try {
    await navigator.clipboard.writeText(url);
    copied = true;
  } catch {
    // No clipboard access: the link stays in the panel to copy by hand.
  }
  const tooLong = url.length > LINK_MAX;
  shared.value = { url: tooLong ? null : url, text, length: url.length, copied, tooLong, opensAt, changes: true };
}

// What the last change link opened did: { text, world, count, needs,
// applied, conflicts: [{ path, words }], failed: [{ path, words }] }.
// needs: the link is for a world that is not open (world: its name).
export const changeReport = signal(null);

// The words for an entity the link could not change.
const CONFLICT_WORDS = {
  modified: 'its file changed since the link was made (or it is gone): the link’s change is not applied',
  deleted: 'its file changed since the link was made: it is not deleted',
  new: 'an entity with this ID is already in the world: the link’s entity is not added',
};

/**
 * Opens a change link (a whole link or its text after '#'): applied over
 * the open world if it is the one the link names (or `anyWorld`), else the
 * report says which world it needs. Returns true if it was applied.
 */
export async function openChangeLink(text, { anyWorld = false } = {}) {
  if (busy.value) return false;
  let link;
  try {
    link = await getEngine().readChanges(text);
  } catch (err) {
    errorMessage.value = brokenLink(err);
    return false;
  }
  const open = status.value === 'ready' && !fromLink.value;
  if (!open || (!anyWorld && worldName.value !== link.world)) {
    changeReport.value = { text, world: link.world, count: link.count, needs: true, applied: 0, conflicts: [], failed: [] };
    return false;
  }
  let result;
  try {
    result = await getEngine().applyChangeLink(text);
  } catch (err) {
    errorMessage.value = brokenLink(err);
    return false;
  }
  appliedChanges(result);
  const conflicts = result.conflicts.map((c) => ({ path: c.path, words: CONFLICT_WORDS[c.kind] }));
  const failed = result.failed.map((f) => ({ path: f.path, words: `the engine refused it: ${f.message}` }));
  changeReport.value = { text, world: link.world, count: link.count, needs: false, applied: result.changes.length, conflicts, failed };
  notice.value = `Applied ${plural(result.changes.length, 'change', 'changes')} from a change link`;
  return true;
}

/** Opens a folder for a link that needs another world, then applies the
 * link if the folder is the world it names. */
export async function openFolderForLink() {
  const r = changeReport.peek();
  await openFolder();
  if (r && status.peek() === 'ready' && worldName.peek() === r.world) await openChangeLink(r.text);
}

export function closeChangeReport() {
  changeReport.value = null;
}
