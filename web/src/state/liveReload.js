// Live reload of a world served by the local server: when its files change
// on disk (git, another editor, `juliet fmt`), the server says so; the page
// fetches the changed files and shows them, keeping the selection and every
// unsaved change. A file the page holds unsaved changes of is not replaced:
// if the disk's text differs from the page's, both sides' changes are
// merged key by key, and what cannot be merged so is a conflict
// (conflicts.js); if it is the same, the page is in step with the disk.
import { sameBytes } from '../lib/fields.js';
import { decodePack } from 'juliet-world';
import { plural } from '../lib/plural.js';
import { conflictPaths, conflicts, dropConflicts, mergeConflicts } from './conflicts.js';
import { applyDiskVersions, baseOf, caughtUpTo, idOfFile, noteCaughtUp } from './diskFiles.js';
import { getEngine } from './engine.js';
import { fail, notice } from './messages.js';
import { pending } from './pending.js';
import { fetchChanges, watchVersions } from './server.js';
import { busy } from './world.js';

const IDLE_POLL_MS = 50;

let stopWatching = null;
let session = 0; // changes fetched for an earlier world are dropped
let latest = 0; // the newest version the server announced
let running = false;

/** Starts following the served world's changes on disk. */
export function startLiveReload() {
  stopLiveReload();
  const mine = ++session;
  stopWatching = watchVersions((seq) => {
    latest = Math.max(latest, seq);
    catchUp(mine);
  });
}

export function stopLiveReload() {
  session++;
  stopWatching?.();
  stopWatching = null;
}

const idle = () => new Promise((resolve) => setTimeout(resolve, IDLE_POLL_MS));

// Fetches and shows the changes up to the newest version, after any open or
// save in progress (whose own changes the versions already account for).
async function catchUp(mine) {
  if (running) return;
  running = true;
  try {
    while (mine === session && latest > caughtUpTo()) {
      if (busy.value) {
        await idle();
        continue;
      }
      const { meta, files } = decodePack(await fetchChanges(caughtUpTo()));
      if (mine !== session) return;
      await showChanges(files.filter((f) => f.seq > baseOf(f.path)));
      noteCaughtUp(meta.seq);
    }
  } catch (err) {
    if (mine === session) fail('Could not show the changes made on disk', err);
  } finally {
    running = false;
    // A version announced while this one was being shown.
    if (mine === session && latest > caughtUpTo()) catchUp(mine);
  }
}

async function showChanges(files) {
  if (files.length === 0) return;
  const unsaved = new Set(pending.value.map((e) => e.path));
  const held = conflictPaths.value;
  const edited = (f) => unsaved.has(f.path) || held.has(f.path);
  const skipped = await applyDiskVersions(
    files.filter((f) => !edited(f)),
    { keepEdited: true },
  );
  const skippedSet = new Set(skipped);
  const touched = files.filter((f) => edited(f) || skippedSet.has(f.path));
  let conflicting = [];
  let merged = [];
  if (touched.length) {
    const texts = await getEngine().texts(touched.map((f) => idOfFile(f.path)));
    const same = touched.filter((f, i) => sameBytes(texts[i], f.bytes));
    const differing = touched.filter((f, i) => !sameBytes(texts[i], f.bytes));
    // The disk came to hold what the page has: nothing to save or pick.
    if (same.length) {
      await applyDiskVersions(same);
      dropConflicts(same.map((f) => f.path));
    }
    merged = await mergeConflicts(differing.map((f) => ({ id: idOfFile(f.path), path: f.path, seq: f.seq, disk: f.bytes, reason: null })));
    conflicting = differing.filter((f) => !merged.includes(f.path));
  }
  const shown = files.length - conflicting.length - merged.length;
  if (conflicting.length) {
    // All of them, not only this batch's: changes arrive file by file. A
    // notice, not an alert: the Conflicts panel itself holds the choice,
    // and an alert's banner would push the panes down under the pointer.
    notice.value = `${plural(conflicts.peek().length, 'file')} changed on disk and in this page: pick what to keep under Conflicts`;
  } else if (merged.length) {
    const reloaded = shown ? `, and reloaded ${plural(shown, 'other file')}` : '';
    notice.value = `Merged ${plural(merged.length, 'file')} changed on disk with this page's changes${reloaded}`;
  } else {
    notice.value = `Reloaded ${plural(shown, 'file')} changed on disk`;
  }
}
