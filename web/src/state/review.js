// The review of the pending changes: what changed in each pending entity
// (or the settings), key by key, by the engine's own diff (the worker's
// review op, jl_text_diff through wasm). Asked again as soon as the pending
// changes change, for the first SHOWN entities only; changes made while an
// answer is on its way are asked for together once it comes (a field being
// typed changes them at each accepted value). A level from a shared link has
// no files yet, so the next save writes all of it: its review lists the
// edits made since it was opened instead.
import { computed, effect, signal } from '@preact/signals';
import { getEngine } from './engine.js';
import { pending, touchedIds } from './pending.js';
import { revision } from './table.js';
import { source, status } from './world.js';

export const SHOWN = 200; // entities listed at most

const EMPTY = { byId: new Map(), entries: [], count: 0, error: null };

// { byId: id -> entry, entries: [entry] in the worker's order, count: how
// many differ in all, error: message of a review that failed }; an entry
// is { id, kind, className, changes: [{ key, old, new }], error }.
export const review = signal(EMPTY);
// A review is asked for or on its way: what is shown may be behind the
// pending list (aria-busy on the pane).
export const reviewing = signal(false);

// The open world came from a link and has no folder yet.
export const fromLink = computed(() => source.value?.kind === 'link');

// How many changes the page holds unsaved, as Pending changes and the
// toolbar count them: the pending files, or for a link the entities edited
// since it was opened (all of its files are still to write).
export const changeCount = computed(() => (fromLink.value ? review.value.count : pending.value.length));

let asked = 0;
let asking = false; // a review is on its way
let again = false; // and the changes changed since it was asked

async function refresh() {
  const ask = ++asked;
  const ids = fromLink.value ? touchedIds() : pending.value.slice(0, SHOWN).flatMap((entry) => (entry.id === null ? [] : [entry.id]));
  if (ids.length === 0) {
    review.value = EMPTY;
    reviewing.value = false;
    return;
  }
  let next;
  try {
    const { entries, count } = await getEngine().review(ids, SHOWN);
    next = { byId: new Map(entries.map((e) => [e.id, e])), entries, count, error: null };
  } catch (err) {
    next = { ...EMPTY, error: err.message };
  }
  if (ask !== asked) return;
  review.value = next;
  reviewing.value = false;
}

// Asks for the review again once the change being made is complete (what
// it compares with changed), or once the answer on its way comes.
function refreshSoon() {
  reviewing.value = true;
  if (asking) {
    again = true;
    return;
  }
  asking = true;
  queueMicrotask(async () => {
    do {
      again = false;
      await refresh();
    } while (again);
    asking = false;
  });
}

/** The review of `id` compares with `text` (null: no file) from now on. */
export async function rebaseReview(id, text) {
  await getEngine().rebaseReview(id, text);
  refreshSoon();
}

// Keeps the review following the pending list while the world is open;
// returns the function that stops it.
export function followReview() {
  const stop = effect(() => {
    pending.value;
    revision.value; // an edit of an entity already pending
    const open = status.value === 'ready' || status.value === 'saving';
    if (!open) {
      again = false;
      asked++; // an answer on its way is of another world
      review.value = EMPTY;
      reviewing.value = false;
      return;
    }
    refreshSoon();
  });
  return () => {
    stop();
    asked++;
    again = false;
  };
}
