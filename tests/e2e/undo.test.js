// Browser tests of undo and redo with the pending changes following them:
// an entity undone back to the text of its file is no longer pending, an
// undone delete brings the entity back with its ID and its file is no longer
// deleted, an undone add leaves nothing to save; after a save into a real
// folder the files of restored entities are byte for byte as they were.
import assert from 'node:assert/strict';
import { readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { test } from 'node:test';
import { entityFile, snapshotDir } from '../shared/fixtures.js';
import * as ui from './harness.js';

const env = ui.useInspector();

// Waits until the pending list shows exactly `items` (badge + path each).
async function expectPending(page, items) {
  const want = JSON.stringify(items);
  let got;
  for (const deadline = Date.now() + 10_000; Date.now() < deadline;) {
    got = JSON.stringify(await ui.pendingItems(page));
    if (got === want) return;
    await new Promise((done) => setTimeout(done, 50));
  }
  assert.fail(`pending changes: want ${want}, got ${got}`);
}

async function isUnsaved(page, id) {
  return /unsaved/.test(await ui.option(page, id).getAttribute('aria-label'));
}

test('undo and redo of edits, deletes and adds move the pending changes with them', async () => {
  const dir = ui.copySample();
  const page = await ui.openFolder(env, dir);
  const original = snapshotDir(dir);
  const undo = page.getByRole('button', { name: 'Undo' });
  const redo = page.getByRole('button', { name: 'Redo' });

  // A field of a Light, a typed position, a delete and an add: four steps.
  await page.getByLabel('Filter by class').selectOption('Light');
  await ui.entityOptions(page).first().click();
  const light = await ui.selectedId(page);
  await page.getByLabel('cast_shadows', { exact: true }).click();
  await expectPending(page, [`modified${entityFile(light)}`]);
  await page.getByLabel('Filter by class').selectOption('');
  const [first, second] = (await ui.visibleIds(page)).filter((id) => id !== light);
  await ui.editPosition(page, first, 'X', '12.5');
  await ui.deleteEntity(page, second);
  const created = await ui.addEntity(page, 'Inert');
  // The list follows the entity list: IDs in order, then new entities.
  const [lo, hi] = [light, first].sort();
  const all = [`modified${entityFile(lo)}`, `modified${entityFile(hi)}`, `new${entityFile(created)}`, `deleted${entityFile(second)}`];
  await expectPending(page, all);
  await ui.screenshot(page, 'undo-before');

  // Undo the add: nothing to save for it any more.
  await undo.click();
  await ui.option(page, created).waitFor({ state: 'detached' });
  await expectPending(
    page,
    all.filter((e) => !e.includes(entityFile(created))),
  );
  // Undo the delete (keyboard): the same ID is back, its file no longer deleted.
  await page.locator('body').press('Control+z');
  await ui.option(page, second).waitFor();
  assert.equal(await ui.selectedId(page), second);
  assert.equal(await isUnsaved(page, second), false);
  await expectPending(page, [`modified${entityFile(lo)}`, `modified${entityFile(hi)}`]);
  // Undo the typed position and the field: both entities are clean again.
  await undo.click();
  await expectPending(page, [`modified${entityFile(light)}`]);
  assert.equal(await isUnsaved(page, first), false);
  await undo.click();
  await ui.pendingRegion(page).getByText('No unsaved changes.').waitFor();
  assert.equal(await undo.isDisabled(), true);
  await ui.screenshot(page, 'undo-all');

  // Redo all four: the same pending list, the added entity with its ID.
  for (let i = 0; i < 4; i++) await redo.click();
  await expectPending(page, all);
  assert.equal(await redo.isDisabled(), true);
  await ui.option(page, created).waitFor();
  await ui.option(page, second).waitFor({ state: 'detached' });

  // Undo them again, change one more entity, and save: only that file
  // changes; the restored ones are byte for byte as they were.
  for (let i = 0; i < 4; i++) await undo.click();
  await ui.pendingRegion(page).getByText('No unsaved changes.').waitFor();
  const third = (await ui.visibleIds(page)).find((id) => ![light, first, second].includes(id));
  await ui.selectEntity(page, third);
  await ui.commit(page, 'Position Y', '-3.5');
  await expectPending(page, [`modified${entityFile(third)}`]);
  await ui.saveAndWait(page, /^Saved 1 file and deleted 0 files/);
  const saved = snapshotDir(dir);
  assert.deepEqual(Object.keys(saved).sort(), Object.keys(original).sort());
  assert.match(saved[entityFile(third)].bytes.toString(), /-3\.5/);
  ui.assertUntouched(original, saved, [entityFile(third)]);
  assert.ok(!(entityFile(created) in saved), 'the undone add wrote no file');

  // After the save: undoing the save's change makes the entity modified
  // again, redoing returns it to the saved text (clean).
  await undo.click();
  await expectPending(page, [`modified${entityFile(third)}`]);
  await redo.click();
  await ui.pendingRegion(page).getByText('No unsaved changes.').waitFor();
  await ui.closeWithoutErrors(page);
});

test('an undone delete of an edited entity brings its edits back, and a save writes it', async () => {
  const dir = ui.copySample();
  const page = await ui.openFolder(env, dir);
  const original = snapshotDir(dir);
  const [id] = await ui.visibleIds(page);
  await ui.editPosition(page, id, 'Z', '8.25');
  await page.getByRole('button', { name: 'Delete entity' }).click();
  await expectPending(page, [`deleted${entityFile(id)}`]);

  await page.getByRole('button', { name: 'Undo' }).click();
  await ui.option(page, id).waitFor();
  await expectPending(page, [`modified${entityFile(id)}`]);
  assert.equal(await page.getByLabel('Position Z', { exact: true }).inputValue(), '8.25');
  await ui.saveAndWait(page, /^Saved 1 file and deleted 0 files/);
  const saved = snapshotDir(dir);
  assert.match(saved[entityFile(id)].bytes.toString(), /8\.25/);
  assert.deepEqual(Object.keys(saved).sort(), Object.keys(original).sort());

  // Deleting it now and undoing leaves the saved file as it is.
  await page.getByRole('button', { name: 'Delete entity' }).click();
  await expectPending(page, [`deleted${entityFile(id)}`]);
  await page.getByRole('button', { name: 'Undo' }).click();
  await ui.pendingRegion(page).getByText('No unsaved changes.').waitFor();
  assert.equal(await page.getByRole('button', { name: 'Save' }).isDisabled(), false);
  await ui.saveAndWait(page, 'Nothing to save');
  assert.deepEqual(snapshotDir(dir)[entityFile(id)].bytes, saved[entityFile(id)].bytes);
  await ui.closeWithoutErrors(page);
});

test('an entity whose file holds bytes that are not UTF-8 keeps them through a delete, an undo and saves', async () => {
  const dir = ui.copySample();
  // The entity first in the list, with an unknown key whose value is not UTF-8.
  const id = readdirSync(join(dir, 'Entities'))
    .map((name) => '0x' + BigInt(name.replace('.jasset', '')).toString(16).padStart(16, '0'))
    .sort()[0];
  const path = join(dir, entityFile(id));
  const value = Buffer.from([0x61, 0xff, 0xfe, 0x62, 0xc3, 0x0a]);
  const original = Buffer.concat([readFileSync(path), Buffer.from('; x_blob\n'), value]);
  writeFileSync(path, original);

  const page = await ui.openFolder(env, dir);
  await ui.selectEntity(page, id);
  await page.getByRole('button', { name: 'Delete entity' }).click();
  await expectPending(page, [`deleted${entityFile(id)}`]);
  await page.getByRole('button', { name: 'Undo' }).click();
  await ui.option(page, id).waitFor();
  await ui.pendingRegion(page).getByText('No unsaved changes.').waitFor();
  await ui.saveAndWait(page, 'Nothing to save');
  assert.deepEqual(readFileSync(path), original, 'the file is untouched');

  // The entity back from the undo still holds the exact bytes: a save of
  // another change of it rewrites the file with them.
  await ui.commit(page, 'Position X', '12.5');
  await expectPending(page, [`modified${entityFile(id)}`]);
  await ui.saveAndWait(page, /^Saved 1 file and deleted 0 files/);
  const lines = (bytes) => bytes.toString('latin1').split('\n');
  const saved = lines(readFileSync(path));
  const at = saved.indexOf('; position') + 1;
  assert.match(saved[at], /^12\.5 /);
  assert.deepEqual(saved.toSpliced(at, 1), lines(original).toSpliced(at, 1), 'only the position changed');
  await ui.closeWithoutErrors(page);
});

test("Ctrl+Z in a field is the editor's undo: the field, the list and the pending changes show the engine's value", async () => {
  const dir = ui.copySample();
  const page = await ui.openFolder(env, dir);
  const [id] = await ui.visibleIds(page);
  await ui.selectEntity(page, id);
  const field = page.getByLabel('Position X', { exact: true });
  const before = await field.inputValue();
  await ui.commit(page, 'Position X', '12.5');
  await ui.waitUnsaved(page, id);

  // The cursor is still in the field: Ctrl+Z undoes the edit itself.
  await field.press('Control+z');
  await ui.pendingRegion(page).getByText('No unsaved changes.').waitFor();
  assert.equal(await field.inputValue(), before);
  assert.equal(await isUnsaved(page, id), false);
  await field.press('Control+Shift+z');
  await ui.waitUnsaved(page, id);
  assert.equal(await field.inputValue(), '12.5');

  // Typed but not applied: Ctrl+Z drops the typing only.
  await field.fill('99');
  await field.press('Control+z');
  assert.equal(await field.inputValue(), '12.5');
  assert.equal(await isUnsaved(page, id), true, 'the applied edit stays');
  await ui.closeWithoutErrors(page);
});
