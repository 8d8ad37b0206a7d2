// The Conflicts panel of a served world stays compact: with several
// conflicts on a 1024x700 window it takes a bounded part of the height,
// the list scrolls, both versions of a conflict and the buttons that pick
// them are in view together, and the panel folds to one line. A conflict
// that arrives moves no row of the entity list. Screenshots
// at 1440x900 and 1024x700 (tests/e2e/artifacts/server-conflicts-*.png).
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { entityFile } from '../shared/fixtures.js';
import * as ui from './harness.js';
import { moveOnDisk, serveWorld, useChromium } from './worldServer.js';

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
  test(`conflicts take a bounded height at ${viewport.width}x${viewport.height}, both versions and their buttons in view`, async () => {
    const { page, panel, ids } = await withConflicts(viewport);
    await ui.screenshot(page, `server-conflicts-${viewport.width}x${viewport.height}`);
    const panelBox = await box(panel);
    assert.ok(panelBox.height <= viewport.height * 0.3, `the panel is ${panelBox.height} px high`);
    const map = await box(page.getByRole('img', { name: 'World map' }));
    assert.ok(map.height >= viewport.height * 0.25, `the map keeps ${map.height} px`);

    // Each conflict, scrolled to, shows both versions with their buttons.
    for (const id of [ids[0], ids[COUNT - 1]]) {
      const item = panel.getByRole('listitem', { name: `Conflict ${entityFile(id)}` });
      await item.scrollIntoViewIfNeeded();
      for (const name of ['On disk', 'In this page']) {
        const b = await box(item.getByLabel(name));
        assert.ok(b.height > 0 && b.bottom <= viewport.height, `${name} of ${id} in view`);
      }
      for (const name of ['Take the version on disk', "Keep this page's version"]) {
        assert.ok(await item.getByRole('button', { name }).isVisible(), `${name} of ${id}`);
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
