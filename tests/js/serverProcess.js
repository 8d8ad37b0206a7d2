// The local server as its own process (web/server/main.js, as `npm start`
// runs it) for the suites that signal or kill it: started on a world
// directory, called over HTTP with its token, killed if a test leaves it.
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { after } from 'node:test';
import { decodePack, encodePack } from 'juliet-world';
import { repo } from './helpers.js';

const main = join(repo, 'web', 'server', 'main.js');

// Servers a failed test left running.
const children = new Set();
after(() => {
  for (const child of children) child.kill('SIGKILL');
});

// main.js on `dir`, once its engine has opened the world: { child, port,
// token, exited (a promise of { code, signal }), printed(pattern) (a
// promise: once its output matches), output() }.
export async function startMain(dir) {
  assert.ok(existsSync(join(repo, 'web', 'dist', 'index.html')), 'the built inspector (run .ci/build.sh first)');
  const child = spawn(process.execPath, [main, dir, '--port', '0'], { stdio: ['ignore', 'pipe', 'pipe'] });
  let out = '';
  child.stdout.setEncoding('utf8');
  child.stderr.setEncoding('utf8');
  child.stderr.on('data', (chunk) => (out += chunk));
  children.add(child);
  const exited = new Promise((resolve) =>
    child.on('exit', (code, signal) => {
      children.delete(child);
      resolve({ code, signal });
    }),
  );
  await new Promise((resolve, reject) => {
    child.stdout.on('data', (chunk) => {
      out += chunk;
      if (/ready to save/.test(out)) resolve();
    });
    exited.then(() => reject(new Error(`the server exited before it was ready:\n${out}`)));
  });
  const [, port, token] = out.match(/http:\/\/127\.0\.0\.1:(\d+)\/\?token=(\S+)/);
  const printed = (pattern) =>
    new Promise((resolve) => {
      const check = () => pattern.test(out) && resolve();
      child.stdout.on('data', check);
      check();
    });
  return { child, port, token, exited, printed, output: () => out };
}

export function call(server, path, body = null) {
  return fetch(`http://127.0.0.1:${server.port}${path}`, {
    method: body ? 'POST' : 'GET',
    headers: { 'x-juliet-token': server.token },
    body,
  });
}

export async function readWorld(server) {
  const res = await call(server, '/api/world');
  assert.equal(res.status, 200);
  return decodePack(new Uint8Array(await res.arrayBuffer()));
}

/** Posts a save of changes [{ path, seq, bytes }] (other keys ignored). */
export const post = (server, changes) =>
  call(
    server,
    '/api/save',
    encodePack(
      {},
      changes.map(({ path, seq, bytes }) => ({ path, seq, bytes })),
    ),
  );
