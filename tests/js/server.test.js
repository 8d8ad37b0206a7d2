// The local server (web/server) against a real world directory: who gets in
// (the token, the Host and Origin headers), what it reads (every world file
// in one pack, nothing outside the world or the page's own files), what a
// save writes (through the engine: the file changed, the others untouched),
// what it refuses (paths outside the world, a file changed on disk since it
// was loaded, bodies over the bound, writes through a symbolic link), the
// versions it announces when files change on disk (its folder replaced
// too), and saves after class files change on disk or after many class
// names come and go.
import assert from 'node:assert/strict';
import {
  cpSync,
  existsSync,
  lstatSync,
  mkdirSync,
  readFileSync,
  readdirSync,
  renameSync,
  rmSync,
  symlinkSync,
  unlinkSync,
  utimesSync,
  writeFileSync,
} from 'node:fs';
import { request as httpRequest } from 'node:http';
import { basename, join } from 'node:path';
import { after, before, test } from 'node:test';
import { startServer } from '../../web/server/server.js';
import { WorldFiles } from '../../web/server/store.js';
import { decodePack, encodePack, idOfPath } from 'juliet-world';
import { assets, runCli, sampleWorld, snapshotDir } from '../shared/fixtures.js';
import { copyWorld, tempDir } from './helpers.js';

// A stand-in for the built page: the server's own file routes serve it.
const distDir = tempDir('dist');
mkdirSync(join(distDir, 'assets'));
writeFileSync(join(distDir, 'index.html'), '<!doctype html><title>inspector</title>');
writeFileSync(join(distDir, 'assets', 'app.js'), 'export {};');

let server;
let world;
before(async () => {
  world = copyWorld();
  server = await startServer({ dir: world, distDir });
  await server.engineReady;
});
after(() => server?.close());

// One HTTP request with full control of its headers (fetch sets Host itself).
function request(path, { method = 'GET', headers = {}, body = null, port = server.port } = {}) {
  return new Promise((resolve, reject) => {
    const req = httpRequest({ host: '127.0.0.1', port, path, method, headers: { host: `127.0.0.1:${port}`, ...headers } }, (res) => {
      const parts = [];
      res.on('data', (chunk) => parts.push(chunk));
      res.on('end', () => resolve({ status: res.statusCode, headers: res.headers, body: Buffer.concat(parts) }));
    });
    req.on('error', reject);
    req.end(body ?? undefined);
  });
}

const withToken = (headers = {}) => ({ 'x-juliet-token': server.token, ...headers });

async function readWorld() {
  const res = await request('/api/world', { headers: withToken() });
  assert.equal(res.status, 200);
  return decodePack(res.body);
}

async function save(files) {
  const res = await request('/api/save', { method: 'POST', headers: withToken(), body: encodePack({}, files) });
  assert.equal(res.status, 200, res.body.toString());
  return decodePack(res.body);
}

const entityFiles = () => readdirSync(join(world, 'Entities')).sort();
const diskText = (path) => readFileSync(join(world, path));
const moved = (text) => Buffer.from(text.toString().replace(/; position\n[^\n]*/, '; position\n1 2 3'));

// Waits until the announced version passes `seq` (the events route).
function nextVersion(seq) {
  return new Promise((resolve, reject) => {
    const req = httpRequest(
      {
        host: '127.0.0.1',
        port: server.port,
        path: `/api/events?token=${server.token}`,
        headers: { host: `127.0.0.1:${server.port}` },
      },
      (res) => {
        res.setEncoding('utf8');
        res.on('data', (chunk) => {
          for (const match of chunk.matchAll(/data: (\{[^\n]*\})/g)) {
            const version = JSON.parse(match[1]).seq;
            if (version > seq) {
              req.destroy();
              resolve(version);
            }
          }
        });
      },
    );
    req.on('error', (err) => (err.code === 'ECONNRESET' ? null : reject(err)));
    req.end();
  });
}

test('the printed address is on 127.0.0.1 and carries a random token', async () => {
  assert.match(server.url, new RegExp(`^http://127\\.0\\.0\\.1:${server.port}/\\?token=[A-Za-z0-9_-]{32}$`));
  const other = await startServer({ dir: world, distDir });
  try {
    assert.notEqual(other.token, server.token);
  } finally {
    await other.close();
  }
});

test('every world route answers 403 without the token, or with a wrong one', async () => {
  const routes = [
    ['GET', '/api/world'],
    ['GET', '/api/changes?since=0'],
    ['GET', '/api/events'],
    ['POST', '/api/save'],
  ];
  // The token with its first character changed.
  const wrongToken = server.token.replace(/^./, (c) => (c === 'A' ? 'B' : 'A'));
  for (const [method, path] of routes) {
    const body = method === 'POST' ? encodePack({}, []) : null;
    assert.equal((await request(path, { method, body })).status, 403, `${method} ${path} without a token`);
    const wrong = { 'x-juliet-token': wrongToken };
    assert.equal((await request(path, { method, body, headers: wrong })).status, 403, `${method} ${path} with a wrong token`);
    const wrongQuery = `${path}${path.includes('?') ? '&' : '?'}token=${wrongToken}`;
    assert.equal((await request(wrongQuery, { method, body })).status, 403, `${method} ${path} with a wrong token in the query`);
  }
});

test('a Host or Origin that is not the server own is refused even with the token (DNS rebinding)', async () => {
  const port = server.port;
  const cases = [
    { host: `attacker.example:${port}` },
    { host: `127.0.0.1.attacker.example:${port}` },
    { host: `127.0.0.1:${port + 1}` },
    { host: '127.0.0.1' },
    { origin: 'http://attacker.example' },
    { origin: `http://attacker.example:${port}` },
    { origin: 'null' },
  ];
  for (const headers of cases) {
    for (const path of ['/api/world', '/api/events', '/']) {
      const res = await request(path, { headers: withToken(headers) });
      assert.equal(res.status, 403, `${path} with ${JSON.stringify(headers)}`);
    }
    const post = await request('/api/save', { method: 'POST', headers: withToken(headers), body: encodePack({}, []) });
    assert.equal(post.status, 403, `save with ${JSON.stringify(headers)}`);
  }
  const own = await request('/api/world', { headers: withToken({ host: `localhost:${port}`, origin: `http://localhost:${port}` }) });
  assert.equal(own.status, 200);
});

test('the world is read in one pack: every world file with its bytes, nothing else', async () => {
  writeFileSync(join(world, 'notes.txt'), 'not a world file');
  writeFileSync(join(world, 'Entities', 'README.md'), 'not an entity file');
  const { meta, files } = await readWorld();
  assert.equal(meta.name, world.split('/').pop());
  assert.ok(meta.seq > 0);
  const paths = files.map((f) => f.path).sort();
  assert.deepEqual(
    paths,
    [
      'WorldSettings.jasset',
      ...entityFiles()
        .filter((n) => n.endsWith('.jasset'))
        .map((n) => `Entities/${n}`),
    ].sort(),
  );
  for (const file of files) assert.deepEqual(Buffer.from(file.bytes), diskText(file.path), file.path);
});

test('the page files are served, nothing of the world directory and nothing outside the page folder', async () => {
  assert.equal((await request('/')).status, 200);
  assert.equal((await request('/assets/app.js')).status, 200);
  const [name] = entityFiles();
  for (const path of [
    `/Entities/${name}`,
    '/WorldSettings.jasset',
    `/@fs${world}/WorldSettings.jasset`,
    `/@fs${world}/Entities/${name}`,
    '/../WorldSettings.jasset',
    '/%2e%2e/%2e%2e/etc/passwd',
    '/assets/%2e%2e/%2e%2e/etc/passwd',
    '/.juliet.lock',
  ]) {
    const res = await request(path);
    assert.equal(res.status, 404, path);
  }
});

test('a save writes the changed entity through the engine and leaves every other file untouched', async () => {
  const { files } = await readWorld();
  const target = files.find((f) => f.path.startsWith('Entities/'));
  const before = snapshotDir(world);
  const answer = await save([{ path: target.path, seq: target.seq, bytes: moved(target.bytes) }]);
  assert.equal(answer.meta.results[0].status, 'written');
  assert.ok(answer.meta.results[0].seq > target.seq);
  assert.match(diskText(target.path).toString(), /; position\n1 2 3\n/);
  const after = snapshotDir(world);
  for (const [path, file] of Object.entries(before)) {
    if (path === target.path || path.startsWith('notes') || path.endsWith('README.md')) continue;
    assert.deepEqual(after[path]?.bytes, file.bytes, `${path} unchanged`);
    assert.equal(after[path].mtimeMs, file.mtimeMs, `${path} not rewritten`);
  }
  assert.ok(!existsSync(join(world, '.juliet.lock')), 'the world lock is released');
  assert.deepEqual(
    readdirSync(join(world, 'Entities')).filter((n) => n.endsWith('.tmp')),
    [],
  );
});

test("a save of another entity's text under a file's path fails for that file, naming the line, and writes nothing", async () => {
  const { files } = await readWorld();
  const [target, other] = files.filter((f) => f.path.startsWith('Entities/'));
  const before = snapshotDir(world);
  const answer = await save([{ path: target.path, seq: target.seq, bytes: moved(other.bytes) }]);
  const [result] = answer.meta.results;
  assert.equal(result.status, 'failed');
  assert.match(result.message, new RegExp(`${target.path}:\\d+:\\d+: .*${idOfPath(other.path)}`));
  assert.deepEqual(snapshotDir(world), before);
});

test('a save deletes a removed entity and writes a new one', async () => {
  const { files } = await readWorld();
  const [gone, model] = files.filter((f) => f.path.startsWith('Entities/'));
  const newId = 0x77a31d75000fff01n;
  const text = model.bytes.toString().replace(/; id\n[^\n]*/, `; id\n0x${newId.toString(16).padStart(16, '0')}`);
  const answer = await save([
    { path: gone.path, seq: gone.seq, bytes: null },
    { path: `Entities/${newId}.jasset`, seq: 0, bytes: Buffer.from(text) },
  ]);
  assert.deepEqual(
    answer.meta.results.map((r) => r.status),
    ['deleted', 'written'],
  );
  assert.ok(!existsSync(join(world, gone.path)));
  assert.equal(diskText(`Entities/${newId}.jasset`).toString(), text);
});

test('a file changed on disk since the page read it is not overwritten: the save reports the conflict with the disk version', async () => {
  const { files } = await readWorld();
  const target = files.filter((f) => f.path.startsWith('Entities/'))[2];
  const onDisk = Buffer.from(target.bytes.toString().replace(/; position\n[^\n]*/, '; position\n9 9 9'));
  writeFileSync(join(world, target.path), onDisk);
  const answer = await save([{ path: target.path, seq: target.seq, bytes: moved(target.bytes) }]);
  assert.equal(answer.meta.results[0].status, 'conflict');
  assert.deepEqual(Buffer.from(answer.files[0].bytes), onDisk);
  assert.deepEqual(diskText(target.path), onDisk, 'the disk version is kept');
  // Saved again from the disk's version, it goes through.
  const again = await save([{ path: target.path, seq: answer.meta.results[0].seq, bytes: moved(target.bytes) }]);
  assert.equal(again.meta.results[0].status, 'written');
  assert.deepEqual(diskText(target.path), moved(target.bytes));
});

test('a deletion of a file changed on disk since is a conflict too, and nothing is deleted', async () => {
  const { files } = await readWorld();
  const target = files.filter((f) => f.path.startsWith('Entities/'))[3];
  const onDisk = Buffer.from(target.bytes.toString().replace(/; position\n[^\n]*/, '; position\n5 5 5'));
  writeFileSync(join(world, target.path), onDisk);
  const answer = await save([{ path: target.path, seq: target.seq, bytes: null }]);
  assert.equal(answer.meta.results[0].status, 'conflict');
  assert.deepEqual(diskText(target.path), onDisk);
});

test('paths outside the world, or that are not world files, are refused and nothing is written', async () => {
  const before = snapshotDir(world);
  const text = Buffer.from('; asset_type\nentity_instance\n');
  for (const path of [
    '../escape.jasset',
    'Entities/../../escape.jasset',
    '/etc/passwd',
    'Entities/012.jasset',
    'Entities/abc.jasset',
    'Entities/1.jasset/x',
    'notes.txt',
    '.juliet.lock',
  ]) {
    const res = await request('/api/save', { method: 'POST', headers: withToken(), body: encodePack({}, [{ path, seq: 0, bytes: text }]) });
    assert.equal(res.status, 400, path);
  }
  const garbage = await request('/api/save', { method: 'POST', headers: withToken(), body: Buffer.from('not a pack') });
  assert.equal(garbage.status, 400);
  assert.deepEqual(Object.keys(snapshotDir(world)).sort(), Object.keys(before).sort());
  assert.ok(!existsSync(join(world, '..', 'escape.jasset')));
});

test('a request body over the bound is refused with 413 before it is read', async () => {
  const res = await request('/api/save', {
    method: 'POST',
    headers: withToken({ 'content-length': String(65 << 20) }),
    body: Buffer.alloc(16),
  }).catch((err) => ({ status: err.code }));
  assert.ok(res.status === 413 || res.status === 'ECONNRESET' || res.status === 'EPIPE', `got ${res.status}`);
});

test('no write goes through a symbolic link out of the world', async () => {
  const outside = tempDir('outside');
  writeFileSync(join(outside, 'secret.jasset'), 'outside the world');
  // A settings file that is a link: never read, and a save replaces the
  // link instead of writing through it.
  const settingsText = diskText('WorldSettings.jasset');
  const { meta } = await readWorld();
  rmSync(join(world, 'WorldSettings.jasset'));
  symlinkSync(join(outside, 'secret.jasset'), join(world, 'WorldSettings.jasset'));
  // (Once the watcher has seen the change.)
  const settingsServed = async () => (await readWorld()).files.some((f) => f.path === 'WorldSettings.jasset');
  for (let i = 0; i < 100 && (await settingsServed()); i++) await new Promise((r) => setTimeout(r, 20));
  assert.ok(!(await settingsServed()), 'a linked file is not read');
  // An Entities folder that is a link: nothing is written into it.
  const entities = join(world, 'Entities');
  renameSync(entities, join(world, 'Entities.real'));
  symlinkSync(outside, entities);
  try {
    const answer = await save([{ path: 'Entities/42.jasset', seq: 0, bytes: Buffer.from('; asset_type\n') }]);
    assert.equal(answer.meta.results[0].status, 'failed');
    assert.deepEqual(readdirSync(outside), ['secret.jasset']);
  } finally {
    unlinkSync(entities);
    renameSync(join(world, 'Entities.real'), entities);
  }
  const changes = decodePack((await request(`/api/changes?since=${meta.seq}`, { headers: withToken() })).body);
  const linked = changes.files.find((f) => f.path === 'WorldSettings.jasset');
  assert.equal(linked.bytes, null, 'the linked settings count as no file');
  const answer = await save([{ path: 'WorldSettings.jasset', seq: linked.seq, bytes: settingsText }]);
  assert.equal(answer.meta.results[0].status, 'written');
  assert.equal(readFileSync(join(outside, 'secret.jasset'), 'utf8'), 'outside the world');
  assert.ok(lstatSync(join(world, 'WorldSettings.jasset')).isFile(), 'the link is replaced by the file');
  assert.deepEqual(diskText('WorldSettings.jasset'), settingsText);
});

test('a file changed, added or deleted on disk is announced and served as a change', async () => {
  const { meta, files } = await readWorld();
  const [changed, deleted] = files.filter((f) => f.path.startsWith('Entities/')).slice(4);
  const announced = nextVersion(meta.seq);
  writeFileSync(join(world, changed.path), moved(changed.bytes));
  unlinkSync(join(world, deleted.path));
  const seq = await announced;
  assert.ok(seq > meta.seq);
  // Both may come in one version or two.
  let since = meta.seq;
  const seen = new Map();
  while (seen.size < 2) {
    const res = await request(`/api/changes?since=${since}`, { headers: withToken() });
    const pack = decodePack(res.body);
    for (const f of pack.files) seen.set(f.path, f);
    if (seen.size < 2) await nextVersion(pack.meta.seq);
    since = pack.meta.seq;
  }
  assert.deepEqual(Buffer.from(seen.get(changed.path).bytes), moved(changed.bytes));
  assert.equal(seen.get(deleted.path).bytes, null);
});

// Waits until the server serves, since version `since`, the file at `path`
// with `bytes`; returns the version that served it.
async function servedChange(since, path, bytes) {
  for (;;) {
    const res = await request(`/api/changes?since=${since}`, { headers: withToken() });
    const pack = decodePack(res.body);
    const file = pack.files.find((f) => f.path === path);
    if (file && Buffer.from(file.bytes).equals(bytes)) return pack.meta.seq;
    if (pack.meta.seq === since) await nextVersion(since);
    else since = pack.meta.seq;
  }
}

test('a class file added to a new Classes folder, then changed, is served as a change', { timeout: 10_000 }, async () => {
  const { meta } = await readWorld();
  const text = readFileSync(join(assets, 'class_world', 'Classes', 'Ghoul.jclass'));
  mkdirSync(join(world, 'Classes'));
  writeFileSync(join(world, 'Classes', 'Ghoul.jclass'), text);
  const seq = await servedChange(meta.seq, 'Classes/Ghoul.jclass', text);
  const changed = Buffer.from(text.toString().replace('; name\n', '; note\nwatched\n; name\n'));
  assert.notDeepEqual(changed, text);
  writeFileSync(join(world, 'Classes', 'Ghoul.jclass'), changed);
  await servedChange(seq, 'Classes/Ghoul.jclass', changed);
});

// A server of its own on a copy of `source`, closed when the test ends, and
// a save through it.
async function ownServer(t, source) {
  const dir = copyWorld(source);
  const own = await startServer({ dir, distDir });
  t.after(() => own.close());
  await own.engineReady;
  const headers = { 'x-juliet-token': own.token };
  return {
    dir,
    async readWorld() {
      const res = await request('/api/world', { port: own.port, headers });
      return decodePack(res.body);
    },
    async changes(since) {
      const res = await request(`/api/changes?since=${since}`, { port: own.port, headers });
      return decodePack(res.body);
    },
    async save(files) {
      const res = await request('/api/save', { method: 'POST', port: own.port, headers, body: encodePack({}, files) });
      assert.equal(res.status, 200, res.body.toString());
      return decodePack(res.body);
    },
  };
}

test('a class file changed, added or removed on disk is the one the next save uses', async (t) => {
  const own = await ownServer(t, join(assets, 'class_world'));
  const { files } = await own.readWorld();
  const ghoul = files.find((f) => f.path === 'Entities/5337047033410748417.jasset');
  // A new name of the team enum, and a new field.
  const classFile = join(own.dir, 'Classes', 'Ghoul.jclass');
  writeFileSync(
    classFile,
    readFileSync(classFile, 'utf8').replace('enum red red blue green', 'enum red red blue green purple') + '; field armor\nf32 0\n',
  );
  const text = Buffer.from(ghoul.bytes.toString().replace(/; team\n[^\n]*/, '; team\npurple') + '; armor\n05.50\n');
  const answer = await own.save([{ path: ghoul.path, seq: ghoul.seq, bytes: text }]);
  assert.deepEqual(
    answer.meta.results.map((r) => [r.status, r.message]),
    [['written', undefined]],
  );
  const saved = readFileSync(join(own.dir, ghoul.path), 'utf8');
  assert.match(saved, /\n; team\npurple\n/);
  assert.match(saved, /\n; armor\n5\.5\n/, 'armor is a field of the class: its value is written in canonical form');

  // Removed: its entities are kept as text, written as the page sent them.
  const beacon = files.find((f) => f.path !== ghoul.path && /\n; class\nBeacon\n/.test(f.bytes.toString()));
  rmSync(join(own.dir, 'Classes', 'Beacon.jclass'));
  const kept = Buffer.from(beacon.bytes.toString().replace(/; range\n[^\n]*/, '; range\n07.0'));
  assert.notDeepEqual(kept, Buffer.from(beacon.bytes));
  await own.save([{ path: beacon.path, seq: beacon.seq, bytes: kept }]);
  assert.deepEqual(readFileSync(join(own.dir, beacon.path)), kept);

  // Added back: the class's fields again.
  writeFileSync(join(own.dir, 'Classes', 'Beacon.jclass'), readFileSync(join(assets, 'class_world', 'Classes', 'Beacon.jclass')));
  const seq = (await own.readWorld()).files.find((f) => f.path === beacon.path).seq;
  const typed = Buffer.from(kept.toString().replace('07.0', '08.0'));
  await own.save([{ path: beacon.path, seq, bytes: typed }]);
  assert.match(readFileSync(join(own.dir, beacon.path), 'utf8'), /\n; range\n8\n/);
});

test('a world folder replaced on disk is followed: a change in the new folder is served', { timeout: 10_000 }, async (t) => {
  const own = await ownServer(t, sampleWorld);
  const { meta, files } = await own.readWorld();
  const [first, second] = files.filter((f) => f.path.startsWith('Entities/'));
  // Waits until the server serves, since `since`, the file at `path` with `bytes`.
  const served = async (since, path, bytes) => {
    for (;;) {
      const pack = await own.changes(since);
      const file = pack.files.find((f) => f.path === path);
      if (file && (bytes === null ? file.bytes === null : file.bytes && Buffer.from(file.bytes).equals(bytes))) return pack.meta.seq;
      await new Promise((resolve) => setTimeout(resolve, 20));
    }
  };
  // mv W W.old && cp -a W.old W, then a file of the new W changed.
  renameSync(own.dir, `${own.dir}.old`);
  cpSync(`${own.dir}.old`, own.dir, { recursive: true, preserveTimestamps: true });
  const changed = moved(first.bytes);
  writeFileSync(join(own.dir, first.path), changed);
  let seq = await served(meta.seq, first.path, changed);
  const unchanged = (await own.changes(meta.seq)).files.filter((f) => f.path !== first.path);
  assert.deepEqual(unchanged, [], 'the files the copy left as they were are not changes');

  // The folder gone (a branch without it), then back.
  renameSync(own.dir, `${own.dir}.gone`);
  seq = await served(seq, second.path, null);
  cpSync(`${own.dir}.gone`, own.dir, { recursive: true });
  const again = moved(second.bytes);
  writeFileSync(join(own.dir, second.path), again);
  await served(seq, second.path, again);
});

test('entities of new class names created and deleted 260 times save every time', { timeout: 60_000 }, async (t) => {
  const own = await ownServer(t, sampleWorld);
  const { files } = await own.readWorld();
  const model = files.find((f) => f.path.startsWith('Entities/')).bytes.toString();
  const id = '0x77a31d75000ff001';
  const path = `Entities/${BigInt(id)}.jasset`;
  let seq = 0;
  for (let i = 0; i < 260; i++) {
    const text = Buffer.from(model.replace(/; id\n[^\n]*/, `; id\n${id}`).replace(/; class\n[^\n]*/, `; class\nScratch${i}`));
    const made = await own.save([{ path, seq, bytes: text }]);
    assert.deepEqual(
      made.meta.results.map((r) => [r.status, r.message]),
      [['written', undefined]],
      `cycle ${i}`,
    );
    const gone = await own.save([{ path, seq: made.meta.results[0].seq, bytes: null }]);
    assert.equal(gone.meta.results[0].status, 'deleted', `cycle ${i}`);
    seq = gone.meta.results[0].seq;
  }
  assert.ok(!existsSync(join(own.dir, path)));
});

test('the address comes before the world is read: a request made at once waits for the read and gets every file', async (t) => {
  const dir = copyWorld();
  const own = await startServer({ dir, distDir });
  t.after(() => own.close());
  let read = false;
  own.loaded.then(() => (read = true));
  await Promise.resolve();
  assert.equal(read, false, 'not read yet when the address is given');
  const res = await request('/api/world', { port: own.port, headers: { 'x-juliet-token': own.token } });
  assert.equal(res.status, 200);
  const { files } = decodePack(res.body);
  const onDisk = readdirSync(join(dir, 'Entities')).length + 1; // and WorldSettings.jasset
  assert.equal(files.length, onDisk);
  assert.equal((await own.loaded).count, onDisk);
  assert.equal((await own.engineReady).count, onDisk - 1);
});

test('a rescan after the first read reads again only the files whose stamp moved, as the first read took them', async () => {
  const dir = copyWorld();
  // Whole seconds, which utimes sets exactly (to the nanosecond).
  const hourAgo = Math.floor(Date.now() / 1000) - 3600;
  const [a, b] = [...readdirSync(join(dir, 'Entities'))].sort().map((name) => join(dir, 'Entities', name));
  for (const abs of [a, b]) utimesSync(abs, hourAgo, hourAgo);
  const files = new WorldFiles(dir);
  await files.load();
  for (const abs of [a, b]) {
    const text = readFileSync(abs, 'utf8');
    writeFileSync(
      abs,
      text.replace(/; position\n(\S)/, (_, c) => `; position\n${c === '9' ? '8' : '9'}`),
    ); // same size
  }
  utimesSync(a, hourAgo, hourAgo); // same inode, size and time: taken as unchanged
  utimesSync(b, hourAgo, hourAgo + 10);
  assert.deepEqual(files.scan(), [`Entities/${basename(b)}`]);
  assert.deepEqual(files.scan(), []);
});

test('after the first read, the files changed, deleted and added since come over it, in the order a page loads them', async () => {
  const dir = copyWorld();
  const files = new WorldFiles(dir);
  await files.load();
  const first = files.seq;
  const byId = (a, b) => a.length - b.length || (a < b ? -1 : 1);
  const [kept, changed, deleted] = readdirSync(join(dir, 'Entities'))
    .sort(byId)
    .map((name) => `Entities/${name}`);
  const added = 'Entities/9999999.jasset';
  const disk = (path) => readFileSync(join(dir, path));
  writeFileSync(join(dir, changed), moved(disk(changed)));
  writeFileSync(join(dir, added), moved(disk(kept)));
  unlinkSync(join(dir, deleted));
  // Asked in another order than the page's.
  assert.deepEqual(files.refresh([added, deleted, changed, kept]), [added, deleted, changed]);
  const unpack = (parts) => decodePack(Buffer.concat(parts)).files;
  const since = unpack(files.packSince(first));
  assert.deepEqual(
    since.map((f) => f.path),
    [changed, deleted, added],
  );
  assert.deepEqual(Buffer.from(since[0].bytes), disk(changed));
  assert.equal(since[1].bytes, null);
  assert.deepEqual(files.file(kept), { bytes: disk(kept), seq: first });
  assert.equal(files.file(deleted).bytes, null);
  // Every file once, as a new read of the folder gives them.
  const fresh = new WorldFiles(dir);
  await fresh.load();
  const asRead = (list) => list.map((f) => [f.path, Buffer.from(f.bytes).toString()]).sort();
  assert.deepEqual(asRead(unpack(files.packSince(0))), asRead(unpack(fresh.packSince(0))));
});

test(
  'the engine opens once the page that waited for the read has the world, and a save meanwhile waits for it',
  { timeout: 60_000 },
  async (t) => {
    // A world whose pack (about 10 MB) outgrows what the sockets hold, so
    // that a page that does not read its answer keeps it being sent.
    const dir = join(tempDir('server-send-first'), 'world');
    runCli('gen', dir, '--count', '60000');
    const own = await startServer({ dir, distDir });
    t.after(() => own.close({ now: true }));
    const ask = (path, method = 'GET', body = undefined) =>
      new Promise((resolve, reject) => {
        const req = httpRequest(
          { host: '127.0.0.1', port: own.port, path, method, headers: { host: `127.0.0.1:${own.port}`, 'x-juliet-token': own.token } },
          resolve,
        );
        req.on('error', reject);
        req.end(body);
      });
    const page = await ask('/api/world'); // answered once the world is read
    page.pause();
    let ready = false;
    own.engineReady.then(() => (ready = true));
    const [first] = readdirSync(join(dir, 'Entities'));
    const path = `Entities/${first}`;
    const saved = ask('/api/save', 'POST', encodePack({}, [{ path, seq: 1, bytes: moved(readFileSync(join(dir, path))) }]));
    await new Promise((resolve) => setTimeout(resolve, 1_000));
    assert.equal(ready, false, 'the engine waits while the world is sent');
    // The page reads the world: the engine opens, the save is written.
    const parts = [];
    page.on('data', (chunk) => parts.push(chunk));
    page.resume();
    await new Promise((resolve) => page.on('end', resolve));
    assert.equal(decodePack(Buffer.concat(parts)).files.length, 60_001);
    await own.engineReady;
    const answer = await saved;
    const body = [];
    for await (const chunk of answer) body.push(chunk);
    assert.equal(answer.statusCode, 200, Buffer.concat(body).toString());
    assert.equal(decodePack(Buffer.concat(body)).meta.results[0].status, 'written');
    assert.deepEqual(readFileSync(join(dir, path)), moved(readFileSync(join(dir, path))));
  },
);

test('without a directory the server serves the page only', async () => {
  const bare = await startServer({ distDir });
  try {
    assert.match(bare.url, /^http:\/\/127\.0\.0\.1:\d+\/$/);
    assert.equal((await request('/', { port: bare.port })).status, 200);
    const res = await request('/api/world', { port: bare.port, headers: { 'x-juliet-token': bare.token } });
    assert.equal(res.status, 404);
  } finally {
    await bare.close();
  }
});

test('a run with a share base writes it into the page it serves, as a meta tag, escaped', async () => {
  const run = await startServer({ distDir, shareBase: 'https://team.example/tools/juliet/?a=1&b="2"#old' });
  try {
    assert.equal(run.shareBase, 'https://team.example/tools/juliet/?a=1&b=%222%22');
    const meta = '<meta name="juliet-share-base" content="https://team.example/tools/juliet/?a=1&amp;b=%222%22" />';
    for (const path of ['/', '/index.html']) {
      const page = await request(path, { port: run.port });
      assert.equal(page.status, 200);
      assert.equal(page.body.toString(), `<!doctype html>${meta}<title>inspector</title>`, path);
      assert.equal(Number(page.headers['content-length']), page.body.length);
    }
    const head = await request('/', { port: run.port, method: 'HEAD' });
    assert.equal(Number(head.headers['content-length']), `<!doctype html>${meta}<title>inspector</title>`.length);
    // The other files go out as they are.
    assert.equal((await request('/assets/app.js', { port: run.port })).body.toString(), 'export {};');
  } finally {
    await run.close();
  }
  // Without one the page is the file itself.
  assert.equal((await request('/')).body.toString(), '<!doctype html><title>inspector</title>');
});

test('a share base that is not an http(s) address stops the server before it starts, saying why', async () => {
  for (const [shareBase, problem] of [
    ['javascript:alert(1)//', 'not an http:// or https:// address'],
    ['https://user:secret@team.example/', 'it carries a user name or password'],
    ['https://team.example/a b', 'it holds a blank or a control character'],
  ]) {
    await assert.rejects(startServer({ distDir, shareBase }), { message: `--share-base ${shareBase}: ${problem}` });
  }
});
