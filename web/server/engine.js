// The server's side of its engine thread (engineThread.js): starts it on a
// world directory and hands it saves, one at a time, in order.
import { Worker } from 'node:worker_threads';

/**
 * Starts the engine on `dir`. `ready` resolves with { ms, count } once the
 * world is open (or rejects if it cannot be opened); save(changes) resolves
 * with { written, deleted, failures } (paths relative to the world).
 */
export function startEngine(dir) {
  const worker = new Worker(new URL('./engineThread.js', import.meta.url), { workerData: { dir } });
  const waiting = new Map();
  let nextId = 1;
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
    close: () => worker.terminate(),
  };
}
