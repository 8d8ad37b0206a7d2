// Set-up of the suites that test the inspector's models (web/src/state/)
// under node:test: the models call an in-process engine (engine/local.js,
// the worker's operations on this thread), wired as main.jsx wires the
// page's, and each test opens a world from files read here.
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join, relative } from 'node:path';

import { createLocalEngine } from '../../web/src/engine/local.js';
import { setEngine } from '../../web/src/state/engine.js';
import { on } from '../../web/src/state/events.js';
import { clearHistory, forgetEntity, record } from '../../web/src/state/history.js';
import { openWorldFiles } from '../../web/src/state/open.js';
import { sampleWorld } from './helpers.js';

setEngine(createLocalEngine());
// The user's answer when a test opens a world over unsaved changes: discard.
globalThis.confirm = () => true;
on('opened', () => clearHistory());
on('edited', (step) => record(step));
on('reverted', ({ id }) => forgetEntity(id));

/** The files of world directory `dir` as the page reads them: [{ path, bytes }]. */
export function worldFiles(dir) {
  const out = [];
  const walk = (at) => {
    for (const name of readdirSync(at).sort()) {
      const path = join(at, name);
      if (statSync(path).isDirectory()) walk(path);
      else out.push({ path: relative(dir, path), bytes: new Uint8Array(readFileSync(path)) });
    }
  };
  walk(dir);
  return out;
}

/** Opens world directory `dir` (the sample by default) in the models. */
export function openWorld(dir = sampleWorld, name = 'sample') {
  return openWorldFiles(name, worldFiles(dir));
}

const decoder = new TextDecoder();

/** The text of bytes the engine answered (a file's UTF-8). */
export const textOf = (bytes) => (bytes === null ? null : decoder.decode(bytes));

/** Waits until `check()` is true (polled every 10 ms, at most `ms`). */
export async function until(check, what, ms = 5_000) {
  const end = Date.now() + ms;
  while (!check()) {
    if (Date.now() > end) throw new Error(`still waiting after ${ms} ms for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
}

// Two of the sample's Lights and one of its Inert entities.
export const LIGHT = '0x77a31d7500000002';
export const LIGHT2 = '0x77a31d7500000008';
export const INERT = '0x77a31d7500000001';
