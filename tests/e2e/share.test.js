// Browser tests of sharing a level by URL: a link opened in a second page
// saves the same files byte for byte; long links are flagged; hostile or
// damaged links show an error and an empty inspector, under the page's
// strict Content Security Policy, without running anything they carry.
// Links start with the share base (this run's, the world's setting) when
// one is set, and a link to this machine's own address says it opens only
// here.
import assert from 'node:assert/strict';
import { existsSync, mkdirSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { deflateRawSync } from 'node:zlib';
import { test } from 'node:test';
import { nativeCli, repo, runCli, snapshotDir, tempDir } from '../shared/fixtures.js';
import * as ui from './harness.js';
import { serveWorld } from './worldServer.js';

const env = ui.useInspector();

const shareRegion = (page) => page.getByRole('region', { name: 'Share link' });

async function shareLink(page) {
  await page.getByRole('button', { name: 'Share', exact: true }).click();
  const link = shareRegion(page).getByLabel('Link');
  await link.waitFor();
  return link.inputValue();
}

// The note of a link to this machine's own address.
const onlyHere = (page) => shareRegion(page).getByRole('note').filter({ hasText: 'Opens only on this computer' });

// A copy of the sample whose WorldSettings.jasset sets share_base.
function sampleWithShareBase(base) {
  const dir = ui.copySample();
  const path = join(dir, 'WorldSettings.jasset');
  writeFileSync(path, readFileSync(path, 'utf8').replace('; share_base\n""\n', `; share_base\n${base}\n`));
  return dir;
}

test('a shared link opens the same world, which saves byte for byte the same files', async () => {
  const dirA = ui.copySample();
  const dirB = join(tempDir(), 'from_link');
  mkdirSync(dirB);
  const a = await ui.openFolder(env, dirA);
  await ui.editAndDelete(a, 'X', '-3.25');
  const link = await shareLink(a);
  assert.ok(link.startsWith(`${env.url}#`));
  assert.match(await shareRegion(a).textContent(), new RegExp(`${link.length} characters`));
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
  const note = shareRegion(page).getByRole('note').filter({ hasText: 'chat apps' });
  assert.match(await note.textContent(), /over 2,000 characters may be cut by chat apps/);
  await ui.screenshot(page, 'share-long-link');

  // The sample's link is short: no warning.
  await page.getByRole('button', { name: 'Open sample' }).click();
  // Share only once the sample has replaced the 400-entity world (the
  // source label changes with the table): under load a click before that
  // shares the long link again.
  await page.locator('.world-name', { hasText: 'bundled sample' }).waitFor();
  await page.getByRole('button', { name: 'Share', exact: true }).click();
  await page.waitForFunction(() => document.querySelector('.share input')?.value.length < 2000);
  assert.equal(await shareRegion(page).getByRole('note').filter({ hasText: 'chat apps' }).count(), 0);
  await page.context().close();
});

test('without a share base, a link to this machine says it opens only here and how to set one', async () => {
  for (const viewport of [
    { width: 1440, height: 900 },
    { width: 1024, height: 700 },
  ]) {
    for (const colorScheme of ['light', 'dark']) {
      const context = await env.browser.newContext({ viewport, colorScheme });
      const page = await ui.newPage(env.browser, { context });
      await page.goto(env.url);
      await ui.waitOpen(page);
      const link = await shareLink(page);
      assert.ok(link.startsWith(`${env.url}#`), link);
      const note = await onlyHere(page).textContent();
      assert.match(note, /the link points at this page’s address, 127\.0\.0\.1:\d+\./);
      assert.match(note, /set its address as share_base in World settings/);
      assert.match(note, /npm start -- DIR --share-base URL/);
      await ui.screenshot(page, `share-only-here-${viewport.width}x${viewport.height}-${colorScheme}`);
      await ui.closeWithoutErrors(page);
    }
  }
});

test('a served world with a share base for the run makes links that start with it, which open', async () => {
  const base = 'https://team.example/tools/juliet/';
  const server = await serveWorld(sampleWithShareBase('https://world.example/'), { shareBase: base });
  const page = await ui.newPage(env.browser);
  await page.goto(server.url);
  await ui.waitOpen(page);
  const link = await shareLink(page);
  // The run's base wins over the world's setting.
  assert.ok(link.startsWith(`${base}#`), link);
  assert.match(await shareRegion(page).textContent(), /Opens at https:\/\/team\.example\/tools\/juliet\/ \(this run’s --share-base\)/);
  assert.equal(await onlyHere(page).count(), 0);
  await ui.screenshot(page, 'share-base-of-the-run');

  // What follows '#' opens the same world wherever the inspector is.
  const opened = await ui.newPage(env.browser);
  await opened.goto(`${env.url}#${link.slice(base.length + 1)}`);
  await ui.waitOpen(opened);
  await opened.locator('.world-name', { hasText: 'shared level, not saved yet' }).waitFor();
  await ui.closeWithoutErrors(opened);
  await ui.closeWithoutErrors(page);
});

test('the world share_base setting makes links that start with it; one that is not an http address is passed over and named', async () => {
  const page = await ui.openFolder(env, sampleWithShareBase('https://team.github.io/game/'));
  assert.ok((await shareLink(page)).startsWith('https://team.github.io/game/#'));
  assert.match(await shareRegion(page).textContent(), /\(share_base in World settings\)/);
  await shareRegion(page).getByRole('button', { name: 'Close' }).click();

  // Set in the page, a hostile value makes no link of its own.
  await page.locator('summary', { hasText: 'World settings' }).click();
  const settings = page.getByRole('region', { name: 'World settings' });
  await ui.commit(settings, 'share_base', 'javascript:alert(1)//');
  await page.locator('summary', { hasText: 'World settings · unsaved' }).waitFor();
  const link = await shareLink(page);
  assert.ok(link.startsWith(`${env.url}#`), link);
  const warning = await shareRegion(page).getByRole('note').filter({ hasText: 'is not used' }).textContent();
  assert.equal(warning, 'share_base in World settings is not used: not an http:// or https:// address (javascript:alert(1)//).');
  await onlyHere(page).waitFor();
  assert.equal(await page.evaluate(() => document.querySelectorAll('a[href^="javascript:"]').length), 0);
  await ui.screenshot(page, 'share-base-refused');
  await ui.closeWithoutErrors(page);
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
