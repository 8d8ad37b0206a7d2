// The 3D viewport's main flows in Firefox (Debian's firefox-esr driven by
// puppeteer-core over WebDriver BiDi, on a local server's copy of the
// sample): it draws with WebGL2, the views switch by button and key, F
// frames the selection where a click picks it, and a drag of the move gizmo
// is one edit that Ctrl+Z undoes. Headless Firefox has no WebGL here, so it
// runs on an Xvfb display of its own (Mesa's llvmpipe renders).
import assert from 'node:assert/strict';
import { test } from 'node:test';
import * as ff from './firefox.js';
import * as ui from './harness.js';
import { until } from './worldServer.js';

const env = ff.useFirefox({ display: true });
const LIGHT = '0x77a31d7500000002';
const CANVAS = 'canvas.viewport';

// The sample served, with the 3D view shown and drawn once.
async function open3d() {
  const { page } = await ff.openServed(env.browser);
  await ff.clickButton(page, '3D');
  await until(page, (sel) => document.querySelector(sel)?.getAttribute('aria-busy') === 'false', CANVAS, { what: 'the 3D view' });
  return page;
}

const pressedView = (page) => page.$eval('[aria-label="View"] button[aria-pressed="true"]', (b) => b.textContent.trim());

async function canvasCentre(page) {
  const box = await (await page.$(CANVAS)).boundingBox();
  return [box.x + box.width / 2, box.y + box.height / 2];
}

// Focuses the canvas and presses `key` there.
async function pressOnCanvas(page, key) {
  await page.focus(CANVAS);
  await page.keyboard.press(key);
}

// How many pixels of the canvas differ from its background, counted as
// viewport.test.js counts them.
async function drawnPixels(page) {
  const data = await (await page.$(CANVAS)).screenshot({ encoding: 'base64' });
  return page.evaluate(ui.countDrawnPixels, { data });
}

// The inspector's position as numbers [x, y, z].
const inspectedPosition = (page) => page.$$eval('#position-X, #position-Y, #position-Z', (inputs) => inputs.map((i) => Number(i.value)));

test('Firefox: the 3D view draws the level with WebGL2', async () => {
  const page = await open3d();
  // A canvas with a WebGL context answers null to a 2D one.
  assert.equal(await page.$eval(CANVAS, (c) => c.getContext('2d')), null);
  // It hands its own context back to a WebGL2 request: that is its kind.
  const renderer = await page.$eval(CANVAS, (c) => {
    const gl = c.getContext('webgl2');
    const info = gl?.getExtension('WEBGL_debug_renderer_info');
    return gl && gl.getParameter(info ? info.UNMASKED_RENDERER_WEBGL : gl.RENDERER);
  });
  assert.ok(renderer, 'the canvas draws with WebGL2');
  console.log(`Firefox's WebGL2 renderer: ${renderer}`);
  assert.ok((await drawnPixels(page)) > 200, 'the markers and the grid are drawn');
  await ff.closeWithoutErrors(page);
});

test('Firefox: views switch by button and by key, each pressed in turn', async () => {
  const page = await open3d();
  assert.equal(await pressedView(page), 'Perspective');
  await ff.clickButton(page, 'Top');
  assert.equal(await pressedView(page), 'Top');
  for (const [key, view] of [
    ['1', 'Front'],
    ['3', 'Side'],
    ['7', 'Top'],
    ['5', 'Perspective'],
  ]) {
    await pressOnCanvas(page, key);
    await until(page, (want) => document.querySelector('[aria-label="View"] button[aria-pressed="true"]')?.textContent === want, view, {
      what: `the ${view} view after ${key}`,
    });
  }
  assert.ok((await drawnPixels(page)) > 200);
  await ff.closeWithoutErrors(page);
});

test('Firefox: F frames the selected entity in the middle of the view, where a click picks it', async () => {
  const page = await open3d();
  for (const view of ['Perspective', 'Top']) {
    await ff.clickButton(page, view);
    await ff.selectEntity(page, LIGHT);
    await pressOnCanvas(page, 'f');
    await pressOnCanvas(page, 'Escape'); // nothing selected: the click takes it
    await until(page, () => !document.querySelector('.inspector h2 code'), null, { what: `${view}: the selection cleared` });
    await page.mouse.click(...(await canvasCentre(page)));
    await ff.waitInspected(page, LIGHT, `${view}: the framed entity picked`);
  }
  await ff.closeWithoutErrors(page);
});

test('Firefox: a drag of the move gizmo moves the selection as one edit, on the grid with Snap, and undoes at once', async () => {
  const page = await open3d();
  await page.click('input[aria-label="Snap to grid"]');
  await page.locator('input[aria-label="Snap step"]').fill('5');
  await ff.clickButton(page, 'Top');
  await ff.selectEntity(page, LIGHT);
  const before = await inspectedPosition(page);
  await pressOnCanvas(page, 'f');
  // The gizmo's centre handle sits on the framed entity, in the middle.
  const [cx, cy] = await canvasCentre(page);
  await page.mouse.move(cx, cy);
  await page.mouse.down();
  for (let i = 1; i <= 8; i++) await page.mouse.move(cx + i * 12, cy);
  await page.mouse.up();
  await ff.waitUnsaved(page, LIGHT);
  const after = await inspectedPosition(page);
  assert.ok(after[0] > before[0], `moved right (+X): ${before} -> ${after}`);
  for (const v of after) assert.ok(v % 5 === 0, `${after} on the 5-unit grid`);
  for (let axis = 1; axis < 3; axis++) assert.ok(Math.abs(after[axis] - before[axis]) <= 2.5, `${after}: only snapped on the other axes`);
  const pending = await until(
    page,
    () => document.querySelector('section.pending[aria-busy="false"]')?.querySelectorAll('.review > li').length,
    null,
    { what: 'the review of the pending change' },
  );
  assert.equal(pending, 1, 'one pending entity');

  await page.keyboard.down('Control');
  await page.keyboard.press('z');
  await page.keyboard.up('Control');
  await until(page, () => document.querySelector('[aria-label="Pending changes"] .count')?.textContent === '0', null, { what: 'the undo' });
  assert.deepEqual(await inspectedPosition(page), before);
  await ff.closeWithoutErrors(page);
});
