// Browser tests of the 3D viewport (web/src/viewport/, three.js): it is its
// own chunk, loaded when first shown; it draws the level with WebGL2; the
// views switch by button and key; F frames the selection, and a list
// selection out of view is brought into view; a click picks the
// entity under the cursor, read ahead while the pointer rests on it; the
// 2D map comes back with its selection; a world whose classes come from
// class files shows shapes, names and rotations, turned with the rotate
// gizmo; copies land under the pointer.
import assert from 'node:assert/strict';
import { join } from 'node:path';
import { test } from 'node:test';
import { assets, copyWorld } from '../shared/fixtures.js';
import * as ui from './harness.js';

const env = ui.useInspector();
const LIGHT = '0x77a31d7500000002';
const OTHER = '0x77a31d7500000001';

const BRUTE = '0x6e89010142120005'; // the game world's Enemy named Brute, yaw 90

const viewport = (page) => page.getByRole('img', { name: '3D view of the world' });
const shapes = async (page) => JSON.parse((await viewport(page).getAttribute('data-shapes')) ?? 'null');
const inspectorInput = (page, label) => page.locator('.inspector').getByLabel(label, { exact: true });

// Shows the 3D view and waits until its scene has drawn once.
async function show3d(page) {
  await page.getByRole('button', { name: '3D', exact: true }).click();
  await viewport(page).waitFor();
  await page.getByRole('button', { name: 'Perspective' }).waitFor();
  await page.locator('canvas.viewport[aria-busy="false"]').waitFor();
}

// How many pixels of the canvas differ from its background (or, in the
// square of `side` pixels about its middle, from each of `colours`).
async function drawnPixels(page, { side = null, colours = null } = {}) {
  const data = (await viewport(page).screenshot()).toString('base64');
  return page.evaluate(ui.countDrawnPixels, { data, side, colours });
}

test('the 3D view is a WebGL2 canvas in a chunk of its own, loaded when first shown', async () => {
  const page = await ui.newPage(env.browser);
  const scripts = [];
  page.on('request', (r) => {
    if (r.resourceType() === 'script') scripts.push(new URL(r.url()).pathname);
  });
  await page.goto(env.url);
  await ui.waitOpen(page);
  assert.ok(!scripts.some((s) => /\/scene-[^/]*\.js$/.test(s)), 'the page opened without the 3D chunk');
  await show3d(page);
  assert.ok(
    scripts.some((s) => /\/scene-[^/]*\.js$/.test(s)),
    'the 3D chunk loaded on show',
  );
  // A canvas with a WebGL context answers null to a 2D one.
  assert.equal(await page.evaluate(() => document.querySelector('canvas.viewport').getContext('2d')), null);
  assert.ok((await drawnPixels(page)) > 200, 'the markers and the grid are drawn');
  await ui.screenshot(page, 'viewport-perspective');
  await ui.closeWithoutErrors(page);
});

test('views switch by button and by key, each pressed in turn', async () => {
  const page = await ui.openSample(env);
  await show3d(page);
  const pressed = () => page.locator('[aria-label="View"] button[aria-pressed="true"]').textContent();
  assert.equal(await pressed(), 'Perspective');
  await page.getByRole('button', { name: 'Top' }).click();
  assert.equal(await pressed(), 'Top');
  await ui.screenshot(page, 'viewport-top');
  await viewport(page).focus();
  await page.keyboard.press('1');
  assert.equal(await pressed(), 'Front');
  await page.keyboard.press('3');
  assert.equal(await pressed(), 'Side');
  await page.keyboard.press('5');
  assert.equal(await pressed(), 'Perspective');
  assert.ok((await drawnPixels(page)) > 200);
  await ui.closeWithoutErrors(page);
});

test('F frames the selected entity in the middle of the view, where a click picks it', async () => {
  const page = await ui.openSample(env);
  await show3d(page);
  for (const view of ['Perspective', 'Top']) {
    await page.getByRole('button', { name: view }).click();
    await ui.selectEntity(page, LIGHT);
    await viewport(page).focus();
    await page.keyboard.press('f');
    await page.keyboard.press('Escape');
    await page.waitForFunction(() => !document.querySelector('.inspector h2 code'));
    const box = await viewport(page).boundingBox();
    await page.mouse.click(box.x + box.width / 2, box.y + box.height / 2);
    await page.waitForFunction((want) => document.querySelector('.inspector h2 code')?.textContent.trim() === want, LIGHT);
    assert.equal(await ui.inspectedId(page), LIGHT, `${view}: the framed entity is picked`);
  }
  // A click on empty ground selects nothing.
  const box = await viewport(page).boundingBox();
  await page.mouse.click(box.x + 12, box.y + box.height - 12);
  await page.waitForFunction(() => !document.querySelector('.inspector h2 code'));
  await ui.closeWithoutErrors(page);
});

test('an entity selected in the list out of view is brought into view: the camera moves across, its direction and distance kept', async () => {
  const page = await ui.openSample(env);
  await show3d(page);
  const camera = async () => JSON.parse(await viewport(page).getAttribute('data-camera'));
  await ui.selectEntity(page, LIGHT);
  await viewport(page).focus();
  await page.keyboard.press('f');
  const before = await camera();
  await ui.selectEntity(page, OTHER); // far from the light, out of view
  await page.waitForFunction((old) => document.querySelector('canvas.viewport').dataset.camera !== old, JSON.stringify(before));
  const after = await camera();
  assert.deepEqual(after.target, [-28.37, 33.37, -115.23], 'looking at the entity selected');
  const offset = (c) => c.position.map((v, i) => Math.round(v - c.target[i]));
  assert.deepEqual(offset(after), offset(before), 'the same direction and distance');
  // In the middle of the view now, where a click picks it.
  const box = await viewport(page).boundingBox();
  await page.mouse.click(box.x + box.width / 2, box.y + box.height / 2);
  await page.waitForFunction((want) => document.querySelector('.inspector h2 code')?.textContent.trim() === want, OTHER);
  // With the whole world framed, every entity is in view: selecting one in
  // the list leaves the camera where it is.
  await page.keyboard.press('Escape');
  await page.keyboard.press('f');
  const whole = await viewport(page).getAttribute('data-camera');
  await ui.selectEntity(page, LIGHT);
  await page.waitForTimeout(100);
  assert.equal(await viewport(page).getAttribute('data-camera'), whole, 'an entity in view leaves the camera where it is');
  await ui.closeWithoutErrors(page);
});

test('the 2D map comes back with the selection made in 3D', async () => {
  const page = await ui.openSample(env);
  await show3d(page);
  await ui.selectEntity(page, LIGHT);
  await page.getByRole('button', { name: '2D map' }).click();
  await ui.mapOf(page).waitFor();
  assert.equal(await ui.inspectedId(page), LIGHT);
  await ui.closeWithoutErrors(page);
});

test('a drag of the move gizmo moves the selection as one edit, on the grid with Snap, and undoes at once', async () => {
  const page = await ui.openSample(env);
  await show3d(page);
  await page.getByRole('checkbox', { name: 'Snap to grid' }).check();
  await page.getByLabel('Snap step', { exact: true }).fill('5');
  await page.getByRole('button', { name: 'Top' }).click();
  await ui.selectEntity(page, LIGHT);
  const before = await ui.inspectedPosition(page);
  await viewport(page).focus();
  await page.keyboard.press('f');
  // The gizmo's centre handle sits on the framed entity, in the middle.
  const box = await viewport(page).boundingBox();
  const [cx, cy] = [box.x + box.width / 2, box.y + box.height / 2];
  await page.mouse.move(cx, cy);
  await page.mouse.down();
  for (let i = 1; i <= 8; i++) await page.mouse.move(cx + i * 12, cy);
  await page.mouse.up();
  await ui.waitUnsaved(page, LIGHT);
  const after = await ui.inspectedPosition(page);
  assert.ok(after[0] > before[0], `moved right (+X): ${before} -> ${after}`);
  for (const v of after) assert.ok(v % 5 === 0, `${after} on the 5-unit grid`);
  for (let axis = 1; axis < 3; axis++) assert.ok(Math.abs(after[axis] - before[axis]) <= 2.5, `${after}: only snapped on the other axes`);
  assert.equal((await ui.pendingItems(page)).length, 1);
  await ui.screenshot(page, 'viewport-moved');

  await page.keyboard.press('Control+z');
  await page.waitForFunction(() => document.querySelector('[aria-label="Pending changes"] .count')?.textContent === '0');
  assert.deepEqual(await ui.inspectedPosition(page), before);
  await ui.closeWithoutErrors(page);
});

test('an edit of one entity draws the level again only around its old and new places, at once', async () => {
  const page = await ui.openSample(env);
  await show3d(page);
  await page.getByRole('button', { name: 'Top' }).click();
  await ui.selectEntity(page, LIGHT);
  await viewport(page).focus();
  await page.keyboard.press('f'); // in the middle of the view
  const [x] = await ui.inspectedPosition(page);
  await page.waitForTimeout(500); // the camera at rest, the level drawn whole
  await ui.commit(page, 'Position X', String(x + 3));
  await ui.waitUnsaved(page, LIGHT);
  assert.equal(await viewport(page).getAttribute('data-level'), 'around');
  // With nothing selected (and its shape moved too), its old place in the
  // middle shows the level without it: only the background and the grid.
  await viewport(page).focus();
  await page.keyboard.press('Escape');
  await page.waitForFunction(() => !document.querySelector('.inspector h2 code'));
  await page.waitForTimeout(500);
  const marked = await drawnPixels(page, {
    side: 13,
    colours: [
      [16, 20, 24], // the background
      [43, 52, 62], // the grid
    ],
  });
  assert.equal(marked, 0, 'the light is gone from its old place');
  // And a click there takes nothing (what the view picks from moved too).
  const box = await viewport(page).boundingBox();
  await page.mouse.click(box.x + box.width / 2, box.y + box.height / 2);
  await page.waitForTimeout(300);
  assert.equal(await ui.inspectedId(page), null);
  await ui.closeWithoutErrors(page);
});

test('in place mode a click on the ground places an entity of the chosen class there', async () => {
  const page = await ui.openSample(env);
  await show3d(page);
  await page.getByRole('button', { name: 'Top' }).click();
  await page.getByRole('button', { name: 'Add entity' }).click();
  const dialog = page.getByRole('dialog');
  await dialog.getByLabel('Class').selectOption('Light');
  await dialog.getByRole('button', { name: 'Place on map' }).click();
  await page.getByRole('status', { name: 'Place mode' }).waitFor();
  const box = await viewport(page).boundingBox();
  await page.mouse.click(box.x + box.width / 2, box.y + box.height / 2);
  await page.getByText(/^Added Light 0x/).waitFor();
  const [, y] = await ui.inspectedPosition(page);
  assert.equal(y, 1.75, "on the grid's plane, under the lowest entity of the level");
  assert.equal((await ui.pendingItems(page)).length, 1);
  await ui.closeWithoutErrors(page);
});

test('a drag from empty space selects what its band encloses, of the entities the list shows', async () => {
  const page = await ui.openSample(env);
  await show3d(page);
  await page.getByRole('button', { name: 'Top' }).click();
  await viewport(page).focus();
  await page.keyboard.press('f'); // nothing selected: the whole world
  const box = await viewport(page).boundingBox();
  const drag = async () => {
    await page.mouse.move(box.x + 3, box.y + 3);
    await page.mouse.down();
    await page.mouse.move(box.x + box.width / 2, box.y + box.height / 2);
    await page.mouse.move(box.x + box.width - 3, box.y + box.height - 3);
    await page.mouse.up();
  };
  await drag();
  await page.getByRole('heading', { name: '36 entities selected' }).waitFor();
  // With the list filtered to Lights, only they are drawn and enclosed.
  await page.getByLabel('Filter by class').selectOption('Light');
  await page.keyboard.press('Escape');
  await drag();
  await page.getByRole('heading', { name: '8 entities selected' }).waitFor();
  await ui.screenshot(page, 'viewport-band-lights');
  await ui.closeWithoutErrors(page);
});

test('the entity under the pointer is named in a tooltip and read ahead: a click on it then waits for no engine read', async () => {
  const page = await ui.newPage(env.browser);
  // The IDs of the engine's reads of one entity (its `get` calls), in order.
  await page.addInitScript(() => {
    const post = Worker.prototype.postMessage;
    window.reads = [];
    Worker.prototype.postMessage = function (message, ...rest) {
      if (message?.op === 'get') window.reads.push(message.args.id);
      return post.call(this, message, ...rest);
    };
  });
  await page.goto(env.url);
  await ui.waitOpen(page);
  await show3d(page);
  await ui.selectEntity(page, LIGHT);
  await viewport(page).focus();
  await page.keyboard.press('f');
  await page.keyboard.press('Escape');
  await page.waitForFunction(() => !document.querySelector('.inspector h2 code'));
  const box = await viewport(page).boundingBox();
  await page.mouse.move(box.x + box.width / 2 + 1, box.y + box.height / 2 + 1);
  const tip = page.getByRole('tooltip');
  await tip.waitFor();
  assert.match(await tip.textContent(), new RegExp(`${LIGHT}Light`));
  await page.waitForFunction((id) => window.reads.at(-1) === id, LIGHT);
  const before = await page.evaluate(() => window.reads.length);
  await page.mouse.down();
  await page.mouse.up();
  await page.waitForFunction((want) => document.querySelector('.inspector h2 code')?.textContent.trim() === want, LIGHT);
  assert.deepEqual(await page.evaluate((n) => window.reads.slice(n), before), [], 'no read after the press');
  await ui.closeWithoutErrors(page);
});

test('right-drag turns the camera where it stands, W flies it forward, Alt+drag orbits the point looked at', async () => {
  const page = await ui.openSample(env);
  await show3d(page);
  const camera = async () => JSON.parse(await viewport(page).getAttribute('data-camera'));
  const apart = (a, b) => Math.hypot(...a.map((v, i) => v - b[i]));
  const box = await viewport(page).boundingBox();
  const [cx, cy] = [box.x + box.width / 2, box.y + box.height / 2];
  const drag = async (button) => {
    await page.mouse.move(cx, cy);
    await page.mouse.down({ button });
    for (let i = 1; i <= 6; i++) await page.mouse.move(cx + i * 10, cy + i * 3);
  };
  const start = await camera();

  await drag('right');
  const turned = await camera();
  assert.deepEqual(turned.position, start.position, 'the camera stays where it stands');
  assert.notDeepEqual(turned.target, start.target, 'it looks elsewhere');
  await page.keyboard.down('w');
  await page.waitForTimeout(400);
  await page.keyboard.up('w');
  await page.mouse.up({ button: 'right' });
  const flown = await camera();
  const step = flown.position.map((v, i) => v - turned.position[i]);
  const ahead = turned.target.map((v, i) => v - turned.position[i]);
  assert.ok(apart(flown.position, turned.position) > 1, `flew: ${turned.position} -> ${flown.position}`);
  assert.ok(step.reduce((sum, v, i) => sum + v * ahead[i], 0) > 0, 'forward, towards where it looked');

  await page.keyboard.down('Alt');
  await drag('left');
  await page.mouse.up();
  await page.keyboard.up('Alt');
  const orbited = await camera();
  assert.deepEqual(orbited.target, flown.target, 'the point looked at stays');
  assert.notDeepEqual(orbited.position, flown.position, 'the camera goes round it');
  const r0 = apart(flown.position, flown.target);
  assert.ok(Math.abs(apart(orbited.position, orbited.target) - r0) < 0.01 * r0, 'at the same distance');
  assert.equal(await page.locator('.inspector h2 code').count(), 0, 'an Alt+drag selects nothing');
  await ui.closeWithoutErrors(page);
});

test('the keyboard walks the entities on screen: Enter takes the one nearest the centre, arrows the next that way', async () => {
  const page = await ui.openSample(env);
  await show3d(page);
  await page.getByRole('button', { name: 'Top' }).click();
  await viewport(page).focus();
  await page.keyboard.press('f'); // nothing selected: the whole world
  await page.keyboard.press('Enter');
  await page.locator('.inspector h2 code').waitFor();
  const first = await ui.inspectedId(page);
  // Top view: +X is to the right, so the next entity right has a larger X.
  const [x] = await ui.inspectedPosition(page);
  await page.keyboard.press('ArrowRight');
  await page.waitForFunction((was) => document.querySelector('.inspector h2 code')?.textContent.trim() !== was, first);
  const [next] = await ui.inspectedPosition(page);
  assert.ok(next > x, `${next} is right of ${x}`);
  await page.keyboard.press('Escape');
  await page.waitForFunction(() => !document.querySelector('.inspector h2 code'));
  await ui.closeWithoutErrors(page);
});

test('a world opens again in the view it was last seen in: 3D, with its camera', async () => {
  const page = await ui.openSample(env);
  await show3d(page);
  await page.getByRole('button', { name: 'Top' }).click();
  const camera = await viewport(page).getAttribute('data-camera');
  await page.waitForTimeout(800); // kept once the camera rests
  await page.reload();
  await ui.waitOpen(page);
  await page.locator('canvas.viewport[aria-busy="false"]').waitFor();
  assert.equal(await page.locator('[aria-label="View"] button[aria-pressed="true"]').textContent(), 'Top');
  assert.equal(await viewport(page).getAttribute('data-camera'), camera);
  // Back in 2D, the next open is in 2D.
  await page.getByRole('button', { name: '2D map' }).click();
  await page.waitForTimeout(800);
  await page.reload();
  await ui.waitOpen(page);
  await ui.mapOf(page).waitFor();
  await ui.closeWithoutErrors(page);
});

test('a world whose classes come only from class files: shapes, names and references up close; the rotate gizmo turns an Enemy as one edit', async () => {
  const page = await ui.openFolder(env, copyWorld(join(assets, 'game_world')));
  await show3d(page);
  await page.waitForFunction(() => JSON.parse(document.querySelector('canvas.viewport').dataset.shapes ?? '{}').marker === 5);
  const drawn = await shapes(page);
  assert.equal(drawn.labels, 5, 'few in view: every entity is labelled');
  assert.ok(drawn.segments >= 3, `the Enemies' targets are drawn: ${drawn.segments} lines`);
  const labels = await page.locator('.viewport-labels span').allTextContents();
  for (const name of ['Grunt', 'Brute', '0x6e89010142120001']) assert.ok(labels.includes(name), `${name} in ${labels}`);
  await ui.screenshot(page, 'viewport-game-world');

  await page.getByRole('checkbox', { name: 'Snap to grid' }).check();
  await page.getByRole('button', { name: 'Top' }).click();
  await ui.selectEntity(page, BRUTE);
  assert.equal(await inspectorInput(page, 'facing yaw').inputValue(), '90');
  await viewport(page).focus();
  await page.keyboard.press('f');
  await page.keyboard.press('e');
  assert.equal(await page.locator('[aria-label="Gizmo"] button[aria-pressed="true"]').textContent(), 'Rotate');
  // Top view: the ring about Y is a circle round the entity, a tenth of
  // the view's height across from it (TransformControls' size 0.8); a drag
  // along it, from its upper right, turns about Y.
  const box = await viewport(page).boundingBox();
  const [cx, cy, r] = [box.x + box.width / 2, box.y + box.height / 2, box.height / 10];
  const along = (deg) => [cx + r * Math.cos((deg * Math.PI) / 180), cy - r * Math.sin((deg * Math.PI) / 180)];
  await page.mouse.move(...along(45));
  await page.mouse.down();
  for (let deg = 50; deg <= 120; deg += 5) await page.mouse.move(...along(deg));
  await page.mouse.up();
  await ui.waitUnsaved(page, BRUTE);
  const yaw = Number(await inspectorInput(page, 'facing yaw').inputValue());
  assert.notEqual(yaw, 90, 'turned');
  assert.ok(yaw % 15 === 0, `${yaw}: in steps of 15 degrees with Snap`);
  assert.equal(await inspectorInput(page, 'facing pitch').inputValue(), '0');
  assert.equal(await inspectorInput(page, 'facing roll').inputValue(), '0');
  assert.equal((await ui.pendingItems(page)).length, 1);
  await ui.screenshot(page, 'viewport-turned');
  await page.keyboard.press('Control+z');
  await page.waitForFunction(() => document.querySelector('[aria-label="Pending changes"] .count')?.textContent === '0');
  assert.equal(await inspectorInput(page, 'facing yaw').inputValue(), '90');
  // An entity without a quat field is moved only.
  await ui.selectEntity(page, '0x6e89010142120001');
  assert.ok(await page.getByRole('button', { name: 'Rotate' }).isDisabled());
  assert.equal(await page.locator('[aria-label="Gizmo"] button[aria-pressed="true"]').textContent(), 'Move');
  await ui.closeWithoutErrors(page);
});

test('Duplicate puts the copy at the point under the pointer, on the grid with Snap, at its own height', async () => {
  const page = await ui.openSample(env);
  await show3d(page);
  await page.getByRole('checkbox', { name: 'Snap to grid' }).check();
  await page.getByLabel('Snap step', { exact: true }).fill('5');
  await page.getByRole('button', { name: 'Top' }).click();
  await ui.selectEntity(page, LIGHT);
  const [, height] = await ui.inspectedPosition(page);
  const box = await viewport(page).boundingBox();
  await page.mouse.move(box.x + box.width * 0.3, box.y + box.height * 0.7);
  const cursor = await page.locator('.map-cursor').textContent();
  const [x, , z] = [...cursor.matchAll(/-?[\d.]+/g)].map((m) => Number(m[0]));
  await page.keyboard.press('Control+d');
  await page.getByText('Duplicated 1 entity').waitFor();
  const copy = await ui.inspectedPosition(page);
  assert.notEqual(await ui.inspectedId(page), LIGHT);
  assert.equal(copy[1], height, "at the original's height");
  for (const [got, near] of [
    [copy[0], x],
    [copy[2], z],
  ]) {
    assert.ok(got % 5 === 0, `${copy} on the 5-unit grid`);
    assert.ok(Math.abs(got - near) <= 2.5 + 1, `${copy}: under the pointer (${cursor})`);
  }
  await ui.closeWithoutErrors(page);
});
