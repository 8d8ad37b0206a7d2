// Fixtures shared by the node:test suites (tests/js) and the browser tests
// (tests/e2e): paths of the repository, its assets and builds, temporary
// folders removed when the test file ends, copies of worlds, the files under
// a folder, and the native `juliet` CLI.
import { execFileSync } from 'node:child_process';
import { cpSync, existsSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { basename, join } from 'node:path';
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

/** A fresh temporary directory, removed when the test file ends. */
export function tempDir(label = 'juliet') {
  const dir = mkdtempSync(join(tmpdir(), `${label}-`));
  temps.push(dir);
  return dir;
}

/** A temporary copy of a world directory (the sample by default), in a
 * folder of the same name. */
export function copyWorld(source = sampleWorld) {
  const dir = join(tempDir('world'), basename(source));
  cpSync(source, dir, { recursive: true });
  return dir;
}

// Calls visit(relative path, absolute path) for every file under dir.
function walkFiles(dir, visit, rel = '') {
  for (const entry of readdirSync(join(dir, rel), { withFileTypes: true })) {
    const childRel = rel ? `${rel}/${entry.name}` : entry.name;
    if (entry.isDirectory()) walkFiles(dir, visit, childRel);
    else visit(childRel, join(dir, childRel));
  }
}

/** Every file under dir: relative path -> bytes (Buffer); empty if dir is missing. */
export function readTree(dir) {
  const out = new Map();
  if (existsSync(dir)) walkFiles(dir, (rel, abs) => out.set(rel, readFileSync(abs)));
  return out;
}

/** Every file under dir: { relative path: { bytes, mtimeMs } }, to tell a
 * file rewritten with the same bytes from one left alone. */
export function snapshotDir(dir) {
  const out = {};
  walkFiles(dir, (rel, abs) => {
    out[rel] = { bytes: readFileSync(abs), mtimeMs: statSync(abs).mtimeMs };
  });
  return out;
}

/** The file of an entity ID in a world: Entities/<decimal>.jasset. */
export { entityPath as entityFile } from 'juliet-world';

/** Runs the native build's `juliet` CLI; returns its standard output, throws
 * if it exits with an error. */
export function runCli(...args) {
  return execFileSync(nativeCli, args, { encoding: 'utf8', maxBuffer: 64 << 20 });
}
