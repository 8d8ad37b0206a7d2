// Browser tests of unsaved work kept in browser storage: after a reload (or
// a tab that closed without warning) the same pending changes come back
// with a notice that they are not saved, and a save then writes exactly
// those files; a storage failure is reported, not swallowed.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { entityFile, snapshotDir } from '../shared/fixtures.js';
import * as ui from './harness.js';

const env = ui.useInspector();

const restoredNote = (page) => page.getByRole('note', { name: 'Restored unsaved changes' });

// How many worlds have unsaved work kept in the page's browser storage.
function keptCount(page) {
  return page.evaluate(async () => {
    const db = await new Promise((resolve, reject) => {
      const r = indexedDB.open('juliet-inspector');
      r.onsuccess = () => resolve(r.result);
      r.onerror = () => reject(r.error);
    });
    const count = await new Promise((resolve, reject) => {
      const r = db.transaction('work').objectStore('work').count();
      r.onsuccess = () => resolve(r.result);
      r.onerror = () => reject(r.error);
    });
    db.close();
    return count;
  });
}

// An edit, a delete and an add; returns their IDs once the changes are
// kept in browser storage (the toolbar says so).
async function makeChanges(page) {
  const { edited, deleted } = await ui.editAndDelete(page, 'X', '21.75');
  const created = await ui.addEntity(page, 'Prop');
  await ui.commit(page, 'Position Y', '6.5');
  await page.waitForFunction(() => document.getElementById('position-Y')?.value === '6.5');
  await page.locator('.toolbar .kept-state.kept').waitFor();
  return { edited, deleted, created };
}

test('a reload of the sample world restores its unsaved changes with a notice', async () => {
  const page = await ui.openSample(env);
  const { edited, deleted, created } = await makeChanges(page);
  const before = await ui.pendingItems(page);
  assert.equal(before.length, 3);

  await ui.reloadLeavingUnsaved(page);
  await restoredNote(page).waitFor();
  assert.match(await restoredNote(page).textContent(), /Restored 3 unsaved changes to .*not saved yet/);
  assert.deepEqual(await ui.pendingItems(page), before);
  await ui.waitUnsaved(page, edited);
  assert.equal(await ui.option(page, deleted).count(), 0);
  await page.getByLabel('Search by name or ID').fill(created);
  await ui.selectEntity(page, created);
  assert.equal(await page.getByLabel('Position Y', { exact: true }).inputValue(), '6.5');
  await ui.screenshot(page, 'keep-restored');

  // The restored work stays kept until it is saved: a second reload shows it again.
  await ui.reloadLeavingUnsaved(page);
  await restoredNote(page).waitFor();
  assert.deepEqual(await ui.pendingItems(page), before);
  await ui.closeWithoutErrors(page);
});

test('unsaved work in a folder survives a closed tab; reopening the folder restores it and Save writes exactly it', async () => {
  const dir = ui.copySample();
  const context = await env.browser.newContext({ viewport: { width: 1440, height: 900 } });
  const page = await ui.openFolder(env, dir, { context });
  const original = snapshotDir(dir);
  const { edited, deleted, created } = await makeChanges(page);
  const before = await ui.pendingItems(page);

  // The tab goes away without any warning (as in a crash).
  await page.close();
  const again = await ui.newPage(env.browser, { context });
  await ui.mockFolderPicker(again, dir);
  await again.goto(env.url);
  const offer = again.getByRole('list', { name: 'Unsaved work kept in this browser' });
  await offer.waitFor();
  assert.match(await offer.textContent(), /3 unsaved changes to .*sample_world/);
  await ui.screenshot(again, 'keep-offer');
  // The sample does not open over the kept work of the folder.
  assert.equal(await again.getByRole('tree', { name: 'Entity list' }).getByRole('treeitem').count(), 0);
  await offer.getByRole('button', { name: 'Open folder again' }).click();
  await restoredNote(again).waitFor();
  assert.deepEqual(await ui.pendingItems(again), before);
  assert.equal(await offer.count(), 0);

  await ui.saveAndWait(again, /^Saved 2 files and deleted 1 file/);
  const saved = snapshotDir(dir);
  assert.match(saved[entityFile(edited)].bytes.toString(), /21\.75/);
  assert.match(saved[entityFile(created)].bytes.toString(), /6\.5/);
  assert.ok(!(entityFile(deleted) in saved));
  ui.assertUntouched(original, saved, [entityFile(edited), entityFile(deleted)]);
  await restoredNote(again).waitFor({ state: 'detached' });

  // Saved: nothing is kept any more, a new tab opens the sample as usual.
  for (const deadline = Date.now() + 10_000; (await keptCount(again)) !== 0;) {
    assert.ok(Date.now() < deadline, 'the kept work is cleared after the save');
    await new Promise((done) => setTimeout(done, 50));
  }
  const third = await ui.openSample(env, { context });
  assert.equal(await third.getByRole('list', { name: 'Unsaved work kept in this browser' }).count(), 0);
  await ui.pendingRegion(third).getByText('No unsaved changes.').waitFor();
  assert.deepEqual([...again.errors, ...third.errors], []);
  await context.close();
});

test('unsaved work in an uploaded folder comes back when the folder is uploaded again', async () => {
  const dir = ui.copySample();
  const page = await ui.uploadFolder(env, dir);
  const { edited } = await makeChanges(page);
  const before = await ui.pendingItems(page);

  await ui.reloadLeavingUnsaved(page);
  const offer = page.getByRole('list', { name: 'Unsaved work kept in this browser' });
  await offer.waitFor();
  assert.match(await offer.textContent(), /Upload the same folder again/);
  await offer.getByLabel('Upload folder again').setInputFiles(dir);
  await restoredNote(page).waitFor();
  assert.deepEqual(await ui.pendingItems(page), before);
  await ui.waitUnsaved(page, edited);
  await ui.closeWithoutErrors(page);
});

test('a shared level with unsaved edits comes back after a reload', async () => {
  const page = await ui.openSample(env);
  await page.getByRole('button', { name: 'Share', exact: true }).click();
  const link = await page.getByRole('region', { name: 'Share link' }).getByLabel('Link').inputValue();
  await page.goto('about:blank');
  await page.goto(link);
  await ui.waitOpen(page);
  const [edited] = await ui.visibleIds(page);
  await ui.selectEntity(page, edited);
  await ui.commit(page, 'Position Z', '-11.5');
  await page.locator('.toolbar .kept-state.kept').waitFor();
  const before = await ui.pendingItems(page);

  await ui.reloadLeavingUnsaved(page);
  await restoredNote(page).waitFor();
  assert.deepEqual(await ui.pendingItems(page), before);
  await ui.selectEntity(page, edited);
  assert.equal(await page.getByLabel('Position Z', { exact: true }).inputValue(), '-11.5');
  await ui.closeWithoutErrors(page);
});

test('a browser storage failure is reported', async () => {
  const page = await ui.newPage(env.browser);
  await page.addInitScript(() => {
    IDBObjectStore.prototype.put = function put() {
      throw new DOMException('The quota has been exceeded.', 'QuotaExceededError');
    };
  });
  await page.goto(env.url);
  await ui.waitOpen(page);
  const [id] = await ui.visibleIds(page);
  await ui.selectEntity(page, id);
  await ui.commit(page, 'Position X', '3.5');
  const alert = page.getByRole('alert');
  await alert.waitFor();
  assert.match(await alert.textContent(), /could not be kept in browser storage.*QuotaExceededError/);
  await page.locator('.toolbar').getByText('not kept').waitFor();
  await ui.screenshot(page, 'keep-quota');
  await ui.closeWithoutErrors(page);
});
