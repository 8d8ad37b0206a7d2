// Shared set-up of the node:test suites: paths of the repository, its
// fixtures and builds, and temporary copies of worlds.
import { cpSync, existsSync, mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after } from 'node:test';
import { fileURLToPath } from 'node:url';

export const repo = fileURLToPath(new URL('../..', import.meta.url));
export const assets = join(repo, 'assets');
export const sampleWorld = join(assets, 'sample_world');
export const nativeCli = join(repo, 'build', 'native', 'juliet');

const temps = [];
after(() => {
  for (const dir of temps) rmSync(dir, { recursive: true, force: true });
});

/** A fresh temporary directory, removed when the suite ends. */
export function tempDir(label = 'juliet') {
  const dir = mkdtempSync(join(tmpdir(), `${label}-`));
  temps.push(dir);
  return dir;
}

/** A temporary copy of a world directory (the sample by default). */
export function copyWorld(source = sampleWorld) {
  const dir = join(tempDir('world'), 'world');
  cpSync(source, dir, { recursive: true });
  return dir;
}

/** Every file under dir: relative path -> bytes (Buffer). */
export function readTree(dir) {
  const out = new Map();
  const walk = (abs, rel) => {
    for (const entry of readdirSync(abs, { withFileTypes: true })) {
      const childAbs = join(abs, entry.name);
      const childRel = rel ? `${rel}/${entry.name}` : entry.name;
      if (entry.isDirectory()) walk(childAbs, childRel);
      else out.set(childRel, readFileSync(childAbs));
    }
  };
  if (existsSync(dir)) walk(dir, '');
  return out;
}

/**
 * The `; key` -> value line pairs of a .jasset file's text, values as raw
 * strings: for checking what a save wrote to disk independently of the
 * engine (values are never interpreted here; the engine reads them).
 */
export function parseJasset(text) {
  const lines = text.replace(/\r\n/g, '\n').split('\n');
  const out = {};
  for (let i = 0; i + 1 < lines.length; i++) {
    if (lines[i].startsWith('; ')) {
      out[lines[i].slice(2).trim()] = lines[i + 1].trim();
      i++;
    }
  }
  return out;
}

/** A small deterministic random generator (mulberry32): next() in [0, 1). */
export function rng(seed) {
  let state = seed >>> 0;
  const next = () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
  next.int = (n) => Math.floor(next() * n);
  return next;
}
