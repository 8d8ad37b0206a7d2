// The page's side of the engine worker: one request/response call per
// operation, progress reports forwarded to a callback. Errors come back as
// Error (or TypeError) objects carrying the engine's code, path and line.
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

  return {
    open: (files) => call('open', { files }),
    get: (id) => call('get', { id }),
    set: (id, field, value) => call('set', { id, field, value }),
    create: (className, position) => call('create', { className, position }),
    remove: (id) => call('remove', { id }),
    save: () => call('save'),
    read: (paths) => call('read', { paths }),
    close: () => call('close'),
  };
}

function toError(info) {
  const err = info.name === 'TypeError' ? new TypeError(info.message) : new Error(info.message);
  if (info.code !== undefined) err.code = info.code;
  if (info.path !== undefined) err.path = info.path;
  if (info.line !== undefined) err.line = info.line;
  return err;
}
