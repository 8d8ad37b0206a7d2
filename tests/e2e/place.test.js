// Browser tests of placing entities: Snap to grid (remembered across a
// reload) for drags on the map and typed positions, the place mode that
// creates an entity of the class chosen in Add entity where the map is
// clicked, and the keyboard shortcuts dialog that `?` opens.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import * as ui from './harness.js';

const env = ui.useInspector();

const mapOf = (page) => page.getByRole('img', { name: 'World map' });
const snapBox = (page) => page.getByRole('checkbox', { name: 'Snap to grid' });
const snapStep = (page) => page.getByRole('textbox', { name: 'Snap step' });

async function turnSnapOn(page, step) {
  await snapBox(page).check();
  await snapStep(page).fill(String(step));
}

const onGrid = (v, step) => Math.abs(v / step - Math.round(v / step)) < 1e-6;

test('snap to grid: a drag lands on the step on the map axes, typed positions on all three; the choice is remembered', async () => {
  const page = await ui.openSample(env);
  assert.equal(await snapBox(page).isChecked(), false, 'off by default');
  assert.equal(await snapStep(page).inputValue(), '1', 'a step of 1 by default');
  await turnSnapOn(page, 5);

  // A drag of 43 pixels: the axes the map shows land on multiples of 5.
  const [id] = await ui.visibleIds(page);
  await ui.selectEntity(page, id);
  const from = await ui.inspectedPosition(page);
  const start = await ui.mapPagePoint(page, from);
  await page.mouse.move(start.x, start.y);
  await page.mouse.down();
  await page.mouse.move(start.x + 43, start.y - 21, { steps: 8 });
  await page.mouse.up();
  await ui.waitUnsaved(page, id);
  const { axes, scale } = await ui.mapView(page);
  await page.waitForFunction(([a, x]) => Number(document.getElementById(`position-${a}`).value) !== x, ['XYZ'[axes[0]], from[axes[0]]]);
  const to = await ui.inspectedPosition(page);
  for (const a of axes) assert.ok(onGrid(to[a], 5), `axis ${a} on the grid: ${to}`);
  assert.ok(Math.abs(to[axes[0]] - (from[axes[0]] + 43 / scale)) <= 2.5 + 1 / scale, `moved by 43 px: ${from} -> ${to}`);
  const hidden = [0, 1, 2].find((a) => !axes.includes(a));
  assert.equal(to[hidden], from[hidden], 'the axis the map does not show is kept');

  // Typed positions snap on every axis.
  for (const [axis, typed, want] of [
    ['X', '12.3', '10'],
    ['Y', '7.6', '10'],
    ['Z', '-2.4', '0'],
  ]) {
    await ui.commit(page, `Position ${axis}`, typed);
    await page.waitForFunction(([a, w]) => document.getElementById(`position-${a}`).value === w, [axis, want]);
  }

  // Off again: a typed position is kept as typed.
  await snapBox(page).uncheck();
  await ui.commit(page, 'Position X', '12.3');
  await page.waitForFunction(() => document.getElementById('position-X').value === '12.3');

  // The choice and the step come back after a reload.
  await turnSnapOn(page, 2.5);
  await ui.reloadLeavingUnsaved(page);
  await ui.waitOpen(page);
  assert.equal(await snapBox(page).isChecked(), true);
  assert.equal(await snapStep(page).inputValue(), '2.5');
  await ui.closeWithoutErrors(page);
});

test('place mode: a click on empty map space creates the class chosen in Add entity there, snapped, one undo step; Escape leaves', async () => {
  const page = await ui.openSample(env);
  await turnSnapOn(page, 10);
  await page.getByRole('button', { name: 'Add entity' }).click();
  const dialog = page.getByRole('dialog', { name: 'Add entity' });
  await dialog.getByLabel('Class').selectOption('Light');
  // The axis the map does not show comes from the dialog (snapped too).
  const shown = (await ui.mapView(page)).axes;
  const hidden = [0, 1, 2].find((a) => !shown.includes(a));
  await dialog.getByLabel('XYZ'[hidden], { exact: true }).fill('12.3');
  await dialog.getByRole('button', { name: 'Place on map' }).click();
  await dialog.waitFor({ state: 'detached' });
  const mode = page.getByRole('status', { name: 'Place mode' });
  await mode.waitFor();
  assert.match(await mode.textContent(), /Click the map to place a Light/);
  assert.deepEqual(await ui.pendingItems(page), [], 'nothing created yet');

  // Pan the world out of view (Shift+arrows), so that the click is on empty space.
  const map = mapOf(page);
  await map.focus();
  for (let i = 0; i < 25; i++) await page.keyboard.press('Shift+ArrowLeft');
  const box = await map.boundingBox();
  const at = { x: box.x + box.width / 2 + 17, y: box.y + box.height / 2 - 23 };
  const [wx, wy] = await ui.mapWorldPoint(page, at);
  const previous = await ui.inspectedId(page);
  await page.mouse.click(at.x, at.y);
  const id = await ui.waitInspected(page, 'Light', previous);
  const { axes, scale } = await ui.mapView(page);
  const position = await ui.inspectedPosition(page);
  // On the grid, at the grid point nearest the click.
  for (const [k, clicked] of [wx, wy].entries()) {
    const placed = position[axes[k]];
    assert.ok(onGrid(placed, 10) && Math.abs(placed - clicked) <= 5 + 1 / scale, `placed at ${position}, clicked ${wx}, ${wy}`);
  }
  assert.equal(position[hidden], 10, 'the hidden axis as typed, snapped');
  assert.equal((await ui.pendingItems(page)).length, 1);
  await ui.option(page, id).waitFor();
  await ui.screenshot(page, 'place-mode');

  // One undo step removes it, and there is nothing more to undo.
  await page.keyboard.press('Control+z');
  await ui.option(page, id).waitFor({ state: 'detached' });
  await page.locator('button[aria-keyshortcuts="Control+Z"][disabled]').waitFor();
  assert.deepEqual(await ui.pendingItems(page), []);

  // Enter on the map places at its centre.
  const { center } = await ui.mapView(page);
  await map.focus();
  await page.keyboard.press('Enter');
  const want = center.map((c) => Math.round(c / 10) * 10 + 0);
  await page.waitForFunction(
    ([h, v, [wh, wv]]) =>
      document.querySelector('.inspector h2')?.textContent.startsWith('Light') &&
      Number(document.getElementById(`position-${h}`).value) === wh &&
      Number(document.getElementById(`position-${v}`).value) === wv,
    ['XYZ'[axes[0]], 'XYZ'[axes[1]], want],
  );
  const centred = await ui.inspectedId(page);
  assert.equal((await ui.pendingItems(page)).length, 1);
  await page.keyboard.press('Control+z');
  await ui.option(page, centred).waitFor({ state: 'detached' });

  // Escape leaves the mode: a click then places nothing.
  await page.keyboard.press('Escape');
  await mode.waitFor({ state: 'detached' });
  await page.mouse.click(at.x, at.y);
  await page.waitForTimeout(300);
  assert.deepEqual(await ui.pendingItems(page), []);
  await ui.closeWithoutErrors(page);
});

test('? opens the keyboard shortcuts, read from what the inspector does; Escape closes it and focus goes back', async () => {
  const page = await ui.openSample(env);
  // Typed in a text field, ? is text.
  const search = page.getByLabel('Search by name or ID');
  await search.fill('');
  await search.press('?');
  assert.equal(await search.inputValue(), '?');
  assert.equal(await page.getByRole('dialog').count(), 0);
  await search.fill('');

  const map = mapOf(page);
  await map.focus();
  await page.keyboard.press('?');
  const dialog = page.getByRole('dialog', { name: 'Keyboard shortcuts' });
  await dialog.waitFor();
  const listed = {
    Everywhere: { 'Ctrl+Z': 'Undo', 'Ctrl+Shift+Z, Ctrl+Y': 'Redo' },
    Map: { F: 'Frame the selection (the whole world when nothing is selected); Fit frames the world', 'Shift+Arrow keys': 'Pan' },
    'Entity list': {
      Delete: 'Delete the selected entities',
      'Ctrl+A': 'Select every entity listed',
      'Right, Left': 'Open a subtree or go to its first child; close it or go to the parent',
    },
  };
  for (const [where, keys] of Object.entries(listed)) {
    const region = dialog.getByRole('region', { name: where });
    for (const [key, what] of Object.entries(keys)) {
      await region.getByText(key, { exact: true }).waitFor();
      await region.getByText(what, { exact: true }).waitFor();
    }
  }
  await ui.screenshot(page, 'shortcuts');
  await page.keyboard.press('Escape');
  await dialog.waitFor({ state: 'detached' });
  assert.equal(await page.evaluate(() => document.activeElement?.getAttribute('aria-label')), 'World map');

  // The toolbar's button opens it too, and gets the focus back.
  const button = page.getByRole('button', { name: 'Keyboard shortcuts' });
  assert.equal(await button.getAttribute('title'), 'Keyboard shortcuts (?)');
  await button.click();
  await dialog.waitFor();
  await dialog.getByRole('button', { name: 'Close' }).click();
  await dialog.waitFor({ state: 'detached' });
  assert.equal(await page.evaluate(() => document.activeElement?.getAttribute('aria-label')), 'Keyboard shortcuts');
  await ui.closeWithoutErrors(page);
});
