// Browser tests of links that carry a change: Share changes on a world the
// local server serves makes a short link of the pending edits alone, which
// a second server's page over a copy of the world applies as pending
// changes; an entity whose file changed since the link was made is a
// conflict, named in plain words and left as it is.
import assert from 'node:assert/strict';
import { cpSync, existsSync, mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { test } from 'node:test';
import { entityFile, nativeCli, runCli, tempDir } from '../shared/fixtures.js';
import * as ui from './harness.js';
import { listedPosition, moveOnDisk, serveWorld, useChromium } from './worldServer.js';

const chromium = useChromium();

// A world directory named `name` in a folder of its own, copied from `source`.
function copyAs(source, name) {
  const dir = join(tempDir('changes'), name);
  cpSync(source, dir, { recursive: true });
  return dir;
}

// A page open on `dir` served by a local server of its own; `fragment` is
// put after '#' in its address.
async function openServed(dir, fragment = '') {
  const server = await serveWorld(dir);
  const page = await ui.newPage(chromium.browser);
  await page.goto(fragment ? `${server.url}#${fragment}` : server.url);
  await ui.waitOpen(page);
  return page;
}

// Edits entity `id` of the page (X of its position to `x`) and makes a change link of it.
async function changeLinkOf(page, id, x) {
  await ui.editPosition(page, id, 'X', x);
  await page.getByRole('button', { name: 'Share', exact: true }).click();
  await page.getByRole('button', { name: 'Share changes' }).click();
  const input = page.getByRole('region', { name: 'Change link' }).getByLabel('Link to the changes');
  await input.waitFor();
  return input.inputValue();
}

const opened = (page) => page.getByRole('region', { name: 'Opened change link' });

test(
  'one edit of a 20,000-entity world is a link under 200 characters that applies on a second server over a copy',
  { skip: !existsSync(nativeCli) && 'no juliet CLI' },
  async () => {
    const generated = join(tempDir('gen'), 'level');
    mkdirSync(join(generated, '..'), { recursive: true });
    runCli('gen', generated, '--count', '20000');
    const a = await openServed(copyAs(generated, 'level'));
    await a.getByRole('button', { name: 'Share', exact: true }).click();
    assert.equal(await a.getByRole('button', { name: 'Share changes' }).isDisabled(), true, 'nothing pending');
    await a.getByRole('region', { name: 'Share link' }).getByText('Nothing is pending: there are no changes to share.').waitFor();
    const [id] = await ui.visibleIds(a);
    const link = await changeLinkOf(a, id, '-7.25');
    assert.ok(link.length < 200, `${link.length} characters: ${link}`);
    await ui.eachLook(a, (width, scheme) => ui.screenshot(a, `change-link-${width}-${scheme}`));

    const b = await openServed(copyAs(generated, 'level'), link.slice(link.indexOf('#') + 1));
    await opened(b).getByText('Applied 1 change from the link to level').waitFor();
    assert.deepEqual(await ui.pendingItems(b), [`modified${entityFile(id)}`]);
    assert.match(await listedPosition(b, id), /^-7\.25, /);
    assert.equal(new URL(b.url()).hash, '', 'applied once: a reload does not apply it again');
    await ui.closeWithoutErrors(a);
    await ui.closeWithoutErrors(b);
  },
);

test('an entity whose file changed since the link was made is named as a conflict and left as it is', async () => {
  const a = await openServed(copyAs(ui.sampleWorld, 'sample_world'));
  const [id, other] = await ui.visibleIds(a);
  await ui.editPosition(a, other, 'Y', '3.5');
  const link = await changeLinkOf(a, id, '-7.25');

  const dirB = copyAs(ui.sampleWorld, 'sample_world');
  moveOnDisk(dirB, id, '1 2 3'); // changed in the other copy meanwhile
  const b = await openServed(dirB, link.slice(link.indexOf('#') + 1));
  const report = opened(b);
  await report.getByText('Applied 1 change from the link').waitFor();
  assert.match(await report.textContent(), new RegExp(`${entityFile(id)}: its file changed since the link was made`));
  assert.deepEqual(await ui.pendingItems(b), [`modified${entityFile(other)}`]);
  assert.match(await listedPosition(b, id), /^1, 2, 3$/);
  await ui.eachLook(b, (width, scheme) => ui.screenshot(b, `change-link-conflict-${width}-${scheme}`));
  await ui.closeWithoutErrors(a);
  await ui.closeWithoutErrors(b);
});
