// The page's side of the engine: one request/response call per operation
// (operations.js), in a worker for the page (or in-process, local.js),
// progress reports forwarded to a callback. Errors come back as
// Error (or TypeError) objects carrying the engine's code, path, line and
// column (errors.js).
import { columnsOf } from './columns.js';
import { toError } from './errors.js';

const CHUNK = 4000;

// The contents of files [{ bytes | file }] as one ArrayBuffer each.
async function readChunk(part) {
  const blobs = part.filter((f) => f.file).map((f) => f.file);
  const all = blobs.length ? new Uint8Array(await new Blob(blobs).arrayBuffer()) : null;
  let at = 0;
  return part.map((f) => {
    if (!f.file) return f.bytes.slice().buffer;
    const size = f.file.size;
    at += size;
    return all.slice(at - size, at).buffer;
  });
}

/** The engine in a worker (worker.js): the page's one. */
export function createEngine({ onProgress } = {}) {
  const worker = new Worker(new URL('./worker.js', import.meta.url), { type: 'module' });
  let nextId = 1;
  const waiting = new Map();

  worker.onmessage = (event) => {
    const data = event.data;
    if (data.progress) {
      onProgress?.(data.progress);
      return;
    }
    const call = waiting.get(data.id);
    if (!call) return;
    waiting.delete(data.id);
    if (data.ok) call.resolve(data.result);
    else call.reject(toError(data.error));
  };
  worker.onerror = (event) => {
    const err = new Error(event.message || 'The engine stopped');
    for (const call of waiting.values()) call.reject(err);
    waiting.clear();
  };

  function call(op, args, transfer = []) {
    const id = nextId++;
    return new Promise((resolve, reject) => {
      waiting.set(id, { resolve, reject });
      worker.postMessage({ id, op, args }, transfer);
    });
  }
  return engineApi(call, onProgress);
}

// A result's table with its string columns back from their texts
// (columns.js).
function withColumns(result) {
  const table = result?.table;
  if (table?.idsText === undefined) return result;
  const { idsText, namesText, parentsText, ...rest } = table;
  return { ...result, table: { ...rest, ...columnsOf(table) } };
}

// The engine's calls over `transport(op, args, transfer)`, a transport to
// the operations (a worker's messages, or a direct call).
export function engineApi(transport, onProgress) {
  const call = async (op, args, transfer) => withColumns(await transport(op, args, transfer));
  return {
    // Opens a world from files [{ path, bytes | file }] (paths relative to
    // the world folder). The page reads the files (a File read from the
    // worker costs more) a chunk at a time, and hands each chunk's buffers
    // over while it reads the next. A chunk's Files are read as one Blob:
    // one read of the browser's for the chunk, not one per file.
    async open(files) {
      await call('begin');
      const started = performance.now();
      const writes = [];
      for (let start = 0; start < files.length; start += CHUNK) {
        const part = files.slice(start, start + CHUNK);
        const buffers = await readChunk(part);
        const paths = part.map((f) => f.path);
        writes.push(call('addFiles', { paths, buffers }, buffers));
        onProgress?.({ label: 'Reading files', done: start + part.length, total: files.length });
      }
      await Promise.all(writes);
      const readMs = performance.now() - started;
      onProgress?.({ label: 'Loading entities', done: files.length, total: files.length });
      const result = await call('load');
      result.timings.readMs = readMs;
      return result;
    },
    openSnapshot: (text) => call('openSnapshot', { text }),
    // The world of the local server, fetched by the worker with `request`
    // ({ url, headers }).
    openServed: (request) => call('openServed', { request }),
    putFiles: (files, { keepEdited = false } = {}) => call('putFiles', { files, keepEdited }),
    markSaved: (written, deleted) => call('markSaved', { written, deleted }),
    snapshot: () => call('snapshot'),
    // Change links: what a link holds, one read, one of the pending edits, one applied.
    linkKind: (text) => call('linkKind', { text }),
    readChanges: (text) => call('readChanges', { text }),
    changesLink: (name) => call('changesLink', { name }),
    applyChangeLink: (text) => call('applyChangeLink', { text }),
    // { value, text } or { error, col }: see the worker's check.
    check: (type, text, { allowInf = false } = {}) => call('check', { type, text, allowInf }),
    get: (id) => call('get', { id }),
    values: (ids, names) => call('values', { ids, names }),
    set: (id, field, value) => call('set', { id, field, value }),
    setSetting: (field, value) => call('setSetting', { field, value }),
    create: (className, position) => call('create', { className, position }),
    remove: (id) => call('remove', { id }),
    restore: (id, text) => call('restore', { id, text }),
    // Edits of several entities as one undo step, all or nothing: see the
    // worker's setMany, removeMany, restoreMany, duplicate and paste.
    setMany: (sets) => call('setMany', { sets }),
    removeMany: (ids) => call('removeMany', { ids }),
    restoreMany: (items) => call('restoreMany', { items }),
    duplicate: (ids, place) => call('duplicate', { ids, place }),
    paste: (entries, place) => call('paste', { entries, place }),
    texts: (ids) => call('texts', { ids }),
    // What changed in entities `ids` (or SETTINGS), key by key: see the worker's review.
    review: (ids, limit) => call('review', { ids, limit }),
    // The review of `id` compares with `text` from now on (a conflict settled for the page).
    rebaseReview: (id, text) => call('rebaseReview', { id, text }),
    // The page's and the disk's changes of a file merged key by key, and
    // applied if asked: see the worker's mergeDisk.
    mergeDisk: ({ id, path, disk, theirs = null, apply = false }) => call('mergeDisk', { id, path, disk, theirs, apply }),
    // IDs of the entities passing every term of a parsed query (lib/query.js).
    query: (terms) => call('query', { terms }),
    applyChanges: (changes, added) => call('applyChanges', { changes, added }),
    save: () => call('save'),
    read: (paths) => call('read', { paths }),
    close: () => call('close'),
  };
}
