// Browser tests of a reference field's picker on the example game's level
// (assets/game_world): the target's class and name beside the ID; Pick then
// a click on an entity in the list, on the 2D map or in the 3D view sets
// the reference (one undo step) and selects nothing; Escape and the button
// again cancel pick mode; typing searches by name (arrows and Enter
// choose), an empty field browses (a line says when more match) and `none`
// clears the reference. Screenshots of the search list
// and of pick mode at two sizes, light and dark.
import assert from 'node:assert/strict';
import { join } from 'node:path';
import { test } from 'node:test';
import { assets, copyWorld } from '../shared/fixtures.js';
import * as ui from './harness.js';

const env = ui.useInspector();
const BRUTE = '0x6e89010142120005'; // Enemy "Brute", at 10 0 10, target the first Pickup
const GRUNT = '0x6e89010142120003'; // Enemy "Grunt", at 0 0 10
const GRUNT2 = '0x6e89010142120004'; // another, at 5 0 10
const HEALTH = '0x6e89010142120001'; // Pickup without a name, Brute's target
const AMMO = '0x6e89010142120002'; // Pickup at -6 0 3

const inspector = (page) => page.getByRole('region', { name: 'Inspector' });
const target = (page) => inspector(page).getByRole('combobox', { name: 'target', exact: true });
const pick = (page) => inspector(page).getByRole('button', { name: 'Pick target' });
const status = (page) => page.getByRole('status', { name: 'Pick mode' });

// The game world open with Brute selected.
async function openBrute(options) {
  const page = await ui.openFolder(env, copyWorld(join(assets, 'game_world')), options);
  await ui.selectEntity(page, BRUTE);
  return page;
}

// Waits until the target field shows `id` with `described` beside it.
async function waitTarget(page, id, described) {
  const el = await target(page).elementHandle();
  await page.waitForFunction(([e, want]) => e.value === want, [el, id]);
  if (described) await inspector(page).locator('.ref-target').getByText(described, { exact: true }).waitFor();
}

async function startPicking(page) {
  await pick(page).click();
  assert.equal(await pick(page).getAttribute('aria-pressed'), 'true');
  assert.equal(await status(page).textContent(), 'Click an entity to set target of Brute, Escape cancelsCancel');
}

test("a reference shows its target's class and name; Pick then a click in the list sets it, one undo step", async () => {
  const page = await openBrute();
  await waitTarget(page, HEALTH, 'Pickup');
  await startPicking(page);
  // Over an entity, the pointer says a reference is made.
  assert.equal(await ui.option(page, GRUNT).evaluate((el) => getComputedStyle(el).cursor), 'alias');
  await ui.option(page, GRUNT).click();
  await waitTarget(page, GRUNT, 'Enemy · Grunt');
  assert.equal(await ui.selectedId(page), BRUTE, 'the click selected nothing');
  assert.equal(await pick(page).getAttribute('aria-pressed'), 'false');
  await status(page).waitFor({ state: 'detached' });
  await ui.pendingRegion(page).getByText(`${HEALTH} → ${GRUNT}`).waitFor();
  await page.keyboard.press('Control+z');
  await waitTarget(page, HEALTH, 'Pickup');
  await ui.pendingRegion(page).getByText('No unsaved changes.').waitFor();
  await ui.closeWithoutErrors(page);
});

test('Pick then a click on the 2D map sets the reference; Escape and the button again cancel pick mode', async () => {
  const page = await openBrute();
  await startPicking(page);
  await page.keyboard.press('Escape');
  await status(page).waitFor({ state: 'detached' });
  assert.equal(await pick(page).getAttribute('aria-pressed'), 'false');
  await startPicking(page);
  await pick(page).click();
  await status(page).waitFor({ state: 'detached' });

  await startPicking(page);
  // The pick line shows over the map: the point is taken once the map has
  // been laid out and drawn again.
  await page.evaluate(() => new Promise((r) => requestAnimationFrame(() => requestAnimationFrame(r))));
  const at = await ui.mapPagePoint(page, [-6, 0, 3]);
  await page.mouse.click(at.x, at.y);
  await waitTarget(page, AMMO, 'Pickup');
  assert.equal(await ui.selectedId(page), BRUTE);
  await ui.pendingRegion(page).getByText(`${HEALTH} → ${AMMO}`).waitFor();
  await ui.closeWithoutErrors(page);
});

test('Pick then a click in the 3D view sets the reference to the entity clicked', async () => {
  const page = await openBrute();
  await page.getByRole('button', { name: '3D', exact: true }).click();
  const view = page.getByRole('img', { name: '3D view of the world' });
  await page.locator('canvas.viewport[aria-busy="false"]').waitFor();
  // Grunt (at 0 0 10) and Brute (at 10 0 10) framed: the other Grunt, at
  // 5 0 10, is in the middle; Brute then selected alone, in view, leaves the
  // camera there (and carries the gizmo).
  await ui.selectEntity(page, GRUNT);
  await ui.option(page, BRUTE).click({ modifiers: ['ControlOrMeta'] });
  await view.focus();
  await page.keyboard.press('f');
  const camera = await view.getAttribute('data-camera');
  await ui.selectEntity(page, BRUTE);
  await startPicking(page);
  assert.equal(await view.getAttribute('data-camera'), camera);
  const box = await view.boundingBox();
  await page.mouse.click(box.x + box.width / 2, box.y + box.height / 2);
  await waitTarget(page, GRUNT2, 'Enemy · Grunt');
  assert.equal(await ui.selectedId(page), BRUTE);
  await ui.closeWithoutErrors(page);
});

test('an empty reference browses the first entities; past 20, a line says more match', async () => {
  const page = await ui.openSample(env);
  const prop = '0x77a31d7500000006'; // a Prop, whose parent is a reference
  await ui.selectEntity(page, prop);
  const parent = inspector(page).getByRole('combobox', { name: 'parent', exact: true });
  await parent.fill('');
  await parent.press('ArrowDown');
  const choices = inspector(page).getByRole('listbox', { name: 'parent: choices' });
  await choices.waitFor();
  assert.equal(await choices.getByRole('option').count(), 21, 'none and 20 entities');
  await inspector(page).getByText('More entities match: type more of a name or ID').waitFor();
  await parent.pressSequentially('0x77a31d750000000');
  await inspector(page).getByText('More entities match').waitFor({ state: 'detached' });
  await parent.press('Escape');
  await parent.press('Escape');
  await ui.closeWithoutErrors(page);
});

test('typing a name offers the entities it finds, Enter sets the first, and none clears the reference', async () => {
  const page = await openBrute();
  await target(page).fill('');
  await target(page).pressSequentially('gru');
  const choices = inspector(page).getByRole('listbox', { name: 'target: choices' });
  await choices.waitFor();
  assert.equal(await target(page).getAttribute('aria-expanded'), 'true');
  const offered = (await choices.getByRole('option').allTextContents()).map((t) => t.trim());
  assert.deepEqual(offered, ['none', `Grunt ${GRUNT} Enemy`, `Grunt ${GRUNT2} Enemy`]);
  const active = await target(page).getAttribute('aria-activedescendant');
  assert.equal(await page.locator(`#${active}`).getAttribute('aria-selected'), 'true');
  await page.keyboard.press('Enter');
  await waitTarget(page, GRUNT, 'Enemy · Grunt');
  assert.equal(await target(page).getAttribute('aria-expanded'), 'false');

  // Arrows open the list and move through it: none first.
  await page.keyboard.press('ArrowDown');
  await page.keyboard.press('ArrowDown');
  await page.keyboard.press('ArrowUp');
  await page.keyboard.press('Enter');
  await waitTarget(page, '');
  await inspector(page).locator('.ref-target').waitFor({ state: 'detached' });
  // A whole ID typed is committed as typed.
  await ui.commit(page, 'target', AMMO);
  await waitTarget(page, AMMO, 'Pickup');
  await ui.closeWithoutErrors(page);
});

test('screenshots: the search list open and pick mode, at two sizes, light and dark', async () => {
  const page = await openBrute();
  await ui.eachLook(page, async (width, colorScheme) => {
    await target(page).fill('');
    await target(page).pressSequentially('0x6e');
    await inspector(page).getByRole('listbox', { name: 'target: choices' }).waitFor();
    await ui.screenshot(page, `ref-picker-search-${width}-${colorScheme}`);
    await page.keyboard.press('Escape'); // the list closes
    await page.keyboard.press('Escape'); // the value back
    await startPicking(page);
    await ui.screenshot(page, `ref-picker-pick-${width}-${colorScheme}`);
    await page.keyboard.press('Escape');
    await status(page).waitFor({ state: 'detached' });
  });
  await ui.closeWithoutErrors(page);
});
