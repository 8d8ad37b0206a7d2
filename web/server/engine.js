// The server's side of its engine thread (engineThread.js): starts it on a
// world directory and hands it saves, one at a time, in order.
import { Worker } from 'node:worker_threads';

/**
 * Starts the engine on `dir`, opening the world from `read` (read.js
 * readFilesInThreads' result: the files as the server read them, not read
 * again).
 * `ready` resolves with { ms, count } once the
 * world is open (or rejects if it cannot be opened); save(changes) resolves
 * with { written, deleted, failures } (paths relative to the world).
 * close() lets the save in progress finish, then the thread closes the
 * world and ends; close({ now: true }) has that save stop after the file
 * being written (the files not reached are failures). Both resolve once the
 * thread has ended; calling them again is safe.
 */
export function startEngine(dir, read = null) {
  // [STOP]: set by close({ now }), read by the thread between two files,
  // while its own event loop is busy saving and cannot hear a message.
  const control = new Int32Array(new SharedArrayBuffer(4));
  // The read's columns are shared with the thread, not copied; its paths
  // too, as bytes (`pathBytes`, for juliet-world's pathIndex), not strings.
  const given = read && { ...read, paths: undefined };
  const worker = new Worker(new URL('./engineThread.js', import.meta.url), { workerData: { dir, control, read: given } });
  const waiting = new Map();
  let nextId = 1;
  let exited = false;
  let closing = null;
  let settle;
  const ready = new Promise((resolve, reject) => {
    settle = { resolve, reject };
  });
  ready.catch(() => {}); // reported to whoever awaits it

  worker.on('message', (msg) => {
    if (msg.ready) return settle.resolve(msg.ready);
    if (msg.failed) return settle.reject(new Error(`the world could not be opened: ${msg.failed}`));
    const call = waiting.get(msg.id);
    waiting.delete(msg.id);
    if (msg.ok) call?.resolve(msg.result);
    else call?.reject(new Error(msg.error));
  });
  worker.on('error', (err) => {
    settle.reject(err);
    for (const call of waiting.values()) call.reject(err);
    waiting.clear();
  });
  worker.on('exit', () => {
    exited = true;
    const err = new Error('the engine thread stopped');
    settle.reject(err);
    for (const call of waiting.values()) call.reject(err);
    waiting.clear();
  });

  return {
    ready,
    save(changes) {
      const id = nextId++;
      return new Promise((resolve, reject) => {
        waiting.set(id, { resolve, reject });
        worker.postMessage({ id, op: 'save', args: { changes } });
      });
    },
    close({ now = false } = {}) {
      if (now) {
        Atomics.store(control, 0, 1);
        // No save posted: nothing is being written, so the thread may end
        // at once (it may be opening the world, which writes nothing).
        if (waiting.size === 0) worker.terminate();
      }
      closing ??= exited
        ? Promise.resolve()
        : new Promise((resolve) => {
            worker.once('exit', resolve);
            worker.postMessage({ op: 'close' });
          });
      return closing;
    },
  };
}
