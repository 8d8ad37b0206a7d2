// The main flows of a world served by the local server in Firefox (Debian's
// firefox-esr driven by puppeteer-core over WebDriver BiDi): the page opens
// the directory, an edit is saved to disk through the server, a change made
// on disk shows, and a conflict is shown with nothing overwritten, then
// settled field by field, or whole by taking the disk's version. Saving
// into a folder needs no browser API here, so it works as in Chromium.
import assert from 'node:assert/strict';
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { test } from 'node:test';
import { entityFile, snapshotDir } from '../shared/fixtures.js';
import * as ff from './firefox.js';
import * as ui from './harness.js';
import { listedPosition, messages, moveOnDisk, readEntity, until } from './worldServer.js';

const env = ff.useFirefox();

const visibleIds = (page) => page.$$eval('[role=treeitem]', (els) => els.map((el) => el.id.replace(/^entity-/, '')));

// Types `value` as the entity's position X and applies it with Enter.
async function editX(page, id, value) {
  await ff.selectEntity(page, id);
  await page.locator('#position-X').fill(value);
  await page.keyboard.press('Enter');
  await ff.waitUnsaved(page, id);
}

test('Firefox: the served directory opens, and an edit is saved into it through the server', async () => {
  const { dir, page } = await ff.openServed(env.browser);
  assert.match((await messages(page)).notice, /^Opened sample_world: 36 entities$/);
  const before = snapshotDir(dir);
  const [id] = await visibleIds(page);
  await editX(page, id, '12.5');
  await ff.clickButton(page, 'Save');
  await until(page, () => document.querySelector('[role=status]').textContent.startsWith('Saved '), null, { what: 'the save' });
  assert.equal((await messages(page)).notice, 'Saved 1 file and deleted 0 files in the folder "sample_world"');
  assert.match(readEntity(dir, id), /; position\n12\.5 /);
  ui.assertUntouched(before, snapshotDir(dir), [entityFile(id)]);
  assert.ok(!existsSync(join(dir, '.juliet.lock')));
  await ff.closeWithoutErrors(page);
});

test('Firefox: a change made on disk shows within 2 s, and one that meets an unsaved edit is a conflict', async () => {
  const { dir, page } = await ff.openServed(env.browser);
  const [editedId, changedId] = await visibleIds(page);
  await editX(page, editedId, '-3');

  const started = Date.now();
  moveOnDisk(dir, changedId, '7 8 9');
  await until(page, (id) => document.getElementById(`entity-${id}`)?.querySelector('.pos').textContent === '7, 8, 9', changedId, {
    what: 'the change on disk',
  });
  const shownAfter = Date.now() - started;
  assert.ok(shownAfter < 2_000, `shown after ${shownAfter} ms`);
  assert.equal(await page.$eval('.inspector h2 code', (el) => el.textContent.trim()), editedId, 'the selection stays');

  moveOnDisk(dir, editedId, '1 1 1');
  const onDisk = readEntity(dir, editedId);
  // The labels of the values to pick, once shown.
  const values = () => {
    const labels = [...document.querySelectorAll('[aria-label="Conflicts"] fieldset label')];
    return labels.length > 0 && labels.map((el) => el.textContent.replace(/\s+/g, ' ').trim());
  };
  const shown = await until(page, values, null, { what: 'the conflict' });
  assert.equal(shown.length, 2, 'the position, on both sides');
  assert.match(shown[0], /^This page -3 /);
  assert.equal(shown[1], 'On disk 1 1 1');
  assert.equal((await listedPosition(page, editedId)).split(',')[0], '-3', 'the page keeps its version');
  assert.equal(readEntity(dir, editedId), onDisk, 'the disk keeps its version');

  // The disk's value picked for the field, then applied.
  await page.click('[aria-label="Conflicts"] fieldset label:nth-of-type(2) input');
  await ff.clickButton(page, 'Apply the values picked');
  await until(page, () => !document.querySelector('[aria-label="Conflicts"]'), null, { what: 'the merge to settle the conflict' });
  assert.equal(await listedPosition(page, editedId), '1, 1, 1');

  // Again, settled by taking the version on disk.
  await editX(page, editedId, '-4');
  moveOnDisk(dir, editedId, '2 2 2');
  await until(page, () => !!document.querySelector('[aria-label="Conflicts"] fieldset'), null, { what: 'the second conflict' });
  await ff.clickButton(page, 'Take the version on disk');
  await until(page, () => !document.querySelector('[aria-label="Conflicts"]'), null, { what: 'the conflict to be resolved' });
  assert.equal(await listedPosition(page, editedId), '2, 2, 2');
  await ff.closeWithoutErrors(page);
});
