// Browser tests of the map as a level designer uses it: a grid whose step
// (1, 2 or 5 x 10^n world units) follows the zoom, the cursor's world
// coordinates, a tooltip naming the entity under the cursor, lights in their
// own colour with their reach, references as lines, the top (X/Z) and front
// (X/Y) views, marks that turn into a density picture when crowded, the
// splitters beside the map, and moving the selection by keyboard.
import assert from 'node:assert/strict';
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { test } from 'node:test';
import { assets, copyWorld, runCli, sampleWorld, tempDir } from '../shared/fixtures.js';
import * as ui from './harness.js';

const env = ui.useInspector();
const gameWorld = join(assets, 'game_world');
const BOSS = '0x6e89010142120005'; // Enemy named "Brute"

const { mapOf } = ui;
const mapPane = (page) => page.getByRole('region', { name: 'Map' });

// Every entity of a world folder: { id: { class, position, fields } } read
// from its files (each key's value is the line after "; key").
function entitiesOf(dir) {
  const out = {};
  for (const name of readdirSync(join(dir, 'Entities'))) {
    const lines = readFileSync(join(dir, 'Entities', name), 'utf8').split('\n');
    const keys = {};
    for (let i = 0; i + 1 < lines.length; i++) if (lines[i].startsWith('; ')) keys[lines[i].slice(2)] = lines[i + 1];
    out[keys.id] = { class: keys.class, position: keys.position.split(' ').map(Number), fields: keys };
  }
  return out;
}

async function view(page) {
  return JSON.parse(await mapOf(page).getAttribute('data-view'));
}

// Waits until the map has drawn a view whose `key` is not `old` (the view
// is written on the canvas when drawn, a frame after a change).
async function viewChanged(page, key, old) {
  await page.waitForFunction(
    ([k, o]) => JSON.stringify(JSON.parse(document.querySelector('canvas').dataset.view)[k]) !== o,
    [key, JSON.stringify(old)],
  );
  return view(page);
}

const pagePoint = ui.mapPagePoint;

// The canvas's colour [r, g, b] at page point (x, y).
async function pixel(page, { x, y }) {
  return mapOf(page).evaluate(
    (canvas, [px, py]) => {
      const rect = canvas.getBoundingClientRect();
      const dpr = canvas.width / rect.width;
      const d = canvas.getContext('2d').getImageData(Math.round((px - rect.left) * dpr), Math.round((py - rect.top) * dpr), 1, 1).data;
      return [d[0], d[1], d[2]];
    },
    [x, y],
  );
}

function rgb(hex) {
  const n = parseInt(hex.slice(1), 16);
  return [n >> 16, (n >> 8) & 0xff, n & 0xff];
}

const distance = (a, b) => Math.hypot(a[0] - b[0], a[1] - b[1], a[2] - b[2]);

// Waits until the map has drawn the current state (a frame after now).
async function drawn(page) {
  await page.evaluate(() => new Promise((r) => requestAnimationFrame(() => requestAnimationFrame(r))));
}

function isNiceStep(step) {
  const mantissa = Number((step / 10 ** Math.floor(Math.log10(step) + 1e-12)).toPrecision(6));
  return [1, 2, 5].includes(mantissa);
}

test('the grid step is 1, 2 or 5 x 10^n world units and follows the zoom; the cursor shows world coordinates', async () => {
  const page = await ui.openSample(env);
  const map = mapOf(page);
  const step = Number(await map.getAttribute('data-grid-step'));
  assert.ok(isNiceStep(step), `step ${step}`);
  const { scale } = await view(page);
  assert.ok(step * scale >= 70 && step * scale < 70 * 2.5, `labels ${step * scale} px apart`);

  const box = await map.boundingBox();
  await page.mouse.move(box.x + box.width / 2, box.y + box.height / 2);
  await page.mouse.wheel(0, -900);
  await page.waitForFunction((s) => Number(document.querySelector('canvas').dataset.gridStep) < s, step);
  const finer = Number(await map.getAttribute('data-grid-step'));
  assert.ok(isNiceStep(finer), `step ${finer}`);

  // The cursor's coordinates: the world point under it on the view's axes.
  const at = { x: box.x + 200, y: box.y + 150 };
  await page.mouse.move(at.x, at.y);
  const readout = mapPane(page).getByText(/^X -?[\d.]+ +Z -?[\d.]+$/);
  await readout.waitFor();
  const [, wx, wz] = (await readout.textContent()).match(/^X (-?[\d.]+) +Z (-?[\d.]+)$/).map(Number);
  const v = await view(page);
  const ex = v.center[0] + (200 - box.width / 2) / v.scale;
  const ez = v.center[1] - (150 - box.height / 2) / v.scale;
  assert.ok(Math.abs(wx - ex) < 1 && Math.abs(wz - ez) < 1, `cursor ${wx}, ${wz} is the world point ${ex}, ${ez}`);
  await page.mouse.move(box.x - 50, box.y - 50);
  await readout.waitFor({ state: 'detached' });
  await ui.closeWithoutErrors(page);
});

// Moves the mouse onto the entity at world `position` until the tooltip
// shows `text`: the map may still be fitting the world to its pane, so it
// points again at where the entity is drawn now.
async function hoverUntilTooltip(page, position, text) {
  for (let tries = 0; ; tries++) {
    const at = await pagePoint(page, position);
    await page.mouse.move(at.x + 1, at.y + 1);
    const shown = await page
      .getByRole('tooltip')
      .getByText(text)
      .waitFor({ timeout: 2000 })
      .then(
        () => true,
        () => false,
      );
    if (shown) return;
    assert.ok(tries < 10, `the tooltip names the entity under the cursor (${text})`);
  }
}

test('hovering an entity shows a tooltip with its ID, class and name', async () => {
  const dir = copyWorld(gameWorld);
  const page = await ui.openFolder(env, dir);
  const boss = entitiesOf(dir)[BOSS];
  const tooltip = page.getByRole('tooltip');
  await hoverUntilTooltip(page, boss.position, 'Brute');
  assert.match(await tooltip.textContent(), new RegExp(`${BOSS}.*Enemy`));
  await ui.screenshot(page, 'map-tooltip');

  // Off the entity, no tooltip.
  const box = await mapOf(page).boundingBox();
  await page.mouse.move(box.x + 4, box.y + box.height - 4);
  await tooltip.waitFor({ state: 'detached' });

  // A class without a name field: the ID and the class.
  await ui.closeWithoutErrors(page);
  const sample = await ui.openSample(env);
  const [id, light] = Object.entries(entitiesOf(sampleWorld)).find(([, e]) => e.class === 'Light');
  await hoverUntilTooltip(sample, light.position, id);
  assert.match(await sample.getByRole('tooltip').textContent(), /Light/);
  await ui.closeWithoutErrors(sample);
});

test("lights are drawn in their own colour with their reach, the selected entity's references as lines", async () => {
  const page = await ui.openSample(env);
  const entities = entitiesOf(sampleWorld);
  const { scale } = await view(page);
  // The light with the widest reach on screen.
  const [, light] = Object.entries(entities)
    .filter(([, e]) => e.class === 'Light' && Number.isFinite(Number(e.fields.radius)))
    .sort(([, a], [, b]) => b.fields.radius - a.fields.radius)[0];
  const color = rgb(light.fields.color);
  const center = await pagePoint(page, light.position);
  const reach = Number(light.fields.radius) * scale;
  assert.ok(reach > 10, `the light reaches ${reach} px`);
  // Its mark is its colour, not its class's.
  await page.waitForFunction(() => document.querySelector('canvas').dataset.revision !== undefined);
  await page.waitForFunction(
    async ([x, y, c]) => {
      const canvas = document.querySelector('canvas');
      const rect = canvas.getBoundingClientRect();
      const d = canvas.getContext('2d').getImageData(x - rect.left, y - rect.top, 1, 1).data;
      return Math.hypot(d[0] - c[0], d[1] - c[1], d[2] - c[2]) < 12;
    },
    [Math.round(center.x), Math.round(center.y), color],
  );
  // Its reach: the circle's edge is tinted with its colour (drawn after
  // the marks: looked at again until it shows, for 10 s at most).
  let tinted = 0;
  for (const end = Date.now() + 10_000; tinted < 10 && Date.now() < end; await drawn(page)) {
    tinted = 0;
    for (let k = 0; k < 16; k++) {
      const a = (k / 16) * Math.PI * 2;
      const edge = await pixel(page, { x: center.x + Math.cos(a) * reach, y: center.y + Math.sin(a) * reach });
      if (distance(edge, [20, 25, 30]) > 30 && distance(edge, color) < distance([20, 25, 30], color)) tinted++;
    }
  }
  assert.ok(tinted >= 10, `${tinted} of 16 points on the light's circle are tinted`);

  // A Prop with a parent: a line in the accent colour from it to the parent.
  const [propId, prop] = Object.entries(entities).find(([, e]) => e.class === 'Prop' && e.fields.parent !== 'none');
  const parent = entities[prop.fields.parent];
  await ui.selectEntity(page, propId);
  await drawn(page);
  const from = await pagePoint(page, prop.position);
  const to = await pagePoint(page, parent.position);
  let blue = 0;
  for (const t of [0.35, 0.5, 0.65]) {
    const [r, , b] = await pixel(page, { x: from.x + (to.x - from.x) * t, y: from.y + (to.y - from.y) * t });
    if (b > 150 && b > r + 60) blue++;
  }
  assert.ok(blue >= 2, `the reference line is drawn (${blue} of 3 points)`);
  await ui.screenshot(page, 'map-lights-references');
  await ui.closeWithoutErrors(page);
});

test('the views are top (X/Z) and front (X/Y); changing view frames every entity, clear of the rulers', async () => {
  const page = await ui.openSample(env);
  const views = mapPane(page).getByRole('group', { name: 'View' });
  const top = views.getByRole('button', { name: 'Top (X/Z)' });
  const front = views.getByRole('button', { name: 'Front (X/Y)' });
  assert.equal(await top.getAttribute('aria-pressed'), 'true');
  assert.equal(await front.getAttribute('aria-pressed'), 'false');
  // Zoom in first, so that framing has something to do.
  const map = mapOf(page);
  await map.focus();
  for (let i = 0; i < 6; i++) await page.keyboard.press('+');
  await front.click();
  assert.equal(await front.getAttribute('aria-pressed'), 'true');
  assert.equal(await top.getAttribute('aria-pressed'), 'false');
  assert.deepEqual((await viewChanged(page, 'axes', [0, 2])).axes, [0, 1]);
  const box = await map.boundingBox();
  for (const e of Object.values(entitiesOf(sampleWorld))) {
    const p = await pagePoint(page, e.position);
    // The rulers: 40 px on the left, 16 px along the top.
    assert.ok(p.x >= box.x + 40 + 8 && p.x <= box.x + box.width - 8, `every entity in view, right of the ruler: ${p.x - box.x}`);
    assert.ok(p.y >= box.y + 16 + 8 && p.y <= box.y + box.height - 8, `every entity in view, below the ruler: ${p.y - box.y}`);
  }
  await drawn(page);
  await ui.screenshot(page, 'map-front');
  await top.click();
  assert.deepEqual((await viewChanged(page, 'axes', [0, 1])).axes, [0, 2]);
  await ui.closeWithoutErrors(page);
});

test('F frames the selection (Fit the world); an entity selected in the list out of view is panned into view', async () => {
  const page = await ui.openSample(env);
  const entities = entitiesOf(sampleWorld);
  const [first, second] = Object.keys(entities);
  const map = mapOf(page);
  const whole = await view(page);
  await ui.selectEntity(page, first);
  await map.focus();
  await page.keyboard.press('f');
  const framed = await viewChanged(page, 'scale', whole.scale);
  assert.ok(framed.scale > whole.scale * 2, `closer on the selected entity: ${framed.scale} against ${whole.scale}`);
  const box = await map.boundingBox();
  const at = await pagePoint(page, entities[first].position);
  assert.ok(Math.abs(at.x - (box.x + box.width / 2)) < box.width / 4, 'the entity near the middle');
  // The other entity lies off the map now: selecting it in the list pans
  // to it, at the same scale.
  const off = await pagePoint(page, entities[second].position);
  assert.ok(off.x < box.x || off.x > box.x + box.width || off.y < box.y || off.y > box.y + box.height, 'out of view first');
  await ui.selectEntity(page, second);
  const panned = await viewChanged(page, 'center', framed.center);
  assert.equal(panned.scale, framed.scale);
  const now = await pagePoint(page, entities[second].position);
  assert.ok(now.x > box.x + 40 && now.x < box.x + box.width && now.y > box.y + 16 && now.y < box.y + box.height, 'in view');
  await mapPane(page).getByRole('button', { name: 'Fit' }).click();
  const fit = await viewChanged(page, 'scale', panned.scale);
  assert.ok(Math.abs(fit.scale - whole.scale) < whole.scale * 0.1, `the world framed again: ${fit.scale} against ${whole.scale}`);
  await ui.closeWithoutErrors(page);
});

test('a bar shown over the map (place mode) leaves every entity where it was on the page', async () => {
  const page = await ui.openSample(env);
  const entities = entitiesOf(sampleWorld);
  const [first] = Object.keys(entities);
  await ui.selectEntity(page, first);
  const map = mapOf(page);
  const places = async () => Promise.all(Object.values(entities).map((e) => pagePoint(page, e.position)));
  const before = await places();
  const box = await map.boundingBox();
  await page.getByRole('button', { name: 'Add entity' }).click();
  await page.getByRole('dialog', { name: 'Add entity' }).getByRole('button', { name: 'Place on map' }).click();
  await page.getByRole('status', { name: 'Place mode' }).waitFor();
  await page.waitForFunction((h) => document.querySelector('canvas').getBoundingClientRect().height !== h, box.height);
  await drawn(page);
  const after = await places();
  after.forEach((p, i) => {
    assert.ok(
      Math.abs(p.x - before[i].x) < 1 && Math.abs(p.y - before[i].y) < 1,
      `entity ${i} stays on the page: ${JSON.stringify([before[i], p])}`,
    );
  });
  await page.keyboard.press('Escape');
  await ui.closeWithoutErrors(page);
});

test('an edit repaints the map around the entity it moved alone, to the picture a whole painting gives', async () => {
  const page = await ui.openSample(env);
  const entities = Object.entries(entitiesOf(sampleWorld));
  const [id, entity] = entities.find(([, e]) => e.class !== 'Light');
  await ui.selectEntity(page, id);
  await drawn(page);
  // Each frame's picture and how much of it was painted, from now on.
  const before = await mapOf(page).evaluate((canvas) => {
    window.__frames = [];
    new MutationObserver(() => {
      const data = canvas.getContext('2d').getImageData(0, 0, canvas.width, canvas.height).data;
      window.__frames.push({ painted: canvas.dataset.painted, pixels: Array.from(new Uint32Array(data.buffer)) });
    }).observe(canvas, { attributes: true, attributeFilter: ['data-draw-ms'] });
    const data = canvas.getContext('2d').getImageData(0, 0, canvas.width, canvas.height).data;
    return Array.from(new Uint32Array(data.buffer)).join(',');
  });
  // Moved 40 pixels: its old mark has to go.
  const { scale } = await view(page);
  await ui.commit(page, 'Position X', String(entity.position[0] + Math.round(40 / scale)));
  // The lights are read again after the change: a later frame paints the whole map.
  await page.waitForFunction(() => {
    const at = window.__frames.findIndex((f) => f.painted === 'around changes');
    return at >= 0 && window.__frames.slice(at).some((f) => f.painted === 'all');
  });
  const frames = await page.evaluate(() => window.__frames.map((f) => ({ painted: f.painted, pixels: f.pixels.join(',') })));
  const at = frames.findIndex((f) => f.painted === 'around changes');
  const wholeAt = frames.findIndex((f, i) => i > at && f.painted === 'all');
  const patched = frames.slice(at, wholeAt).findLast((f) => f.painted === 'around changes');
  const whole = frames[wholeAt];
  assert.ok(patched.pixels === whole.pixels, 'the repainted picture is the whole one');
  assert.notEqual(patched.pixels, before, 'the entity moved');
  await ui.closeWithoutErrors(page);
});

test('the legend hides a class in the views and locks one from the pointer, I isolates the selection; hidden and locked are kept for the world', async () => {
  const page = await ui.openSample(env);
  const entities = Object.entries(entitiesOf(sampleWorld));
  const lights = entities.filter(([, e]) => e.class === 'Light');
  const [lightId, light] = lights[0];
  const legend = mapPane(page).getByRole('list', { name: 'Classes' });
  const shown = (n) => page.waitForFunction((want) => document.querySelector('canvas').dataset.shown === String(want), n);
  await shown(entities.length);
  const lightButton = legend.getByRole('button', { name: 'Light', exact: true });
  assert.equal(await lightButton.getAttribute('aria-pressed'), 'true');

  // Hidden: not drawn, a click there does not take it; the list still has it.
  await lightButton.click();
  assert.equal(await lightButton.getAttribute('aria-pressed'), 'false');
  await shown(entities.length - lights.length);
  const at = await pagePoint(page, light.position);
  await page.mouse.click(at.x, at.y);
  await drawn(page);
  assert.notEqual(await ui.inspectedId(page), lightId, 'a hidden light is not picked');
  await ui.option(page, lightId).waitFor();

  // Shown again and locked: drawn, but a click there does not take it; the list does.
  await lightButton.click();
  await shown(entities.length);
  await legend.getByRole('button', { name: 'Lock Light' }).click();
  await page.mouse.click(at.x, at.y);
  await drawn(page);
  assert.notEqual(await ui.inspectedId(page), lightId, 'a locked light is not picked');
  await ui.selectEntity(page, lightId);

  // Isolate (I): the selection drawn alone, I again draws every entity.
  await mapOf(page).focus();
  await page.keyboard.press('i');
  await shown(1);
  assert.equal(await mapPane(page).getByRole('button', { name: 'Isolate' }).getAttribute('aria-pressed'), 'true');
  await page.keyboard.press('i');
  await shown(entities.length);

  // Hidden and locked classes are kept for the world.
  await lightButton.click();
  await shown(entities.length - lights.length);
  await page.waitForTimeout(800); // kept a moment after the change
  await page.reload();
  await ui.waitOpen(page);
  await shown(entities.length - lights.length);
  assert.equal(await legend.getByRole('button', { name: 'Lock Light' }).getAttribute('aria-pressed'), 'true');
  await ui.screenshot(page, 'map-legend-hidden-locked');
  await lightButton.click();
  await legend.getByRole('button', { name: 'Lock Light' }).click();
  await page.waitForTimeout(800);
  await ui.closeWithoutErrors(page);
});

test('the panes beside the map resize with splitters, by keyboard and by drag', async () => {
  const page = await ui.openSample(env);
  const splitter = page.getByRole('separator', { name: 'Resize the entity list' });
  const list = page.getByRole('tree', { name: 'Entity list' }).locator('xpath=ancestor::*[contains(@class,"pane")][1]');
  const width = async (locator) => (await locator.boundingBox()).width;
  const now = async () => Number(await splitter.getAttribute('aria-valuenow'));
  const before = await now();
  assert.ok(Math.abs((await width(list)) - before) <= 1, 'the value is the list pane width');
  const mapBefore = await width(mapPane(page));
  assert.ok(mapBefore > (await width(list)), 'the map is the widest pane');
  await splitter.focus();
  await page.keyboard.press('ArrowRight');
  await page.keyboard.press('ArrowRight');
  assert.equal(await now(), before + 32);
  assert.ok(Math.abs((await width(list)) - (before + 32)) <= 1);
  assert.ok(Math.abs((await width(mapPane(page))) - (mapBefore - 32)) <= 1);
  await page.keyboard.press('End');
  assert.equal(await now(), Number(await splitter.getAttribute('aria-valuemax')));
  assert.ok((await width(mapPane(page))) >= 280, 'the map keeps room');
  await page.keyboard.press('Home');
  assert.equal(await now(), Number(await splitter.getAttribute('aria-valuemin')));

  // The inspector's splitter, dragged to the left, widens the inspector.
  const right = page.getByRole('separator', { name: 'Resize the inspector' });
  const inspectorBefore = Number(await right.getAttribute('aria-valuenow'));
  const box = await right.boundingBox();
  await page.mouse.move(box.x + box.width / 2, box.y + box.height / 2);
  await page.mouse.down();
  await page.mouse.move(box.x + box.width / 2 - 60, box.y + box.height / 2, { steps: 4 });
  await page.mouse.up();
  assert.equal(Number(await right.getAttribute('aria-valuenow')), inspectorBefore + 60);
  await ui.closeWithoutErrors(page);
});

test('arrow keys move the selection to the nearest entity in that direction, announced', async () => {
  const page = await ui.openSample(env);
  const entities = entitiesOf(sampleWorld);
  const map = mapOf(page);
  const live = mapPane(page).locator('[aria-live=polite]');
  await map.focus();
  await page.keyboard.press('Enter');
  await page.waitForFunction(() => document.querySelector('.inspector h2 code'));
  let id = await ui.inspectedId(page);
  assert.match(await live.textContent(), new RegExp(`${entities[id].class} ${id} at X`));

  // Rightwards until no entity is further right: X grows at each step.
  const xs = [entities[id].position[0]];
  for (let i = 0; i < 60; i++) {
    const before = id;
    await page.keyboard.press('ArrowRight');
    if (/No entity further right/.test(await live.textContent())) break;
    await page.waitForFunction((old) => document.querySelector('.inspector h2 code')?.textContent !== old, before);
    id = await ui.inspectedId(page);
    xs.push(entities[id].position[0]);
  }
  assert.ok(xs.length > 2, `moved ${xs.length - 1} times`);
  for (let i = 1; i < xs.length; i++) assert.ok(xs[i] > xs[i - 1], `X grows: ${xs}`);
  assert.equal(Math.max(...Object.values(entities).map((e) => e.position[0])), xs.at(-1), 'ends at the rightmost');
  assert.equal(await live.textContent(), 'No entity further right');

  // Up: the vertical axis (Z in the top view) grows.
  const z = entities[id].position[2];
  await page.keyboard.press('ArrowUp');
  await page.waitForFunction((old) => document.querySelector('.inspector h2 code')?.textContent !== old, id);
  assert.ok(entities[await ui.inspectedId(page)].position[2] > z);
  // Shift+arrow pans, keeping the selection.
  const selected = await ui.inspectedId(page);
  const c = (await view(page)).center;
  await page.keyboard.press('Shift+ArrowLeft');
  const panned = (await viewChanged(page, 'center', c)).center;
  assert.ok(panned[0] < c[0], 'the view moved left');
  assert.equal(await ui.inspectedId(page), selected);
  await ui.closeWithoutErrors(page);
});

test(
  'a 5,000-entity world shows small marks without every reach and reference over them, and a density picture when zoomed out',
  { skip: ui.perfSkip },
  async () => {
    const dir = join(tempDir('juliet-map'), 'world_5000');
    runCli('gen', dir, '--count', '5000');
    const page = await ui.uploadFolder(env, dir);
    const map = mapOf(page);
    await drawn(page);
    const marks = await map.getAttribute('data-marks');
    assert.match(marks, /squares of [357] px/);
    // Many in view: the lights' reach and the references are the selected
    // entity's alone (the level of detail); zoomed in to a few, everyone's.
    assert.equal(await map.getAttribute('data-details'), 'selection');
    await ui.selectEntity(page, (await ui.visibleIds(page))[1]);
    await ui.eachLook(page, (width, scheme) => ui.screenshot(page, `map-5000-${width}-${scheme}`));
    await page.setViewportSize({ width: 1440, height: 900 });
    await map.focus();
    for (let i = 0; i < 10; i++) await page.keyboard.press('+');
    await page.waitForFunction(() => document.querySelector('canvas').dataset.details === 'all');
    await ui.screenshot(page, 'map-5000-zoomed');
    await mapPane(page).getByRole('button', { name: 'Fit', exact: true }).click();
    await page.waitForFunction(() => document.querySelector('canvas').dataset.details === 'selection');
    await map.focus();
    for (let i = 0; i < 12; i++) await page.keyboard.press('-');
    await page.waitForFunction(() => document.querySelector('canvas').dataset.marks === 'density');
    await ui.screenshot(page, 'map-5000-density');
    await mapPane(page).getByRole('button', { name: 'Fit', exact: true }).click();
    await page.waitForFunction((m) => document.querySelector('canvas').dataset.marks === m, marks);
    await ui.closeWithoutErrors(page);
  },
);
