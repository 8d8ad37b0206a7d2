// Browser tests of what the inspector says when something is wrong: files
// that failed to load (a banner with how many, a row each in the entity
// list, the line of the file with a caret under the column, an unresolved
// git merge conflict named as such), shared links that cannot be opened (cut
// off, not a Juliet link, damaged: each in its own words, the same in the
// banner and in Diagnostics, with the sample as a way on), and the undo
// history kept across a reload with the unsaved work it belongs to.
import assert from 'node:assert/strict';
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { test } from 'node:test';
import { assets, entityFile, snapshotDir } from '../shared/fixtures.js';
import * as ui from './harness.js';
import { serveWorld } from './worldServer.js';

const env = ui.useInspector();

const diagnosticsRegion = (page) => page.getByRole('region', { name: 'Diagnostics' });
const inspector = (page) => page.getByRole('region', { name: 'Inspector' });
// Waits until a status message holds `text` (a string or a pattern).
const statusSays = (page, text) => page.getByRole('status').filter({ hasText: text }).waitFor();
const failedList = (page) => page.getByRole('listbox', { name: 'Files that failed to load' });

// A copy of the sample with three broken entity files (malformed fixtures,
// each with the ID its file name says); returns the folder.
function sampleWithBrokenFiles() {
  const dir = ui.copySample();
  const broken = { 900001: 'merge_conflict', 900002: 'bad_bool', 900003: 'vector_too_short' };
  for (const [name, fixture] of Object.entries(broken)) {
    const text = readFileSync(join(assets, 'malformed', `${fixture}.jasset`), 'utf8');
    const id = `0x${Number(name).toString(16).padStart(16, '0')}`;
    writeFileSync(join(dir, 'Entities', `${name}.jasset`), text.replace('0x0000000100000001', id));
  }
  return dir;
}

test('files that failed to load: a banner with how many, a row each, the line with a caret; the files stay as they are', async () => {
  const dir = sampleWithBrokenFiles();
  const original = snapshotDir(dir);
  const page = await ui.openFolder(env, dir);

  const banner = page.getByRole('note', { name: 'Files that failed to load' });
  assert.match(await banner.textContent(), /^3 files failed to load: they are left as they are; see Diagnostics\.$/);

  const rows = failedList(page).getByRole('option');
  assert.equal(await rows.count(), 3);
  assert.deepEqual(await rows.evaluateAll((els) => els.map((el) => [...el.children].map((c) => c.textContent).join(' '))), [
    'failed Entities/900001.jasset unresolved git merge conflict: keep the right lines and remove the <<<<<<< ======= >>>>>>> markers',
    'failed Entities/900002.jasset cast_shadows: expected true or false',
    'failed Entities/900003.jasset position: expected 3 numbers',
  ]);

  // Selecting a failed file shows its diagnostic in the inspector: the
  // merge conflict by name, the line of the file and a caret; nothing to edit.
  await rows.nth(0).click();
  const shown = inspector(page);
  await shown.getByRole('note', { name: 'Diagnostic' }).waitFor();
  assert.match(
    await shown.getByRole('note', { name: 'Diagnostic' }).textContent(),
    /^Entities\/900001\.jasset:12:1 unresolved git merge conflict: keep the right lines and remove the <<<<<<< ======= >>>>>>> markers$/,
  );
  assert.equal(await shown.locator('pre').textContent(), '12 | <<<<<<< HEAD\n     ^');
  assert.equal(await shown.getByLabel('Position X', { exact: true }).count(), 0);
  assert.equal(await rows.nth(0).getAttribute('aria-selected'), 'true');
  await ui.screenshot(page, 'failed-file-selected');

  // The caret sits under the column the engine names (12:4).
  await rows.nth(2).click();
  await shown.getByText('Entities/900003.jasset:12:4').waitFor();
  const [line, caret] = (await shown.locator('pre').textContent()).split('\n');
  assert.equal(caret.indexOf('^'), line.indexOf('|') + 2 + 3);

  // Diagnostics lists each with its line too.
  const excerpt = diagnosticsRegion(page).getByLabel('Line 12 of Entities/900001.jasset');
  assert.equal(await excerpt.textContent(), '12 | <<<<<<< HEAD\n     ^');

  // The banner's Diagnostics button takes the focus there.
  await banner.getByRole('button', { name: 'Diagnostics' }).click();
  assert.equal(await page.evaluate(() => document.activeElement?.getAttribute('aria-label')), 'Diagnostics');

  // Selecting an entity leaves the failed file; saving an edit leaves the
  // broken files as they were.
  const [edited] = await ui.visibleIds(page);
  await ui.editPosition(page, edited, 'X', '2.5');
  assert.equal(await rows.nth(2).getAttribute('aria-selected'), 'false');
  await ui.saveAndWait(page);
  ui.assertUntouched(original, snapshotDir(dir), [entityFile(edited)]);
  await ui.closeWithoutErrors(page);
});

test('a world served by the local server shows its failed files the same way, with their lines', async () => {
  const dir = sampleWithBrokenFiles();
  const server = await serveWorld(dir);
  const page = await ui.newPage(env.browser);
  await page.goto(server.url);
  await ui.waitOpen(page);
  assert.match(await page.getByRole('note', { name: 'Files that failed to load' }).textContent(), /^3 files failed to load/);
  await failedList(page)
    .getByRole('option', { name: /900003/ })
    .click();
  const excerpt = inspector(page).getByLabel('Line 12 of Entities/900003.jasset');
  const [line, caret] = (await excerpt.textContent()).split('\n');
  assert.equal(caret.indexOf('^'), line.indexOf('|') + 2 + 3);
  await ui.closeWithoutErrors(page);
});

test('a world whose files all loaded has no banner and no failed rows', async () => {
  const page = await ui.openSample(env);
  await diagnosticsRegion(page).getByText('Every file loaded.').waitFor();
  assert.equal(await page.getByRole('note', { name: 'Files that failed to load' }).count(), 0);
  assert.equal(await failedList(page).count(), 0);
  await ui.closeWithoutErrors(page);
});

// ---- shared links that cannot be opened ----

const sampleLink = readFileSync(join(assets, 'snapshots/valid/sample_world.link'), 'utf8').trim();
const sampleText = sampleLink.slice(sampleLink.indexOf('#') + 1);

// The sample's link with the character at `at` changed.
function changedAt(at) {
  return sampleText.slice(0, at) + (sampleText[at] === 'A' ? 'B' : 'A') + sampleText.slice(at + 1);
}

const BROKEN_LINKS = [
  ['cut off', sampleText.slice(0, 300), /The link was cut off when it was pasted\./],
  ['cut off one character short', sampleText.slice(0, -1), /The link was cut off when it was pasted\./],
  ['not a Juliet link', 'section-2', /This is not a Juliet link\./],
  ['not a Juliet link either', 'top/of?page', /This is not a Juliet link\./],
  ['damaged data', changedAt(150), /The link is damaged\./],
  ['damaged checksum', changedAt(300), /The link is damaged\./],
];

test('a broken link says in plain words what is wrong, the same in the banner and in Diagnostics', async () => {
  const page = await ui.newPage(env.browser);
  for (const [name, fragment, words] of BROKEN_LINKS) {
    await page.goto('about:blank');
    await page.goto(`${env.url}?open=none#${fragment}`);
    const alert = page.getByRole('alert');
    await alert.waitFor({ timeout: 15_000 });
    const said = await alert.textContent();
    assert.match(said, /^Could not open the shared link: /, name);
    assert.match(said, words, name);
    const diagnostics = diagnosticsRegion(page);
    assert.match(await diagnostics.getByLabel('Shared link').textContent(), words, name);
    assert.equal(await diagnostics.locator('.count').textContent(), '1', name);
    assert.doesNotMatch(await diagnostics.textContent(), /Every file loaded/, name);
    assert.match(await page.locator('.world-name').textContent(), /No world open/, name);
  }
  await ui.screenshot(page, 'broken-link');

  // The way on: the sample.
  await page.getByRole('alert').getByRole('button', { name: 'Open the sample' }).click();
  await ui.waitOpen(page);
  assert.equal(await page.getByRole('alert').count(), 0);
  await diagnosticsRegion(page).getByText('Every file loaded.').waitFor();
  assert.equal(await diagnosticsRegion(page).getByLabel('Shared link').count(), 0);
  await ui.closeWithoutErrors(page);
});

test('a broken link opened over a world leaves it open, and Diagnostics names the link', async () => {
  const page = await ui.openSample(env);
  await page.evaluate((text) => (location.hash = text), sampleText.slice(0, 200));
  await page.getByRole('alert').waitFor();
  assert.match(await page.getByRole('alert').textContent(), /cut off/);
  assert.match(await diagnosticsRegion(page).getByLabel('Shared link').textContent(), /cut off/);
  assert.match(await page.locator('.world-name').textContent(), /bundled sample/);
  await ui.closeWithoutErrors(page);
});

// ---- the undo history across a reload ----

test('after a reload Ctrl+Z undoes the edits made before it, and Ctrl+Shift+Z redoes them', async () => {
  const page = await ui.openSample(env);
  const [first, second] = await ui.visibleIds(page);
  await ui.selectEntity(page, first);
  const firstX = await page.getByLabel('Position X', { exact: true }).inputValue();
  await ui.editPosition(page, first, 'X', '12.5');
  await ui.selectEntity(page, second);
  const secondY = await page.getByLabel('Position Y', { exact: true }).inputValue();
  await ui.editPosition(page, second, 'Y', '-4.25');
  await page.locator('.toolbar .kept-state.kept').waitFor();

  await ui.reloadLeavingUnsaved(page);
  await page.getByRole('note', { name: 'Restored unsaved changes' }).waitFor();
  await ui.waitOpen(page);
  const undo = page.getByRole('button', { name: 'Undo' });
  await page.locator('button[aria-keyshortcuts="Control+Z"]:not([disabled])').waitFor();

  await page.keyboard.press('Control+z');
  await statusSays(page, `Undid the change of position of ${second}`);
  assert.equal(await page.getByLabel('Position Y', { exact: true }).inputValue(), secondY);
  await page.keyboard.press('Control+z');
  await statusSays(page, `Undid the change of position of ${first}`);
  assert.equal(await page.getByLabel('Position X', { exact: true }).inputValue(), firstX);
  assert.deepEqual(await ui.pendingItems(page), []);
  assert.ok(await undo.isDisabled());

  await page.keyboard.press('Control+Shift+z');
  await statusSays(page, `Redid the change of position of ${first}`);
  assert.equal(await page.getByLabel('Position X', { exact: true }).inputValue(), '12.5');
  await ui.closeWithoutErrors(page);
});

test('the redo steps are kept too: after a reload Redo redoes what was undone before it', async () => {
  const page = await ui.openSample(env);
  const [id] = await ui.visibleIds(page);
  for (const x of ['1.5', '2.5', '3.5']) await ui.editPosition(page, id, 'X', x);
  await page.locator('.toolbar .kept-state.kept').waitFor();
  await page.keyboard.press('Control+z'); // X back to 2.5, one step to redo
  await page.getByRole('status').filter({ hasText: 'Undid' }).waitFor();
  await page.locator('.toolbar .kept-state.kept').waitFor();

  await ui.reloadLeavingUnsaved(page);
  await page.getByRole('note', { name: 'Restored unsaved changes' }).waitFor();
  await page.locator('button[aria-keyshortcuts="Control+Shift+Z"]:not([disabled])').waitFor();
  await page.keyboard.press('Control+Shift+z');
  await statusSays(page, `Redid the change of position of ${id}`);
  assert.equal(await page.getByLabel('Position X', { exact: true }).inputValue(), '3.5');
  for (const x of ['2.5', '1.5']) {
    await page.keyboard.press('Control+z');
    await page.waitForFunction((want) => document.getElementById('position-X')?.value === want, x);
  }
  await ui.closeWithoutErrors(page);
});
