// The world model's events, for the models that follow it (undo history,
// kept work) without the world model importing them back. main.jsx, the
// composition root, registers their listeners:
//   'opened'   { key }      a world was opened (key: keep.js's name for it)
//   'edited'   { id, label, before, after }: an edit, add or delete went
//              through (the entity's text before and after, for undo);
//              { label, changes: [{ id, before, after }] } for several
//              entities at once (one undo step)
//   'restored' { id }       undo or redo put an entity's text back
//   'reverted' { id }       the disk's version of an entity (or of the
//              settings), or a merge with it, replaced the page's text:
//              the undo steps of that entity go (conflicts.js)
//   'saved'    {}           a save ended (whether or not it all went through)
//   'discarded' { key }     the user dropped the unsaved changes of a world
const listeners = new Map(); // event name -> [listener]

export function on(name, listener) {
  if (!listeners.has(name)) listeners.set(name, []);
  listeners.get(name).push(listener);
}

// Calls every listener of `name` at once, in the order registered. Returns
// a promise of them all, for the caller that waits for asynchronous ones
// (a world opened is shown only once its kept work is re-applied).
export function emit(name, payload) {
  return Promise.all((listeners.get(name) ?? []).map((listener) => listener(payload)));
}
