// Shared set-up of the browser tests: a Vite preview server of web/dist on a
// free port and Debian's Chromium through playwright-core, started once per
// test file (useInspector); pages opened on the sample, on a folder (through
// a folder picker backed by a real directory on disk) or on an upload; the
// steps the scenarios share (edit, delete, add, save, reload); and
// screenshots under tests/e2e/artifacts/. The tests import it whole
// (`import * as ui`); paths, temporary folders, file trees and the CLI they
// take from tests/shared/fixtures.js, as the node:test suites do.
import assert from 'node:assert/strict';
import { existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync } from 'node:fs';
import * as fsp from 'node:fs/promises';
import { join, resolve, sep } from 'node:path';
import { after, before } from 'node:test';
import { chromium } from 'playwright-core';
import * as fixtures from '../shared/fixtures.js';

const { repo } = fixtures;
export const artifacts = join(repo, 'tests/e2e/artifacts');
// The bundled sample the inspector serves (web/vite.config.js reads the same variable).
export const sampleWorld = process.env.JULIET_SAMPLE_DIR || fixtures.sampleWorld;
const configFile = join(repo, 'web/vite.config.js');

const LAUNCH_ARGS = [
  '--no-sandbox',
  '--disable-gpu',
  '--disable-quic',
  '--no-first-run',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
];

// Builds web/dist if it is missing.
export async function ensureBuilt() {
  if (!existsSync(join(repo, 'web/dist/index.html'))) {
    const vite = await import('vite');
    await vite.build({ configFile, logLevel: 'warn' });
  }
}

// The same with the GPU process drawing through SwiftShader, as a page
// with a GPU draws: WebGL frames go to the compositor without the page
// waiting for them (with --disable-gpu the page reads each frame back, and
// the renderer's time counts as the page's). The performance tests take it.
const GPU_ARGS = [...LAUNCH_ARGS.filter((a) => a !== '--disable-gpu'), '--use-angle=swiftshader', '--enable-unsafe-swiftshader'];

// Debian's Chromium, headless, with the flags this machine needs.
export function launchChromium({ gpu = false } = {}) {
  return chromium.launch({ executablePath: '/usr/bin/chromium', args: gpu ? GPU_ARGS : LAUNCH_ARGS });
}

// Starts the preview server (building web/dist first if it is missing) and
// the browser (launchChromium's options). Returns { url, browser, close }.
export async function start(options) {
  await ensureBuilt();
  const vite = await import('vite');
  const server = await vite.preview({
    configFile,
    logLevel: 'warn',
    preview: { port: 0, host: '127.0.0.1', strictPort: false },
  });
  const url = server.resolvedUrls.local[0];
  let browser;
  try {
    browser = await launchChromium(options);
  } catch (err) {
    await closeServer(server);
    throw err;
  }
  return {
    url,
    browser,
    // Closes the browser and the server; nothing of the test run may keep
    // the process alive afterwards (see watchExit).
    async close() {
      try {
        await withDeadline(browser.close(), 30_000, 'closing the browser');
      } finally {
        await closeServer(server);
        watchExit();
      }
    },
  };
}

// The inspector of one test file: started before its first test, closed
// after its last. Returns an object whose url and browser are set once it
// has started.
export function useInspector() {
  const env = {};
  before(async () => {
    Object.assign(env, await start());
  });
  after(async () => {
    await env.close?.();
  });
  return env;
}

async function closeServer(server) {
  // Keep-alive connections of the browser would hold the server open.
  server.httpServer.closeAllConnections?.();
  await withDeadline(server.close(), 10_000, 'closing the preview server');
}

export function withDeadline(promise, ms, what) {
  let timer;
  const deadline = new Promise((_, reject) => {
    timer = setTimeout(() => reject(new Error(`${what} took more than ${ms / 1000} s`)), ms);
  });
  return Promise.race([promise, deadline]).finally(() => clearTimeout(timer));
}

// A test file whose process outlives its tests by 15 s has left something
// running (a server, a browser, a worker, a timer): name it and fail,
// rather than hang the suite. The timer itself does not keep the process
// alive.
export function watchExit() {
  setTimeout(() => {
    const left = process.getActiveResourcesInfo();
    console.error(`browser tests: the process is still running 15 s after its tests ended, held by: ${left.join(', ')}`);
    process.exit(1);
  }, 15_000).unref();
}

// A page with a viewport fit for screenshots; page errors fail the test.
// A page in an existing `context` shares its storage (a second tab).
export async function newPage(browser, { viewport = { width: 1440, height: 900 }, context = null } = {}) {
  context ??= await browser.newContext({ viewport, acceptDownloads: true });
  const page = await context.newPage();
  page.errors = [];
  page.on('pageerror', (err) => page.errors.push(err));
  page.on('console', (msg) => {
    if (msg.type() === 'error') page.errors.push(new Error(msg.text()));
  });
  // Any breach of the page's Content Security Policy fails the test too.
  await page.addInitScript(() => {
    document.addEventListener('securitypolicyviolation', (e) => {
      console.error(`CSP violation: ${e.violatedDirective} ${e.blockedURI}`);
    });
  });
  return page;
}

export async function screenshot(page, name) {
  mkdirSync(artifacts, { recursive: true });
  const path = join(artifacts, `${name}.png`);
  await page.screenshot({ path });
  return path;
}

/** Runs `look(width, colorScheme)` on `page` at 1440x900 and 1024x700,
 * light and dark (the page resized and its colour scheme set for each). */
export async function eachLook(page, look) {
  for (const [width, height] of [
    [1440, 900],
    [1024, 700],
  ]) {
    await page.setViewportSize({ width, height });
    for (const colorScheme of ['light', 'dark']) {
      await page.emulateMedia({ colorScheme });
      await look(width, colorScheme);
    }
  }
}

// A copy of the sample world in a temporary folder named sample_world,
// removed when the test file ends.
export function copySample() {
  return fixtures.copyWorld(sampleWorld);
}

// Every file of `before` (a snapshotDir) except the paths in `changed` is in
// `after` with the same bytes and was not rewritten (same modification time).
export function assertUntouched(before, after, changed = []) {
  for (const [path, file] of Object.entries(before)) {
    if (changed.includes(path)) continue;
    assert.ok(path in after, `${path} kept`);
    assert.deepEqual(after[path].bytes, file.bytes, `${path} unchanged`);
    assert.equal(after[path].mtimeMs, file.mtimeMs, `${path} not rewritten`);
  }
}

// Makes window.showDirectoryPicker return a directory handle backed by the
// real folder `dir`, so the app's File System Access code reads and writes
// the disk. window.__pickerFailWrites = true makes every write fail.
export async function mockFolderPicker(page, dir) {
  const inside = (path) => {
    const full = resolve(dir, path);
    if (full !== dir && !full.startsWith(dir + sep)) throw new Error('outside the folder');
    return full;
  };
  await page.exposeFunction('__pickerList', async (path) => {
    const entries = await fsp.readdir(inside(path), { withFileTypes: true });
    return entries.map((e) => ({ name: e.name, kind: e.isDirectory() ? 'directory' : 'file' }));
  });
  await page.exposeFunction('__pickerStat', async (path) => {
    try {
      return (await fsp.stat(inside(path))).isDirectory() ? 'directory' : 'file';
    } catch {
      return null;
    }
  });
  await page.exposeFunction('__pickerMkdir', async (path) => {
    await fsp.mkdir(inside(path), { recursive: true });
  });
  await page.exposeFunction('__pickerRead', async (path) => (await fsp.readFile(inside(path))).toString('base64'));
  await page.exposeFunction('__pickerWrite', async (path, base64) => {
    await fsp.writeFile(inside(path), Buffer.from(base64, 'base64'));
  });
  await page.exposeFunction('__pickerRemove', async (path) => {
    await fsp.rm(inside(path));
  });
  await page.addInitScript((name) => {
    const join = (a, b) => (a ? `${a}/${b}` : b);
    const notFound = (path) => new DOMException(`${path} not found`, 'NotFoundError');
    const toBase64 = (bytes) => {
      let s = '';
      for (let i = 0; i < bytes.length; i += 0x8000) s += String.fromCharCode(...bytes.subarray(i, i + 0x8000));
      return btoa(s);
    };
    function fileHandle(path, fileName) {
      return {
        kind: 'file',
        name: fileName,
        async getFile() {
          const b64 = await window.__pickerRead(path);
          return new File([Uint8Array.from(atob(b64), (c) => c.charCodeAt(0))], fileName);
        },
        async createWritable() {
          if (window.__pickerFailWrites) {
            throw new DOMException('The folder is read-only', 'NoModificationAllowedError');
          }
          const parts = [];
          return {
            async write(data) {
              if (data instanceof Blob) parts.push(new Uint8Array(await data.arrayBuffer()));
              else if (data instanceof ArrayBuffer) parts.push(new Uint8Array(data));
              else parts.push(new Uint8Array(data.buffer, data.byteOffset, data.byteLength).slice());
            },
            async close() {
              const total = parts.reduce((n, p) => n + p.length, 0);
              const all = new Uint8Array(total);
              let at = 0;
              for (const p of parts) {
                all.set(p, at);
                at += p.length;
              }
              await window.__pickerWrite(path, toBase64(all));
            },
          };
        },
      };
    }
    function dirHandle(path, dirName) {
      return {
        kind: 'directory',
        name: dirName,
        async *values() {
          for (const e of await window.__pickerList(path)) {
            const p = join(path, e.name);
            yield e.kind === 'directory' ? dirHandle(p, e.name) : fileHandle(p, e.name);
          }
        },
        async getDirectoryHandle(n, { create = false } = {}) {
          const p = join(path, n);
          const kind = await window.__pickerStat(p);
          if (kind === null) {
            if (!create) throw notFound(p);
            await window.__pickerMkdir(p);
          }
          return dirHandle(p, n);
        },
        async getFileHandle(n, { create = false } = {}) {
          const p = join(path, n);
          if ((await window.__pickerStat(p)) === null && !create) throw notFound(p);
          return fileHandle(p, n);
        },
        async removeEntry(n) {
          const p = join(path, n);
          if ((await window.__pickerStat(p)) === null) throw notFound(p);
          if (window.__pickerFailWrites) throw new DOMException('The folder is read-only', 'NoModificationAllowedError');
          await window.__pickerRemove(p);
        },
        async queryPermission() {
          return 'granted';
        },
        async requestPermission() {
          return 'granted';
        },
      };
    }
    window.showDirectoryPicker = async () => dirHandle('', name);
  }, dir.split(sep).pop());
}

// ---- where things are on the page ----

const PASSED = '[role=treeitem]:not([aria-label$="outside the filter"])';

// The rows of the entity list in view that its filters pass (not the
// ancestors shown outside the filter), and the row of an ID (named by the
// entity's name, if it has one, then its ID).
export function entityOptions(page) {
  return page.getByRole('tree', { name: 'Entity list' }).locator(PASSED);
}

/** Waits until the entity list shows `n` rows that its filters pass. */
export function waitListed(page, n) {
  return page.waitForFunction(([rows, want]) => document.querySelectorAll(`[role=tree] ${rows}`).length === want, [PASSED, n]);
}

export function option(page, id) {
  return page.getByRole('tree', { name: 'Entity list' }).getByRole('treeitem', { name: new RegExp(`(^| )${id} `) });
}

// The Pending changes region, and each of its entities (or files) as badge
// and path, as `modifiedEntities/1.jasset` (without its changed fields).
export function pendingRegion(page) {
  return page.getByRole('region', { name: 'Pending changes' });
}

export async function pendingItems(page) {
  // The review follows the pending list a moment later (aria-busy meanwhile).
  await page.locator('section.pending[aria-busy="false"]').waitFor();
  return pendingRegion(page)
    .locator('.review > li')
    .evaluateAll((items) =>
      items.map((li) => `${li.querySelector('.badge')?.textContent ?? ''}${(li.querySelector('.path') ?? li).textContent}`.trim()),
    );
}

// The ID the inspector shows, waiting for the inspector to show one.
export async function selectedId(page) {
  return (await page.getByRole('region', { name: 'Inspector' }).locator('h2 code').textContent()).trim();
}

// The message shown next to the inspector's input labelled `label`, once
// the input is marked invalid (aria-invalid, aria-describedby).
export async function fieldError(page, label) {
  const input = page.getByRole('region', { name: 'Inspector' }).getByLabel(label, { exact: true });
  await page.waitForFunction((el) => el.getAttribute('aria-invalid') === 'true', await input.elementHandle());
  return (await page.locator(`#${await input.getAttribute('aria-describedby')}`).textContent()).trim();
}

// The ID the inspector shows, or null when nothing is selected.
// The position the inspector shows, as numbers [x, y, z].
export async function inspectedPosition(page) {
  const values = [];
  for (const axis of ['X', 'Y', 'Z']) values.push(Number(await page.getByLabel(`Position ${axis}`, { exact: true }).inputValue()));
  return values;
}

export function inspectedId(page) {
  return page.evaluate(() => document.querySelector('.inspector h2 code')?.textContent.trim() ?? null);
}

// IDs of the rows in the DOM of the entity list that its filters pass.
export async function visibleIds(page) {
  return entityOptions(page).evaluateAll((els) => els.map((el) => el.id.replace(/^entity-/, '')));
}

// The map, the view it last drew ({ axes, center, scale }: see WorldMap),
// where world position `pos` ([x, y, z]) is drawn on it in page
// coordinates, and the world point on its axes at a page point.
export function mapOf(page) {
  return page.getByRole('img', { name: 'World map' });
}

export async function mapView(page) {
  return JSON.parse(await mapOf(page).getAttribute('data-view'));
}

export async function mapPagePoint(page, pos) {
  const { axes, center, scale } = await mapView(page);
  const box = await mapOf(page).boundingBox();
  return {
    x: box.x + (pos[axes[0]] - center[0]) * scale + box.width / 2,
    y: box.y + box.height / 2 - (pos[axes[1]] - center[1]) * scale,
  };
}

export async function mapWorldPoint(page, { x, y }) {
  const { center, scale } = await mapView(page);
  const box = await mapOf(page).boundingBox();
  return [center[0] + (x - box.x - box.width / 2) / scale, center[1] - (y - box.y - box.height / 2) / scale];
}

// ---- opening a world ----

// Waits for the world to be open (the list shows options).
export async function waitOpen(page) {
  await entityOptions(page).first().waitFor();
  // Ready once any kept work is re-applied: Save is enabled then.
  await page.locator('button[aria-keyshortcuts="Control+S"]:not([disabled])').waitFor();
}

// A new page (newPage's options) with the bundled sample open.
export async function openSample(env, options) {
  const page = await newPage(env.browser, options);
  await page.goto(env.url);
  await waitOpen(page);
  return page;
}

// A new page (newPage's options) with the folder `dir` on disk open through
// the (mocked) folder picker, which stays on `dir` for saves.
export async function openFolder(env, dir, options) {
  const page = await newPage(env.browser, options);
  await mockFolderPicker(page, dir);
  await page.goto(`${env.url}?open=none`);
  await page.getByRole('button', { name: 'Open folder' }).click();
  await waitOpen(page);
  return page;
}

// A new page with the folder `dir` uploaded (no folder to save into: Save
// downloads).
export async function uploadFolder(env, dir) {
  const page = await newPage(env.browser);
  await page.goto(`${env.url}?open=none`);
  await page.getByLabel('Upload folder', { exact: true }).setInputFiles(dir);
  await waitOpen(page);
  return page;
}

// Reloads the page, accepting the warning about unsaved changes.
export async function reloadLeavingUnsaved(page) {
  page.once('dialog', (dialog) => dialog.accept());
  await page.reload();
}

// Fails the test if the page logged an error, then closes its context.
export async function closeWithoutErrors(page) {
  assert.deepEqual(page.errors, []);
  await page.context().close();
}

// ---- the steps of a scenario ----

// Types text into the labelled input and applies it with Enter.
export async function commit(page, label, text) {
  const input = page.getByLabel(label, { exact: true });
  await input.fill(text);
  await input.press('Enter');
}

// Selects an entity in the list and waits until the inspector shows it, so
// that the next input or button acts on that entity and not on the one
// selected before.
export async function selectEntity(page, id) {
  await option(page, id).click();
  await page.waitForFunction((want) => document.querySelector('.inspector h2 code')?.textContent.trim() === want, id);
}

// Waits until the list marks the entity unsaved.
export async function waitUnsaved(page, id) {
  await option(page, id).and(page.locator('[aria-label$="unsaved"]')).waitFor();
}

// Selects the entity, sets one axis ('X', 'Y' or 'Z') of its position and
// waits until the list marks it unsaved.
export async function editPosition(page, id, axis, value) {
  await selectEntity(page, id);
  await commit(page, `Position ${axis}`, value);
  await waitUnsaved(page, id);
}

// Selects the entity, deletes it and waits until it leaves the list.
export async function deleteEntity(page, id) {
  await selectEntity(page, id);
  await page.getByRole('button', { name: 'Delete entity' }).click();
  await option(page, id).waitFor({ state: 'detached' });
}

// The changes many scenarios start from: sets one position axis of the
// first entity in the list and deletes the second; returns their IDs
// { edited, deleted } once the list shows both changes.
export async function editAndDelete(page, axis, value) {
  const [edited, deleted] = await visibleIds(page);
  await editPosition(page, edited, axis, value);
  await deleteEntity(page, deleted);
  return { edited, deleted };
}

// Adds an entity of className at the default position; returns its ID once
// the inspector shows it.
export async function addEntity(page, className) {
  const previousId = await inspectedId(page);
  await page.getByRole('button', { name: 'Add entity' }).click();
  await page.getByRole('dialog').getByLabel('Class').selectOption(className);
  await page.getByRole('dialog').getByRole('button', { name: 'Create' }).click();
  return waitInspected(page, className, previousId);
}

// Opens the Add entity dialog, picks className, types the coordinates of
// `position` ({ X, Y, Z }, each a text; those left out keep their default)
// and clicks Create; returns the dialog (still open if the engine refused).
export async function createInDialog(page, className, position) {
  await page.getByRole('button', { name: 'Add entity' }).click();
  const dialog = page.getByRole('dialog', { name: 'Add entity' });
  await dialog.getByLabel('Class').selectOption(className);
  for (const [axis, text] of Object.entries(position)) await dialog.getByLabel(axis, { exact: true }).fill(text);
  await dialog.getByRole('button', { name: 'Create' }).click();
  return dialog;
}

// Waits until the inspector shows an entity of className other than
// `previous` (after Add entity, or a click that changes the selection) and
// returns its ID.
export async function waitInspected(page, className, previous) {
  await page.waitForFunction(
    ([cls, prev]) => {
      const h2 = document.querySelector('.inspector h2');
      const id = h2?.querySelector('code')?.textContent.trim();
      return h2?.querySelector('.entity-class')?.textContent === cls && id && id !== prev;
    },
    [className, previous],
  );
  return inspectedId(page);
}

// Saves and waits for the report (any "Saved ..." by default).
export async function saveAndWait(page, report = /^Saved /) {
  await page.getByRole('button', { name: 'Save' }).click();
  await page.getByRole('status').filter({ hasText: report }).waitFor();
}

// In a page (passed to page.evaluate, by the Chromium and the Firefox tests
// alike): how many pixels of a canvas's PNG screenshot (`data`, base64)
// differ from its background, or, in the square of `side` pixels about its
// middle, from each of `colours`. A WebGL canvas keeps no pixels to read
// back, hence the screenshot.
export async function countDrawnPixels({ data, side = null, colours = null }) {
  const img = new Image();
  img.src = `data:image/png;base64,${data}`;
  await img.decode();
  const c = new OffscreenCanvas(img.width, img.height);
  const ctx = c.getContext('2d');
  ctx.drawImage(img, 0, 0);
  const all = ctx.getImageData(0, 0, img.width, img.height).data;
  const d = side ? ctx.getImageData((img.width - side) >> 1, (img.height - side) >> 1, side, side).data : all;
  const far = (i, [r, g, b]) => Math.abs(d[i] - r) + Math.abs(d[i + 1] - g) + Math.abs(d[i + 2] - b) > 60;
  const from = colours ?? [[all[0], all[1], all[2]]]; // a corner: the background
  let n = 0;
  for (let i = 0; i < d.length; i += 4) if (from.every((colour) => far(i, colour))) n++;
  return n;
}

// ---- the large worlds of the performance tests ----

// How many entities (JULIET_E2E_PERF_COUNT, default 100,000), the existing
// world to measure instead of a generated one (JULIET_E2E_PERF_DIR), and
// why the run is skipped (JULIET_E2E_PERF=0, or no CLI to generate with).
export const PERF_COUNT = Number(process.env.JULIET_E2E_PERF_COUNT ?? 100000);
export const perfGiven = process.env.JULIET_E2E_PERF_DIR;
export const perfSkip =
  process.env.JULIET_E2E_PERF === '0'
    ? 'JULIET_E2E_PERF=0'
    : !perfGiven && !existsSync(fixtures.nativeCli)
      ? 'build/native/juliet is not built'
      : false;

// A new folder for a generated world, on a RAM file system where there is
// one: `juliet gen` writes each file durably, which on a disk takes minutes
// for 100,000 files.
export function perfBase(prefix) {
  return existsSync('/dev/shm') ? mkdtempSync(`/dev/shm/${prefix}-`) : fixtures.tempDir(prefix);
}

// The browser and a large world of a performance test file: `juliet gen`'s
// world of PERF_COUNT entities in a new folder named after `prefix` (or the
// world JULIET_E2E_PERF_DIR names), made before its first test and removed
// after its last. Returns an object whose env ({ url, browser }) and dir are
// set once made; nothing is made when the run is skipped (perfSkip).
// `options` are launchChromium's.
export function usePerfWorld(prefix, options) {
  const perf = {};
  before(async () => {
    if (perfSkip) return;
    if (perfGiven) {
      perf.dir = perfGiven;
    } else {
      perf.dir = join(perfBase(prefix), `world_${PERF_COUNT}`);
      fixtures.runCli('gen', perf.dir, '--count', String(PERF_COUNT));
    }
    perf.env = await start(options);
  });
  after(async () => {
    await perf.env?.close();
    if (perf.dir && !perfGiven) await fsp.rm(join(perf.dir, '..'), { recursive: true, force: true });
  });
  return perf;
}

// The resident memory of the browsers' page processes (Chromium's
// renderers: a page with its workers and their wasm memory), in MB: `tab`,
// the one that has worked most (the page of a test that opened a large
// world), and `all`, every renderer together (Chromium keeps others, a
// spare one among them, each with its own copy of the shared code counted).
export function tabsRssMb() {
  const renderers = [];
  for (const pid of readdirSync('/proc').filter((name) => /^\d+$/.test(name))) {
    try {
      if (!readFileSync(`/proc/${pid}/cmdline`, 'utf8').includes('--type=renderer')) continue;
      const kb = Number(/VmRSS:\s+(\d+)/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'))?.[1] ?? 0);
      // utime and stime: the 14th and 15th fields, after the command's ")".
      const [utime, stime] = readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1].split(' ').slice(11, 13).map(Number);
      renderers.push({ kb, cpu: utime + stime });
    } catch {
      // Gone meanwhile.
    }
  }
  const mb = (kb) => Math.round(kb / 1024);
  const tab = renderers.reduce((most, r) => (r.cpu > (most?.cpu ?? -1) ? r : most), null);
  return { tab: mb(tab?.kb ?? 0), all: mb(renderers.reduce((sum, r) => sum + r.kb, 0)) };
}

/** The resident memory of process `pid` in MB (Linux, else nulls): { rss,
 * peak }. */
export function processMemoryMb(pid) {
  try {
    const status = readFileSync(`/proc/${pid}/status`, 'utf8');
    const mb = (field) => Math.round(Number(new RegExp(`${field}:\\s+(\\d+)`).exec(status)[1]) / 1024);
    return { rss: mb('VmRSS'), peak: mb('VmHWM') };
  } catch {
    return { rss: null, peak: null };
  }
}

// Records, in the page, input events of `type` on `selector` and the
// frames drawn, plus main-thread tasks over 50 ms; stop() answers, for each
// event, the time from its timestamp to the next frame (with `shown`, an
// entity's ID: to the frame after the inspector shows it), and the longest
// task.
export async function watchInput(page, selector, type, shown = null) {
  await page.evaluate(
    ({ selector, type, shown }) => {
      const w = { events: [], frames: [], tasks: [], draws: [], on: true, shownAt: null };
      window.__watch = w;
      // Each frame's own drawing time, as the view reports it (data-draw-ms).
      w.drawn = new MutationObserver(() => w.draws.push(Number(document.querySelector(selector).dataset.drawMs)));
      w.drawn.observe(document.querySelector(selector), { attributes: true, attributeFilter: ['data-draw-ms'] });
      document.querySelector(selector).addEventListener(type, (e) => w.events.push(e.timeStamp), { capture: true });
      if (shown) {
        w.mutations = new MutationObserver(() => {
          if (w.shownAt === null && document.querySelector('.inspector h2 code')?.textContent.trim() === shown)
            w.shownAt = performance.now();
        });
        w.mutations.observe(document.body, { subtree: true, childList: true, characterData: true });
      }
      const tick = (t) => {
        w.frames.push(t);
        if (w.on) requestAnimationFrame(tick);
      };
      requestAnimationFrame(tick);
      w.observer = new PerformanceObserver((list) => w.tasks.push(...list.getEntries().map((e) => e.duration)));
      w.observer.observe({ type: 'longtask' });
    },
    { selector, type, shown },
  );
  return () =>
    page.evaluate(async () => {
      const w = window.__watch;
      await new Promise((r) => requestAnimationFrame(() => requestAnimationFrame(r)));
      w.on = false;
      w.observer.disconnect();
      w.mutations?.disconnect();
      w.drawn.disconnect();
      const after = (t) => Math.max(t, w.shownAt ?? t);
      const waits = w.events.map((t) => (w.frames.find((f) => f >= after(t)) ?? NaN) - t).filter(Number.isFinite);
      // The frames from the first event on, and the time between them.
      const frames = w.frames.filter((f) => f >= w.events[0]);
      const intervals = frames.slice(1).map((f, i) => f - frames[i]);
      return { waits, intervals, draws: w.draws, longestTask: Math.max(0, ...w.tasks) };
    });
}

// A committed edit of the inspector's Position X to `value`: the time from
// the change to the frame in which the inspector, Pending changes and the
// view drawn by the canvas at `view` (its next drawing) all show it, and
// the longest task meanwhile.
export function editX(page, value, view) {
  return page.evaluate(
    async ([value, view]) => {
      await new Promise((r) => requestAnimationFrame(() => requestAnimationFrame(r)));
      const canvas = document.querySelector(view);
      const input = document.getElementById('position-X');
      const pending = document.querySelector('[aria-label="Pending changes"]');
      const longTasks = [];
      const watch = new PerformanceObserver((list) => longTasks.push(...list.getEntries()));
      watch.observe({ type: 'longtask' });
      input.value = String(value);
      input.dispatchEvent(new Event('input', { bubbles: true }));
      const t0 = performance.now();
      input.dispatchEvent(new Event('change', { bubbles: true }));
      let shown = false;
      let drew = false;
      await new Promise((resolve) => {
        const observer = new MutationObserver((changes) => {
          // The view may draw the edit before Pending changes shows it, or
          // after.
          drew ||= changes.some((c) => c.target === canvas && c.attributeName === 'data-draw-ms');
          shown ||= document.getElementById('position-X').value === String(value) && pending.textContent.includes(String(value));
          if (shown && drew) {
            observer.disconnect();
            resolve();
          }
        });
        observer.observe(document.body, { subtree: true, childList: true, characterData: true, attributes: true });
      });
      const ms = performance.now() - t0;
      longTasks.push(...watch.takeRecords());
      watch.disconnect();
      return { ms, longest: Math.max(0, ...longTasks.filter((e) => e.startTime + e.duration >= t0).map((e) => e.duration)) };
    },
    [value, view],
  );
}

export { median } from '../shared/median.js';
