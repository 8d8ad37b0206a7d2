// Performance of a world served by the local server (`npm start -- DIR`) on
// a 100,000-entity world made by `juliet gen`, in Chromium. Prints:
//   server_open_100k_ms  from the page starting to load (navigation start)
//                        to its list and map showing the whole world;
//   server_save_one_ms   from Save to one edited entity saved on disk
//                        (median of several saves; the first one apart);
// and the server's own start: its address (printed at once), reading the
// files (a page waits for them) and opening the world in its engine (before
// it can save: from the files read, and the open itself in the engine's
// thread), with the memory of the server's process (this one: when its
// engine is ready, its peak, and after the saves) and of the page's
// (harness.js tabsRssMb). The page is opened as soon as the address is
// there, as a user would, while the server reads and its engine opens:
// start_to_page_ms is from starting the server to the page showing the
// world (`npm start` adds Node's start and its build check).
// JULIET_E2E_PERF=0 skips the run, JULIET_E2E_PERF_DIR=DIR measures an
// existing world (a copy of it: saves write into the world).
import assert from 'node:assert/strict';
import { cpSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { after, before, test } from 'node:test';
import { startServer } from '../../web/server/server.js';
import { repo, runCli } from '../shared/fixtures.js';
import * as ui from './harness.js';
import { readEntity } from './worldServer.js';

const { PERF_COUNT: COUNT, perfGiven: given, perfSkip: skip, median } = ui;
const SAVES = 7;

let base;
let dir;
let server;
let browser;
const startup = {};
before(async () => {
  if (skip) return;
  base = ui.perfBase('juliet-server-perf');
  dir = join(base, `world_${COUNT}`);
  if (given) cpSync(given, dir, { recursive: true });
  else runCli('gen', dir, '--count', String(COUNT));
  await ui.ensureBuilt();
  browser = await ui.launchChromium();
  startup.startedAt = Date.now();
  server = await startServer({ dir, distDir: join(repo, 'web/dist') });
  startup.server_address_ms = Date.now() - startup.startedAt;
  server.loaded.then(() => {
    startup.server_read_files_ms = Date.now() - startup.startedAt;
  });
  server.engineReady.then(() => {
    startup.server_engine_open_ms = Date.now() - startup.startedAt - startup.server_read_files_ms;
  });
});
after(async () => {
  await browser?.close();
  await server?.close();
  if (base) rmSync(base, { recursive: true, force: true });
  ui.watchExit();
});

test(`a served ${COUNT.toLocaleString('en')}-entity world opens, and one edit saves to disk`, { skip, timeout: 900_000 }, async () => {
  const page = await ui.newPage(browser);
  await page.goto(server.url);
  await page.waitForFunction(() => performance.getEntriesByName('juliet:open-shown').length > 0, null, {
    timeout: 300_000,
    polling: 50,
  });
  const { shown, shownAt, start, phases } = await page.evaluate(() => {
    const [mark] = performance.getEntriesByName('juliet:open-shown');
    const [begin] = performance.getEntriesByName('juliet:open-start');
    return { shown: mark.startTime, shownAt: performance.timeOrigin + mark.startTime, start: begin.startTime, phases: mark.detail };
  });
  const ready = await server.engineReady;
  assert.equal(ready.count, COUNT, 'the server engine opened every entity');
  const serverRss = Math.round(process.memoryUsage().rss / 2 ** 20);
  const serverPeakRss = ui.peakRssMb();
  // The list and the map show the whole world.
  await ui.waitOpen(page);
  const total = await page.getByLabel('Filter by class').locator('option').first().textContent();
  assert.equal(total, `All classes (${COUNT.toLocaleString('en')})`);
  assert.ok(await page.getByRole('img', { name: 'World map' }).evaluate((el) => el.dataset.revision !== undefined));
  await ui.screenshot(page, 'server-perf-100k');
  const tabRss = ui.tabsRssMb();

  // One edit, then Save, timed in the page until it reports the save.
  const saves = [];
  for (let i = 0; i < SAVES; i++) {
    const id = (await ui.visibleIds(page))[i];
    const x = `${200 + i}.5`;
    await ui.editPosition(page, id, 'X', x);
    saves.push(
      await page.evaluate(async () => {
        const status = document.querySelector('[role=status]');
        const save = document.querySelector('button[aria-keyshortcuts="Control+S"]');
        const t0 = performance.now();
        save.click();
        // The last save's report goes first, then this one's comes.
        let cleared = false;
        await new Promise((resolve) => {
          const check = () => {
            if (!status.textContent.startsWith('Saved ')) cleared = true;
            if (!cleared || !status.textContent.startsWith('Saved ')) return;
            observer.disconnect();
            resolve();
          };
          const observer = new MutationObserver(check);
          observer.observe(status, { subtree: true, childList: true, characterData: true });
          check();
        });
        return performance.now() - t0;
      }),
    );
    assert.match(readEntity(dir, id), new RegExp(`; position\\n${x.replace('.', '\\.')} `));
  }
  // The server while a user edits and saves, its start's garbage gone.
  const serverRssEditing = Math.round(process.memoryUsage().rss / 2 ** 20);
  const figures = {
    entities: COUNT,
    server_open_100k_ms: Math.round(shown),
    server_save_one_ms: Math.round(median(saves.slice(1))),
    server_save_first_ms: Math.round(saves[0]),
    page_start_ms: Math.round(start),
    open_in_app_ms: Math.round(phases.engineMs),
    open_worker_boot_ms: Math.round(phases.bootMs),
    open_download_and_load_ms: Math.round(phases.loadMs),
    open_load_files_ms: Math.round(phases.filesMs),
    open_references_ms: Math.round(phases.referencesMs),
    open_columns_ms: Math.round(phases.tableMs),
    open_apply_on_page_ms: Math.round(phases.applyMs),
    start_to_page_ms: Math.round(shownAt - startup.startedAt),
    tab_rss_mb: tabRss.tab,
    renderers_rss_mb: tabRss.all,
    server_address_ms: startup.server_address_ms,
    server_read_files_ms: startup.server_read_files_ms,
    server_engine_open_ms: startup.server_engine_open_ms,
    server_engine_thread_ms: ready.ms, // the open itself, in the engine's thread
    server_rss_mb: serverRss,
    server_peak_rss_mb: serverPeakRss,
    server_rss_after_saves_mb: serverRssEditing,
  };
  console.log(`server performance: ${JSON.stringify(figures)}`);
  await ui.closeWithoutErrors(page);
});
