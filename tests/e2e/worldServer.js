// Set-up of the browser tests of a world served by the local server
// (web/server): the server on a world directory (the built page from
// web/dist, built if missing), closed when the test file ends; the world's
// files edited on disk as another program would; and waiting on the page
// with nothing but page.evaluate, so that the same steps drive Chromium
// (playwright-core) and Firefox (puppeteer-core).
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { after, before } from 'node:test';
import { startServer } from '../../web/server/server.js';
import { entityFile, repo } from '../shared/fixtures.js';
import * as ui from './harness.js';

const servers = [];
after(async () => {
  for (const server of servers) await ui.withDeadline(server.close(), 10_000, 'closing the local server');
});

/** Debian's Chromium for the test file, started before its first test: { browser }. */
export function useChromium() {
  const env = {};
  before(async () => {
    env.browser = await ui.launchChromium();
  });
  after(async () => {
    await ui.withDeadline(env.browser.close(), 30_000, 'closing the browser');
    ui.watchExit();
  });
  return env;
}

/**
 * The local server on `dir`, ready to save (its engine has opened the
 * world); `options` are startServer's others ({ shareBase }).
 */
export async function serveWorld(dir, options = {}) {
  await ui.ensureBuilt();
  const server = await startServer({ ...options, dir, distDir: join(repo, 'web/dist') });
  servers.push(server);
  await server.engineReady;
  return server;
}

/**
 * Evaluates fn(arg) in the page until it returns a truthy value, and
 * returns that value; fails after `timeout` ms naming `what`.
 */
export async function until(page, fn, arg, { timeout = 10_000, what = 'the page' } = {}) {
  const deadline = Date.now() + timeout;
  for (;;) {
    const value = await page.evaluate(fn, arg);
    if (value) return value;
    if (Date.now() > deadline) throw new Error(`waited ${timeout / 1000} s for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 25));
  }
}

/** The text of the page's notice (role=status) and alert, if any. */
export function messages(page) {
  return page.evaluate(() => ({
    notice: document.querySelector('[role=status]')?.textContent ?? '',
    alert: document.querySelector('[role=alert]')?.textContent ?? '',
  }));
}

/** The position the entity list shows for `id` ("x, y, z" to one decimal), or null. */
export function listedPosition(page, id) {
  return page.evaluate((entity) => document.getElementById(`entity-${entity}`)?.querySelector('.pos')?.textContent ?? null, id);
}

// ---- the world on disk, changed as another program would ----

/** The text of entity `id`'s file in world `dir`. */
export function readEntity(dir, id) {
  return readFileSync(join(dir, entityFile(id)), 'utf8');
}

/** Rewrites entity `id`'s file in `dir` with a new position "x y z". */
export function moveOnDisk(dir, id, position) {
  writeFileSync(join(dir, entityFile(id)), withPosition(readEntity(dir, id), position));
}

/** A .jasset text with its position line replaced. */
export function withPosition(text, position) {
  return text.replace(/; position\n[^\n]*/, `; position\n${position}`);
}

/** A .jasset text with its ID line replaced (a new entity from a copy). */
export function withId(text, id) {
  return text.replace(/; id\n[^\n]*/, `; id\n${id}`);
}
