// Accessibility of every main view, checked by axe-core against WCAG 2.0
// and 2.1, levels A and AA: the sample opened, an entity selected, Pending
// changes with edits, the list of a world whose entities have names (light
// and dark), a reference field's search list and pick mode, Diagnostics
// with a failed file (and that file selected), the Add entity dialog and
// the share panel. Each view must have
// no violation; any found is printed with the elements it names.
import assert from 'node:assert/strict';
import { copyFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { join } from 'node:path';
import { test } from 'node:test';
import { assets, copyWorld } from '../shared/fixtures.js';
import * as ui from './harness.js';

const env = ui.useInspector();
const axePath = createRequire(import.meta.url).resolve('axe-core/axe.min.js');
const TAGS = ['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa'];

// A page whose context lets axe's script tag in past the page's Content
// Security Policy (share.test.js checks that policy).
async function axeContext() {
  return { context: await env.browser.newContext({ viewport: { width: 1440, height: 900 }, bypassCSP: true }) };
}

// Runs axe on the whole page and fails with its violations, if any.
async function assertAccessible(page, view) {
  if (!(await page.evaluate(() => 'axe' in window))) await page.addScriptTag({ path: axePath });
  const violations = await page.evaluate(async (tags) => {
    const result = await window.axe.run(document, { runOnly: tags });
    return result.violations.map((v) => ({
      id: v.id,
      impact: v.impact,
      help: v.help,
      nodes: v.nodes.map((n) => `${n.target.join(' ')}: ${n.failureSummary.replace(/\s+/g, ' ')}`),
    }));
  }, TAGS);
  if (violations.length) console.log(`${view}: ${JSON.stringify(violations, null, 2)}`);
  assert.deepEqual(
    violations.map((v) => `${v.id} (${v.nodes.length})`),
    [],
    `${view}: no WCAG violation`,
  );
}

test('the sample opened, an entity selected, the outliner closed and searched, Pending changes with edits, the dialog and the share panel have no WCAG violation', async () => {
  const page = await ui.openSample(env, await axeContext());
  await assertAccessible(page, 'sample opened');

  const [first, second] = await ui.visibleIds(page);
  await ui.selectEntity(page, first);
  await assertAccessible(page, 'entity selected');

  // The outliner with a subtree closed, and a search shown under ancestors.
  const nested = page.locator('[role=treeitem][aria-expanded=true]').first();
  await nested.locator('.twisty').click();
  await page.locator('[role=treeitem][aria-expanded=false]').waitFor();
  await page.getByLabel('Search by name or ID').fill('0x77a31d7500000007');
  await page.locator('[role=treeitem][aria-label$="outside the filter"]').first().waitFor();
  await assertAccessible(page, 'outliner closed and searched');
  await page.getByLabel('Search by name or ID').fill('');
  await page.locator('[role=treeitem][aria-expanded=false] .twisty').click();

  await ui.editPosition(page, first, 'X', '7.5');
  await ui.deleteEntity(page, second);
  await ui.pendingItems(page);
  await assertAccessible(page, 'pending changes with edits');

  await page.getByRole('button', { name: 'Add entity' }).click();
  await page.getByRole('dialog', { name: 'Add entity' }).waitFor();
  await assertAccessible(page, 'Add entity dialog');
  await page.keyboard.press('Escape');
  await page.getByRole('dialog').waitFor({ state: 'detached' });

  await page.getByRole('button', { name: 'Share', exact: true }).click();
  await page.getByRole('region', { name: 'Share link' }).getByLabel('Link').waitFor();
  await assertAccessible(page, 'share panel');
  await ui.closeWithoutErrors(page);
});

test('the list with names beside the IDs, and a named entity selected, have no WCAG violation, light and dark', async () => {
  const page = await ui.openFolder(env, copyWorld(join(assets, 'game_world')), await axeContext());
  await ui.selectEntity(page, '0x6e89010142120005'); // Brute
  for (const colorScheme of ['light', 'dark']) {
    await page.emulateMedia({ colorScheme });
    await assertAccessible(page, `names in the list (${colorScheme})`);
  }
  await ui.closeWithoutErrors(page);
});

test("a reference field's search list open, and pick mode, have no WCAG violation", async () => {
  const page = await ui.openFolder(env, copyWorld(join(assets, 'game_world')), await axeContext());
  await ui.selectEntity(page, '0x6e89010142120005'); // Brute
  const target = page.getByRole('combobox', { name: 'target', exact: true });
  await target.fill('');
  await target.pressSequentially('gru');
  await page.getByRole('listbox', { name: 'target: choices' }).waitFor();
  await assertAccessible(page, 'reference search list');
  await page.keyboard.press('Escape');
  await page.getByRole('button', { name: 'Pick target' }).click();
  await page.getByRole('status', { name: 'Pick mode' }).waitFor();
  await assertAccessible(page, 'pick mode');
  await ui.closeWithoutErrors(page);
});

test('Diagnostics with a failed file, and that file selected, have no WCAG violation', async () => {
  const dir = ui.copySample();
  copyFileSync(join(assets, 'malformed/merge_conflict.jasset'), join(dir, 'Entities/900001.jasset'));
  const page = await ui.openFolder(env, dir, await axeContext());
  await page.getByRole('region', { name: 'Diagnostics' }).getByText('unresolved git merge conflict').waitFor();
  await assertAccessible(page, 'diagnostics with a failed file');

  await page.getByRole('listbox', { name: 'Files that failed to load' }).getByRole('option').first().click();
  await page.getByRole('region', { name: 'Inspector' }).getByRole('note', { name: 'Diagnostic' }).waitFor();
  await assertAccessible(page, 'failed file selected');
  await ui.closeWithoutErrors(page);
});

test('a broken link and its way on have no WCAG violation', async () => {
  const page = await ui.newPage(env.browser, await axeContext());
  await page.goto(`${env.url}?open=none#not-a-snapshot`);
  await page.getByRole('alert').waitFor();
  await assertAccessible(page, 'broken link');
  await ui.closeWithoutErrors(page);
});

test('the 3D view, with an entity selected and its tooltip shown, has no WCAG violation', async () => {
  const page = await ui.openSample(env, await axeContext());
  await page.getByRole('button', { name: '3D', exact: true }).click();
  await page.locator('canvas.viewport[aria-busy="false"]').waitFor();
  await assertAccessible(page, '3D view');
  const [first] = await ui.visibleIds(page);
  await ui.selectEntity(page, first);
  const view = page.getByRole('img', { name: '3D view of the world' });
  await view.focus();
  await page.keyboard.press('f');
  const box = await view.boundingBox();
  await page.mouse.move(box.x + box.width / 2 + 1, box.y + box.height / 2 + 1);
  await page.getByRole('tooltip').waitFor();
  await assertAccessible(page, '3D view with a selection and a tooltip');
  await ui.closeWithoutErrors(page);
});
