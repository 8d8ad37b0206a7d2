// Performance of the inspector on a 100,000-entity world made by
// `juliet gen`: the time from choosing the folder to the list and map being
// shown, and the time for one edit to show in the list, the map and the
// inspector. Prints the figures; JULIET_E2E_PERF=0 skips the run, and
// JULIET_E2E_PERF_DIR=DIR measures an existing world instead.
import assert from 'node:assert/strict';
import { statSync } from 'node:fs';
import { join } from 'node:path';
import { test } from 'node:test';
import { tempDir } from '../shared/fixtures.js';
import * as ui from './harness.js';

const { PERF_COUNT: COUNT, perfGiven: given, perfSkip: skip, median } = ui;

const perf = ui.usePerfWorld('juliet-perf');

test(`opens and edits a ${COUNT.toLocaleString('en')}-entity world`, { skip, timeout: 600_000 }, async () => {
  const page = await ui.newPage(perf.env.browser);
  await page.goto(`${perf.env.url}?open=none`);

  // The longest gap between two frames while the world opens: the page
  // must stay responsive.
  await page.evaluate(() => {
    window.__frames = { last: performance.now(), longest: 0, count: 0 };
    const tick = (now) => {
      const f = window.__frames;
      // From the moment the app starts opening (the browser's own work on
      // the chosen folder comes before).
      const [start] = performance.getEntriesByName('juliet:open-start');
      const gap = start ? now - Math.max(f.last, start.startTime) : 0;
      if (gap > f.longest) {
        f.longest = gap;
        f.during = document.querySelector('.progress')?.textContent ?? 'after loading';
      }
      f.last = now;
      f.count++;
      if (!performance.getEntriesByName('juliet:open-shown').length) requestAnimationFrame(tick);
    };
    requestAnimationFrame(tick);
  });
  const t0 = Date.now();
  // Chromium lists the 100,000 chosen files before the page sees them.
  await page.getByLabel('Upload folder').setInputFiles(perf.dir, { timeout: 600_000 });
  await page
    .getByRole('status')
    .filter({ hasText: /Reading files [\d,]+ \/ / })
    .waitFor({ timeout: 600_000 });
  await ui.screenshot(page, 'perf-100k-progress');
  await page.waitForFunction(() => performance.getEntriesByName('juliet:open-shown').length > 0, null, {
    timeout: 600_000,
    polling: 50,
  });
  const wall = Date.now() - t0;
  const { inApp, phases, frames } = await page.evaluate(() => {
    const [start] = performance.getEntriesByName('juliet:open-start');
    const [shown] = performance.getEntriesByName('juliet:open-shown');
    return { inApp: shown.startTime - start.startTime, phases: shown.detail, frames: window.__frames };
  });
  await ui.waitOpen(page);
  const total = await page.getByLabel('Filter by class').locator('option').first().textContent();
  assert.match(total, new RegExp(`\\(${COUNT.toLocaleString('en')}\\)`));
  // Only the rows in view are in the DOM.
  assert.ok((await ui.entityOptions(page).count()) < 100);
  await ui.screenshot(page, 'perf-100k');

  // Scrolling the list: frames while jumping through it.
  const scroll = await page.evaluate(async () => {
    const list = document.querySelector('[role=listbox]');
    const times = [];
    for (let i = 0; i < 60; i++) {
      const t = performance.now();
      list.scrollTop = (list.scrollHeight * i) / 60;
      await new Promise((r) => requestAnimationFrame(() => requestAnimationFrame(r)));
      times.push(performance.now() - t);
    }
    list.scrollTop = 0;
    return times;
  });

  await ui.entityOptions(page).nth(3).click();
  await page.waitForSelector('#position-X');

  // One edit: commit a new Position X and wait until the list row, the
  // inspector and the map (its next drawn frame) show it.
  const edits = [];
  for (let i = 0; i < 9; i++) {
    edits.push(
      await page.evaluate(async (value) => {
        // Each edit starts on a settled page, as a typed one does: two frames on.
        await new Promise((r) => requestAnimationFrame(() => requestAnimationFrame(r)));
        const id = document.querySelector('.inspector h2 code').textContent;
        const input = document.getElementById('position-X');
        const canvas = document.querySelector('canvas[aria-label="World map"]');
        const revision = canvas.dataset.revision;
        const text = value.toFixed(1);
        // Tasks over 50 ms while the edit shows: what could hold a frame back.
        const longTasks = [];
        const watch = new PerformanceObserver((list) => longTasks.push(...list.getEntries()));
        watch.observe({ type: 'longtask' });
        input.value = String(value);
        input.dispatchEvent(new Event('input', { bubbles: true }));
        const t0 = performance.now();
        input.dispatchEvent(new Event('change', { bubbles: true }));
        let dom = 0;
        // Checked after every DOM change (a MutationObserver runs as a
        // microtask after it), so the times are not rounded to a timer.
        await new Promise((resolve) => {
          const check = () => {
            const row = document.getElementById(`entity-${id}`);
            const listShows = row && row.querySelector('.pos').textContent.startsWith(text);
            const inspectorShows = document.getElementById('position-X').value === String(value);
            if (listShows && inspectorShows && !dom) dom = performance.now() - t0;
            if (dom && canvas.dataset.revision !== revision) {
              observer.disconnect();
              resolve();
            }
          };
          const observer = new MutationObserver(check);
          observer.observe(document.body, { subtree: true, childList: true, characterData: true, attributes: true });
          check();
        });
        const drawn = performance.now() - t0;
        longTasks.push(...watch.takeRecords());
        watch.disconnect();
        const longest = Math.max(0, ...longTasks.filter((e) => e.startTime + e.duration >= t0).map((e) => e.duration));
        return { dom, drawn, drawMs: Number(canvas.dataset.drawMs), longest };
      }, 100.5 + i),
    );
  }
  await ui.screenshot(page, 'perf-100k-edit');

  // A level this big does not fit in a link: Share offers a snapshot file,
  // which opens the same level again.
  await page.getByRole('button', { name: 'Share', exact: true }).click();
  const tooLong = page.getByRole('region', { name: 'Share link' }).getByRole('alert');
  await tooLong.waitFor({ timeout: 60_000 });
  assert.match(await tooLong.textContent(), /more than a browser accepts/);
  const download = page.waitForEvent('download');
  await page.getByRole('button', { name: 'Download snapshot' }).click();
  const file = await download;
  const snapshotPath = join(given ? tempDir() : join(perf.dir, '..'), `level_${COUNT}.snapshot.txt`);
  await file.saveAs(snapshotPath);
  page.once('dialog', (dialog) => dialog.accept()); // discard the edits above
  const t1 = Date.now();
  await page.getByLabel('Open snapshot file').setInputFiles(snapshotPath);
  await page
    .getByRole('status')
    .filter({ hasText: `Opened level_${COUNT}.snapshot.txt: ${COUNT.toLocaleString('en')} entities` })
    .waitFor({ timeout: 120_000 });
  const snapshotOpenMs = Date.now() - t1;
  const figures = {
    entities: COUNT,
    open_to_shown_ms: Math.round(inApp),
    open_read_files_ms: Math.round(phases.readMs),
    open_engine_load_ms: Math.round(phases.loadMs),
    open_columns_ms: Math.round(phases.tableMs),
    open_apply_on_page_ms: Math.round(phases.applyMs),
    open_longest_frame_ms: Math.round(frames.longest),
    open_longest_frame_during: frames.during,
    choose_folder_to_shown_ms: wall,
    list_scroll_frame_median_ms: +median(scroll).toFixed(1),
    edit_to_list_and_inspector_ms: +median(edits.map((e) => e.dom)).toFixed(1),
    edit_to_map_drawn_ms: +median(edits.map((e) => e.drawn)).toFixed(1),
    map_redraw_ms: +median(edits.map((e) => e.drawMs)).toFixed(1),
    edit_longest_task_ms: Math.round(Math.max(...edits.map((e) => e.longest))),
    snapshot_file_chars: statSync(snapshotPath).size,
    snapshot_file_open_ms: snapshotOpenMs,
  };
  console.log(`inspector performance: ${JSON.stringify(figures)}`);
  await ui.closeWithoutErrors(page);
});
