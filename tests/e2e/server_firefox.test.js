// The main flows of a world served by the local server in Firefox (Debian's
// firefox-esr driven by puppeteer-core over WebDriver BiDi): the page opens
// the directory, an edit is saved to disk through the server, a change made
// on disk shows, and a conflict is shown with nothing overwritten. Saving
// into a folder needs no browser API here, so it works as in Chromium.
import assert from 'node:assert/strict';
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { after, before, test } from 'node:test';
import puppeteer from 'puppeteer-core';
import { entityFile, snapshotDir } from '../shared/fixtures.js';
import * as ui from './harness.js';
import { listedPosition, messages, moveOnDisk, readEntity, serveWorld, until } from './worldServer.js';

const FIREFOX = '/usr/bin/firefox-esr';

let browser;
before(async () => {
  if (!existsSync(FIREFOX)) throw new Error(`${FIREFOX} is missing (bash .ci/setup.sh installs firefox-esr)`);
  browser = await puppeteer.launch({ browser: 'firefox', executablePath: FIREFOX, headless: true });
});
after(async () => {
  await ui.withDeadline(browser?.close() ?? Promise.resolve(), 30_000, 'closing Firefox');
  ui.watchExit();
});

// A copy of the sample served by the local server, and a Firefox page on it
// that records its errors.
async function openServed() {
  const dir = ui.copySample();
  const server = await serveWorld(dir);
  const page = await browser.newPage();
  await page.setViewport({ width: 1440, height: 900 });
  page.errors = [];
  page.on('pageerror', (err) => page.errors.push(err));
  page.on('console', (msg) => {
    if (msg.type() === 'error') page.errors.push(new Error(msg.text()));
  });
  await page.goto(server.url);
  await until(page, () => document.querySelectorAll('[role=option]').length > 0, null, { what: 'the world to open' });
  return { dir, page };
}

const visibleIds = (page) => page.$$eval('[role=option]', (els) => els.map((el) => el.id.replace(/^entity-/, '')));

async function selectEntity(page, id) {
  await page.click(`#entity-${id}`);
  await until(page, (want) => document.querySelector('.inspector h2 code')?.textContent.trim() === want, id, {
    what: `${id} in the inspector`,
  });
}

// Types `value` as the entity's position X and applies it with Enter.
async function editX(page, id, value) {
  await selectEntity(page, id);
  await page.locator('#position-X').fill(value);
  await page.keyboard.press('Enter');
  await until(page, (want) => document.getElementById(`entity-${want}`)?.getAttribute('aria-label').endsWith('unsaved'), id, {
    what: `${id} marked unsaved`,
  });
}

// Clicks the button named `name` (its aria-label, else its text).
async function clickButton(page, name) {
  await page.$$eval(
    'button',
    (buttons, want) => buttons.find((b) => (b.getAttribute('aria-label') ?? b.textContent.trim()) === want).click(),
    name,
  );
}

async function closeWithoutErrors(page) {
  assert.deepEqual(page.errors, []);
  await page.close();
}

test('Firefox: the served directory opens, and an edit is saved into it through the server', async () => {
  const { dir, page } = await openServed();
  assert.match((await messages(page)).notice, /^Opened sample_world: 36 entities$/);
  const before = snapshotDir(dir);
  const [id] = await visibleIds(page);
  await editX(page, id, '12.5');
  await clickButton(page, 'Save');
  await until(page, () => document.querySelector('[role=status]').textContent.startsWith('Saved '), null, { what: 'the save' });
  assert.equal((await messages(page)).notice, 'Saved 1 file and deleted 0 files in the folder "sample_world"');
  assert.match(readEntity(dir, id), /; position\n12\.5 /);
  ui.assertUntouched(before, snapshotDir(dir), [entityFile(id)]);
  assert.ok(!existsSync(join(dir, '.juliet.lock')));
  await closeWithoutErrors(page);
});

test('Firefox: a change made on disk shows within 2 s, and one that meets an unsaved edit is a conflict', async () => {
  const { dir, page } = await openServed();
  const [editedId, changedId] = await visibleIds(page);
  await editX(page, editedId, '-3');

  const started = Date.now();
  moveOnDisk(dir, changedId, '7 8 9');
  await until(page, (id) => document.getElementById(`entity-${id}`)?.querySelector('.pos').textContent === '7.0, 8.0, 9.0', changedId, {
    what: 'the change on disk',
  });
  const shownAfter = Date.now() - started;
  assert.ok(shownAfter < 2_000, `shown after ${shownAfter} ms`);
  assert.equal(await page.$eval('.inspector h2 code', (el) => el.textContent.trim()), editedId, 'the selection stays');

  moveOnDisk(dir, editedId, '1 1 1');
  const onDisk = readEntity(dir, editedId);
  await until(page, () => !!document.querySelector('[aria-label="Conflicts"] [aria-label="On disk"]'), null, { what: 'the conflict' });
  assert.match(await page.$eval('[aria-label="On disk"]', (el) => el.textContent), /1 1 1/);
  assert.match(await page.$eval('[aria-label="In this page"]', (el) => el.textContent), /-3 /);
  assert.equal((await listedPosition(page, editedId)).split(',')[0], '-3.0', 'the page keeps its version');
  assert.equal(readEntity(dir, editedId), onDisk, 'the disk keeps its version');

  await clickButton(page, 'Take the version on disk');
  await until(page, () => !document.querySelector('[aria-label="Conflicts"]'), null, { what: 'the conflict to be resolved' });
  assert.equal(await listedPosition(page, editedId), '1.0, 1.0, 1.0');
  await closeWithoutErrors(page);
});
