// The static page (no server) opening a 100,000-entity folder through File
// System Access handles in Chromium: the time from the folder being picked
// to the list and map being shown. Headless Chromium cannot pick a folder
// of the disk, so the world made by `juliet gen` is copied first into the
// page's origin private file system, whose handles are the same
// FileSystemDirectoryHandle / FileSystemFileHandle objects a picked folder
// gives; the picker returns that directory. Prints the figures (no timing
// is asserted); JULIET_E2E_PERF=0 skips the run, JULIET_E2E_FSA_COUNT (or
// JULIET_E2E_PERF_COUNT) sets the number of entities. Also prints the
// browser's own floor for listing and reading the same files (fsa_raw_*).
import assert from 'node:assert/strict';
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { after, before, test } from 'node:test';
import { nativeCli, runCli, tempDir } from '../shared/fixtures.js';
import * as ui from './harness.js';

const COUNT = Number(process.env.JULIET_E2E_FSA_COUNT ?? process.env.JULIET_E2E_PERF_COUNT ?? 100000);
const skip =
  process.env.JULIET_E2E_PERF === '0' ? 'JULIET_E2E_PERF=0' : !existsSync(nativeCli) ? 'build/native/juliet is not built' : false;
const NAME = `world_${COUNT}`;

// A worker (served at a path of the page's origin, as its CSP wants) that
// writes the files of /__fixture/world.bin into the origin private file
// system under NAME: [u32 path length, path, u32 size, bytes] per file.
const WRITER = `
onmessage = async ({ data: name }) => {
  const bytes = new Uint8Array(await (await fetch('/__fixture/world.bin')).arrayBuffer());
  const view = new DataView(bytes.buffer);
  const root = await navigator.storage.getDirectory();
  await root.removeEntry(name, { recursive: true }).catch(() => {});
  const top = await root.getDirectoryHandle(name, { create: true });
  const dirs = new Map([['', top]]);
  const decoder = new TextDecoder();
  const files = [];
  for (let at = 0; at < bytes.length; ) {
    const pathLength = view.getUint32(at, true);
    const path = decoder.decode(bytes.subarray(at + 4, at + 4 + pathLength));
    at += 4 + pathLength;
    const size = view.getUint32(at, true);
    files.push({ path, body: bytes.subarray(at + 4, at + 4 + size) });
    at += 4 + size;
  }
  for (const { path } of files) {
    const slash = path.lastIndexOf('/');
    const dirPath = slash < 0 ? '' : path.slice(0, slash);
    if (!dirs.has(dirPath)) dirs.set(dirPath, await top.getDirectoryHandle(dirPath, { create: true }));
  }
  for (const { path, body } of files) {
    const slash = path.lastIndexOf('/');
    const dir = dirs.get(slash < 0 ? '' : path.slice(0, slash));
    const file = await dir.getFileHandle(path.slice(slash + 1), { create: true });
    const handle = await file.createSyncAccessHandle();
    handle.write(body, { at: 0 });
    handle.close();
  }
  postMessage(files.length);
};`;

// Every file under dir as one buffer in the writer's format.
function packWorld(dir) {
  const parts = [];
  const add = (rel) => {
    const path = Buffer.from(rel);
    const body = readFileSync(join(dir, rel));
    const head = Buffer.alloc(4);
    head.writeUInt32LE(path.length);
    const size = Buffer.alloc(4);
    size.writeUInt32LE(body.length);
    parts.push(head, path, size, body);
  };
  add('WorldSettings.jasset');
  for (const name of readdirSync(join(dir, 'Entities'))) add(`Entities/${name}`);
  return Buffer.concat(parts);
}

// The browser's own floor for the same folder, run in the page with no
// inspector code: list every handle, then get and read every file, 64
// in flight. What the open's list and read phases cannot go below.
async function rawRead(name) {
  const top = await (await navigator.storage.getDirectory()).getDirectoryHandle(name);
  const t0 = performance.now();
  const handles = [];
  const walk = async (dir) => {
    for await (const entry of dir.values()) {
      if (entry.kind === 'directory') await walk(entry);
      else handles.push(entry);
    }
  };
  await walk(top);
  const t1 = performance.now();
  let next = 0;
  const readAll = async () => {
    while (next < handles.length) await (await handles[next++].getFile()).arrayBuffer();
  };
  await Promise.all(Array.from({ length: 64 }, readAll));
  return { listMs: t1 - t0, readMs: performance.now() - t1 };
}

let env;
let dir;
before(async () => {
  if (skip) return;
  const base = existsSync('/dev/shm') ? mkdtempSync('/dev/shm/juliet-fsa-') : tempDir('juliet-fsa');
  dir = join(base, NAME);
  runCli('gen', dir, '--count', String(COUNT));
  env = await ui.start();
});
after(async () => {
  await env?.close();
  if (dir) rmSync(join(dir, '..'), { recursive: true, force: true });
});

// The copy alone takes 5 to 8 minutes at 100,000 files on a 2-core machine.
test(`opens a ${COUNT.toLocaleString('en')}-entity folder through File System Access handles`, { skip, timeout: 1_500_000 }, async () => {
  const page = await ui.newPage(env.browser);
  // Where a run that never ends stopped: the copy, the open, or the page.
  page.on('crash', () => console.log('folder-handles: the page crashed'));
  const packed = packWorld(dir);
  await page.route('**/__fixture/world.bin', (route) => route.fulfill({ body: packed, contentType: 'application/octet-stream' }));
  await page.route('**/__fixture/writer.js', (route) => route.fulfill({ body: WRITER, contentType: 'text/javascript' }));
  await page.addInitScript((name) => {
    window.showDirectoryPicker = async () => (await navigator.storage.getDirectory()).getDirectoryHandle(name);
  }, NAME);
  await page.goto(`${env.url}?open=none`);
  const copyStart = Date.now();
  const written = await page.evaluate(
    (name) =>
      new Promise((resolve, reject) => {
        const worker = new Worker('/__fixture/writer.js');
        worker.onmessage = ({ data }) => {
          worker.terminate();
          resolve(data);
        };
        worker.onerror = (e) => reject(new Error(e.message));
        worker.postMessage(name);
      }),
    NAME,
  );
  assert.equal(written, COUNT + 1);
  const copyMs = Date.now() - copyStart;
  console.log(`folder-handles: copied ${written} files in ${copyMs} ms`);

  const t0 = Date.now();
  await page.getByRole('button', { name: 'Open folder' }).click();
  await page
    .waitForFunction(() => performance.getEntriesByName('juliet:open-shown').length > 0, null, { timeout: 600_000, polling: 50 })
    .catch(async (err) => {
      const said = await page
        .evaluate(() => ['[role=progressbar]', '[role=status]', '[role=alert]'].map((q) => document.querySelector(q)?.textContent))
        .catch((e) => e.message);
      console.log(`folder-handles: not shown; the page said ${JSON.stringify(said)}`);
      throw err;
    });
  const wall = Date.now() - t0;
  const { inApp, phases } = await page.evaluate(() => {
    const [start] = performance.getEntriesByName('juliet:open-start');
    const [shown] = performance.getEntriesByName('juliet:open-shown');
    return { inApp: shown.startTime - start.startTime, phases: shown.detail };
  });
  const total = await page.getByLabel('Filter by class').locator('option').first().textContent();
  assert.match(total, new RegExp(`\\(${COUNT.toLocaleString('en')}\\)`));
  await ui.screenshot(page, 'folder-handles-100k');
  const floor = await page.evaluate(rawRead, NAME);
  const figures = {
    entities: COUNT,
    fsa_open_to_shown_ms: Math.round(inApp),
    fsa_click_to_shown_ms: wall,
    fsa_list_files_ms: Math.round(phases.listMs),
    fsa_read_files_ms: Math.round(phases.readMs),
    fsa_engine_load_ms: Math.round(phases.loadMs),
    fsa_columns_ms: Math.round(phases.tableMs),
    fsa_apply_on_page_ms: Math.round(phases.applyMs),
    fixture_copy_ms: copyMs,
    fsa_raw_list_ms: Math.round(floor.listMs),
    fsa_raw_read_ms: Math.round(floor.readMs),
  };
  console.log(`folder open through handles: ${JSON.stringify(figures)}`);
  await ui.closeWithoutErrors(page);
});
