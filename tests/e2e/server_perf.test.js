// Performance of a world served by the local server (`npm start -- DIR`) on
// a 100,000-entity world made by `juliet gen`, in Chromium. Prints:
//   server_open_100k_ms  from the page starting to load (navigation start)
//                        to its list and map showing the whole world;
//   list_*_to_inspector_ms  from a click or key (its input event) to the
//                        frame showing the entity in the inspector;
//   edit_to_pending_and_map_ms  from an edit's change event until the
//                        inspector, Pending changes and the map show it;
//   server_save_one_ms   from Save to one edited entity saved on disk
//                        (median of several saves; the first one apart);
// and the server's own start: its address (printed at once), reading the
// files (a page waits for them) and opening the world in its engine (before
// it can save: from the files read, and the open itself in the engine's
// thread), with the memory of the server's process (when its engine is
// ready, after the saves, and its peak) and of the page's (harness.js
// tabsRssMb). The server runs as `npm start` runs it, in its own process,
// and the page is opened as soon as it prints its address, as a user
// would, while the server reads and its engine opens: start_to_page_ms is
// from starting the server's process to the page showing the world (`npm
// start` adds its build check, 0.2 s).
// JULIET_E2E_PERF=0 skips the run, JULIET_E2E_PERF_DIR=DIR measures an
// existing world (a copy of it: saves write into the world).
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { cpSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { after, before, test } from 'node:test';
import { repo, runCli } from '../shared/fixtures.js';
import * as ui from './harness.js';
import { readEntity } from './worldServer.js';

const { PERF_COUNT: COUNT, perfGiven: given, perfSkip: skip, median } = ui;
const SAVES = 7;
const PICKS = 5;

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
  server = startMain(dir);
  const address = await server.printed(/(http:\/\/127\.0\.0\.1:\d+\/\?token=\S+)/);
  server.url = address.match[1];
  startup.server_address_ms = address.at - startup.startedAt;
  server.printed(/read [\d,]+ files in \d+ ms/).then(
    ({ at }) => {
      startup.server_read_files_ms = at - startup.startedAt;
    },
    () => {}, // the test fails on server.ready
  );
  server.ready = server.printed(/ready to save \(([\d,]+) entities opened in (\d+) ms\)/).then(({ at, match }) => {
    startup.server_engine_open_ms = at - startup.startedAt - startup.server_read_files_ms;
    return { count: Number(match[1].replaceAll(',', '')), ms: Number(match[2]) };
  });
});
after(async () => {
  await browser?.close();
  if (server) {
    server.child.kill('SIGTERM');
    await ui.withDeadline(server.exited, 30_000, 'stopping the local server');
  }
  if (base) rmSync(base, { recursive: true, force: true });
  ui.watchExit();
});

// The local server as `npm start` runs it after its build check, in its own
// process: nothing of this test's (the browser's control among it) waits
// for the server's thread, as nothing of a user's browser does. Each line
// it prints is kept with when it came: printed(pattern) resolves with the
// first matching one, { at, match }.
function startMain(worldDir) {
  const child = spawn(process.execPath, [join(repo, 'web/server/main.js'), worldDir, '--port', '0'], {
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  const lines = [];
  let rest = '';
  const exited = new Promise((resolve) => child.on('exit', resolve));
  child.stdout.setEncoding('utf8');
  child.stdout.on('data', (chunk) => {
    const at = Date.now();
    const parts = (rest + chunk).split('\n');
    rest = parts.pop();
    for (const text of parts) lines.push({ at, text });
    child.stdout.emit('lines');
  });
  const printed = (pattern) =>
    new Promise((resolve, reject) => {
      const check = () => {
        const line = lines.find((l) => pattern.test(l.text));
        if (line) resolve({ at: line.at, match: pattern.exec(line.text) });
        return Boolean(line);
      };
      if (check()) return;
      const listener = () => check() && child.stdout.off('lines', listener);
      child.stdout.on('lines', listener);
      exited.then(() => reject(new Error(`the server stopped:\n${lines.map((l) => l.text).join('\n')}`)));
    });
  return { child, exited, printed };
}

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
  const ready = await server.ready;
  assert.equal(ready.count, COUNT, 'the server engine opened every entity');
  const atReady = ui.processMemoryMb(server.child.pid);
  // The list and the map show the whole world.
  await ui.waitOpen(page);
  const total = await page.getByLabel('Filter by class').locator('option').first().textContent();
  assert.equal(total, `All classes (${COUNT.toLocaleString('en')})`);
  assert.ok(await page.getByRole('img', { name: 'World map' }).evaluate((el) => el.dataset.revision !== undefined));
  await ui.screenshot(page, 'server-perf-100k');
  const tabRss = ui.tabsRssMb();

  // Picking in the list, as a person waits: a click on a row, then the
  // down arrow to the next one, each from its input event to the frame
  // after the inspector shows that entity; then an edit of Position X,
  // until the inspector, Pending changes and the map show it.
  const list = '[role=tree]';
  const ids = await ui.visibleIds(page);
  const picks = { click: [], arrow: [], longest: 0 };
  for (let i = 0; i < PICKS; i++) {
    for (const [way, id] of [
      ['click', ids[2 * i]],
      ['arrow', ids[2 * i + 1]],
    ]) {
      await page.waitForTimeout(300); // a look before the next input
      const watch = await ui.watchInput(page, list, way === 'click' ? 'pointerup' : 'keydown', id);
      if (way === 'click') await ui.option(page, id).click();
      else await page.keyboard.press('ArrowDown');
      await page.waitForFunction((want) => document.querySelector('.inspector h2 code')?.textContent.trim() === want, id);
      const { waits, longestTask } = await watch();
      picks[way].push(waits[0]);
      picks.longest = Math.max(picks.longest, longestTask);
    }
  }
  const edits = [];
  for (let i = 0; i < PICKS; i++) {
    await page.waitForTimeout(300);
    edits.push(await ui.editX(page, 300.5 + i, 'canvas[aria-label="World map"]'));
  }

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
  // The server while a user edits and saves.
  const afterSaves = ui.processMemoryMb(server.child.pid);
  const figures = {
    entities: COUNT,
    server_open_100k_ms: Math.round(shown),
    list_click_to_inspector_ms: +median(picks.click).toFixed(1),
    list_arrow_to_inspector_ms: +median(picks.arrow).toFixed(1),
    list_pick_longest_task_ms: Math.round(picks.longest),
    edit_to_pending_and_map_ms: +median(edits.map((e) => e.ms)).toFixed(1),
    edit_longest_task_ms: Math.round(Math.max(...edits.map((e) => e.longest))),
    server_save_one_ms: Math.round(median(saves.slice(1))),
    server_save_first_ms: Math.round(saves[0]),
    page_start_ms: Math.round(start),
    open_in_app_ms: Math.round(phases.engineMs),
    open_worker_boot_ms: Math.round(phases.bootMs),
    open_first_byte_ms: Math.round(phases.firstByteMs),
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
    server_rss_mb: atReady.rss,
    server_rss_after_saves_mb: afterSaves.rss,
    server_peak_rss_mb: afterSaves.peak,
  };
  console.log(`server performance: ${JSON.stringify(figures)}`);
  await ui.closeWithoutErrors(page);
});
