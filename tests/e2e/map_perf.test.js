// The map's redraw time on a 100,000-entity world made by `juliet gen`
// (JULIET_E2E_PERF_COUNT entities): the time one frame of the map takes to
// draw (the canvas's data-draw-ms), framed on the whole world and zoomed
// in, median of repeated zooms. And the 3D view's, as a person waits: from
// the input event to the frame that shows its result, orbiting the whole
// world, picking an entity and editing it, with the longest main-thread
// task and the GPU renderer named. The world is opened as a snapshot file
// (`juliet share`), much faster than 100,000 uploaded files. The map's
// draw time of a frame that selects (its marks kept) and of one after an
// edit (repainted around it) too. Prints the
// figures, asserts none of them; JULIET_E2E_PERF=0 skips the run,
// JULIET_E2E_PERF_DIR=DIR measures an existing world instead.
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { test } from 'node:test';
import { runCli, tempDir } from '../shared/fixtures.js';
import * as ui from './harness.js';

const { PERF_COUNT: COUNT, perfSkip: skip, median } = ui;

// The GPU process draws (SwiftShader): the page's own time is measured
// apart from the renderer's (harness.js, launchChromium).
const perf = ui.usePerfWorld('juliet-map-perf', { gpu: true });

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

// Records each frame the map draws from now on: { painted, ms } (how much
// of its raster it painted, its draw time); returns a function that
// answers them.
async function watchDraws(page) {
  await page.evaluate(() => {
    const canvas = document.querySelector('canvas[aria-label="World map"]');
    window.__draws = [];
    new MutationObserver(() => window.__draws.push({ painted: canvas.dataset.painted, ms: Number(canvas.dataset.drawMs) })).observe(
      canvas,
      {
        attributes: true,
        attributeFilter: ['data-draw-ms'],
      },
    );
  });
  return () => page.evaluate(() => window.__draws);
}

// A page with the perf world open from its snapshot (made once).
let snapshot = null;
async function openLevel() {
  const page = await ui.newPage(perf.env.browser);
  // Opening 100,000 entities takes longer than a step's usual 30 s.
  page.setDefaultTimeout(600_000);
  if (!snapshot) {
    snapshot = join(tempDir('juliet-map-perf'), `level_${COUNT}.snapshot.txt`);
    writeFileSync(snapshot, runCli('share', perf.dir).trim());
  }
  await page.goto(`${perf.env.url}?open=none`);
  await page.getByLabel('Open snapshot file').setInputFiles(snapshot);
  await ui.waitOpen(page);
  return page;
}

test(`map redraw time at ${COUNT.toLocaleString('en')} entities`, { skip, timeout: 600_000 }, async () => {
  const page = await openLevel();
  const map = page.getByRole('img', { name: 'World map' });
  await map.focus();
  await page.keyboard.press('f');
  const framed = await redraws(page, 21);
  await ui.screenshot(page, 'map-perf-framed');
  // Zoomed in: most entities off the picture, bigger marks.
  for (let i = 0; i < 8; i++) await page.keyboard.press('+');
  const zoomed = await redraws(page, 21);
  await ui.screenshot(page, 'map-perf-zoomed');
  // A selection (Enter: the entity nearest the centre) keeps the painted
  // marks; an edit repaints around the entity it changed.
  await page.keyboard.press('f');
  const frames = await watchDraws(page);
  for (let i = 0; i < 5; i++) {
    await map.focus();
    await page.keyboard.press('Enter');
    await page.waitForTimeout(100);
  }
  const ids = await ui.visibleIds(page);
  for (let i = 0; i < 5; i++) await ui.editPosition(page, ids[i], 'X', `${400 + i}.5`);
  const drawsOf = (painted) => frames().then((all) => all.filter((f) => f.painted === painted).map((f) => f.ms));
  const kept = await drawsOf('kept');
  const patched = await drawsOf('around changes');
  const figures = {
    entities: COUNT,
    map_select_draw_ms: +median(kept).toFixed(1),
    map_edit_draw_ms: +median(patched).toFixed(1),
    map_redraw_100k_ms: +median(framed.map((f) => f.ms)).toFixed(1),
    map_redraw_100k_marks: framed[0].marks,
    map_redraw_100k_zoomed_ms: +median(zoomed.map((f) => f.ms)).toFixed(1),
    map_redraw_100k_zoomed_marks: zoomed[0].marks,
  };
  console.log(`map performance: ${JSON.stringify(figures)}`);
  await ui.closeWithoutErrors(page);
});

// A drag of 30 moves from (x, y) with `key` held.
async function drag(page, x, y, key) {
  if (key) await page.keyboard.down(key);
  await page.mouse.move(x, y);
  await page.mouse.down();
  for (let i = 1; i <= 30; i++) await page.mouse.move(x + i * 8, y + (i % 2) * 4);
  await page.mouse.up();
  if (key) await page.keyboard.up(key);
}

// The main thread's time in all its tasks (CDP's TaskDuration: input,
// style, paint, frames, this test's own observers) during a drag (above),
// in ms.
async function busyWhileDragging(page, x, y, key = null) {
  const cdp = await page.context().newCDPSession(page);
  await cdp.send('Performance.enable');
  const busy = async () => (await cdp.send('Performance.getMetrics')).metrics.find((m) => m.name === 'TaskDuration').value;
  const before = await busy();
  await drag(page, x, y, key);
  const ms = ((await busy()) - before) * 1000;
  await cdp.detach();
  return ms;
}

// The page's own script time during a drag (above), in ms: the samples of
// V8's profiler (every 100 us) with one of the page's functions on their
// stack, and those in garbage collection; not the browser's own work
// ("(program)"), idle, or the scripts of this test's tools.
async function scriptWhileDragging(page, x, y, key = null) {
  const origin = new URL(page.url()).origin;
  const cdp = await page.context().newCDPSession(page);
  await cdp.send('Profiler.enable');
  await cdp.send('Profiler.setSamplingInterval', { interval: 100 });
  await cdp.send('Profiler.start');
  await drag(page, x, y, key);
  const { profile } = await cdp.send('Profiler.stop');
  await cdp.detach();
  const byId = new Map(profile.nodes.map((n) => [n.id, n]));
  const parent = new Map();
  for (const n of profile.nodes) for (const child of n.children ?? []) parent.set(child, n.id);
  const own = new Map(); // node id -> whether its stack holds the page's script
  const isOwn = (id) => {
    if (!own.has(id)) {
      const { url, functionName } = byId.get(id).callFrame;
      own.set(id, url.startsWith(origin) || functionName === '(garbage collector)' || (parent.has(id) && isOwn(parent.get(id))));
    }
    return own.get(id);
  };
  let us = 0;
  profile.samples.forEach((id, i) => isOwn(id) && (us += profile.timeDeltas[i]));
  return us / 1000;
}

// busyWhileDragging per move on a page holding only a WebGL2 canvas at
// `box`, cleared to another colour at each frame a move asks for.
async function dragFloor(browser, box) {
  const page = await ui.newPage(browser);
  await page.setContent(`<canvas style="position:absolute; left:${box.x}px; top:${box.y}px;
    width:${box.width}px; height:${box.height}px"></canvas>`);
  await page.evaluate(() => {
    const canvas = document.querySelector('canvas');
    [canvas.width, canvas.height] = [canvas.clientWidth, canvas.clientHeight];
    const gl = canvas.getContext('webgl2');
    let frame = 0;
    canvas.addEventListener('pointermove', () => {
      frame ||= requestAnimationFrame(() => {
        frame = 0;
        gl.clearColor(Math.random(), 0.2, 0.3, 1);
        gl.clear(gl.COLOR_BUFFER_BIT);
      });
    });
  });
  const ms = await busyWhileDragging(page, box.x + box.width / 2, box.y + box.height / 2);
  await page.close();
  return ms / 31; // the move to the start and 30 more, as the view's orbit counts them
}

// The same clicks (a quick one and one held 100 ms) on a page that does
// next to nothing: a WebGL2 canvas at `box`, which a press asks a worker
// for an ID (as the view reads an entity ahead) and a release shows in a
// heading (as the inspector does), clearing the canvas to another colour.
// What this browser's input, worker messages and frames cost a click,
// whatever the page does: median ms of 5 of each.
async function pickFloor(browser, box) {
  const page = await ui.newPage(browser);
  await page.setContent(`<canvas style="position:absolute; left:${box.x}px; top:${box.y}px;
    width:${box.width}px; height:${box.height}px"></canvas><div class="inspector"><h2><code></code></h2></div>`);
  await page.evaluate(() => {
    const canvas = document.querySelector('canvas');
    [canvas.width, canvas.height] = [canvas.clientWidth, canvas.clientHeight];
    const gl = canvas.getContext('webgl2');
    const worker = new Worker(URL.createObjectURL(new Blob(['onmessage = (e) => postMessage(e.data)'])));
    let clicks = 0;
    let read = null;
    canvas.addEventListener('pointerdown', () => {
      const id = `entity-${++clicks}`;
      read = new Promise((resolve) => (worker.onmessage = (e) => resolve(e.data)));
      worker.postMessage(id);
    });
    canvas.addEventListener('pointerup', async () => {
      const id = await read;
      document.querySelector('code').textContent = id;
      requestAnimationFrame(() => {
        gl.clearColor(Math.random(), 0.2, 0.3, 1);
        gl.clear(gl.COLOR_BUFFER_BIT);
      });
    });
  });
  const [x, y] = [box.x + box.width / 2, box.y + box.height / 2];
  const waits = { 0: [], 100: [] };
  for (let i = 1; i <= 10; i++) {
    const held = i % 2 ? 0 : 100;
    await page.waitForTimeout(300);
    const click = await ui.watchInput(page, 'canvas', 'pointerup', `entity-${i}`);
    await page.mouse.click(x, y, { delay: held });
    await page.waitForFunction((want) => document.querySelector('code').textContent === want, `entity-${i}`);
    waits[held].push((await click()).waits[0]);
  }
  await page.close();
  return { quick: median(waits[0]), held: median(waits[100]) };
}

test(`3D view at ${COUNT.toLocaleString('en')} entities: show, orbit, pick and edit`, { skip, timeout: 600_000 }, async () => {
  const page = await openLevel();
  const renderer = await page.evaluate(() => {
    const gl = document.createElement('canvas').getContext('webgl2');
    const info = gl?.getExtension('WEBGL_debug_renderer_info');
    return gl ? gl.getParameter(info ? info.UNMASKED_RENDERER_WEBGL : gl.RENDERER) : 'no WebGL2';
  });
  const shown = Date.now();
  await page.getByRole('button', { name: '3D', exact: true }).click();
  await page.locator('canvas.viewport[aria-busy="false"]').waitFor();
  const showMs = Date.now() - shown;
  const canvas = page.getByRole('img', { name: '3D view of the world' });
  const box = await canvas.boundingBox();
  const [cx, cy] = [box.x + box.width / 2, box.y + box.height / 2];

  // Orbiting: an Alt+drag across the view, 30 moves (each drawn in a frame
  // of its own): the view's own time per frame (data-draw-ms), and the main
  // thread's time in all tasks meanwhile per move, beside the same on a
  // page that does next to nothing (the floor).
  const orbit = await ui.watchInput(page, 'canvas.viewport', 'pointermove');
  const busyMs = await busyWhileDragging(page, cx, cy, 'Alt');
  const orbited = await orbit();
  // Of which the page's own script (the view's handlers and drawing), in
  // the same drag again.
  const scriptMs = await scriptWhileDragging(page, cx, cy, 'Alt');
  // The same drag over a page that only clears a WebGL2 canvas of the
  // view's size each frame: what this browser's input and frame machinery
  // cost the main thread per move, whatever the page does.
  const floorMs = await dragFloor(perf.env.browser, box);
  await ui.screenshot(page, 'viewport-perf-orbited');

  // Picking: clicks on 5 entities, each from the click's release to the
  // frame after the inspector shows it. Each is framed first (F), so it
  // lies in the middle, and the selection cleared. Each is clicked three
  // ways: as a hand does, the pointer resting on it a moment before a
  // quick click; and the pointer arriving with the click (from the list),
  // released right after the press or held 100 ms.
  const ids = await ui.visibleIds(page);
  const picks = { rested: [], arriving: [], held: [] };
  let longestPickTask = 0;
  for (const id of ids.slice(0, 5)) {
    for (const way of Object.keys(picks)) {
      await ui.selectEntity(page, id);
      await canvas.focus();
      await page.keyboard.press('f');
      await page.keyboard.press('Escape'); // nothing selected: the click shows it
      await page.waitForFunction(() => !document.querySelector('.inspector h2 code'));
      if (way === 'rested') await page.mouse.move(cx, cy);
      await page.waitForTimeout(600); // a look at the view before the click: the shapes up close are drawn
      const pick = await ui.watchInput(page, 'canvas.viewport', 'pointerup', id);
      await page.mouse.click(cx, cy, { delay: way === 'held' ? 100 : 0 });
      await page.waitForFunction((want) => document.querySelector('.inspector h2 code')?.textContent.trim() === want, id);
      const { waits, longestTask } = await pick();
      picks[way].push(waits[0]);
      longestPickTask = Math.max(longestPickTask, longestTask);
    }
  }
  const pickFloorMs = await pickFloor(perf.env.browser, box);
  // Editing: Position X of the last entity picked, committed, 5 times
  // each way: after a moment, as a person types the next value (the view
  // at rest), and back to back (the view still drawing the last).
  const edits = { rested: [], backToBack: [] };
  for (let i = 0; i < 5; i++) {
    await page.waitForTimeout(600);
    edits.rested.push(await ui.editX(page, 100.5 + i, 'canvas.viewport'));
  }
  for (let i = 0; i < 5; i++) edits.backToBack.push(await ui.editX(page, 110.5 + i, 'canvas.viewport'));

  // How the view drew the last edit: 'around' its old and new places, or
  // the level 'anew'.
  const editDrawn = await canvas.getAttribute('data-level');

  // Everything selected, counted as every count is (thousands separated).
  await canvas.focus();
  await page.keyboard.press('Control+a');
  await page.getByRole('heading', { name: /^\d{1,3}(,\d{3})+ entities selected$/ }).waitFor();

  const figures = {
    entities: COUNT,
    renderer,
    viewport_show_ms: showMs,
    viewport_orbit_event_to_frame_ms: +median(orbited.waits).toFixed(1),
    viewport_orbit_frame_ms: +median(orbited.intervals).toFixed(1),
    viewport_orbit_draw_ms: +median(orbited.draws).toFixed(1),
    viewport_orbit_main_thread_ms_per_move: +(busyMs / orbited.waits.length).toFixed(1),
    viewport_orbit_main_thread_floor_ms_per_move: +floorMs.toFixed(1),
    viewport_orbit_script_ms_per_move: +(scriptMs / orbited.waits.length).toFixed(1),
    viewport_orbit_longest_task_ms: +orbited.longestTask.toFixed(1),
    viewport_pick_ms: +median(picks.rested).toFixed(1),
    viewport_pick_arriving_ms: +median(picks.arriving).toFixed(1),
    viewport_pick_held_ms: +median(picks.held).toFixed(1),
    viewport_pick_floor_ms: +pickFloorMs.quick.toFixed(1),
    viewport_pick_held_floor_ms: +pickFloorMs.held.toFixed(1),
    viewport_pick_longest_task_ms: +longestPickTask.toFixed(1),
    viewport_edit_ms: +median(edits.rested.map((e) => e.ms)).toFixed(1),
    viewport_edit_back_to_back_ms: +median(edits.backToBack.map((e) => e.ms)).toFixed(1),
    viewport_edit_longest_task_ms: Math.round(Math.max(...[...edits.rested, ...edits.backToBack].map((e) => e.longest))),
    viewport_edit_level_drawn: editDrawn,
  };
  console.log(`3D view performance: ${JSON.stringify(figures)}`);
  await ui.closeWithoutErrors(page);
});
