// The engine on the caller's thread: the operations (operations.js) run
// in-process behind the same calls as the page's worker (client.js), so
// the inspector's models run under node:test without a browser.
import { engineApi } from './client.js';
import { errorInfo, toError } from './errors.js';
import { createOperations } from './operations.js';

/** An engine with the same calls, answers and errors as the worker's. */
export function createLocalEngine({ onProgress } = {}) {
  const run = createOperations({ onProgress: (progress) => onProgress?.(progress) });
  // Arguments and answers are copied as a worker's messages are, so no
  // object is shared between the caller and the operations.
  async function call(op, args) {
    let answer;
    try {
      answer = await run(op, structuredClone(args));
    } catch (err) {
      throw toError(errorInfo(err));
    }
    return structuredClone(answer.result, { transfer: answer.transfer ?? [] });
  }
  return engineApi(call, onProgress);
}
