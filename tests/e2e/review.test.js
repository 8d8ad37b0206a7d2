// Browser tests of Pending changes as a review: each pending entity by ID
// and class with its file, each changed field as `key old → new` (the
// engine's diff through the worker), new entities with their fields,
// deleted ones; a row selects its entity; a level from a shared link counts
// the edits made since it was opened and says that Save writes all of it to
// a new folder.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { entityFile } from '../shared/fixtures.js';
import * as ui from './harness.js';

const env = ui.useInspector();

const LIGHT = '0x77a31d7500000002'; // the sample's Light with intensity 18.1

// A row of the review (an entity heading or a changed field), by its name.
const reviewButton = (page, name) => ui.pendingRegion(page).getByRole('button', { name, exact: true });

test('an edited field shows as `key old → new` under its entity, by ID and class, and selects it', async () => {
  const page = await ui.openFolder(env, ui.copySample());
  await ui.selectEntity(page, LIGHT);
  await ui.commit(page, 'intensity', '42');
  await reviewButton(page, 'intensity 18.1 → 42').waitFor();
  await reviewButton(page, `${LIGHT} Light`).waitFor();
  assert.deepEqual(await ui.pendingItems(page), [`modified${entityFile(LIGHT)}`]);
  // Typed again: the row follows the last value.
  await ui.commit(page, 'intensity', '43');
  await reviewButton(page, 'intensity 18.1 → 43').waitFor();
  assert.equal(await reviewButton(page, 'intensity 18.1 → 42').count(), 0);

  const other = (await ui.visibleIds(page)).find((id) => id !== LIGHT);
  await ui.selectEntity(page, other);
  await reviewButton(page, 'intensity 18.1 → 43').click();
  await page.waitForFunction((want) => document.querySelector('.inspector h2 code')?.textContent.trim() === want, LIGHT);
  assert.equal(await ui.selectedId(page), LIGHT);

  // Back to the value of its file: nothing to review.
  await ui.commit(page, 'intensity', '18.1');
  await ui.pendingRegion(page).getByText('No unsaved changes.').waitFor();
  await ui.closeWithoutErrors(page);
});

test('a new entity lists its fields, a deleted one its ID and class', async () => {
  const page = await ui.openFolder(env, ui.copySample());
  await ui.deleteEntity(page, LIGHT);
  const created = await ui.addEntity(page, 'Light');
  const heading = reviewButton(page, `${created} Light`);
  await heading.waitFor();
  const item = ui
    .pendingRegion(page)
    .getByRole('listitem')
    .filter({
      has: page.getByRole('button', { name: `${created} Light`, exact: true }),
    });
  await item.getByRole('button', { name: /^intensity / }).waitFor(); // the review comes from the worker
  const rows = await item.getByRole('button').allTextContents();
  assert.ok(
    rows.some((t) => /^position /.test(t)),
    rows.join(' | '),
  );
  assert.ok(
    rows.some((t) => /^intensity /.test(t)),
    rows.join(' | '),
  );
  assert.ok(!rows.some((t) => /^(asset_type|id|class) /.test(t)), 'the header keys are the heading');

  const deleted = ui
    .pendingRegion(page)
    .getByRole('listitem')
    .filter({ hasText: entityFile(LIGHT) });
  await deleted.getByText(`${LIGHT} Light`).waitFor();
  assert.match(await deleted.textContent(), /^deleted/);
  assert.deepEqual(await ui.pendingItems(page), [`new${entityFile(created)}`, `deleted${entityFile(LIGHT)}`]);
  await ui.screenshot(page, 'pending-review');
  await ui.closeWithoutErrors(page);
});

test('a level from a shared link counts the edits since it was opened; Save writes all of it to a new folder', async () => {
  const a = await ui.openSample(env);
  await a.getByRole('button', { name: 'Share', exact: true }).click();
  const link = await a.getByRole('region', { name: 'Share link' }).getByLabel('Link').inputValue();
  const total = await a.evaluate(() => document.querySelectorAll('[role=treeitem]').length);
  assert.ok(total > 0);
  await a.context().close();

  const page = await ui.newPage(env.browser);
  await page.goto(link);
  await ui.waitOpen(page);
  const region = ui.pendingRegion(page);
  await region
    .getByText(/Opened from a shared link: no edits since\. Save writes the whole level \([\d,]+ entities\) to a new folder\./)
    .waitFor();
  assert.equal((await region.locator('h2 .count').textContent()).trim(), '0');
  assert.deepEqual(await ui.pendingItems(page), []);
  // The toolbar counts as Pending changes does.
  const unsaved = page.locator('.toolbar .world-name .unsaved');
  assert.equal(await unsaved.count(), 0);

  await ui.selectEntity(page, LIGHT);
  await ui.commit(page, 'intensity', '42');
  await reviewButton(page, 'intensity 18.1 → 42').waitFor();
  await region.getByText(/Opened from a shared link: 1 edit since\./).waitFor();
  assert.equal((await region.locator('h2 .count').textContent()).trim(), '1');
  assert.deepEqual(await ui.pendingItems(page), [`modified${entityFile(LIGHT)}`]);
  assert.equal((await unsaved.textContent()).trim(), '· 1 unsaved');
  await ui.closeWithoutErrors(page);
});
