// Browser tests of editing several entities at once: Shift-click and
// Ctrl-click in the list and on the map, Ctrl+A, the rubber band on the map; delete,
// drag and a field set on the whole selection, each one undo step;
// Duplicate (button and Ctrl+D) with new IDs, offset, links inside the
// copied group kept; Copy in one page and Paste in another page on another
// world through the system clipboard, text that is not entity text refused,
// and the keys left to text fields.
import assert from 'node:assert/strict';
import { rmSync } from 'node:fs';
import { join } from 'node:path';
import { test } from 'node:test';
import { assets, copyWorld, entityFile } from '../shared/fixtures.js';
import * as ui from './harness.js';

const env = ui.useInspector();
const gameWorld = join(assets, 'game_world');
const PICKUP = '0x6e89010142120001'; // at 4 0 -2
const PICKUP2 = '0x6e89010142120002'; // at -6 0 3
const GRUNT = '0x6e89010142120003'; // Enemy at 0 0 10, target PICKUP
const ENEMY2 = '0x6e89010142120004'; // Enemy at 5 0 10
const BRUTE = '0x6e89010142120005'; // Enemy at 10 0 10, target PICKUP; the Grunts' parent
const ALL = [PICKUP, PICKUP2, GRUNT, ENEMY2, BRUTE];

// The IDs the list marks selected (the rows in view).
function selectedOptions(page) {
  return ui
    .entityOptions(page)
    .and(page.locator('[aria-selected="true"]'))
    .evaluateAll((els) => els.map((el) => el.id.replace(/^entity-/, '')));
}

async function expectSelected(page, ids) {
  const want = JSON.stringify([...ids].sort());
  let got;
  for (const deadline = Date.now() + 10_000; Date.now() < deadline;) {
    got = JSON.stringify((await selectedOptions(page)).sort());
    if (got === want) return;
    await new Promise((done) => setTimeout(done, 50));
  }
  assert.fail(`selected: want ${want}, got ${got}`);
}

function heading(page) {
  return page.getByRole('region', { name: 'Inspector' }).getByRole('heading', { level: 2 });
}

// The value of a text field of the inspector once it is `want`.
async function fieldIs(page, label, want) {
  await page.waitForFunction(
    ([l, w]) =>
      [...document.querySelectorAll('.inspector label')].some(
        (el) => el.textContent === l && document.getElementById(el.htmlFor)?.value === w,
      ),
    [label, want],
  );
}

// Entities `ids` (one per class, in the list) by their class's name: a
// copy of a Grunt lists under the Brute, a Pickup's at the top.
async function byClass(page, ids) {
  const out = {};
  for (const id of ids) out[await ui.option(page, id).locator('.cls').textContent()] = id;
  return out;
}

// A click at page point `at` with `key` held.
async function clickWith(page, key, at) {
  await page.keyboard.down(key);
  await page.mouse.click(at.x, at.y);
  await page.keyboard.up(key);
}

// A page with a copy of the game world open (its Enemy has a reference).
async function openGame(options) {
  return ui.openFolder(env, copyWorld(gameWorld), options);
}

test('Shift-click (and Shift+Down) selects a range, Ctrl-click adds or takes out one, Ctrl+A selects what is listed; the inspector shows the count', async () => {
  const page = await openGame();
  await ui.option(page, PICKUP).click();
  await ui.option(page, GRUNT).click({ modifiers: ['Shift'] });
  await expectSelected(page, [PICKUP, PICKUP2, BRUTE, GRUNT]); // the Grunts show under the Brute
  await heading(page).filter({ hasText: '4 entities selected' }).waitFor();
  await page.getByRole('region', { name: 'Inspector' }).getByText('2 Pickup, 2 Enemy').waitFor();
  await ui.option(page, PICKUP2).click({ modifiers: ['Control'] });
  await expectSelected(page, [PICKUP, BRUTE, GRUNT]);
  await ui.option(page, ENEMY2).click({ modifiers: ['Control'] });
  await expectSelected(page, [PICKUP, BRUTE, GRUNT, ENEMY2]);
  // A Shift-click ranges from the entity last clicked without Shift.
  await ui.option(page, BRUTE).click({ modifiers: ['Shift'] });
  await expectSelected(page, [BRUTE, GRUNT, ENEMY2]);
  // A plain click selects one again.
  await ui.selectEntity(page, PICKUP2);
  await expectSelected(page, [PICKUP2]);
  // Shift with Down extends the selection from the keyboard.
  const list = page.getByRole('tree', { name: 'Entity list' });
  await list.press('Shift+ArrowDown');
  await list.press('Shift+ArrowDown');
  await expectSelected(page, [PICKUP2, BRUTE, GRUNT]);
  await list.press('ArrowDown');
  await expectSelected(page, [ENEMY2]);
  // Ctrl+A selects what the list shows: with a class filter, that class.
  await page.getByLabel('Filter by class').selectOption('Enemy');
  await list.press('Control+a');
  await expectSelected(page, [GRUNT, ENEMY2, BRUTE]);
  await heading(page).filter({ hasText: '3 entities selected' }).waitFor();
  await page.getByLabel('Filter by class').selectOption('');
  await ui.mapOf(page).press('Control+a');
  await expectSelected(page, ALL);
  await heading(page).filter({ hasText: '5 entities selected' }).waitFor();
  await ui.closeWithoutErrors(page);
});

test('with several selected, Position X typed as +5 moves each by 5, as -=2.5 back by 2.5; a plain number places them all', async () => {
  const page = await openGame();
  await ui.option(page, BRUTE).click();
  await ui.option(page, ENEMY2).click({ modifiers: ['Shift'] });
  await heading(page).filter({ hasText: '3 entities selected' }).waitFor();
  await page.getByText('Type +5 or -=2.5 to move each by that much.').waitFor();
  assert.equal(await page.getByLabel('Position X', { exact: true }).getAttribute('placeholder'), 'mixed');
  await ui.commit(page, 'Position X', '+5');
  await ui.pendingRegion(page).getByText('0 0 10 → 5 0 10').first().waitFor();
  await ui.pendingRegion(page).getByText('10 0 10 → 15 0 10').waitFor();
  await ui.commit(page, 'Position X', '-=2.5');
  await ui.pendingRegion(page).getByText('10 0 10 → 12.5 0 10').waitFor();
  await ui.commit(page, 'Position X', '-2.5');
  await fieldIs(page, 'Position X', '-2.5');
  await ui.screenshot(page, 'multi-offset');
  await page.locator('body').press('Control+z');
  await ui.pendingRegion(page).getByText('10 0 10 → 12.5 0 10').waitFor();
  await ui.closeWithoutErrors(page);
});

test('a field set with several selected sets it on each that has it, one undo step', async () => {
  const page = await openGame();
  await ui.option(page, BRUTE).click();
  await ui.option(page, ENEMY2).click({ modifiers: ['Shift'] });
  await heading(page).filter({ hasText: '3 entities selected' }).waitFor();
  // Shared values show, different ones do not.
  await fieldIs(page, 'speed', '3.5');
  await fieldIs(page, 'health', '');
  assert.equal(await page.getByLabel('health', { exact: true }).getAttribute('placeholder'), 'mixed');
  await ui.commit(page, 'health', '42');
  await fieldIs(page, 'health', '42');
  for (const id of [GRUNT, ENEMY2, BRUTE]) await ui.waitUnsaved(page, id);
  await ui.screenshot(page, 'multi-field');

  await page.locator('body').press('Control+z');
  await fieldIs(page, 'health', '');
  await ui.pendingRegion(page).getByText('No unsaved changes.').waitFor();
  assert.equal(await page.getByRole('button', { name: 'Undo' }).isDisabled(), true, 'one step undid all three');
  await page.locator('body').press('Control+Shift+z');
  for (const id of [GRUNT, ENEMY2, BRUTE]) await ui.waitUnsaved(page, id);
  await ui.selectEntity(page, BRUTE);
  await fieldIs(page, 'health', '42');

  // Position: one axis set on all, each keeping its others.
  await ui.option(page, PICKUP).click();
  await ui.option(page, PICKUP2).click({ modifiers: ['Control'] });
  await fieldIs(page, 'Position X', '');
  await fieldIs(page, 'Position Y', '0');
  await ui.commit(page, 'Position Y', '7');
  await fieldIs(page, 'Position Y', '7');
  await fieldIs(page, 'Position X', '');
  await ui.closeWithoutErrors(page);
});

test('Delete removes every selected entity, one undo brings them all back, redo removes them again', async () => {
  const dir = copyWorld(gameWorld);
  const page = await ui.openFolder(env, dir);
  await ui.option(page, BRUTE).click();
  await ui.option(page, ENEMY2).click({ modifiers: ['Shift'] });
  await page.getByRole('button', { name: 'Delete 3 entities' }).click();
  for (const id of [BRUTE, GRUNT, ENEMY2]) await ui.option(page, id).waitFor({ state: 'detached' });
  await page.getByRole('status').filter({ hasText: 'Deleted 3 entities' }).waitFor();

  await page.locator('body').press('Control+z');
  for (const id of [BRUTE, GRUNT, ENEMY2]) await ui.option(page, id).waitFor();
  await ui.pendingRegion(page).getByText('No unsaved changes.').waitFor();
  await expectSelected(page, [BRUTE, GRUNT, ENEMY2]);
  // The Delete key on the list does the same.
  await page.getByRole('tree', { name: 'Entity list' }).press('Delete');
  for (const id of [BRUTE, GRUNT, ENEMY2]) await ui.option(page, id).waitFor({ state: 'detached' });
  await page.locator('body').press('Control+z');
  await ui.option(page, GRUNT).waitFor();
  await page.locator('body').press('Control+Shift+z');
  await ui.option(page, GRUNT).waitFor({ state: 'detached' });
  await ui.saveAndWait(page, /^Saved 0 files and deleted 3 files/);
  assert.deepEqual((await ui.visibleIds(page)).sort(), [PICKUP, PICKUP2]);
  await ui.closeWithoutErrors(page);
});

test('the rubber band, Shift-click and Ctrl-click select on the map; a drag moves the selection, one undo step', async () => {
  const page = await openGame();
  const map = ui.mapOf(page);
  await page.getByRole('button', { name: /^Top/ }).click();
  await page.waitForFunction(() => JSON.parse(document.querySelector('canvas').dataset.view).axes.join() === '0,2');
  // Zoomed out, for empty space around the entities.
  const framed = JSON.parse(await map.getAttribute('data-view')).scale;
  await map.focus();
  await page.keyboard.press('-');
  await page.keyboard.press('-');
  await page.waitForFunction((s) => JSON.parse(document.querySelector('canvas').dataset.view).scale < s * 0.7, framed);
  // A band around the three enemies (z = 10), none of the pickups.
  const from = await ui.mapPagePoint(page, [-2, 0, 12]);
  const to = await ui.mapPagePoint(page, [12, 0, 8]);
  await page.mouse.move(from.x, from.y);
  await page.mouse.down();
  await page.mouse.move(to.x, to.y, { steps: 6 });
  await ui.screenshot(page, 'multi-band');
  await page.mouse.up();
  await expectSelected(page, [GRUNT, ENEMY2, BRUTE]);
  await heading(page).filter({ hasText: '3 entities selected' }).waitFor();

  // Shift-click adds a pickup, Ctrl-click takes an enemy out.
  const pickup = await ui.mapPagePoint(page, [4, 0, -2]);
  await clickWith(page, 'Shift', pickup);
  await expectSelected(page, [GRUNT, ENEMY2, BRUTE, PICKUP]);
  const enemy2 = await ui.mapPagePoint(page, [5, 0, 10]);
  await clickWith(page, 'Control', enemy2);
  await expectSelected(page, [GRUNT, BRUTE, PICKUP]);

  // Drag the Brute 60 px right: the three selected move by the same distance.
  const { scale } = JSON.parse(await map.getAttribute('data-view'));
  const brute = await ui.mapPagePoint(page, [10, 0, 10]);
  await page.mouse.move(brute.x, brute.y);
  await page.mouse.down();
  await page.mouse.move(brute.x + 60, brute.y, { steps: 8 });
  await page.mouse.up();
  for (const id of [GRUNT, BRUTE, PICKUP]) await ui.waitUnsaved(page, id);
  await expectSelected(page, [GRUNT, BRUTE, PICKUP]);
  const dx = Math.round((60 / scale) * 100) / 100;
  await ui.selectEntity(page, GRUNT);
  await fieldIs(page, 'Position X', String(Number((0 + dx).toFixed(2))));
  await ui.selectEntity(page, PICKUP);
  await fieldIs(page, 'Position X', String(Number((4 + dx).toFixed(2))));
  await fieldIs(page, 'Position Z', '-2');
  assert.equal(await ui.option(page, ENEMY2).getAttribute('aria-label'), `Grunt ${ENEMY2} Enemy 5, 0, 10`, 'not moved, not unsaved');

  await page.locator('body').press('Control+z');
  await ui.pendingRegion(page).getByText('No unsaved changes.').waitFor();
  await expectSelected(page, [GRUNT, BRUTE, PICKUP]);
  await ui.selectEntity(page, PICKUP);
  await fieldIs(page, 'Position X', '4');
  await ui.closeWithoutErrors(page);
});

test('Duplicate (the button and Ctrl+D) makes copies with new IDs, offset, selected, links inside the group kept', async () => {
  const page = await openGame();
  await ui.option(page, PICKUP).click();
  await ui.option(page, GRUNT).click({ modifiers: ['Control'] });
  await page.getByRole('button', { name: 'Duplicate' }).click();
  await page.getByRole('status').filter({ hasText: 'Duplicated 2 entities' }).waitFor();
  const copies = (await ui.visibleIds(page)).filter((id) => !ALL.includes(id));
  assert.equal(copies.length, 2);
  await expectSelected(page, copies);
  await ui.screenshot(page, 'multi-duplicate');
  // Each copy is next to its original; the Grunt's copy targets the Pickup's copy.
  const { scale } = JSON.parse(await ui.mapOf(page).getAttribute('data-view'));
  const d = Math.max(0.01, Math.round((16 / scale) * 100) / 100);
  const { Pickup: pickupCopy, Enemy: gruntCopy } = await byClass(page, copies);
  await ui.selectEntity(page, gruntCopy);
  await page.getByRole('heading', { name: `Enemy ${gruntCopy}` }).waitFor();
  await fieldIs(page, 'target', pickupCopy);
  await fieldIs(page, 'Position X', String(Number((0 + d).toFixed(2))));
  await fieldIs(page, 'Position Z', String(Number((10 - d).toFixed(2))));
  await ui.selectEntity(page, pickupCopy);
  await fieldIs(page, 'Position X', String(Number((4 + d).toFixed(2))));

  // One undo removes both copies.
  await page.locator('body').press('Control+z');
  for (const id of copies) await ui.option(page, id).waitFor({ state: 'detached' });
  await ui.pendingRegion(page).getByText('No unsaved changes.').waitFor();

  // Ctrl+D from the list: a copy of the Brute, whose target (outside the group) stays.
  await ui.selectEntity(page, BRUTE);
  await page.getByRole('tree', { name: 'Entity list' }).press('Control+d');
  await page.getByRole('status').filter({ hasText: 'Duplicated 1 entity' }).waitFor();
  const [bruteCopy] = (await ui.visibleIds(page)).filter((id) => !ALL.includes(id));
  await page.getByRole('heading', { name: `Enemy ${bruteCopy}` }).waitFor();
  await fieldIs(page, 'target', PICKUP);
  await fieldIs(page, 'name', 'Brute');

  // With Snap on, copies are a whole number of grid steps away.
  await page.getByRole('checkbox', { name: 'Snap to grid' }).check();
  await page.getByLabel('Snap step', { exact: true }).fill('2');
  await ui.selectEntity(page, BRUTE);
  await page.getByRole('tree', { name: 'Entity list' }).press('Control+d');
  await page.waitForFunction(
    (known) => {
      const id = document.querySelector('.inspector h2 code')?.textContent.trim();
      return id && !known.includes(id);
    },
    [...ALL, bruteCopy],
  );
  const [x] = await ui.inspectedPosition(page);
  assert.ok(x !== 10 && (x - 10) % 2 === 0, `the copy's X ${x} is a whole number of steps of 2 from 10`);
  await ui.closeWithoutErrors(page);
});

test('Copy in one page and Paste in another page on another world; text that is not entities changes nothing', async () => {
  const context = await env.browser.newContext({ viewport: { width: 1440, height: 900 }, acceptDownloads: true });
  await context.grantPermissions(['clipboard-read', 'clipboard-write'], { origin: new URL(env.url).origin });
  // The other world: the game world without the two entities copied.
  const other = copyWorld(gameWorld);
  for (const id of [PICKUP, GRUNT]) rmSync(join(other, entityFile(id)));
  const source = await openGame({ context });
  const target = await ui.openFolder(env, other, { context });

  await ui.option(source, PICKUP).click();
  await ui.option(source, GRUNT).click({ modifiers: ['Control'] });
  await source.getByRole('tree', { name: 'Entity list' }).press('Control+c');
  await source.getByRole('status').filter({ hasText: 'Copied 2 entities' }).waitFor();
  const text = await source.evaluate(() => navigator.clipboard.readText());
  assert.match(text, /^# juliet entities 2\n# Pickup 0x6e89010142120001\n; asset_type\n/);

  // Into the other world: the IDs are free there, so kept, with the link.
  await target.bringToFront();
  await target.getByRole('tree', { name: 'Entity list' }).press('Control+v');
  await target.getByRole('status').filter({ hasText: 'Pasted 2 entities' }).waitFor();
  await expectSelected(target, [PICKUP, GRUNT]);
  await ui.selectEntity(target, GRUNT);
  await fieldIs(target, 'target', PICKUP);
  await fieldIs(target, 'Position X', '0');
  await ui.saveAndWait(target, /^Saved 2 files and deleted 0 files/);

  // Into the world it came from: the IDs are taken, so new ones, linked.
  await source.bringToFront();
  await source.locator('body').press('Control+v');
  await source.getByRole('status').filter({ hasText: 'Pasted 2 entities' }).waitFor();
  const pasted = (await ui.visibleIds(source)).filter((id) => !ALL.includes(id));
  assert.equal(pasted.length, 2);
  const { Pickup: pickupPasted, Enemy: gruntPasted } = await byClass(source, pasted);
  await ui.selectEntity(source, gruntPasted);
  await fieldIs(source, 'target', pickupPasted);
  await source.locator('body').press('Control+z');
  for (const id of pasted) await ui.option(source, id).waitFor({ state: 'detached' });

  // Not entity text: a message, nothing added.
  await source.evaluate(() => navigator.clipboard.writeText('hello world'));
  await source.locator('body').press('Control+v');
  await source
    .getByRole('alert')
    .filter({ hasText: /Nothing pasted: The clipboard holds no entity text/ })
    .waitFor();
  assert.equal((await ui.visibleIds(source)).length, ALL.length);
  // Entity text the engine refuses: the message names the line.
  await source.evaluate((t) => navigator.clipboard.writeText(t.replace('; amount\n25', '; amount\nlots')), text);
  await source.locator('body').press('Control+v');
  await source
    .getByRole('alert')
    .filter({ hasText: /Nothing pasted: clipboard:\d+:1: / })
    .waitFor();
  assert.equal((await ui.visibleIds(source)).length, ALL.length);

  // In a text field the keys are the field's: Ctrl+C copies no entities,
  // Ctrl+V pastes text into the field.
  await source.evaluate(() => navigator.clipboard.writeText('0x6e89'));
  const search = source.getByLabel('Search by name or ID');
  await search.focus();
  await search.press('Control+c');
  assert.equal(await source.evaluate(() => navigator.clipboard.readText()), '0x6e89');
  await search.press('Control+v');
  assert.equal(await search.inputValue(), '0x6e89');
  assert.equal((await ui.visibleIds(source)).length, ALL.length);
  assert.deepEqual(source.errors, []);
  assert.deepEqual(target.errors, []);
  await context.close();
});
