// Watches a world directory for files changed, added or deleted by anyone
// (git, another editor, `juliet fmt`): the directory itself (for
// WorldSettings.jasset and the Entities folder coming and going) and its
// Entities folder. Events are gathered for a moment and handed over in one
// call, onChange({ paths, all }): `paths` relative to the world, `all` when
// the watcher may have missed some (the folder was replaced, an event had no
// file name) and everything must be looked at again.
import { watch } from 'node:fs';
import { join } from 'node:path';
import { ENTITIES_DIR } from './store.js';

const GATHER_MS = 30;

export function watchWorld(dir, onChange) {
  const paths = new Set();
  let all = false;
  let timer = null;
  let entities = null;
  let closed = false;

  function flush() {
    timer = null;
    const batch = { paths: [...paths], all };
    paths.clear();
    all = false;
    onChange(batch);
  }
  function schedule() {
    if (!closed) timer ??= setTimeout(flush, GATHER_MS);
  }
  function lostTrack() {
    all = true;
    schedule();
  }

  function watchEntities() {
    entities?.close();
    entities = null;
    try {
      entities = watch(join(dir, ENTITIES_DIR), (type, name) => {
        if (!name) return lostTrack();
        paths.add(`${ENTITIES_DIR}/${name}`);
        schedule();
      });
      entities.on('error', () => {
        // The folder went away: the directory's watcher sees it come back.
        entities?.close();
        entities = null;
        lostTrack();
      });
    } catch (err) {
      if (err.code !== 'ENOENT' && err.code !== 'ENOTDIR') throw err;
    }
  }

  const root = watch(dir, (type, name) => {
    if (!name) return lostTrack();
    if (name === ENTITIES_DIR) {
      watchEntities();
      return lostTrack();
    }
    paths.add(name);
    schedule();
  });
  root.on('error', lostTrack);
  watchEntities();

  return {
    close() {
      closed = true;
      clearTimeout(timer);
      root.close();
      entities?.close();
    },
  };
}
