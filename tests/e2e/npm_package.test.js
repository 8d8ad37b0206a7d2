// The npm package in a browser: installed from its tarball into a fresh Vite
// app (tests/shared/npmPackage.js), built, served and run in Chromium,
// which fetches the .wasm Vite emitted and runs the engine.
import assert from 'node:assert/strict';
import { join } from 'node:path';
import { test } from 'node:test';
import { installPackedLibrary, writeViteApp } from '../shared/npmPackage.js';
import { launchChromium, watchExit, withDeadline } from './harness.js';

test('a Vite app on the installed package runs the engine in the browser', async () => {
  const { project } = installPackedLibrary();
  writeViteApp(project);
  const vite = await import('vite');
  const outDir = join(project, 'dist');
  await vite.build({ root: project, configFile: false, logLevel: 'error', build: { outDir, target: 'es2022' } });
  const server = await vite.preview({
    root: project,
    configFile: false,
    logLevel: 'error',
    build: { outDir },
    preview: { port: 0, host: '127.0.0.1', strictPort: false },
  });
  const browser = await launchChromium();
  try {
    const page = await browser.newPage();
    const errors = [];
    page.on('pageerror', (err) => errors.push(err.message));
    await page.goto(server.resolvedUrls.local[0]);
    await page.waitForFunction(() => document.getElementById('count').textContent !== 'loading');
    const [entities, classes] = (await page.textContent('#count')).split(' of ').map(Number);
    assert.deepEqual(errors, []);
    assert.ok(classes > 0 && entities === classes, `${entities} entities for ${classes} classes`);
  } finally {
    await withDeadline(browser.close(), 30_000, 'closing the browser');
    server.httpServer.closeAllConnections?.();
    await withDeadline(server.close(), 10_000, 'closing the preview server');
    watchExit();
  }
});
