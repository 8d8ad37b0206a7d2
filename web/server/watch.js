// Watches a world directory for files changed, added or deleted by anyone
// (git, another editor, `juliet fmt`): the directory itself (for
// WorldSettings.jasset and the Entities and Classes folders coming and
// going) and those two folders. Events are gathered for a moment and handed
// over in one call, onChange({ paths, all }): `paths` relative to the world, `all` when
// the watcher may have missed some (the folder was replaced, an event had no
// file name) and everything must be looked at again.
import { watch } from 'node:fs';
import { join } from 'node:path';
import { CLASSES_DIR, ENTITIES_DIR } from './store.js';

const FOLDERS = [ENTITIES_DIR, CLASSES_DIR];

const GATHER_MS = 30;

export function watchWorld(dir, onChange) {
  const paths = new Set();
  let all = false;
  let timer = null;
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

  // The folders the world's files live in, each watched by its own
  // watcher (fs.watch is not recursive on Linux).
  const folders = new Map(FOLDERS.map((name) => [name, null]));
  function watchFolder(name) {
    folders.get(name)?.close();
    folders.set(name, null);
    try {
      const watcher = watch(join(dir, name), (type, file) => {
        if (!file) return lostTrack();
        paths.add(`${name}/${file}`);
        schedule();
      });
      watcher.on('error', () => {
        // The folder went away: the directory's watcher sees it come back.
        watcher.close();
        if (folders.get(name) === watcher) folders.set(name, null);
        lostTrack();
      });
      folders.set(name, watcher);
    } catch (err) {
      if (err.code !== 'ENOENT' && err.code !== 'ENOTDIR') throw err;
    }
  }

  const root = watch(dir, (type, name) => {
    if (!name) return lostTrack();
    if (folders.has(name)) {
      watchFolder(name);
      return lostTrack();
    }
    paths.add(name);
    schedule();
  });
  root.on('error', lostTrack);
  for (const name of folders.keys()) watchFolder(name);

  return {
    close() {
      closed = true;
      clearTimeout(timer);
      root.close();
      for (const watcher of folders.values()) watcher?.close();
    },
  };
}
