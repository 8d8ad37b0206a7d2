// Browser tests of finding entities: digits typed into the ID search match
// anywhere in the hex ID (and a file number finds its entity); the Query box
// filters the list and the map by class and field values, read by the
// engine in its worker; a bad query says what is wrong next to the box and
// filters nothing.
import assert from 'node:assert/strict';
import { readFileSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { test } from 'node:test';
import * as ui from './harness.js';

const env = ui.useInspector();

const LIGHT = '0x77a31d7500000002'; // the sample's Light with intensity 18.1

// Every entity of the sample on disk: { id, class, intensity } (raw value texts).
function sampleEntities() {
  const dir = join(ui.sampleWorld, 'Entities');
  return readdirSync(dir).map((name) => {
    const lines = readFileSync(join(dir, name), 'utf8').split('\n');
    const value = (key) => {
      const at = lines.indexOf(`; ${key}`);
      return at < 0 ? null : lines[at + 1].trim();
    };
    return { id: value('id').toLowerCase(), class: value('class'), intensity: value('intensity') };
  });
}

// How many entities the list's filters pass (what the map draws: the list
// shows their ancestors too, outside the filter).
function listSize(page) {
  return page.evaluate(() => Number(document.querySelector('canvas[aria-label="World map"]').dataset.shown));
}

async function waitListSize(page, n) {
  const deadline = Date.now() + 10_000;
  let size;
  while (Date.now() < deadline) {
    size = await listSize(page);
    if (size === n) return;
    await new Promise((done) => setTimeout(done, 50));
  }
  assert.fail(`the filters pass ${size} entities, not ${n}`);
}

test('digits typed into the ID search match anywhere in the hex ID; a file number finds its entity', async () => {
  const all = sampleEntities();
  const page = await ui.openFolder(env, ui.copySample());
  const search = page.getByLabel('Search by name or ID');
  await search.fill('0000002');
  const want = all.filter((e) => e.id.slice(2).includes('0000002'));
  assert.ok(want.length > 1 && want.some((e) => e.id === LIGHT));
  await waitListSize(page, want.length);
  await ui.option(page, LIGHT).waitFor();

  await search.fill(BigInt(LIGHT).toString()); // its file's name
  await waitListSize(page, 1);
  await ui.option(page, LIGHT).waitFor();
  await search.fill(`${BigInt(LIGHT)}.jasset`);
  await waitListSize(page, 1);
  await search.fill('');
  await waitListSize(page, all.length);
  await ui.closeWithoutErrors(page);
});

test('the Query box filters the list by class and field values, following edits', async () => {
  const all = sampleEntities();
  const page = await ui.openFolder(env, ui.copySample());
  const box = page.getByLabel('Query', { exact: true });
  await box.fill('class:light intensity>10');
  const want = all.filter((e) => e.class === 'Light' && Number(e.intensity) > 10);
  assert.ok(want.length > 0 && want.length < all.filter((e) => e.class === 'Light').length);
  await waitListSize(page, want.length);
  assert.deepEqual((await ui.visibleIds(page)).sort(), want.map((e) => e.id).sort());
  assert.equal(await box.getAttribute('aria-invalid'), null);
  await ui.screenshot(page, 'query');

  // An edit that makes an entity pass shows it.
  await box.fill('intensity>=5000');
  await page.getByText('No entity matches.').waitFor();
  await box.fill('');
  await waitListSize(page, all.length);
  await ui.selectEntity(page, LIGHT);
  await ui.commit(page, 'intensity', '5000');
  await ui.waitUnsaved(page, LIGHT);
  await box.fill('intensity>=5000');
  await waitListSize(page, 1);
  assert.deepEqual(await ui.visibleIds(page), [LIGHT]);
  await ui.closeWithoutErrors(page);
});

test('a bad query says what is wrong next to the box and filters nothing', async () => {
  const all = sampleEntities();
  const page = await ui.openFolder(env, ui.copySample());
  const box = page.getByLabel('Query', { exact: true });
  const describedBy = await box.getAttribute('aria-describedby');
  const help = page.locator(`#${describedBy}`);
  for (const [text, want] of [
    ['intensity>abc', /intensity>abc: > compares numbers/],
    ['intensty>1', /intensty: no class of this world has that field/],
    ['class:Light grunt', /grunt: expected field, operator and value/],
    ['name:"open', /the quote is not closed/],
  ]) {
    await box.fill(text);
    await page.waitForFunction((el) => el.getAttribute('aria-invalid') === 'true', await box.elementHandle());
    assert.match(await help.textContent(), want);
    await waitListSize(page, all.length);
  }
  await box.fill('class:Prop');
  await page.waitForFunction((el) => !el.hasAttribute('aria-invalid'), await box.elementHandle());
  await waitListSize(page, all.filter((e) => e.class === 'Prop').length);
  await ui.closeWithoutErrors(page);
});
