// Set-up of the browser tests in Firefox: Debian's firefox-esr driven by
// puppeteer-core over WebDriver BiDi, started once per test file, headless
// or, where WebGL is needed, on a display of its own (Xvfb: headless Firefox
// has no WebGL here); pages on a copy of the sample served by the local
// server that record their errors; and the steps the Firefox tests share.
// Puppeteer has no getByRole: pages are driven with CSS selectors and
// page.evaluate (worldServer.js's until).
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { existsSync } from 'node:fs';
import { after, before } from 'node:test';
import puppeteer from 'puppeteer-core';
import * as ui from './harness.js';
import { serveWorld, until } from './worldServer.js';

const FIREFOX = '/usr/bin/firefox-esr';

/**
 * Firefox for the test file, started before its first test and closed after
 * its last: { browser }. With `display`, on an Xvfb server started for it
 * (and stopped after it), not headless.
 */
export function useFirefox({ display = false } = {}) {
  const env = {};
  let xvfb = null;
  before(async () => {
    if (!existsSync(FIREFOX)) throw new Error(`${FIREFOX} is missing (bash .ci/setup.sh installs firefox-esr)`);
    const options = { browser: 'firefox', executablePath: FIREFOX, headless: true };
    if (display) {
      xvfb = await startXvfb();
      Object.assign(options, { headless: false, env: { ...process.env, DISPLAY: xvfb.display } });
    }
    env.browser = await puppeteer.launch(options);
  });
  after(async () => {
    try {
      await ui.withDeadline(env.browser?.close() ?? Promise.resolve(), 30_000, 'closing Firefox');
    } finally {
      await xvfb?.stop();
      ui.watchExit();
    }
  });
  return env;
}

/**
 * An X server of its own on a free display: { display (":N"), stop() }.
 * Xvfb picks the display itself and writes its number to fd 3 once it takes
 * connections (-displayfd), so two test runs never race for one.
 */
export function startXvfb() {
  const child = spawn('Xvfb', ['-displayfd', '3', '-screen', '0', '1920x1080x24', '-nolisten', 'tcp'], {
    stdio: ['ignore', 'ignore', 'pipe', 'pipe'],
  });
  // Its exit code or signal, or the error it could not start with (no exit follows one).
  const exited = new Promise((resolve) => {
    child.once('exit', (code, signal) => resolve(code ?? signal));
    child.once('error', resolve);
  });
  let log = '';
  child.stderr.on('data', (chunk) => (log += chunk));
  const stop = async () => {
    if (child.exitCode === null && child.signalCode === null) child.kill();
    await ui.withDeadline(exited, 10_000, 'stopping Xvfb');
  };
  return ui
    .withDeadline(
      new Promise((resolve, reject) => {
        let number = '';
        child.stdio[3].on('data', (chunk) => {
          number += chunk;
          if (number.endsWith('\n')) resolve({ display: `:${number.trim()}`, stop });
        });
        exited.then((how) => {
          if (how?.code === 'ENOENT') reject(new Error('Xvfb is missing: bash .ci/setup.sh installs it (xvfb)'));
          else if (how instanceof Error) reject(new Error(`Xvfb could not start: ${how.message}`));
          else reject(new Error(`Xvfb exited (${how}) before it took connections: ${log.trim()}`));
        });
      }),
      10_000,
      'starting Xvfb',
    )
    .catch(async (err) => {
      await stop().catch(() => {});
      throw err;
    });
}

/** A copy of the sample served by the local server, and a page of `browser`
 * on it that records its errors (see closeWithoutErrors): { dir, page }. */
export async function openServed(browser) {
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
  await until(page, () => document.querySelectorAll('[role=treeitem]').length > 0, null, { what: 'the world to open' });
  return { dir, page };
}

/** Fails the test if the page logged an error, then closes it. */
export async function closeWithoutErrors(page) {
  assert.deepEqual(page.errors, []);
  await page.close();
}

/** Waits until the inspector shows entity `id`. */
export function waitInspected(page, id, what = `${id} in the inspector`) {
  return until(page, (want) => document.querySelector('.inspector h2 code')?.textContent.trim() === want, id, { what });
}

/** Selects entity `id` in the list and waits until the inspector shows it. */
export async function selectEntity(page, id) {
  await page.click(`#entity-${id}`);
  await waitInspected(page, id);
}

/** Waits until the list marks entity `id` unsaved. */
export function waitUnsaved(page, id) {
  return until(page, (want) => document.getElementById(`entity-${want}`)?.getAttribute('aria-label').endsWith('unsaved'), id, {
    what: `${id} marked unsaved`,
  });
}

/** Clicks the button named `name` (its aria-label, else its text). */
export async function clickButton(page, name) {
  await page.$$eval(
    'button',
    (buttons, want) => buttons.find((b) => (b.getAttribute('aria-label') ?? b.textContent.trim()) === want).click(),
    name,
  );
}
