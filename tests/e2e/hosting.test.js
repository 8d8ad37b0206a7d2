// Browser tests of the built inspector (web/dist) hosted as plain static
// files under a sub-path, the way a GitHub Pages project site or an
// intranet folder serves it: no server routes, no rewrites. The bundled
// sample opens, every file the page loads (scripts, styles, the worker, the
// wasm module, the 3D view's chunk) comes from under that path, a world
// link opens, and the links Share makes open there again.
import assert from 'node:assert/strict';
import { createReadStream, readFileSync, statSync } from 'node:fs';
import { createServer } from 'node:http';
import { extname, join, sep } from 'node:path';
import { after, before, test } from 'node:test';
import { repo } from '../shared/fixtures.js';
import * as ui from './harness.js';
import { listedPosition, useChromium } from './worldServer.js';

const PREFIX = '/tools/juliet/';
const SPAWN = '0x77a31d7500000001'; // an entity of the sample (its spawn point)
const TYPES = {
  '.html': 'text/html; charset=utf-8',
  '.js': 'text/javascript; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
  '.wasm': 'application/wasm',
};

// A static file server of `dir` under `prefix`, as simple as a web host:
// GET of the files there (the prefix itself gives index.html), 404 for
// anything else. Every request is noted: { path, status }.
function staticHost(dir, prefix) {
  const requests = [];
  const server = createServer((req, res) => {
    const path = new URL(req.url, 'http://host').pathname;
    const answer = (status) => requests.push({ path, status });
    let file = null;
    if (req.method === 'GET' && path.startsWith(prefix)) {
      const candidate = join(dir, path.slice(prefix.length) || 'index.html');
      if (candidate.startsWith(dir + sep) && statSync(candidate, { throwIfNoEntry: false })?.isFile()) file = candidate;
    }
    if (!file) {
      answer(404);
      res.writeHead(404, { 'Content-Type': 'text/plain' }).end('not found');
      return;
    }
    answer(200);
    res.writeHead(200, { 'Content-Type': TYPES[extname(file)] ?? 'application/octet-stream' });
    createReadStream(file).pipe(res);
  });
  return new Promise((resolve) => {
    server.listen(0, '127.0.0.1', () => {
      resolve({
        url: `http://127.0.0.1:${server.address().port}${prefix}`,
        requests,
        close: () => {
          server.closeAllConnections();
          return new Promise((done) => server.close(done));
        },
      });
    });
  });
}

const env = useChromium();
let host;
before(async () => {
  await ui.ensureBuilt();
  host = await staticHost(join(repo, 'web/dist'), PREFIX);
});
after(() => host?.close());

// The fragment of a link made by `juliet share` on the sample world.
const sampleFragment = readFileSync(join(repo, 'assets/snapshots/valid/sample_world.link'), 'utf8').trim().split('#')[1];

test('the built inspector opens its sample from a sub-path, loading every file from under it', async () => {
  const page = await ui.newPage(env.browser);
  await page.goto(host.url);
  await ui.waitOpen(page);
  await page.locator('.world-name', { hasText: 'bundled sample' }).waitFor();
  await ui.option(page, SPAWN).waitFor();
  // The 3D view's chunk (three.js) and its WebGL canvas.
  await page.getByRole('button', { name: '3D', exact: true }).click();
  await page.locator('canvas.viewport[aria-busy="false"]').waitFor();
  await ui.screenshot(page, 'hosted-sub-path');

  const loaded = host.requests.map((r) => r.path);
  for (const kind of [/\/index-[^/]*\.js$/, /\.css$/, /\/worker-[^/]*\.js$/, /\.wasm$/, /\/scene-[^/]*\.js$/]) {
    assert.ok(
      loaded.some((p) => kind.test(p)),
      `${kind} was loaded (${loaded.join(', ')})`,
    );
  }
  assert.deepEqual(
    host.requests.filter((r) => r.status !== 200 || !r.path.startsWith(PREFIX)),
    [],
    'nothing outside the sub-path, nothing missing',
  );
  await ui.closeWithoutErrors(page);
});

test('a world link opens in the hosted inspector, and Share makes links that open there', async () => {
  const page = await ui.newPage(env.browser);
  await page.goto(`${host.url}index.html#${sampleFragment}`);
  await ui.waitOpen(page);
  await page.locator('.world-name', { hasText: 'shared level, not saved yet' }).waitFor();
  await ui.option(page, SPAWN).waitFor();

  await ui.editPosition(page, SPAWN, 'X', '4.5');
  await page.getByRole('button', { name: 'Share', exact: true }).click();
  const link = await page.getByRole('region', { name: 'Share link' }).getByLabel('Link').inputValue();
  // The page's own address, with a fragment of its own.
  assert.ok(link.startsWith(`${host.url}index.html#`), link);

  const second = await ui.newPage(env.browser);
  await second.goto(link);
  await ui.waitOpen(second);
  await second.locator('.world-name', { hasText: 'shared level, not saved yet' }).waitFor();
  await ui.option(second, SPAWN).waitFor();
  assert.match(await listedPosition(second, SPAWN), /^4\.5, /, 'the edit came with the link');
  assert.deepEqual(
    host.requests.filter((r) => r.status !== 200),
    [],
  );
  await ui.closeWithoutErrors(page);
  await ui.closeWithoutErrors(second);
});
