// The Conflicts panel of a served world stays compact: with several
// conflicts on a 1024x700 window it takes a bounded part of the height,
// the list scrolls, each conflict's field to pick and the buttons that pick
// are in view together, and the panel folds to one line. A conflict that
// arrives moves no row of the entity list. Changes of different fields on
// disk and in the page merge with no conflict; a field changed on both is
// picked field by field, by keyboard too, in a panel with no WCAG
// violation. Screenshots at 1440x900 and 1024x700
// (tests/e2e/artifacts/server-conflicts-*.png, light and dark for the
// field-by-field pick).
import assert from 'node:assert/strict';
import { writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { join } from 'node:path';
import { test } from 'node:test';
import { assets, copyWorld, entityFile } from '../shared/fixtures.js';
import * as ui from './harness.js';
import { messages, moveOnDisk, readEntity, serveWorld, until, useChromium } from './worldServer.js';

const chromium = useChromium();

const COUNT = 4;

// The element's box, in CSS pixels.
const box = (locator) => locator.evaluate((el) => el.getBoundingClientRect().toJSON());

// A served copy of the sample with COUNT entities changed in the page and
// on disk, on a page of `viewport`.
async function withConflicts(viewport) {
  const dir = ui.copySample();
  const server = await serveWorld(dir);
  const page = await ui.newPage(chromium.browser, { viewport });
  await page.goto(server.url);
  await ui.waitOpen(page);
  const ids = (await ui.visibleIds(page)).slice(0, COUNT);
  const conflictsShown = (n) => page.waitForFunction((want) => document.querySelectorAll('.conflicts li.conflict').length === want, n);
  for (const [i, id] of ids.entries()) {
    await ui.editPosition(page, id, 'X', String(100 + i));
    // The row to click next stays under the pointer as the conflict arrives.
    const next = ui.option(page, ids[(i + 1) % COUNT]);
    const before = await box(next);
    moveOnDisk(dir, id, `${i} ${i} ${i}`);
    await conflictsShown(i + 1);
    assert.deepEqual(await box(next), before, `conflict ${i + 1} moved the list`);
  }
  const panel = page.getByRole('region', { name: 'Conflicts' });
  return { page, panel, ids };
}

for (const viewport of [
  { width: 1440, height: 900 },
  { width: 1024, height: 700 },
]) {
  test(`conflicts take a bounded height at ${viewport.width}x${viewport.height}, the field to pick and the buttons in view`, async () => {
    const { page, panel, ids } = await withConflicts(viewport);
    await ui.screenshot(page, `server-conflicts-${viewport.width}x${viewport.height}`);
    const panelBox = await box(panel);
    assert.ok(panelBox.height <= viewport.height * 0.3, `the panel is ${panelBox.height} px high`);
    const map = await box(page.getByRole('img', { name: 'World map' }));
    assert.ok(map.height >= viewport.height * 0.25, `the map keeps ${map.height} px`);

    // Each conflict, scrolled to, shows the field both changed, its two
    // values to pick from and the buttons.
    for (const id of [ids[0], ids[COUNT - 1]]) {
      const item = panel.getByRole('listitem', { name: `Conflict ${entityFile(id)}` });
      await item.scrollIntoViewIfNeeded();
      const position = item.getByRole('group', { name: 'position' });
      for (const name of [/^This page /, /^On disk /]) {
        const b = await box(position.getByRole('radio', { name }));
        assert.ok(b.height > 0 && b.bottom <= viewport.height, `${name} of ${id} in view`);
      }
      for (const name of ['Apply the values picked', 'Take the version on disk', "Keep this page's version"]) {
        const b = await box(item.getByRole('button', { name }));
        assert.ok(b.height > 0 && b.bottom <= viewport.height, `${name} of ${id} in view`);
      }
    }

    // Folded, the panel is one line; the choice is still there once shown again.
    await panel.getByRole('button', { name: 'Hide' }).click();
    assert.ok((await box(panel)).height <= 60, 'folded to one line');
    await ui.screenshot(page, `server-conflicts-${viewport.width}x${viewport.height}-hidden`);
    await panel.getByRole('button', { name: 'Show' }).click();
    const last = panel.getByRole('listitem', { name: `Conflict ${entityFile(ids[COUNT - 1])}` });
    await last.scrollIntoViewIfNeeded();
    await last.getByRole('button', { name: 'Take the version on disk' }).click();
    await last.waitFor({ state: 'detached' });
    assert.equal(await panel.getByRole('listitem').count(), COUNT - 1);
    await ui.closeWithoutErrors(page);
  });
}

// ---- field by field: the game's level, whose Enemy has health and speed ----

const ENEMY = '0x6e89010142120004';
const axePath = createRequire(import.meta.url).resolve('axe-core/axe.min.js');

/** Rewrites the Enemy's file in `dir` with `values` ({ key: text }) in place of its own. */
function changeOnDisk(dir, values) {
  let text = readEntity(dir, ENEMY);
  for (const [key, value] of Object.entries(values)) text = text.replace(new RegExp(`; ${key}\\n[^\\n]*\\n`), `; ${key}\n${value}\n`);
  writeFileSync(join(dir, entityFile(ENEMY)), text);
}

// The game's level served, on a page whose context lets axe's script in
// past the page's Content Security Policy, with the Enemy's health set to 99.
async function enemyEdited(viewport = { width: 1440, height: 900 }) {
  const dir = copyWorld(join(assets, 'game_world'));
  const server = await serveWorld(dir);
  const context = await chromium.browser.newContext({ viewport, bypassCSP: true });
  const page = await ui.newPage(chromium.browser, { context });
  await page.goto(server.url);
  await ui.waitOpen(page);
  await ui.selectEntity(page, ENEMY);
  await ui.commit(page, 'health', '99');
  await ui.waitUnsaved(page, ENEMY);
  return { dir, page };
}

const fieldValue = (page, name) => page.getByLabel(name, { exact: true }).inputValue();

test('a field changed on disk and another in the page merge with no conflict: both shown, and both saved', async () => {
  const { dir, page } = await enemyEdited();
  changeOnDisk(dir, { speed: '9' });
  await page.getByRole('status').filter({ hasText: "Merged 1 file changed on disk with this page's changes" }).waitFor();
  assert.equal(await fieldValue(page, 'speed'), '9', "the disk's change");
  assert.equal(await fieldValue(page, 'health'), '99', "the page's change");
  assert.equal(await page.getByRole('region', { name: 'Conflicts' }).count(), 0);
  await until(page, () => /health\s*80\s*→\s*99/.test(document.querySelector('[aria-label="Pending changes"]')?.textContent ?? ''), null, {
    what: "the review of the merge against the disk's text",
  });
  await ui.saveAndWait(page, /^Saved 1 file/);
  const saved = readEntity(dir, ENEMY);
  assert.match(saved, /; health\n99\n/);
  assert.match(saved, /; speed\n9\n/);
  assert.deepEqual(await ui.pendingItems(page), []);
  await ui.closeWithoutErrors(page);
});

test('a field changed on both sides is picked field by field in the Conflicts panel, which has no WCAG violation', async () => {
  const { dir, page } = await enemyEdited();
  await ui.commit(page, 'name', 'Boss');
  changeOnDisk(dir, { health: '50', speed: '9' });
  const panel = page.getByRole('region', { name: 'Conflicts' });
  const item = panel.getByRole('listitem', { name: `Conflict ${entityFile(ENEMY)}` });
  const health = item.getByRole('group', { name: 'health' });
  await health.waitFor();
  assert.match(await health.textContent(), /was 80/);
  const mine = health.getByRole('radio', { name: 'This page 99' });
  const theirs = health.getByRole('radio', { name: 'On disk 50' });
  assert.ok(await mine.isChecked(), "this page's value until the user picks");
  assert.equal(await item.getByRole('group').count(), 1, 'speed, changed on disk only, is no conflict');
  assert.equal(await fieldValue(page, 'health'), '99', 'the page keeps its version meanwhile');

  await page.addScriptTag({ path: axePath });
  const violations = await page.evaluate(async () => {
    const result = await window.axe.run(document.querySelector('.conflicts'), { runOnly: ['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa'] });
    return result.violations.map((v) => `${v.id}: ${v.nodes.map((n) => n.target.join(' ')).join(', ')}`);
  });
  assert.deepEqual(violations, [], 'the Conflicts panel has no WCAG violation');

  for (const viewport of [
    { width: 1440, height: 900 },
    { width: 1024, height: 700 },
  ]) {
    await page.setViewportSize(viewport);
    for (const colorScheme of ['light', 'dark']) {
      await page.emulateMedia({ colorScheme });
      await ui.screenshot(page, `server-conflicts-fields-${viewport.width}x${viewport.height}-${colorScheme}`);
    }
  }

  // By keyboard: the arrow keys move the pick within the field's group.
  await mine.focus();
  await page.keyboard.press('ArrowDown');
  assert.ok(await theirs.isChecked(), "the disk's value picked");
  await item.getByRole('button', { name: 'Apply the values picked' }).click();
  await panel.waitFor({ state: 'detached' });
  assert.match((await messages(page)).notice, /^Merged Entities\/7964898520896503812\.jasset with the values picked/);
  assert.equal(await fieldValue(page, 'health'), '50');
  assert.equal(await fieldValue(page, 'speed'), '9');
  assert.equal(await fieldValue(page, 'name'), 'Boss', "the page's other change");
  await ui.saveAndWait(page, /^Saved 1 file/);
  const saved = readEntity(dir, ENEMY);
  assert.match(saved, /; health\n50\n; speed\n9\n/);
  assert.match(saved, /; name\n"?Boss"?\n/);
  await ui.closeWithoutErrors(page);
});
