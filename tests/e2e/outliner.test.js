// Browser tests of the entity list as an outliner, on the sample world
// (whose Props have `parent` references): each entity under its parent,
// subtrees closed and opened by the arrow and by keyboard, kept for the
// world; a search shows its matches under their ancestors; a drag puts
// entities under another (one undo step) or at the top level, and one that would
// make a cycle is refused with a message. Screenshots at two sizes, light
// and dark (a11y.test.js checks the outliner with axe-core).
import assert from 'node:assert/strict';
import { test } from 'node:test';
import * as ui from './harness.js';

const env = ui.useInspector();
const LIGHT = '0x77a31d7500000002'; // a Light at the top
const INERT = '0x77a31d7500000005'; // an Inert at the top: 5 <- 6 <- 7
const PROP6 = '0x77a31d7500000006'; // a Prop under INERT
const PROP7 = '0x77a31d7500000007'; // a Prop under PROP6

const tree = (page) => page.getByRole('tree', { name: 'Entity list' });
const level = (page, id) => ui.option(page, id).getAttribute('aria-level');
const expanded = (page, id) => ui.option(page, id).getAttribute('aria-expanded');
// Waits until the row of `id` is open ('true') or closed ('false').
const waitExpanded = (page, id, want) =>
  page.waitForFunction(([i, w]) => document.getElementById(`entity-${i}`)?.getAttribute('aria-expanded') === w, [id, want]);
const waitInspected = (page, id) => page.waitForFunction((i) => document.querySelector('.inspector h2 code')?.textContent.trim() === i, id);
const parentField = (page) => page.getByRole('region', { name: 'Inspector' }).getByRole('combobox', { name: 'parent', exact: true });

test('each entity shows under its parent; the arrow and Left/Right close and open a subtree, kept for the world', async () => {
  const page = await ui.openSample(env);
  assert.equal(await level(page, INERT), '1');
  assert.equal(await level(page, PROP6), '2');
  assert.equal(await level(page, PROP7), '3');
  assert.equal(await expanded(page, INERT), 'true');
  assert.equal(await expanded(page, PROP7), null, 'a leaf is neither open nor closed');

  // The arrow closes the subtree, and does not select.
  await ui.option(page, INERT).locator('.twisty').click();
  await waitExpanded(page, INERT, 'false');
  await ui.option(page, PROP6).waitFor({ state: 'detached' });
  assert.equal(await ui.option(page, INERT).getAttribute('aria-selected'), 'false');

  // By keyboard: Right opens, Right again goes to the first child; Left
  // closes an open subtree, Left again goes to the parent.
  await ui.selectEntity(page, INERT);
  await tree(page).press('ArrowRight');
  await waitExpanded(page, INERT, 'true');
  await tree(page).press('ArrowRight');
  await waitInspected(page, PROP6);
  await tree(page).press('ArrowLeft');
  await waitExpanded(page, PROP6, 'false');
  await ui.option(page, PROP7).waitFor({ state: 'detached' });
  await tree(page).press('ArrowLeft');
  await waitInspected(page, INERT);

  // Closed subtrees are kept for the world; one that holds the entity
  // selected elsewhere opens.
  await page.waitForTimeout(800); // kept a moment after the change
  await page.reload();
  await ui.waitOpen(page);
  await waitExpanded(page, PROP6, 'false');
  await ui.option(page, PROP7).waitFor({ state: 'detached' });
  await page.getByLabel('Search by name or ID').fill(PROP7);
  await ui.option(page, PROP7).click();
  await page.getByLabel('Search by name or ID').fill('');
  await ui.option(page, PROP7).waitFor();
  await waitExpanded(page, PROP6, 'true');
  await page.waitForTimeout(800);
  await ui.closeWithoutErrors(page);
});

test('a search shows what it finds under its ancestors, marked outside the filter', async () => {
  const page = await ui.openSample(env);
  await page.getByLabel('Search by name or ID').fill(PROP7);
  await page.waitForFunction(() => document.querySelectorAll('[role=treeitem]').length === 3);
  assert.match(await ui.option(page, INERT).getAttribute('aria-label'), /, outside the filter$/);
  assert.match(await ui.option(page, PROP6).getAttribute('aria-label'), /, outside the filter$/);
  assert.deepEqual(await ui.visibleIds(page), [PROP7]);
  await ui.closeWithoutErrors(page);
});

test('a drag puts an entity under another as one undo step, and onto the empty space at the top', async () => {
  const page = await ui.openSample(env);
  await ui.selectEntity(page, PROP7);
  await ui.option(page, PROP7).dragTo(ui.option(page, LIGHT));
  await page.waitForFunction((id) => document.getElementById(`entity-${id}`)?.getAttribute('aria-level') === '2', PROP7);
  assert.equal(await parentField(page).inputValue(), LIGHT);
  assert.equal(await expanded(page, PROP6), null, 'PROP6 has no child now');
  await ui.waitUnsaved(page, PROP7);

  await page.keyboard.press('Control+z');
  await page.waitForFunction((id) => document.getElementById(`entity-${id}`)?.getAttribute('aria-level') === '3', PROP7);
  assert.equal(await parentField(page).inputValue(), PROP6);
  await ui.pendingRegion(page).getByText('No unsaved changes.').waitFor();

  // Onto the strip that shows over the list's top while dragging: no parent.
  const from = await ui.option(page, PROP7).boundingBox();
  await page.mouse.move(from.x + 40, from.y + from.height / 2);
  await page.mouse.down();
  await page.mouse.move(from.x + 44, from.y + from.height / 2 + 6);
  const strip = await page.getByText('Drop here: no parent').boundingBox();
  await page.mouse.move(strip.x + 40, strip.y + strip.height / 2, { steps: 4 });
  await page.mouse.up();
  await page.waitForFunction((id) => document.getElementById(`entity-${id}`)?.getAttribute('aria-level') === '1', PROP7);
  assert.equal(await parentField(page).inputValue(), '');
  await ui.closeWithoutErrors(page);
});

test('a drag that would make a cycle is refused with a message and changes nothing; so is the parent field', async () => {
  const page = await ui.openSample(env);
  await ui.option(page, PROP6).dragTo(ui.option(page, PROP7));
  const alert = page.getByRole('alert');
  await alert.getByText(/cannot be the parent of Prop 0x77a31d7500000006: it is under it/).waitFor();
  assert.equal(await level(page, PROP7), '3');
  await ui.pendingRegion(page).getByText('No unsaved changes.').waitFor();

  await ui.selectEntity(page, PROP6);
  await ui.commit(page, 'parent', PROP7);
  assert.match(await ui.fieldError(page, 'parent'), /it is under it/);
  await ui.pendingRegion(page).getByText('No unsaved changes.').waitFor();
  await ui.closeWithoutErrors(page);
});

test('screenshots: the outliner with a closed subtree and a search, at two sizes, light and dark', async () => {
  const page = await ui.openSample(env);
  await ui.option(page, PROP6).locator('.twisty').click();
  await ui.selectEntity(page, PROP6);
  await ui.eachLook(page, async (width, colorScheme) => {
    await page.getByLabel('Search by name or ID').fill('');
    await ui.screenshot(page, `outliner-${width}-${colorScheme}`);
    await page.getByLabel('Search by name or ID').fill(PROP7);
    await ui.screenshot(page, `outliner-search-${width}-${colorScheme}`);
  });
  await ui.option(page, PROP6).locator('.twisty').click();
  await page.waitForTimeout(800);
  await ui.closeWithoutErrors(page);
});
