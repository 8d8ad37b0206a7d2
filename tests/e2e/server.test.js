// Browser tests (Chromium) of a world directory served by the local server
// (`npm start -- DIR`): the page opens the directory at once; an edit saved
// reaches the disk through the server (that file only); files changed,
// added and deleted on disk show within 2 s keeping the selection and the
// unsaved edits; an entity whose same field changed both on disk and in the
// page is a conflict with both values shown, nothing written over either
// until the user picks.
import assert from 'node:assert/strict';
import { existsSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { test } from 'node:test';
import { loadJuliet } from 'juliet-sample';
import { entityFile, snapshotDir } from '../shared/fixtures.js';
import * as ui from './harness.js';
import { listedPosition, messages, moveOnDisk, readEntity, serveWorld, until, useChromium, withId, withPosition } from './worldServer.js';

const chromium = useChromium();

// A copy of the sample served by the local server, and a page open on it.
async function openServed() {
  const dir = ui.copySample();
  const server = await serveWorld(dir);
  const page = await ui.newPage(chromium.browser);
  await page.goto(server.url);
  await ui.waitOpen(page);
  return { dir, server, page };
}

const conflicts = (page) => page.getByRole('region', { name: 'Conflicts' });

test('the page opens the directory the server was started on, with its list, map and no diagnostics', async () => {
  const { page } = await openServed();
  await page.getByRole('status').filter({ hasText: 'Opened sample_world: 36 entities' }).waitFor();
  await page.getByText('folder on disk, live').waitFor();
  await page.getByRole('img', { name: 'World map' }).waitFor();
  await page.getByRole('region', { name: 'Diagnostics' }).getByText('Every file loaded.').waitFor();
  await ui.screenshot(page, 'server-open');
  await ui.closeWithoutErrors(page);
});

test('Save writes the edited and deleted entities into the directory, and leaves every other file untouched', async () => {
  const { dir, page } = await openServed();
  const before = snapshotDir(dir);
  const { edited, deleted } = await ui.editAndDelete(page, 'X', '12.5');
  assert.deepEqual(await ui.pendingItems(page), [`modified${entityFile(edited)}`, `deleted${entityFile(deleted)}`]);
  await ui.saveAndWait(page, 'Saved 1 file and deleted 1 file in the folder "sample_world"');
  assert.match(readEntity(dir, edited), /; position\n12\.5 /);
  assert.ok(!existsSync(join(dir, entityFile(deleted))), 'the deleted entity file is gone');
  ui.assertUntouched(before, snapshotDir(dir), [entityFile(edited), entityFile(deleted)]);
  assert.deepEqual(await ui.pendingItems(page), []);
  // Nothing is left over: the lock is released, no temporary file remains.
  assert.ok(!existsSync(join(dir, '.juliet.lock')));
  await ui.closeWithoutErrors(page);
});

test('files changed, added and deleted on disk show within 2 s, keeping the selection and the unsaved edits', async () => {
  const { dir, page } = await openServed();
  const [selectedId, editedId, changedId, deletedId] = await ui.visibleIds(page);
  await ui.editPosition(page, editedId, 'X', '-7');
  await ui.selectEntity(page, selectedId);
  const addedId = '0x77a31d75000fff01';

  const total = (n) =>
    until(page, (want) => document.querySelector('.filters select option')?.textContent === `All classes (${want})`, n, {
      timeout: 5_000,
      what: `${n} entities`,
    });

  // Changed and added.
  let started = Date.now();
  moveOnDisk(dir, changedId, '11 22 33');
  moveOnDisk(dir, selectedId, '44 55 66');
  writeFileSync(join(dir, entityFile(addedId)), withId(readEntity(dir, changedId), addedId));
  await until(page, (id) => document.getElementById(`entity-${id}`)?.querySelector('.pos')?.textContent === '11, 22, 33', changedId, {
    timeout: 5_000,
    what: 'the change on disk',
  });
  await total(37);
  let shownAfter = Date.now() - started;
  assert.ok(shownAfter < 2_000, `changed and added shown after ${shownAfter} ms`);

  // Deleted.
  started = Date.now();
  rmSync(join(dir, entityFile(deletedId)));
  await total(36);
  shownAfter = Date.now() - started;
  assert.ok(shownAfter < 2_000, `deleted shown after ${shownAfter} ms`);
  assert.equal(await listedPosition(page, deletedId), null);

  // The selection stays, and shows the selected entity's new text.
  assert.equal(await ui.inspectedId(page), selectedId);
  assert.equal(await page.getByLabel('Position X', { exact: true }).inputValue(), '44');
  // The unsaved edit stays, and is all that is pending.
  assert.equal((await listedPosition(page, editedId)).split(',')[0], '-7');
  assert.deepEqual(await ui.pendingItems(page), [`modified${entityFile(editedId)}`]);
  await ui.closeWithoutErrors(page);
});

test('a file that fails to load, written and then deleted on disk, comes and goes from the list of failed files', async () => {
  const { dir, page } = await openServed();
  const failed = page.getByRole('listbox', { name: 'Files that failed to load' }).getByRole('option');
  // A file whose name is no entity's, and a copy under another entity's ID.
  const [firstId, otherId] = await ui.visibleIds(page);
  const misnamed = join(dir, 'Entities', 'junk2.jasset');
  const renamed = join(dir, entityFile('0x77a31d75000fff02'));
  writeFileSync(misnamed, 'hi\n');
  writeFileSync(renamed, readEntity(dir, otherId));
  await until(page, () => document.querySelectorAll('[aria-label="Files that failed to load"] [role=option]').length === 2, null, {
    timeout: 5_000,
    what: 'two failed files',
  });
  rmSync(misnamed);
  rmSync(renamed);
  await until(page, () => document.querySelectorAll('[aria-label="Files that failed to load"] [role=option]').length === 0, null, {
    timeout: 5_000,
    what: 'no failed file left',
  });
  assert.equal(await failed.count(), 0);
  assert.equal(await page.getByRole('note', { name: 'Files that failed to load' }).count(), 0, 'no banner');
  assert.ok(await ui.option(page, firstId).isVisible());
  await ui.closeWithoutErrors(page);
});

test('an entity whose position changed on disk and in the page is a conflict: both values shown, nothing overwritten until the user picks', async () => {
  const { dir, page } = await openServed();
  const [keptId, takenId, otherId] = await ui.visibleIds(page);
  await ui.editPosition(page, keptId, 'X', '101');
  await ui.editPosition(page, takenId, 'X', '202');
  await ui.editPosition(page, otherId, 'X', '303');
  moveOnDisk(dir, keptId, '1 1 1');
  moveOnDisk(dir, takenId, '2 2 2');
  const diskKept = readEntity(dir, keptId);
  const diskTaken = readEntity(dir, takenId);

  // Both values are shown; the page keeps its own meanwhile.
  const kept = conflicts(page).getByRole('listitem', { name: `Conflict ${entityFile(keptId)}` });
  const position = kept.getByRole('group', { name: 'position' });
  await position.waitFor();
  assert.equal(await position.getByRole('radio', { name: 'On disk 1 1 1' }).count(), 1);
  assert.equal(await position.getByRole('radio', { name: /^This page 101 / }).count(), 1);
  assert.equal((await listedPosition(page, keptId)).split(',')[0], '101');
  assert.match((await messages(page)).notice, /changed on disk and in this page/);
  await ui.screenshot(page, 'server-conflict');

  // Save writes the other entity and leaves both conflicting files alone.
  await ui.saveAndWait(page, /^Saved 1 file/);
  assert.match((await messages(page)).alert, /2 files changed on disk since loaded, not written/);
  assert.equal(readEntity(dir, keptId), diskKept);
  assert.equal(readEntity(dir, takenId), diskTaken);
  assert.match(readEntity(dir, otherId), /; position\n303 /);

  // Keeping the page's version: Pending changes reviews it against the
  // disk's, and the next save writes it.
  await kept.getByRole('button', { name: "Keep this page's version" }).click();
  await until(page, () => /1 1 1\s*→\s*101 /.test(document.querySelector('[aria-label="Pending changes"]')?.textContent ?? ''), null, {
    what: "the review of the kept version against the disk's",
  });
  await ui.saveAndWait(page, /^Saved 1 file/);
  assert.match(readEntity(dir, keptId), /; position\n101 /);
  assert.doesNotMatch(readEntity(dir, keptId), /1 1 1/);

  // Taking the disk's version: the page shows it, with nothing pending.
  const taken = conflicts(page).getByRole('listitem', { name: `Conflict ${entityFile(takenId)}` });
  await taken.getByRole('button', { name: 'Take the version on disk' }).click();
  await conflicts(page).waitFor({ state: 'detached' });
  assert.equal(await listedPosition(page, takenId), '2, 2, 2');
  assert.deepEqual(await ui.pendingItems(page), []);
  assert.equal(readEntity(dir, takenId), diskTaken);
  await ui.closeWithoutErrors(page);
});

test('a file saved on disk with the text the page has is no conflict: the page is simply in step', async () => {
  const { dir, page } = await openServed();
  const [id] = await ui.visibleIds(page);
  await ui.editPosition(page, id, 'Y', '9');
  const text = readEntity(dir, id);
  const [x, , z] = text.match(/; position\n([^\n]*)/)[1].split(' ');
  writeFileSync(join(dir, entityFile(id)), withPosition(text, `${x} 9 ${z}`));
  await until(page, () => document.querySelector('[aria-label="Pending changes"] .count')?.textContent === '0', null, {
    what: 'the edit to be in step with the disk',
  });
  assert.equal(await conflicts(page).count(), 0);
  await ui.closeWithoutErrors(page);
});

test('an entity deleted in the page whose file then changes on disk is a conflict: neither brought back nor deleted unasked', async () => {
  const { dir, page } = await openServed();
  const [takenId, keptId, goneId] = await ui.visibleIds(page);
  for (const id of [takenId, keptId, goneId]) await ui.deleteEntity(page, id);
  moveOnDisk(dir, takenId, '4 5 6');
  moveOnDisk(dir, keptId, '7 8 9');
  rmSync(join(dir, entityFile(goneId)));
  const diskTaken = readEntity(dir, takenId);
  const diskKept = readEntity(dir, keptId);

  const taken = conflicts(page).getByRole('listitem', { name: `Conflict ${entityFile(takenId)}` });
  const kept = conflicts(page).getByRole('listitem', { name: `Conflict ${entityFile(keptId)}` });
  await taken.waitFor();
  await kept.waitFor();
  assert.match(await taken.getByLabel('On disk').textContent(), /; position\n4 5 6\n/);
  assert.equal((await taken.getByLabel('In this page').textContent()).trim(), '(deleted in this page)');
  // Not shown again, still to delete; the file deleted on both sides is in step.
  assert.equal(await listedPosition(page, takenId), null);
  assert.equal(await listedPosition(page, keptId), null);
  await until(page, () => document.querySelectorAll('[aria-label="Pending changes"] li').length === 2, null, {
    what: 'the entity deleted on both sides to leave Pending changes',
  });
  assert.deepEqual(await ui.pendingItems(page), [`deleted${entityFile(takenId)}`, `deleted${entityFile(keptId)}`]);
  assert.equal(await conflicts(page).getByRole('listitem').count(), 2);

  // Save deletes neither changed file.
  await page.getByRole('button', { name: 'Save' }).click();
  await until(page, () => /changed on disk since loaded/.test(document.querySelector('[role=alert]')?.textContent ?? ''), null, {
    what: 'the save to report the conflicts',
  });
  assert.equal(readEntity(dir, takenId), diskTaken);
  assert.equal(readEntity(dir, keptId), diskKept);

  // Taking the disk's version brings the entity back as the disk has it.
  await taken.getByRole('button', { name: 'Take the version on disk' }).click();
  await taken.waitFor({ state: 'detached' });
  await until(page, (id) => document.getElementById(`entity-${id}`)?.querySelector('.pos')?.textContent === '4, 5, 6', takenId, {
    what: 'the entity back as the disk has it',
  });
  // Keeping the page's version (the delete): the next save deletes the file.
  await kept.getByRole('button', { name: "Keep this page's version" }).click();
  await ui.saveAndWait(page, /deleted 1 file/);
  assert.ok(!existsSync(join(dir, entityFile(keptId))), 'the kept delete reached the disk');
  assert.equal(readEntity(dir, takenId), diskTaken);
  assert.deepEqual(await ui.pendingItems(page), []);
  await ui.closeWithoutErrors(page);
});

test('references to missing entities are diagnostics of the served world, as of a folder opened in the page', async () => {
  const dir = ui.copySample();
  const [prop] = readdirSync(join(dir, 'Entities')).filter((name) =>
    /; class\nProp\n/.test(readFileSync(join(dir, 'Entities', name), 'utf8')),
  );
  const path = `Entities/${prop}`;
  const text = readFileSync(join(dir, path), 'utf8');
  writeFileSync(join(dir, path), text.replace(/; parent\n[^\n]*/, '; parent\n0x00000000deadbeef'));
  const line = text.split('\n').indexOf('; parent') + 2;
  const expected = `${path}:${line}:1 reference to missing entity 0x00000000deadbeef`;

  const server = await serveWorld(dir);
  const page = await ui.newPage(chromium.browser);
  await page.goto(server.url);
  await ui.waitOpen(page);
  const diagnostics = page.getByRole('region', { name: 'Diagnostics' });
  await diagnostics.getByRole('listitem').first().waitFor();
  const listed = () => diagnostics.getByRole('listitem').allTextContents();
  assert.deepEqual(
    (await listed()).map((t) => t.trim()),
    [expected],
  );

  // The target written on disk settles the reference, which another file
  // holds; the target deleted breaks it again.
  const target = '0x00000000deadbeef';
  const other = readdirSync(join(dir, 'Entities')).find((name) => name !== prop);
  writeFileSync(join(dir, entityFile(target)), withId(readFileSync(join(dir, 'Entities', other), 'utf8'), target));
  await until(page, () => !document.querySelector('[aria-label="Diagnostics"] li'), null, {
    timeout: 5_000,
    what: 'the reference settled',
  });
  rmSync(join(dir, entityFile(target)));
  await diagnostics.getByRole('listitem').first().waitFor({ timeout: 5_000 });
  assert.deepEqual(
    (await listed()).map((t) => t.trim()),
    [expected],
  );
  await ui.closeWithoutErrors(page);

  // What a folder opened in the page shows: the engine's diagnostics of the directory.
  const juliet = await loadJuliet();
  const world = juliet.openWorld(dir);
  const fromFolder = world.diagnostics().map((d) => `${d.path.slice(dir.length + 1)}:${d.line}:${d.col} ${d.message}`);
  world.close();
  assert.deepEqual(fromFolder, [expected]);
});
