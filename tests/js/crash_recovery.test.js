// Writers that race, crash or stop, as their users run them: `juliet fmt`
// held between its load and its lock while a save through the JavaScript
// API or the local server lands (the save must stand: fmt reports the file
// instead of reverting it), and `juliet fmt` or the server killed with
// SIGKILL at random moments (every file is then its old or its new text,
// and the next save succeeds with no one deleting anything).
import assert from 'node:assert/strict';
import { execFileSync, spawn, spawnSync } from 'node:child_process';
import { cpSync, existsSync, readdirSync, readFileSync, renameSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { test } from 'node:test';
import { decodePack } from 'juliet-world';
import { loadJuliet } from 'juliet-sample';
import { nativeCli, readTree, tempDir } from './helpers.js';
import { post, readWorld, startMain } from './serverProcess.js';

const juliet = await loadJuliet();
const hasStrace = spawnSync('strace', ['-V']).status === 0;
// A random sequence that a failure's message names, to run it again.
const SEED = Number(process.env.JULIET_CRASH_SEED ?? Date.now() % 100000);
let state = SEED;
const random = () => (state = (state * 1103515245 + 12345) % 2147483648) / 2147483648;

const cli = (...args) => execFileSync(nativeCli, args, { stdio: 'pipe', encoding: 'utf8' });
const sleep = (ms) => new Promise((resolve) => setTimeout(resolve, ms));
const UNWRITTEN_STALE_MS = 10_500; // an empty lock is stale after 10 s (world_lock.c), and a margin

// A generated world whose files all have CRLF line ends, so that fmt
// rewrites every one of them.
function crlfWorld(count) {
  const dir = join(tempDir('crash'), 'world');
  cli('gen', dir, '--count', String(count));
  const entities = join(dir, 'Entities');
  for (const name of readdirSync(entities)) {
    const path = join(entities, name);
    writeFileSync(path, readFileSync(path, 'utf8').replace(/\n/g, '\r\n'));
  }
  return dir;
}

// A page's edit of a file: its position moved, in the canonical form the
// engine writes (LF line ends), so that what is saved is what is posted.
const edited = (bytes, position) =>
  Buffer.from(
    Buffer.from(bytes)
      .toString()
      .replace(/\r\n/g, '\n')
      .replace(/; position\n[^\n]*/, `; position\n${position}`),
  );

// `juliet fmt dir` with its first open of the world's lock file held back
// by `pauseMs` (strace's fault injection): fmt has loaded the world and
// waits just before it takes the lock to save. Resolves with its exit
// code and output once it ends.
function pausedFmt(dir, pauseMs) {
  const child = spawn(
    'strace',
    [
      '-f',
      '-o',
      '/dev/null',
      '-P',
      join(dir, '.juliet.lock'),
      '-e',
      'trace=openat',
      '-e',
      `inject=openat:delay_enter=${pauseMs * 1000}:when=1`,
      nativeCli,
      'fmt',
      dir,
    ],
    { stdio: ['ignore', 'pipe', 'pipe'] },
  );
  let out = '';
  child.stdout.on('data', (d) => (out += d));
  child.stderr.on('data', (d) => (out += d));
  return new Promise((resolve) => child.on('exit', (code) => resolve({ code, out })));
}

// fmt of five files has loaded them well within LOADED_MS (strace starts it
// in about 100 ms), and waits for its lock until PAUSE_MS.
const LOADED_MS = 1000;
const PAUSE_MS = 4000;

test(
  'a JavaScript API save that lands while fmt waits between its load and its lock is never reverted',
  { skip: !hasStrace && 'no strace', timeout: 60_000 },
  async () => {
    const dir = crlfWorld(5);
    const fmt = pausedFmt(dir, PAUSE_MS);
    await sleep(LOADED_MS);
    const world = juliet.openWorld(dir);
    const [{ id }] = world.entities();
    world.set(id, 'position', [4, 5, 6]);
    const { written } = world.save();
    world.close();
    assert.equal(written.length, 1);
    const saved = readFileSync(written[0]);
    const { code, out } = await fmt;
    assert.equal(code, 1, out);
    assert.match(out, /changed on disk by another program since it was read: left as it is/);
    assert.match(out, /1 file changed since they were read: run the command again/);
    assert.deepEqual(readFileSync(written[0]), saved, 'the save stands');
    // Run again, fmt has nothing against the file (the save wrote it canonical).
    cli('fmt', dir);
    assert.match(readFileSync(written[0], 'utf8'), /; position\n4 5 6\n/);
    assert.ok(
      Object.values(readdirSync(join(dir, 'Entities'))).every((n) => !readFileSync(join(dir, 'Entities', n), 'utf8').includes('\r')),
    );
  },
);

test(
  "the server's save beside a paused fmt stands, and fmt says which file it left",
  { skip: !hasStrace && 'no strace', timeout: 60_000 },
  async () => {
    const dir = crlfWorld(5);
    const server = await startMain(dir);
    try {
      const fmt = pausedFmt(dir, PAUSE_MS);
      await sleep(LOADED_MS);
      const [file] = (await readWorld(server)).files.filter((f) => f.path.startsWith('Entities/'));
      const bytes = edited(file.bytes, '3 2 1');
      const res = await post(server, [{ path: file.path, seq: file.seq, bytes }]);
      const { meta } = decodePack(new Uint8Array(await res.arrayBuffer()));
      assert.equal(meta.results[0].status, 'written');
      const { code, out } = await fmt;
      assert.equal(code, 1, out);
      assert.ok(out.includes(file.path), out);
      assert.deepEqual(readFileSync(join(dir, file.path)), bytes, 'the served save stands');
    } finally {
      server.child.kill('SIGTERM');
      await server.exited;
    }
  },
);

test(
  'files replaced on disk during a long served save are answered as conflicts and keep the outside version',
  { timeout: 120_000 },
  async () => {
    const dir = join(tempDir('race'), 'world');
    cli('gen', dir, '--count', '1500');
    const server = await startMain(dir);
    try {
      const files = (await readWorld(server)).files.filter((f) => f.path.startsWith('Entities/'));
      const changes = files.map((f) => ({ path: f.path, seq: f.seq, bytes: edited(f.bytes, '5 5 5') }));
      const answer = post(server, changes);
      // Once the save writes, two of the files it is given are replaced as
      // `git checkout` replaces them: a new file renamed over each.
      while (!existsSync(join(dir, '.juliet.lock'))) await new Promise((resolve) => setImmediate(resolve));
      const outside = changes.slice(-2).map(({ path }) => {
        const bytes = edited(readFileSync(join(dir, path)), '8 8 8');
        writeFileSync(join(dir, `${path}.checkout`), bytes);
        renameSync(join(dir, `${path}.checkout`), join(dir, path));
        return { path, bytes };
      });
      const res = await answer;
      const { meta, files: conflicts } = decodePack(new Uint8Array(await res.arrayBuffer()));
      const status = new Map(meta.results.map((r) => [r.path, r.status]));
      for (const { path, bytes } of outside) {
        assert.equal(status.get(path), 'conflict', path);
        assert.deepEqual(readFileSync(join(dir, path)), bytes, `${path} keeps the outside version`);
        assert.deepEqual(Buffer.from(conflicts.find((f) => f.path === path).bytes), bytes, 'the answer carries it');
      }
      assert.equal(meta.results.filter((r) => r.status === 'written').length, changes.length - 2);
    } finally {
      server.child.kill('SIGTERM');
      await server.exited;
    }
  },
);

// Every file of dir is its text in `before` or in `after` (file -> bytes),
// and nothing else lies in Entities/ but temporaries of the killed writer.
function oldOrNew(dir, before, after, label) {
  const now = readTree(dir);
  for (const [path, bytes] of now) {
    if (path === '.juliet.lock' || path.endsWith('.tmp')) continue;
    const old = before.get(path);
    const fresh = after.get(path);
    assert.ok((old && bytes.equals(old)) || (fresh && bytes.equals(fresh)), `${label}: ${path} is neither its old nor its new text`);
  }
  for (const path of before.keys()) assert.ok(now.has(path) || !after.has(path), `${label}: ${path} is gone`);
}

test(
  'juliet fmt killed at 20 random moments leaves old or new files, and the next fmt succeeds with no manual step',
  { timeout: 300_000 },
  async () => {
    const source = crlfWorld(600);
    const before = readTree(source);
    const formatted = join(tempDir('formatted'), 'world');
    cpSync(source, formatted, { recursive: true });
    const started = performance.now();
    cli('fmt', formatted);
    const fmtMs = performance.now() - started;
    const after = readTree(formatted);
    let locksLeft = 0;
    for (let i = 0; i < 20; i++) {
      const dir = join(tempDir('killed'), 'world');
      cpSync(source, dir, { recursive: true });
      const child = spawn(nativeCli, ['fmt', dir], { stdio: 'ignore' });
      const exited = new Promise((resolve) => child.on('exit', resolve));
      await sleep(random() * fmtMs * 1.2);
      child.kill('SIGKILL');
      await exited;
      const label = `kill ${i + 1} (seed ${SEED})`;
      oldOrNew(dir, before, after, label);
      if (existsSync(join(dir, '.juliet.lock'))) locksLeft++;
      // No one deletes anything: the next run takes the lock over and finishes.
      const again = spawnSync(nativeCli, ['fmt', dir], { encoding: 'utf8' });
      assert.equal(again.status, 0, `${label}: ${again.stderr}`);
      const formattedNow = readTree(dir);
      // A kill after the last rename leaves the lock and nothing to write: the
      // next run writes nothing, so it takes no lock, and the dead writer's
      // stays until a save takes it over. A lock of the second run's own is a
      // lock never released.
      const lockLeft = formattedNow.get('.juliet.lock');
      formattedNow.delete('.juliet.lock');
      if (lockLeft?.length)
        assert.match(lockLeft.toString(), new RegExp(`^pid ${child.pid}\\n`), `${label}: only the killed run's lock is left`);
      assert.deepEqual(formattedNow, after, `${label}: the world formatted whole`);
      rmSync(dir, { recursive: true, force: true });
    }
    console.log(
      `fmt of 600 files in ${Math.round(fmtMs)} ms, killed 20 times (seed ${SEED}): ${locksLeft} kills left the lock, each taken over by the next run`,
    );
  },
);

test(
  'the server killed at 20 random moments of a save leaves old or new files, and the next run saves with no manual step',
  { timeout: 600_000 },
  async () => {
    const dir = crlfWorld(400);
    let locksLeft = 0;
    for (let i = 0; i < 20; i++) {
      const label = `kill ${i + 1} (seed ${SEED})`;
      const before = readTree(dir);
      const server = await startMain(dir);
      const files = (await readWorld(server)).files.filter((f) => f.path.startsWith('Entities/'));
      const changes = files.map((f) => ({
        path: f.path,
        seq: f.seq,
        bytes: edited(f.bytes, `${i} 0 0`),
      }));
      const after = new Map(changes.map((c) => [c.path, c.bytes]));
      const answer = post(server, changes).catch(() => null);
      // Until the lock is there (the save has begun), then a random moment of it.
      while (!existsSync(join(dir, '.juliet.lock'))) await new Promise((resolve) => setImmediate(resolve));
      await sleep(random() * 400);
      server.child.kill('SIGKILL');
      await server.exited;
      await answer;
      oldOrNew(dir, before, after, label);
      if (existsSync(join(dir, '.juliet.lock'))) locksLeft++;
    }
    // A kill between the lock's creation and its pid leaves it empty: the
    // next writers wait until it is 10 s old, then take it over
    // (world_lock.c); the next run comes once it is.
    const lock = join(dir, '.juliet.lock');
    if (existsSync(lock) && statSync(lock).size === 0) await sleep(statSync(lock).mtimeMs + UNWRITTEN_STALE_MS - Date.now());
    // The next run saves: every file written, no conflict, no lock refused.
    const server = await startMain(dir);
    try {
      const files = (await readWorld(server)).files.filter((f) => f.path.startsWith('Entities/'));
      const changes = files.map((f) => ({
        path: f.path,
        seq: f.seq,
        bytes: edited(f.bytes, '99 0 0'),
      }));
      const { meta } = decodePack(new Uint8Array(await (await post(server, changes)).arrayBuffer()));
      assert.deepEqual(
        [...new Set(meta.results.map((r) => r.status))],
        ['written'],
        JSON.stringify(meta.results.find((r) => r.status !== 'written')),
      );
      for (const c of changes) assert.deepEqual(readFileSync(join(dir, c.path)), c.bytes);
      assert.ok(!existsSync(join(dir, '.juliet.lock')));
    } finally {
      server.child.kill('SIGTERM');
      await server.exited;
    }
    console.log(
      `server killed 20 times during a 400-file save (seed ${SEED}): ${locksLeft} kills left the lock, each taken over by the next run`,
    );
  },
);
