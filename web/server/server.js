// The local server of the inspector: the built page (web/dist) and, when
// started on a world directory, the world's routes:
//   GET  /api/world          every file of the world, packed (juliet-world's pack)
//   GET  /api/changes?since= the files changed since a version
//   GET  /api/events         server-sent events: { seq } at each new version
//   POST /api/save           a pack of changed files; answers a pack
// Listens on 127.0.0.1 only; see guard.js for who gets in.
import { realpathSync, statSync } from 'node:fs';
import { createServer } from 'node:http';
import { startEngine } from './engine.js';
import { createGuard, newToken } from './guard.js';
import { BadRequest, Stopping, createSaver } from './save.js';
import { checkShareBase } from '../src/lib/shareBase.js';
import { staticFiles } from './static.js';
import { WorldFiles } from './store.js';
import { decodePack } from 'juliet-world';
import { watchWorld } from './watch.js';

const HOST = '127.0.0.1';
const BODY_MAX = 64 << 20;
const PING_MS = 15_000;
// After close({ now }): how long the answers being sent may still take.
const HURRIED_MS = 1_000;
// The longest the engine waits for the world to be sent (serveWorld).
const SEND_FIRST_MS = 10_000;

function send(res, status, body, type = 'text/plain; charset=utf-8') {
  res.writeHead(status, { 'Content-Type': type, 'Content-Length': Buffer.byteLength(body), 'Cache-Control': 'no-store' });
  res.end(body);
}

// The request body, at most `max` bytes (else an error with status 413).
function readBody(req, max) {
  return new Promise((resolve, reject) => {
    const declared = Number(req.headers['content-length'] ?? 0);
    if (declared > max) return reject(Object.assign(new Error(`request body over ${max} bytes`), { status: 413 }));
    const parts = [];
    let size = 0;
    req.on('data', (chunk) => {
      size += chunk.length;
      if (size > max) {
        reject(Object.assign(new Error(`request body over ${max} bytes`), { status: 413 }));
        req.destroy();
      } else parts.push(chunk);
    });
    req.on('end', () => resolve(Buffer.concat(parts)));
    req.on('error', reject);
  });
}

/**
 * Starts the server. Options: { dir } the world directory (none: only the
 * page, which then opens its bundled sample), { distDir } the built page,
 * { port } (0: any free port; a port in use falls back to any), {
 * shareBase } where this run's share links open (the page gets it as a
 * meta tag; not an http(s) address: an error saying why). Resolves
 * at once with { url (the address to open, token included), token, port,
 * shareBase (as links start with it, or null), loaded (a promise: the
 * world's files read, { ms, count }), engineReady (a promise), close() }. close() stops: saves are refused
 * from then on (503), the one in progress is finished and answered, the
 * engine closes the world; close({ now: true }), also while an earlier
 * close() waits, has that save stop after the file being written.
 */
export async function startServer({ dir = null, distDir, port = 0, shareBase = null }) {
  const token = newToken();
  let base = null;
  if (shareBase !== null) {
    const checked = checkShareBase(shareBase);
    if (checked.problem) throw new Error(`--share-base ${shareBase}: ${checked.problem}`);
    base = checked.base;
  }
  const serveStatic = staticFiles(distDir, { pageMeta: base ? { 'juliet-share-base': base } : {} });
  let world = null;
  if (dir) {
    const root = realpathSync(dir);
    if (!statSync(root).isDirectory()) throw new Error(`${dir} is not a directory`);
    world = serveWorld(root);
  }

  let guard;
  let closing = null;
  let hurry;
  const hurried = new Promise((resolve) => {
    hurry = resolve;
  });
  // The responses not yet sent: a stop waits for them (the answer of the
  // save in progress among them).
  const answering = new Set();
  const server = createServer((req, res) => {
    answering.add(res);
    res.on('close', () => answering.delete(res));
    res.setHeader('Referrer-Policy', 'no-referrer');
    res.setHeader('X-Content-Type-Options', 'nosniff');
    let url;
    try {
      url = new URL(req.url, 'http://127.0.0.1');
    } catch {
      return send(res, 400, 'bad request');
    }
    if (!guard.hostAllowed(req)) return send(res, 403, "forbidden: not this server's host or origin");
    if (!url.pathname.startsWith('/api/')) {
      if (!serveStatic(req, res, url)) send(res, 404, 'not found');
      return;
    }
    if (!guard.tokenGiven(req, url)) return send(res, 403, 'forbidden: no valid token');
    if (!world) return send(res, 404, 'no world: the server was started without a directory');
    if (closing) {
      // Not read: the connection cannot carry another request.
      res.setHeader('Connection', 'close');
      return send(res, 503, req.method === 'POST' ? new Stopping().message : 'the server is stopping');
    }
    handleWorld(world, req, res, url).catch((err) => {
      if (res.headersSent) return res.destroy();
      // A body left unread must not be taken for the next request.
      if (err.status === 413) res.setHeader('Connection', 'close');
      send(res, err.status ?? (err instanceof BadRequest ? 400 : 500), err.message);
    });
  });

  const actualPort = await listen(server, port);
  guard = createGuard(actualPort, token);
  world?.start();
  const ping = setInterval(() => {
    for (const res of world?.events ?? []) res.write(': ping\n\n');
  }, PING_MS);
  ping.unref();

  return {
    url: `http://${HOST}:${actualPort}/${world ? `?token=${token}` : ''}`,
    token,
    port: actualPort,
    shareBase: base,
    loaded: world ? world.loaded : Promise.resolve(null),
    engineReady: world ? world.started.then(() => world.engine?.ready ?? null) : Promise.resolve(null),
    close({ now = false } = {}) {
      if (now) {
        hurry();
        world?.engine?.close({ now: true });
      }
      closing ??= (async () => {
        clearInterval(ping);
        if (world) {
          world.stopped = true;
          world.watcher.close();
          for (const res of world.events) res.end();
          await world.saver?.stop();
          await world.engine?.close();
        }
        // A client that does not read its answer holds a stop up only
        // until it is hurried.
        const sent = new Promise((resolve) => {
          const check = () => answering.size === 0 && resolve();
          for (const res of answering) res.once('close', check);
          check();
        });
        await Promise.race([sent, hurried.then(() => new Promise((resolve) => setTimeout(resolve, HURRIED_MS)))]);
        server.closeAllConnections();
        await new Promise((resolve) => server.close(resolve));
      })();
      return closing;
    },
  };
}

// A world directory served: its files are read in the background (the
// address is printed at once, a page loads meanwhile, and the world's
// routes wait for the read: `loaded`, { ms, count }), then its engine opens
// the world from the bytes read (`started`: the saver, or null once
// stopped; saves wait for it). The engine starts once the pages that waited
// for the read have been sent the world (SEND_FIRST_MS at most): its open,
// seconds at 1,000,000 entities, would take a processor from their loading
// it, which a user waits for. The watcher starts first; what it sees
// during the read is looked at once the read is done. After stop(), a read
// still going starts no engine.
function serveWorld(root) {
  const files = new WorldFiles(root);
  const world = { root, files, engine: null, saver: null, events: new Set(), stopped: false, sending: new Set() };
  let begin;
  const begun = new Promise((resolve) => {
    begin = resolve;
  });
  // Called once the address is out: listing the folder, the read's first
  // part, holds this thread a moment.
  world.start = () => setImmediate(begin);
  world.loaded = begun.then(async () => {
    const started = performance.now();
    const count = await files.load();
    files.packSince(0); // ready for the first page
    return { ms: Math.round(performance.now() - started), count };
  });
  world.started = world.loaded
    // After the waiting requests have begun their answers (world.sending).
    .then(() => new Promise((resolve) => setImmediate(resolve)))
    .then(() => Promise.race([Promise.all([...world.sending]), new Promise((resolve) => setTimeout(resolve, SEND_FIRST_MS).unref())]))
    .then(() => {
      if (world.stopped) return null;
      world.engine = startEngine(root, files.firstRead);
      world.saver = createSaver(files, world.engine);
      return world.saver;
    });
  world.started.catch(() => {}); // as loaded
  world.loaded.catch(() => {}); // reported to whoever awaits it
  world.watcher = watchWorld(root, ({ paths, all }) =>
    world.loaded.then(
      () => {
        try {
          if (all) files.scan();
          else files.refresh(paths);
        } catch (err) {
          console.error(`juliet: could not read the world's changes: ${err.message}`);
        }
      },
      () => {},
    ),
  );
  files.onChange((seq) => {
    for (const res of world.events) res.write(`data: {"seq":${seq}}\n\n`);
  });
  return world;
}

// Listens on `port`, or on any free port if it is taken.
function listen(server, port) {
  return new Promise((resolve, reject) => {
    const onError = (err) => {
      if (err.code === 'EADDRINUSE' && port !== 0) {
        server.listen(0, HOST);
      } else reject(err);
    };
    server.on('error', onError);
    server.listen(port, HOST, () => {
      server.off('error', onError);
      resolve(server.address().port);
    });
  });
}

async function handleWorld(world, req, res, url) {
  const route = `${req.method} ${url.pathname}`;
  try {
    await world.loaded;
  } catch (err) {
    throw Object.assign(new Error(`the world could not be read: ${err.message}`), { status: 500 });
  }
  if (route === 'GET /api/world' || route === 'GET /api/changes') {
    const since = url.pathname === '/api/world' ? 0 : Number(url.searchParams.get('since'));
    if (!Number.isSafeInteger(since) || since < 0) throw new BadRequest('since must be a version number');
    const parts = world.files.packSince(since);
    if (since === 0) {
      const sent = new Promise((resolve) => res.once('close', resolve));
      world.sending.add(sent);
      sent.then(() => world.sending.delete(sent));
    }
    const length = parts.reduce((sum, part) => sum + part.length, 0);
    res.writeHead(200, { 'Content-Type': 'application/octet-stream', 'Content-Length': length, 'Cache-Control': 'no-store' });
    for (const part of parts) res.write(part);
    res.end();
    return;
  }
  if (route === 'GET /api/events') {
    res.writeHead(200, { 'Content-Type': 'text/event-stream', 'Cache-Control': 'no-store' });
    res.write(`retry: 1000\ndata: {"seq":${world.files.seq}}\n\n`);
    world.events.add(res);
    req.on('close', () => world.events.delete(res));
    return;
  }
  if (route === 'POST /api/save') {
    const body = await readBody(req, BODY_MAX);
    let files;
    try {
      ({ files } = decodePack(body));
    } catch (err) {
      throw new BadRequest(err.message);
    }
    const saver = await world.started;
    if (!saver) throw new Stopping(); // stopped while the world was read
    const answer = await saver.save(files);
    res.writeHead(200, { 'Content-Type': 'application/octet-stream', 'Content-Length': answer.length, 'Cache-Control': 'no-store' });
    res.end(answer);
    return;
  }
  send(res, 404, 'not found');
}
