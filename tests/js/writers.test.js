// The JS API under Node keeps the engine's promises on the real disk: saves
// are fsynced, hold the world's lock and never write beside another
// process's save; a new world never merges into an existing one; a FIFO in
// a world is reported, never read.
import assert from 'node:assert/strict';
import { execFileSync, spawn, spawnSync } from 'node:child_process';
import { existsSync, readFileSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { test } from 'node:test';

import { JulietError } from 'juliet-world';
import { loadJuliet } from 'juliet-sample';
import { copyWorld, readTree, repo, tempDir } from './helpers.js';

const juliet = await loadJuliet();

const hasStrace = spawnSync('strace', ['-V']).status === 0;

// Saves, in a Node process of its own traced by strace, three entities
// edited and one removed of the world at dir: the save's report, and the
// paths fsynced by any of its threads.
function tracedSave(dir) {
  const logs = tempDir('strace');
  const script = `
    import { loadJuliet } from 'juliet-sample';
    const world = (await loadJuliet()).openWorld(${JSON.stringify(dir)});
    for (const { id } of world.entities().slice(0, 3)) world.set(id, 'position', [1, 2, 3]);
    world.remove(world.entities()[5].id);
    console.log(JSON.stringify(world.save()));`;
  // -ff: a log per thread, so that fsyncs in flight together are not cut.
  const run = spawnSync(
    'strace',
    ['-ff', '-y', '-e', 'trace=fsync,fdatasync', '-o', join(logs, 'log'), process.execPath, '--input-type=module', '-e', script],
    {
      cwd: repo,
      encoding: 'utf8',
    },
  );
  assert.equal(run.status, 0, run.stderr);
  const log = readdirSync(logs)
    .map((name) => readFileSync(join(logs, name), 'utf8'))
    .join('');
  const synced = [...log.matchAll(/f(?:data)?sync\(\d+<([^>]+)>\)\s*= 0/g)].map((m) => m[1]);
  return { report: JSON.parse(run.stdout), synced };
}

test('a save under Node fsyncs each file it writes and each directory it changes', { skip: !hasStrace && 'no strace' }, () => {
  const dir = copyWorld();
  const { report, synced } = tracedSave(dir);
  assert.equal(report.written.length, 3);
  assert.equal(report.deleted.length, 1);
  // Each file's temporary before its rename (on the helper thread, all at
  // once), and Entities/ for the renames and the deletion.
  for (const path of report.written) {
    assert.ok(
      synced.some((p) => p.startsWith(`${path}.`) && p.endsWith('.tmp')),
      `${path}'s temporary fsynced: ${synced.join(', ')}`,
    );
  }
  assert.ok(synced.includes(join(dir, 'Entities')), `Entities/ fsynced: ${synced.join(', ')}`);
});

test('a new world is written whole into a new directory, never merged into a world', async () => {
  const source = juliet.openWorld(copyWorld());
  const link = await source.snapshot();
  source.close();

  // A world whose settings come from a newer version: never rewritten.
  const target = copyWorld();
  const settingsPath = join(target, 'WorldSettings.jasset');
  writeFileSync(settingsPath, '; version\n99\n; gravity\n0 -1 0\n');
  const before = readTree(target);
  const shared = await juliet.openSnapshot(link);
  try {
    assert.throws(
      () => shared.save(target),
      (err) => {
        assert.ok(err instanceof JulietError);
        assert.equal(err.code, 'exists');
        assert.match(err.message, /already holds a world/);
        return true;
      },
    );
    assert.deepEqual(readTree(target), before);
    assert.equal(shared.path, null, 'still a world without a directory');

    // Into a new directory: all of it, and nothing left beside it.
    const parent = tempDir('new-world');
    const fresh = join(parent, 'level');
    const report = shared.save(fresh);
    assert.equal(shared.path, fresh);
    assert.equal(report.written.length, shared.count + 1);
    assert.ok(
      report.written.every((p) => p.startsWith(fresh + '/')),
      report.written[0],
    );
    assert.deepEqual(readdirSync(parent), ['level']);
    // And the world keeps its directory for the next save.
    shared.set(shared.entities()[0].id, 'position', [7, 7, 7]);
    assert.equal(shared.save().written.length, 1);
  } finally {
    shared.close();
  }
});

test('a save fails with the pid of a running process that holds the world lock', () => {
  const dir = copyWorld();
  const world = juliet.openWorld(dir);
  try {
    const id = world.entities()[0].id;
    const file = join(dir, 'Entities', `${BigInt(id)}.jasset`);
    const before = readFileSync(file);
    writeFileSync(join(dir, '.juliet.lock'), `${process.pid}\n`);
    world.set(id, 'position', [4, 4, 4]);
    assert.throws(
      () => world.save(),
      (err) => {
        assert.equal(err.code, 'locked');
        assert.match(err.message, new RegExp(`locked by pid ${process.pid}`));
        assert.equal(err.path, join(dir, '.juliet.lock'));
        return true;
      },
    );
    assert.deepEqual(readFileSync(file), before);
    rmSync(join(dir, '.juliet.lock'));
    assert.equal(world.save().written.length, 1);
  } finally {
    world.close();
  }
});

test('a folder another process deleted is made again by the next save', () => {
  const dir = copyWorld();
  const world = juliet.openWorld(dir);
  try {
    rmSync(join(dir, 'Entities'), { recursive: true });
    const id = world.create('Light', [1, 2, 3]);
    assert.deepEqual(world.save().written, [join(dir, 'Entities', `${BigInt(id)}.jasset`)]);
    assert.match(readFileSync(join(dir, 'Entities', `${BigInt(id)}.jasset`), 'utf8'), /; position\n1 2 3\n/);
  } finally {
    world.close();
  }
});

test('a FIFO in Entities/ is reported and the rest of the world opens', () => {
  const dir = copyWorld();
  const fifo = join(dir, 'Entities', '4294967310.jasset');
  execFileSync('mkfifo', [fifo]);
  const count = readdirSync(join(dir, 'Entities')).length - 1;
  const world = juliet.openWorld(dir);
  try {
    assert.equal(world.count, count);
    const problems = world.diagnostics();
    assert.equal(problems.length, 1);
    assert.equal(problems[0].path, fifo);
    assert.match(problems[0].message, /not a regular file/);
  } finally {
    world.close();
  }
});

/** Runs a Node process that saves the world at dir `saves` times, each
 * time opened afresh and with every entity at its own position. A save
 * that meets files the other process saved since its open leaves them
 * alone ('conflict'). Resolves with { locked, conflicts }. */
function writer(dir, label, saves) {
  const script = `
    import { loadJuliet } from ${JSON.stringify(import.meta.resolve('juliet-sample'))};
    const juliet = await loadJuliet();
    let locked = 0, conflicts = 0;
    for (let i = 0; i < ${saves}; i++) {
      const world = juliet.openWorld(${JSON.stringify(dir)});
      for (const e of world.entities()) world.set(e.id, 'position', [${label}, i, 0]);
      try {
        world.save();
      } catch (err) {
        if (err.code === 'locked') locked++;
        else if (err.code === 'conflict' && err.conflicts.length > 0) conflicts++;
        else throw err;
      }
      world.close();
    }
    process.stdout.write(JSON.stringify({ locked, conflicts }));
  `;
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, ['--input-type=module', '-e', script], { stdio: ['ignore', 'pipe', 'pipe'] });
    let out = '';
    let err = '';
    child.stdout.on('data', (d) => (out += d));
    child.stderr.on('data', (d) => (err += d));
    child.on('exit', (code) => (code === 0 ? resolve(JSON.parse(out)) : reject(new Error(`writer ${label}: ${err}`))));
  });
}

test('two Node processes saving one world leave every file whole, each from one save, never over the other', async () => {
  const dir = copyWorld();
  const results = await Promise.all([writer(dir, 1, 12), writer(dir, 2, 12)]);
  console.log(`conflicts (saves that met the other's files): ${results.map((r) => r.conflicts).join(', ')}`);
  const world = juliet.openWorld(dir);
  try {
    assert.deepEqual(world.diagnostics(), []);
    for (const e of world.entities()) {
      const [label, save, z] = world.get(e.id).position;
      assert.ok([1, 2].includes(label) && save >= 0 && save < 12 && z === 0, `a position no save wrote: ${label} ${save} ${z}`);
    }
  } finally {
    world.close();
  }
  const left = readdirSync(join(dir, 'Entities')).filter((n) => !n.endsWith('.jasset'));
  assert.deepEqual(left, []);
  assert.equal(existsSync(join(dir, '.juliet.lock')), false);
});

test('a file replaced by another program while it is read is read whole, one version of it', async () => {
  // One entity whose file another process keeps replacing, by rename, with
  // a version whose position is shorter text: a read must see one of the
  // two versions whole (the bytes and the size come from the file opened,
  // whatever is renamed over its path meanwhile).
  const dir = copyWorld();
  const entities = join(dir, 'Entities');
  const name = '8620766500065640449.jasset';
  for (const other of readdirSync(entities)) if (other !== name) rmSync(join(entities, other));
  const long = readFileSync(join(entities, name), 'utf8');
  const short = long.replace('-28.37 33.37 -115.23', '1 0 0');
  const script = `
    import { renameSync, writeFileSync } from 'node:fs';
    const [target, temp, long, short, until] = process.argv.slice(1);
    for (let i = 0; Date.now() < Number(until); i++) {
      writeFileSync(temp, i % 2 ? short : long);
      renameSync(temp, target);
    }
  `;
  const until = Date.now() + 3000;
  const swapper = spawn(
    process.execPath,
    ['--input-type=module', '-e', script, join(entities, name), join(dir, '..', 'next-version'), long, short, String(until)],
    { stdio: 'inherit' },
  );
  const exited = new Promise((resolve) => swapper.on('exit', resolve));
  const seen = new Set();
  let opens = 0;
  try {
    while (Date.now() < until) {
      const world = juliet.openWorld(dir);
      try {
        assert.deepEqual(world.diagnostics(), []);
        const [entity] = world.entities();
        const text = world.entityText(entity.id);
        assert.ok(text === long || text === short, `not one version whole:\n${text}`);
        seen.add(text);
      } finally {
        world.close();
      }
      opens++;
      if (opens % 50 === 0) await new Promise((resolve) => setImmediate(resolve));
    }
  } finally {
    assert.equal(await exited, 0);
  }
  assert.equal(seen.size, 2, 'both versions were read');
  assert.ok(opens > 100, `${opens} opens`);
});
