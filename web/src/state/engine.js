// The page's one engine worker (engine/client.js), started on first use;
// its reports of long work go to the progress bar.
import { createEngine } from '../engine/client.js';
import { reportProgress } from './progress.js';

let engine = null;

export function getEngine() {
  engine ??= createEngine({
    onProgress: ({ label, done, total }) => reportProgress(label, done, total),
  });
  return engine;
}
