// The file text of each entity, as the worker remembers it so that an edit
// or an undo that brings an entity back to exactly its file leaves it clean.
// This is engine bookkeeping kept in JS for now: the engine is to answer it
// itself (set-field clean when the text equals the file, and one call that
// restores an entity's text), and then this module's functions become those
// engine calls, here and nowhere else.
//
// Contract, for the world `world` (a juliet.js World) and ids that are
// entity IDs or SETTINGS (the world settings go through the same machinery,
// under that name in place of an ID):
//   textBefore(id)        the text of `id` before a change (null if there is
//                         no such entity); if `id` is clean its text is
//                         remembered as its file's.
//   putText(id, text, dirty = text differs from the file)
//                         makes `id` be `text` (null: removed; the settings
//                         are never removed). An entity is replaced by
//                         remove + load; if the load fails the old text is put
//                         back (dirty) and the error thrown. An entity back
//                         from a delete cancels the pending deletion of its
//                         file (the engine's own rule for remove + load).
//   cleanIfAsFile(id)     after a set: if `id`'s text is its file's again,
//                         marks it clean.
//   saved(written, deleted) after a save: the IDs (or SETTINGS) whose files
//                         it wrote now have their current text as file text;
//                         the IDs whose files it deleted have none.
// Texts are a file's bytes (Uint8Array), never decoded: an unknown key's
// value that is not UTF-8 goes back into the engine exactly. Call
// textBefore(id) before any change of `id` that putText may later undo.
import { SETTINGS, entityPath, sameBytes } from '../lib/fields.js';

// The current text of entity `id` (or of the settings), as its file holds it
// once saved.
export function textOf(world, id) {
  return id === SETTINGS ? world.settingsBytes() : world.entityBytes(id);
}

export function fileTexts(world) {
  const fileText = new Map(); // id -> text of its file, captured before its first change

  function isDirty(id) {
    return id === SETTINGS ? world.settings().dirty : world.get(id).dirty;
  }

  function textBefore(id) {
    if (id !== SETTINGS && !world.has(id)) return null;
    const text = textOf(world, id);
    if (!fileText.has(id) && !isDirty(id)) fileText.set(id, text);
    return text;
  }

  function putText(id, text, dirty = !sameBytes(fileText.get(id), text)) {
    // Loading settings text that fails leaves them as they were.
    if (id === SETTINGS) {
      if (text !== null) world.loadSettingsText(text, { dirty });
      return;
    }
    if (world.has(id)) {
      const old = world.entityBytes(id);
      world.remove(id);
      if (text === null) return;
      try {
        world.loadEntityText(text, { path: entityPath(id), dirty });
      } catch (err) {
        world.loadEntityText(old, { path: entityPath(id), dirty: true });
        throw err;
      }
    } else if (text !== null) {
      world.loadEntityText(text, { path: entityPath(id), dirty });
    }
  }

  function cleanIfAsFile(id) {
    const text = textOf(world, id);
    if (sameBytes(text, fileText.get(id)) && isDirty(id)) putText(id, text, false);
  }

  function saved(written, deleted) {
    for (const id of written) if (id === SETTINGS || world.has(id)) fileText.set(id, textOf(world, id));
    for (const id of deleted) fileText.delete(id);
  }

  return { textBefore, putText, cleanIfAsFile, saved };
}
