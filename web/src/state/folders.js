// Reading a world from the user's disk and writing saved files back: through
// the File System Access API (a directory handle, so Save writes into the
// folder) or from a folder upload (Save then downloads the changed files
// with the list of files to delete).
import { reportProgress } from './progress.js';
import { zipFiles } from '../lib/zip.js';

export const canPickFolder = () => typeof window.showDirectoryPicker === 'function';

export async function pickFolder() {
  return window.showDirectoryPicker({ id: 'juliet-world', mode: 'readwrite' });
}

// Files asked of the browser at once: each getFile() is a round trip to
// the browser's file system, so one at a time leaves it idle between them.
const GET_FILE_CONCURRENCY = 64;

// The files of a world the engine reads: its .jasset files and its class
// files (Classes/<Name>.jclass, loaded before the entities).
function isWorldFile(name) {
  return name.endsWith('.jasset') || name.endsWith('.jclass');
}

// Every world file under a directory handle, as [{ path, file }]: the
// handles listed first, then their files got concurrently, a bounded
// number in flight.
export async function readFolderHandle(handle) {
  const found = [];
  async function walk(dir, prefix) {
    const subdirs = [];
    for await (const entry of dir.values()) {
      if (entry.name.startsWith('.')) continue;
      if (entry.kind === 'directory') subdirs.push(walk(entry, `${prefix}${entry.name}/`));
      else if (isWorldFile(entry.name)) found.push({ path: prefix + entry.name, entry });
    }
    await Promise.all(subdirs);
  }
  await walk(handle, '');
  const out = new Array(found.length);
  let next = 0;
  let done = 0;
  async function getFiles() {
    while (next < found.length) {
      const i = next++;
      out[i] = { path: found[i].path, file: await found[i].entry.getFile() };
      if (++done % 1000 === 0) reportProgress('Listing files', done, found.length);
    }
  }
  await Promise.all(Array.from({ length: GET_FILE_CONCURRENCY }, getFiles));
  return out;
}

// The world files of an <input type=file webkitdirectory> selection, with
// paths relative to the chosen folder. Looking at each File costs a little,
// so this yields to the page every few hundred files.
export async function readUploadedFiles(fileList) {
  const out = [];
  let name = '';
  const total = fileList.length;
  for (let i = 0; i < total; i++) {
    const file = fileList[i];
    const rel = file.webkitRelativePath || file.name;
    const slash = rel.indexOf('/');
    if (!name && slash > 0) name = rel.slice(0, slash);
    if (isWorldFile(rel)) out.push({ path: slash > 0 ? rel.slice(slash + 1) : rel, file });
    if (i % 500 === 499) {
      reportProgress('Listing files', i + 1, total);
      await new Promise((resolve) => setTimeout(resolve, 0));
    }
  }
  return { name: name || 'world', files: out };
}

export async function ensureWritable(handle) {
  if (typeof handle.queryPermission !== 'function') return;
  const opts = { mode: 'readwrite' };
  if ((await handle.queryPermission(opts)) === 'granted') return;
  if ((await handle.requestPermission(opts)) !== 'granted') {
    throw new Error(`No permission to write into the folder "${handle.name}"`);
  }
}

async function parentDir(root, path, create) {
  const parts = path.split('/');
  const name = parts.pop();
  let dir = root;
  for (const part of parts) dir = await dir.getDirectoryHandle(part, { create });
  return { dir, name };
}

// Writes files [{ path, bytes }] and deletes paths under a directory handle.
// Returns what was done; on failure the error carries `done` (the paths
// already written or deleted) so the rest can stay pending.
export async function writeToFolder(handle, files, deletions) {
  const done = [];
  const total = files.length + deletions.length;
  try {
    for (const { path, bytes } of files) {
      const { dir, name } = await parentDir(handle, path, true);
      const fileHandle = await dir.getFileHandle(name, { create: true });
      const writable = await fileHandle.createWritable();
      await writable.write(bytes);
      await writable.close();
      done.push(path);
      reportProgress('Writing files', done.length, total);
    }
    for (const path of deletions) {
      try {
        const { dir, name } = await parentDir(handle, path, false);
        await dir.removeEntry(name);
      } catch (err) {
        if (err?.name !== 'NotFoundError') throw err;
      }
      done.push(path);
      reportProgress('Deleting files', done.length, total);
    }
  } catch (err) {
    err.done = done;
    throw err;
  }
  return done;
}

// Offers the changed files and the list of files to delete as one .zip.
export function downloadChanges(worldName, files, deletions) {
  const entries = [...files];
  if (deletions.length) {
    const text = 'Delete these files from the world folder:\n' + deletions.map((p) => p + '\n').join('');
    entries.push({ path: 'DELETED.txt', bytes: new TextEncoder().encode(text) });
  }
  const url = URL.createObjectURL(zipFiles(entries));
  const a = document.createElement('a');
  a.href = url;
  a.download = `${worldName}-changes.zip`;
  document.body.append(a);
  a.click();
  a.remove();
  setTimeout(() => URL.revokeObjectURL(url), 60_000);
  return a.download;
}
