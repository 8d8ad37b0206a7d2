// Browser tests of sharing a level by URL: a link opened in a second page
// saves the same files byte for byte; long links are flagged; hostile or
// damaged links show an error and an empty inspector, under the page's
// strict Content Security Policy, without running anything they carry.
import assert from 'node:assert/strict';
import { existsSync, mkdirSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { deflateRawSync } from 'node:zlib';
import { test } from 'node:test';
import { nativeCli, repo, runCli, snapshotDir, tempDir } from '../shared/fixtures.js';
import * as ui from './harness.js';

const env = ui.useInspector();

async function shareLink(page) {
  await page.getByRole('button', { name: 'Share' }).click();
  const link = page.getByRole('region', { name: 'Share link' }).getByLabel('Link');
  await link.waitFor();
  return link.inputValue();
}

test('a shared link opens the same world, which saves byte for byte the same files', async () => {
  const dirA = ui.copySample();
  const dirB = join(tempDir(), 'from_link');
  mkdirSync(dirB);
  const a = await ui.openFolder(env, dirA);
  await ui.editAndDelete(a, 'X', '-3.25');
  const link = await shareLink(a);
  assert.ok(link.startsWith(`${env.url}#`));
  assert.match(await a.getByRole('region', { name: 'Share link' }).textContent(), new RegExp(`${link.length} characters`));
  await ui.screenshot(a, 'share-link');
  await ui.saveAndWait(a);

  const b = await ui.newPage(env.browser);
  await ui.mockFolderPicker(b, dirB);
  await b.goto(link);
  await ui.waitOpen(b);
  assert.match(await b.locator('.world-name').textContent(), /not saved yet/);
  assert.match(await ui.pendingRegion(b).textContent(), /Save writes the whole level .* to a new folder/);
  await ui.saveAndWait(b);

  const filesA = snapshotDir(dirA);
  const filesB = snapshotDir(dirB);
  assert.deepEqual(Object.keys(filesB).sort(), Object.keys(filesA).sort());
  for (const [path, file] of Object.entries(filesA)) {
    assert.deepEqual(filesB[path].bytes, file.bytes, `${path} is the same`);
  }
  assert.deepEqual(a.errors, []);
  assert.deepEqual(b.errors, []);
  await a.context().close();
  await b.context().close();
});

test('a link over 2,000 characters carries a warning', { skip: !existsSync(nativeCli) && 'no juliet CLI' }, async () => {
  const dir = join(tempDir(), 'world_400');
  runCli('gen', dir, '--count', '400');
  const page = await ui.uploadFolder(env, dir);
  const link = await shareLink(page);
  assert.ok(link.length > 2000, `${link.length} characters`);
  const note = page.getByRole('region', { name: 'Share link' }).getByRole('note');
  assert.match(await note.textContent(), /over 2,000 characters may be cut by chat apps/);
  await ui.screenshot(page, 'share-long-link');

  // The sample's link is short: no warning.
  await page.getByRole('button', { name: 'Open sample' }).click();
  // Share only once the sample has replaced the 400-entity world (the
  // source label changes with the table): under load a click before that
  // shares the long link again.
  await page.locator('.world-name', { hasText: 'bundled sample' }).waitFor();
  await page.getByRole('button', { name: 'Share' }).click();
  await page.waitForFunction(() => document.querySelector('.share input')?.value.length < 2000);
  assert.equal(await page.getByRole('region', { name: 'Share link' }).getByRole('note').count(), 0);
  await page.context().close();
});

// Every hostile fixture as the fragment of a link, plus a few more.
function hostileFragments() {
  const dir = join(repo, 'assets/snapshots/hostile');
  const out = [];
  for (const name of readdirSync(dir).sort()) {
    const bytes = readFileSync(join(dir, name));
    if (name.endsWith('.link')) {
      const text = bytes.toString().trim();
      out.push([name, text.slice(text.indexOf('#') + 1)]);
    } else if (name.endsWith('.jsnap')) {
      out.push([name, deflateRawSync(bytes).toString('base64url')]);
    }
  }
  const script = '<img src=x onerror="window.__pwned=1"><script>window.__pwned=2</script>';
  out.push(['markup', encodeURIComponent(script)]);
  out.push(['markup raw', script]);
  out.push(['oversized', 'A'.repeat(1_500_000)]);
  out.push([
    'half of the sample',
    readFileSync(join(repo, 'assets/snapshots/valid/sample_world.link'), 'utf8').trim().split('#')[1].slice(0, 300),
  ]);
  return out;
}

test('hostile, damaged or oversized links show an error and an empty inspector', async () => {
  const page = await ui.newPage(env.browser);
  const fragments = hostileFragments();
  assert.ok(fragments.length > 20);
  for (const [name, fragment] of fragments) {
    await page.goto('about:blank');
    await page.goto(`${env.url}?open=none#${fragment}`);
    const alert = page.getByRole('alert');
    await alert.waitFor({ timeout: 15_000 });
    assert.match(await alert.textContent(), /^Could not open the shared link: /, name);
    assert.equal(await ui.entityOptions(page).count(), 0, `${name}: no entity shown`);
    assert.equal(await page.evaluate(() => window.__pwned), undefined, name);
    if (name === 'markup raw') await ui.screenshot(page, 'share-hostile');
  }
  await ui.closeWithoutErrors(page);
});

test('a hostile link leaves an open world unchanged when it cannot be read', async () => {
  const page = await ui.openSample(env);
  const before = await ui.visibleIds(page);
  await page.evaluate(() => (location.hash = 'not-a-snapshot'));
  await page.getByRole('alert').waitFor();
  assert.match(await page.getByRole('alert').textContent(), /Could not open the shared link/);
  // The same rows (the alert above the panes may leave room for fewer).
  const after = await ui.visibleIds(page);
  assert.ok(after.length > 0);
  assert.deepEqual(after, before.slice(0, after.length));
  await ui.option(page, before[0]).click();
  await page.getByLabel('Position X', { exact: true }).waitFor();
  await ui.closeWithoutErrors(page);
});
