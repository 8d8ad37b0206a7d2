// Browser tests of the world settings editor: edits with errors next to the
// field, undo and redo, Pending changes, a save that writes only
// WorldSettings.jasset, unsaved settings kept across a reload, and a
// settings file that failed to load left alone.
import assert from 'node:assert/strict';
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { test } from 'node:test';
import { entityFile, snapshotDir } from '../shared/fixtures.js';
import * as ui from './harness.js';

const env = ui.useInspector();

const settingsRegion = (page) => page.getByRole('region', { name: 'World settings' });

async function openSettings(page) {
  await page.locator('summary', { hasText: 'World settings' }).click();
  await settingsRegion(page).waitFor();
}

// The value an input shows once the engine's answer is in.
async function waitValue(page, label, value) {
  const input = settingsRegion(page).getByLabel(label, { exact: true });
  await page.waitForFunction(([el, want]) => el.value === want, [await input.elementHandle(), value]);
}

test('edits the world settings with undo, and a save writes only WorldSettings.jasset', async () => {
  const dir = ui.copySample();
  const page = await ui.openFolder(env, dir);
  await openSettings(page);
  const region = settingsRegion(page);
  assert.equal(await region.getByLabel('ambient_intensity', { exact: true }).inputValue(), '0.25');
  assert.equal(await region.getByLabel('gravity Y', { exact: true }).inputValue(), '-9.81');
  assert.equal(await region.getByLabel('spawn_point', { exact: true }).inputValue(), '0x77a31d7500000001');

  // A bad value is refused next to its field, before it reaches the engine.
  await ui.commit(region, 'ambient_intensity', '1.5x');
  const error = region.locator('#settings-ambient_intensity-error');
  await error.waitFor();
  assert.match(await error.textContent(), /number/i);
  assert.equal(await region.getByLabel('ambient_intensity', { exact: true }).getAttribute('aria-invalid'), 'true');
  assert.deepEqual(await ui.pendingItems(page), []);
  // A reference to an entity that does not exist is refused too.
  await ui.commit(region, 'spawn_point', '0x00000000deadbeef');
  await region.locator('#settings-spawn_point-error').waitFor();

  await ui.commit(region, 'ambient_intensity', '0.5');
  await error.waitFor({ state: 'detached' });
  await ui.commit(region, 'gravity Y', '-3.5');
  await waitValue(page, 'gravity Y', '-3.5');
  await ui.pendingRegion(page).getByText('WorldSettings.jasset').waitFor();
  assert.deepEqual(await ui.pendingItems(page), ['modifiedWorldSettings.jasset']);
  await page.locator('summary', { hasText: 'World settings · unsaved' }).waitFor();
  await ui.screenshot(page, 'world-settings');

  // Undo both edits: the settings are clean again; redo brings them back.
  const undo = page.getByRole('button', { name: 'Undo' });
  const redo = page.getByRole('button', { name: 'Redo' });
  await undo.click();
  await waitValue(page, 'gravity Y', '-9.81');
  await undo.click();
  await waitValue(page, 'ambient_intensity', '0.25');
  await ui.pendingRegion(page).getByText('No unsaved changes.').waitFor();
  await redo.click();
  await waitValue(page, 'ambient_intensity', '0.5');
  await redo.click();
  await waitValue(page, 'gravity Y', '-3.5');
  await ui.pendingRegion(page).getByText('WorldSettings.jasset').waitFor();

  const beforeSave = snapshotDir(dir);
  await new Promise((done) => setTimeout(done, 20));
  await ui.saveAndWait(page);
  const afterSave = snapshotDir(dir);
  const text = afterSave['WorldSettings.jasset'].bytes.toString();
  assert.match(text, /; gravity\n0 -3\.5 0\n/);
  assert.match(text, /; ambient_intensity\n0\.5\n/);
  assert.match(text, /; spawn_point\n0x77a31d7500000001\n/);
  ui.assertUntouched(beforeSave, afterSave, ['WorldSettings.jasset']);
  assert.equal(Object.keys(afterSave).length, Object.keys(beforeSave).length);
  await ui.pendingRegion(page).getByText('No unsaved changes.').waitFor();
  await ui.closeWithoutErrors(page);
});

test('unsaved settings come back after a reload', async () => {
  const page = await ui.openSample(env);
  await openSettings(page);
  await ui.commit(settingsRegion(page), 'time_of_day', '18.5');
  await ui.pendingRegion(page).getByText('WorldSettings.jasset').waitFor();
  await page.locator('.toolbar .kept-state.kept').waitFor();

  await ui.reloadLeavingUnsaved(page);
  await page.getByRole('note', { name: 'Restored unsaved changes' }).waitFor();
  assert.deepEqual(await ui.pendingItems(page), ['modifiedWorldSettings.jasset']);
  await openSettings(page);
  assert.equal(await settingsRegion(page).getByLabel('time_of_day', { exact: true }).inputValue(), '18.5');
  await ui.closeWithoutErrors(page);
});

test('a settings file that failed to load is shown read-only and never rewritten', async () => {
  const dir = ui.copySample();
  const path = join(dir, 'WorldSettings.jasset');
  const broken = '; version\n1\n; gravity\n0 -9.81\n';
  writeFileSync(path, broken);
  const page = await ui.openFolder(env, dir);
  const diagnostics = page.getByRole('region', { name: 'Diagnostics' });
  await diagnostics.getByText('WorldSettings.jasset:4').waitFor();
  await openSettings(page);
  await settingsRegion(page)
    .getByText(/failed to load/)
    .waitFor();
  assert.ok(await settingsRegion(page).getByLabel('gravity Y', { exact: true }).isDisabled());

  // Saving other changes leaves the file as it was.
  const [edited] = await ui.visibleIds(page);
  await ui.selectEntity(page, edited);
  await ui.commit(page, 'Position X', '3.25');
  await ui.pendingRegion(page).getByText(entityFile(edited)).waitFor();
  await ui.saveAndWait(page);
  assert.equal(readFileSync(path, 'utf8'), broken);
  await ui.closeWithoutErrors(page);
});
