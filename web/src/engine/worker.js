// The engine worker: runs the engine's operations (operations.js) off the
// page's thread. It answers requests { id, op, args } from client.js with
// { id, ok, result } or { id, ok: false, error }, and reports long work as
// { progress: { label, done, total } }.
import { errorInfo } from './errors.js';
import { createOperations } from './operations.js';

const run = createOperations({ onProgress: (progress) => self.postMessage({ progress }) });

self.onmessage = async (event) => {
  const { id, op, args } = event.data;
  try {
    const { result, transfer = [] } = await run(op, args);
    self.postMessage({ id, ok: true, result }, transfer);
  } catch (err) {
    self.postMessage({ id, ok: false, error: errorInfo(err) });
  }
};
