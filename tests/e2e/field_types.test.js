// Browser tests of a world whose classes use every field type: the example
// game's level (assets/game_world, Enemy and Pickup). The class filter,
// the legend and the Add entity dialog come from the world's classes; the
// list names each entity by its name field and searches by it; each
// field type has its editor (numbers, a one-line string, a select for an
// enum, two numbers for a vec2, yaw / pitch / roll for a quat), the engine
// refuses what does not fit, and a save writes the values to disk.
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { test } from 'node:test';
import { quatOfAngles } from '../../web/src/lib/angles.js';
import { assets, copyWorld, entityFile } from '../shared/fixtures.js';
import * as ui from './harness.js';

const env = ui.useInspector();
const gameWorld = join(assets, 'game_world');
const BOSS = '0x6e89010142120005'; // Enemy "Brute": every new type set
const AMMO = '0x6e89010142120002'; // Pickup with stock 3

const inspector = (page) => page.getByRole('region', { name: 'Inspector' });
const input = (page, label) => inspector(page).getByLabel(label, { exact: true });

// The value of `key` in an entity file's text.
function keyValue(text, key) {
  const lines = text.split('\n');
  const at = lines.indexOf(`; ${key}`);
  assert.ok(at >= 0, `no key ${key} in\n${text}`);
  return lines[at + 1];
}

// Waits until the input labelled `label` shows `value`.
async function waitValue(page, label, value) {
  const el = await input(page, label).elementHandle();
  await page.waitForFunction(([e, want]) => e.value === want, [el, value]);
}

test("the class filter, legend and Add entity dialog list the world's classes", async () => {
  const page = await ui.openFolder(env, copyWorld(gameWorld));
  const filter = await page.getByLabel('Filter by class').locator('option').allTextContents();
  assert.deepEqual(filter, ['All classes (5)', 'Enemy (3)', 'Pickup (2)']);
  const legend = page.getByRole('list', { name: 'Classes' }).getByRole('listitem');
  assert.deepEqual(await legend.allTextContents(), ['Enemy', 'Pickup']);
  // The same colour for a class in the legend and in the list.
  const swatch = async (locator) =>
    locator
      .locator('.swatch')
      .first()
      .evaluate((el) => el.style.background);
  const enemyRow = ui.option(page, BOSS);
  assert.equal(await swatch(legend.filter({ hasText: 'Enemy' })), await swatch(enemyRow));
  assert.notEqual(await swatch(legend.filter({ hasText: 'Enemy' })), await swatch(legend.filter({ hasText: 'Pickup' })));

  await page.getByRole('button', { name: 'Add entity' }).click();
  // allTextContents does not wait: read the options once the dialog shows them.
  const classSelect = page.getByRole('dialog', { name: 'Add entity' }).getByLabel('Class');
  await classSelect.locator('option').first().waitFor({ state: 'attached' });
  const classes = await classSelect.locator('option').allTextContents();
  // The world's own classes first (the inspector's compiled ones after),
  // the first of them chosen.
  assert.deepEqual(classes.slice(0, 2), ['Enemy', 'Pickup'], classes.join(', '));
  assert.equal(await classSelect.inputValue(), 'Enemy');
  await classSelect.selectOption('Enemy');
  await page.getByRole('dialog').getByRole('button', { name: 'Create' }).click();
  await ui.waitInspected(page, 'Enemy', null);
  // A new Enemy has the class defaults, in the editors of their types.
  assert.equal(await input(page, 'name').inputValue(), 'Grunt');
  assert.equal(await input(page, 'rank').inputValue(), 'grunt');
  assert.equal(await input(page, 'level').inputValue(), '1');
  assert.deepEqual(
    await Promise.all(['facing yaw', 'facing pitch', 'facing roll', 'patrol X', 'patrol Y'].map((l) => input(page, l).inputValue())),
    ['0', '0', '0', '4', '4'],
  );
  await ui.closeWithoutErrors(page);
});

test('the list names each Enemy by its name field beside its ID, and the search finds it by name', async () => {
  const page = await ui.openFolder(env, copyWorld(gameWorld));
  const row = ui.option(page, BOSS);
  assert.equal(await row.locator('.name').textContent(), 'Brute');
  assert.equal(await row.locator('.id').textContent(), BOSS, 'the ID, whole, beside the name');
  assert.match(await row.getAttribute('aria-label'), new RegExp(`^Brute ${BOSS} Enemy `));
  assert.equal(await ui.option(page, AMMO).locator('.name').count(), 0, 'a Pickup has no string field: its ID alone');
  await ui.screenshot(page, 'list-names');

  const search = page.getByLabel('Search by name or ID');
  await search.fill('bRu');
  await ui.waitListed(page, 1);
  assert.deepEqual(await ui.visibleIds(page), [BOSS]);
  await search.fill('grunt');
  await ui.waitListed(page, 2);
  await search.fill('');
  await ui.selectEntity(page, BOSS);
  await inspector(page)
    .getByRole('heading', { name: `Brute Enemy ${BOSS}` })
    .waitFor();
  await ui.closeWithoutErrors(page);
});

test('edits i32, u32, string, enum, vec2 and quat fields, and a save writes them', async () => {
  const dir = copyWorld(gameWorld);
  const page = await ui.openFolder(env, dir);
  await ui.selectEntity(page, BOSS);
  assert.equal(await input(page, 'name').inputValue(), 'Brute');
  assert.equal(await input(page, 'rank').inputValue(), 'boss');
  assert.deepEqual(await input(page, 'rank').locator('option').allTextContents(), ['grunt', 'elite', 'boss']);
  assert.equal(await input(page, 'level').inputValue(), '3');
  // The file's 0 0.70710677 0 0.70710677: a quarter turn about +Y.
  assert.equal(await input(page, 'facing yaw').inputValue(), '90');
  assert.equal(await input(page, 'facing pitch').inputValue(), '0');
  assert.equal(await input(page, 'patrol Y').inputValue(), '2.5');

  // What the engine refuses stays typed, with its message.
  const refused = [
    ['level', '1.5', 'unexpected character in whole number (column 2)'],
    ['level', '2147483648', 'number out of range (-2147483648 to 2147483647)'],
    ['name', 'tab\there', 'control character in string (column 4)'],
    ['patrol X', 'far', 'expected a number'],
    ['facing pitch', 'up', 'expected a number'],
  ];
  for (const [label, text, message] of refused) {
    await ui.commit(page, label, text);
    assert.equal(await ui.fieldError(page, label), message, `${label} = ${text}`);
    await input(page, label).press('Escape');
  }
  assert.deepEqual(await ui.pendingItems(page), []);

  await ui.commit(page, 'level', '-7');
  await ui.waitUnsaved(page, BOSS);
  // A string is what is typed: blanks, quotes and backslashes included.
  await ui.commit(page, 'name', ' Brute "the" \\ Boss ');
  await waitValue(page, 'name', ' Brute "the" \\ Boss ');
  await input(page, 'rank').selectOption('elite');
  await ui.commit(page, 'patrol X', '7.25');
  await waitValue(page, 'patrol X', '7.25');
  await ui.commit(page, 'facing yaw', '30');
  await waitValue(page, 'facing yaw', '30');
  await ui.commit(page, 'facing pitch', '-15.5');
  await waitValue(page, 'facing pitch', '-15.5');
  assert.equal(await input(page, 'facing yaw').inputValue(), '30', 'yaw kept when the pitch changes');
  assert.equal(await input(page, 'facing roll').inputValue(), '0');
  // Pitch past 90 degrees: the angles stay as typed (the same rotation
  // read back would be yaw -150, pitch 60, roll 180).
  const reviewed = await ui.pendingRegion(page).textContent();
  await ui.commit(page, 'facing pitch', '120');
  await page.waitForFunction((old) => document.querySelector('[aria-label="Pending changes"]').textContent !== old, reviewed);
  assert.deepEqual(await Promise.all(['facing yaw', 'facing pitch', 'facing roll'].map((l) => input(page, l).inputValue())), [
    '30',
    '120',
    '0',
  ]);
  await ui.commit(page, 'facing pitch', '-15.5');
  await waitValue(page, 'facing pitch', '-15.5');
  await ui.screenshot(page, 'field-types-enemy');

  await ui.selectEntity(page, AMMO);
  assert.equal(await input(page, 'stock').inputValue(), '3');
  await ui.commit(page, 'stock', '-1');
  assert.equal(await ui.fieldError(page, 'stock'), 'must be 0 or more');
  await ui.commit(page, 'stock', '4294967295');
  await ui.waitUnsaved(page, AMMO);
  await ui.screenshot(page, 'field-types');

  await ui.saveAndWait(page);
  const boss = readFileSync(join(dir, entityFile(BOSS)), 'utf8');
  assert.equal(keyValue(boss, 'level'), '-7');
  assert.equal(keyValue(boss, 'name'), '" Brute \\"the\\" \\\\ Boss "');
  assert.equal(keyValue(boss, 'rank'), 'elite');
  assert.equal(keyValue(boss, 'patrol'), '7.25 2.5');
  // The stored quat is the normalized quat of the angles, as float32.
  const stored = keyValue(boss, 'facing').split(' ').map(Number);
  const expected = quatOfAngles([30, -15.5, 0]);
  stored.forEach((v, i) => assert.ok(Math.abs(v - expected[i]) < 1e-7, `facing ${stored} ~ ${expected}`));
  assert.ok(Math.abs(Math.hypot(...stored) - 1) < 1e-6, 'normalized');
  assert.equal(keyValue(readFileSync(join(dir, entityFile(AMMO)), 'utf8'), 'stock'), '4294967295');
  await ui.closeWithoutErrors(page);
});
