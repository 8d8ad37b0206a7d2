// The map's redraw time on a 100,000-entity world made by `juliet gen`
// (JULIET_E2E_PERF_COUNT entities): the time one frame of the map takes to
// draw (the canvas's data-draw-ms), framed on the whole world and zoomed
// in, median of repeated zooms. The world is opened as a snapshot file
// (`juliet share`), much faster than 100,000 uploaded files. Prints the
// figures, asserts none of them; JULIET_E2E_PERF=0 skips the run,
// JULIET_E2E_PERF_DIR=DIR measures an existing world instead.
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { test } from 'node:test';
import { runCli, tempDir } from '../shared/fixtures.js';
import * as ui from './harness.js';

const { PERF_COUNT: COUNT, perfSkip: skip, median } = ui;

const perf = ui.usePerfWorld('juliet-map-perf');

// Zooms in and out `times` times by keyboard and returns each drawn
// frame's draw time and how the marks were drawn.
async function redraws(page, times) {
  return page.evaluate(async (n) => {
    const canvas = document.querySelector('canvas[aria-label="World map"]');
    const frame = () => new Promise((r) => requestAnimationFrame(() => requestAnimationFrame(r)));
    const out = [];
    for (let i = 0; i < n; i++) {
      const key = i % 2 ? '-' : '+';
      canvas.dispatchEvent(new KeyboardEvent('keydown', { key, bubbles: true }));
      await frame();
      out.push({ ms: Number(canvas.dataset.drawMs), marks: canvas.dataset.marks });
    }
    return out;
  }, times);
}

test(`map redraw time at ${COUNT.toLocaleString('en')} entities`, { skip, timeout: 600_000 }, async () => {
  const page = await ui.newPage(perf.env.browser);
  // Opening 100,000 files takes longer than a step's usual 30 s.
  page.setDefaultTimeout(600_000);
  const snapshot = join(tempDir('juliet-map-perf'), `level_${COUNT}.snapshot.txt`);
  writeFileSync(snapshot, runCli('share', perf.dir).trim());
  await page.goto(`${perf.env.url}?open=none`);
  await page.getByLabel('Open snapshot file').setInputFiles(snapshot);
  await ui.waitOpen(page);
  const map = page.getByRole('img', { name: 'World map' });
  await map.focus();
  await page.keyboard.press('f');
  const framed = await redraws(page, 21);
  await ui.screenshot(page, 'map-perf-framed');
  // Zoomed in: most entities off the picture, bigger marks.
  for (let i = 0; i < 8; i++) await page.keyboard.press('+');
  const zoomed = await redraws(page, 21);
  await ui.screenshot(page, 'map-perf-zoomed');
  const figures = {
    entities: COUNT,
    map_redraw_100k_ms: +median(framed.map((f) => f.ms)).toFixed(1),
    map_redraw_100k_marks: framed[0].marks,
    map_redraw_100k_zoomed_ms: +median(zoomed.map((f) => f.ms)).toFixed(1),
    map_redraw_100k_zoomed_marks: zoomed[0].marks,
  };
  console.log(`map performance: ${JSON.stringify(figures)}`);
  await ui.closeWithoutErrors(page);
});
