// Watches a world directory for files changed, added or deleted by anyone
// (git, another editor, `juliet fmt`): the directory itself (for
// WorldSettings.jasset and the Entities and Classes folders coming and
// going) and those two folders. Events are gathered for a moment and handed
// over in one call, onChange({ paths, all }): `paths` relative to the world, `all` when
// the watcher may have missed some (the folder was replaced, an event had no
// file name) and everything must be looked at again.
//
// A watcher follows a folder, not its path: when the world directory is
// replaced (`git checkout` of a branch without it and back, `mv W W.old &&
// cp -a W.old W`) the old watchers hear nothing more. So the path is looked
// at every POLL_MS, and when it names another folder (or none, or one again)
// the watchers move to it and everything is looked at again.
import { statSync, watch } from 'node:fs';
import { join } from 'node:path';
import { CLASSES_DIR, ENTITIES_DIR } from 'juliet-world';

const FOLDERS = [ENTITIES_DIR, CLASSES_DIR];

const GATHER_MS = 30;
const POLL_MS = 500;

// Which folder `dir` names now (null: none).
function folderAt(dir) {
  try {
    const st = statSync(dir);
    return st.isDirectory() ? `${st.dev}:${st.ino}` : null;
  } catch {
    return null;
  }
}

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

  let root = null;
  function watchRoot() {
    root?.close();
    root = null;
    try {
      root = watch(dir, (type, name) => {
        if (!name) return lostTrack();
        if (folders.has(name)) {
          watchFolder(name);
          return lostTrack();
        }
        paths.add(name);
        schedule();
      });
      root.on('error', lostTrack);
    } catch (err) {
      // Gone between the look and the watch: the next look sees it.
      if (err.code !== 'ENOENT' && err.code !== 'ENOTDIR') throw err;
    }
    for (const name of folders.keys()) watchFolder(name);
  }

  let folder = folderAt(dir);
  watchRoot();
  const poll = setInterval(() => {
    const now = folderAt(dir);
    if (now === folder) return;
    folder = now;
    try {
      watchRoot();
    } catch (err) {
      // Out of watches, say: the files are still looked at once.
      console.error(`juliet: cannot watch ${dir}: ${err.message}`);
    }
    lostTrack();
  }, POLL_MS);
  poll.unref();

  return {
    close() {
      closed = true;
      clearTimeout(timer);
      clearInterval(poll);
      root?.close();
      for (const watcher of folders.values()) watcher?.close();
    },
  };
}
