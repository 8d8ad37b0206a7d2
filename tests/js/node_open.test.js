// openWorld under Node reaches the disk through Node's own fs (jl_fs_host):
// the world it opens is the one the native build opens. Its diagnostics and
// warnings are those the native build reports for the same directory, and a
// save never overwrites a file changed on disk since the open.
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { existsSync, lstatSync, mkdirSync, readdirSync, readFileSync, renameSync, symlinkSync, utimesSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { test } from 'node:test';

import { entityPath, loadJuliet } from 'juliet-sample';
import { pathIndex } from 'juliet-world';
import { bytesOf, readFiles, readFilesInThreads, sharePaths } from '../../web/server/read.js';
import { assets, copyWorld, nativeCli } from './helpers.js';

const juliet = await loadJuliet();

// A copy of the sample world with every kind of trouble a load reports:
// each malformed fixture, an entity of a class no build describes, a second
// file of an ID, a file over the size limit, a directory, a dangling link,
// a link to a good file, a link loop, a FIFO, a stray README and a leftover
// temporary of an interrupted save.
function troubledWorld() {
  const dir = copyWorld();
  const entities = join(dir, 'Entities');
  const [first] = readdirSync(entities).sort();
  for (const name of readdirSync(join(assets, 'malformed')).filter((n) => n.endsWith('.jasset'))) {
    writeFileSync(join(entities, name), readFileSync(join(assets, 'malformed', name)));
  }
  writeFileSync(join(entities, '8589934593.jasset'), readFileSync(join(assets, 'opaque_world/Entities/8589934593.jasset')));
  writeFileSync(join(entities, '99.jasset'), readFileSync(join(entities, first)));
  symlinkSync(join(entities, first), join(entities, '98.jasset'));
  writeFileSync(join(entities, '97.jasset'), Buffer.alloc((8 << 20) + 1, ';'));
  mkdirSync(join(entities, '96.jasset'));
  symlinkSync('nowhere.jasset', join(entities, '95.jasset'));
  symlinkSync('94.jasset', join(entities, '94.jasset'));
  assert.equal(spawnSync('mkfifo', [join(entities, '93.jasset')]).status, 0, 'mkfifo');
  writeFileSync(join(entities, 'README.md'), 'notes\n');
  writeFileSync(join(entities, `${first}.1-1.tmp`), 'half a save');
  return { dir, temp: join(entities, `${first}.1-1.tmp`) };
}

// A diagnostic or warning as the native CLI prints it.
const line = (d, prefix = '') => (d.line ? `${d.path}:${d.line}:${d.col}: ${prefix}${d.message}` : `${d.path}: ${prefix}${d.message}`);

test('openWorld under Node gives the diagnostics and warnings the native build reports for the same files', () => {
  const { dir, temp } = troubledWorld();
  const native = spawnSync(nativeCli, ['validate', dir], { encoding: 'utf8' });
  assert.equal(native.status, 1, native.stderr);
  const world = juliet.openWorld(dir);
  try {
    const got = [...world.diagnostics().map((d) => line(d)), ...world.warnings().map((d) => line(d, 'warning: '))];
    assert.ok(got.length >= 25, `${got.length} problems`);
    assert.deepEqual(got, native.stdout.trimEnd().split('\n'));
    assert.match(native.stderr, new RegExp(`: ${world.count} entities,`));
    // The leftover temporary went, as ever, under the world's lock.
    assert.equal(existsSync(temp), false);
  } finally {
    world.close();
  }
});

// The files of a world directory (its folders' regular files and what else
// they hold), relative, each regular file's modification time set an hour
// back: older than any clock tick, as files read long after their writing.
function listAndAge(dir) {
  const hourAgo = Date.now() / 1000 - 3600;
  const paths = [];
  for (const sub of ['', 'Classes', 'Entities']) {
    if (!existsSync(join(dir, sub))) continue;
    for (const name of readdirSync(join(dir, sub))) {
      const path = sub ? `${sub}/${name}` : name;
      if (lstatSync(join(dir, path)).isFile()) utimesSync(join(dir, path), hourAgo, hourAgo);
      if (sub || name === 'WorldSettings.jasset') paths.push(path);
    }
  }
  return paths;
}

// openWorld's `read` option as the local server gives it (web/server/read.js,
// the paths' index as juliet-world's pathIndex makes it), counting the files the engine
// took from it.
function given(read) {
  const taken = new Set();
  return {
    taken,
    read: {
      ...read,
      paths: undefined,
      indexOf: pathIndex(sharePaths(read.paths)),
      bytes: (i) => {
        const bytes = bytesOf(read, i);
        if (bytes) taken.add(read.paths[i]);
        return bytes;
      },
    },
  };
}

test("openWorld under Node with the files read already takes them from there, with the native build's diagnostics", () => {
  const { dir } = troubledWorld();
  const paths = listAndAge(dir);
  const { read, taken } = given(readFiles(dir, paths));
  const regular = paths.filter((p) => lstatSync(join(dir, p)).isFile() && lstatSync(join(dir, p)).size <= 8 << 20);
  const native = spawnSync(nativeCli, ['validate', dir], { encoding: 'utf8' });
  const world = juliet.openWorld(dir, { read });
  try {
    const got = [...world.diagnostics().map((d) => line(d)), ...world.warnings().map((d) => line(d, 'warning: '))];
    assert.deepEqual(got, native.stdout.trimEnd().split('\n'));
    // Every regular file within the size limit came from the read, none of the rest.
    assert.deepEqual([...taken].sort(), regular.filter((p) => p.endsWith('.jasset') && !p.includes('.tmp')).sort());
  } finally {
    world.close();
  }
});

test('openWorld with the files read already holds them as read: one changed since is a conflict at save, one changed within a clock tick of the reading is read again', () => {
  const dir = copyWorld();
  const paths = listAndAge(dir);
  const [a, b] = paths.filter((p) => p.startsWith('Entities/')).sort();
  // b is modified now: within a clock tick of the reading below.
  writeFileSync(join(dir, b), readFileSync(join(dir, b)));
  const read = readFiles(dir, paths);
  const asRead = readFileSync(join(dir, a), 'utf8');
  // Both change on disk after the reading.
  for (const path of [a, b]) {
    writeFileSync(
      `${join(dir, path)}.outside`,
      readFileSync(join(dir, path), 'utf8').replace('; position', '; comment\n"theirs"\n; position'),
    );
    renameSync(`${join(dir, path)}.outside`, join(dir, path));
  }
  const world = juliet.openWorld(dir, { read: { ...read, bytes: (i) => bytesOf(read, i) } });
  try {
    const idA = world.rows().ids.find((id) => entityPath(id) === a);
    const idB = world.rows().ids.find((id) => entityPath(id) === b);
    assert.equal(world.entityText(idA), asRead);
    assert.match(world.entityText(idB), /"theirs"/);
    world.set(idA, 'position', [5, 5, 5]);
    world.set(idB, 'position', [6, 6, 6]);
    assert.throws(
      () => world.save(),
      (err) =>
        err.code === 'conflict' && err.conflicts.length === 1 && err.conflicts[0] === join(dir, a) && err.written[0] === join(dir, b),
    );
    assert.match(readFileSync(join(dir, a), 'utf8'), /"theirs"/);
    assert.match(readFileSync(join(dir, b), 'utf8'), /; position\n6 6 6\n[^]*"theirs"/);
  } finally {
    world.close();
  }
});

test('files read by several threads are those one thread reads', async () => {
  const { dir } = troubledWorld();
  const paths = listAndAge(dir);
  const one = readFiles(dir, paths);
  const shared = await readFilesInThreads(dir, paths, 3);
  for (const key of ['sizes', 'kinds', 'stamps']) assert.deepEqual(shared[key], one[key], key);
  for (let i = 0; i < paths.length; i++) assert.deepEqual(bytesOf(shared, i), bytesOf(one, i), paths[i]);
  assert.ok(one.kinds.includes(1) && one.kinds.includes(2) && one.kinds.includes(0), 'files, other things and nothing readable');
});

test("the paths' shared index finds each path at its place, and nothing else", () => {
  const paths = [
    'Classes/Door.jclass',
    'WorldSettings.jasset',
    'Entities/1.jasset',
    'Entities/12.jasset',
    'Entities/été 2.jasset',
    'Entities/🙂.jasset',
  ];
  const many = Array.from({ length: 5000 }, (_, i) => `Entities/${i + 100}.jasset`);
  const indexOf = pathIndex(sharePaths([...paths, ...many]));
  [...paths, ...many].forEach((path, i) => assert.equal(indexOf(path), i, path));
  for (const other of [
    'Entities/1.jasset.tmp',
    'Entities/1.jasse',
    'Entities/2.jasset',
    'entities/1.jasset',
    '',
    'Entities/ete 2.jasset',
    'Entities/99.jasset',
  ])
    assert.equal(indexOf(other), -1, other);
  assert.equal(pathIndex(sharePaths([]))('Entities/1.jasset'), -1);
});

test('a file replaced on disk after openWorld under Node is left as it is by a save, which reports the conflict', () => {
  const dir = copyWorld();
  const world = juliet.openWorld(dir);
  try {
    const [a, b] = world.rows().ids;
    const path = join(dir, 'Entities', `${BigInt(a)}.jasset`);
    // A checkout: a new file renamed over the one the world read.
    writeFileSync(`${path}.outside`, '; theirs\n');
    renameSync(`${path}.outside`, path);
    world.set(a, 'position', [5, 5, 5]);
    world.set(b, 'position', [6, 6, 6]);
    assert.throws(
      () => world.save(),
      (err) => err.code === 'conflict' && err.conflicts.length === 1 && err.conflicts[0] === path && err.written.length === 1,
    );
    assert.equal(readFileSync(path, 'utf8'), '; theirs\n');
    assert.equal(world.get(a).dirty, true);
    assert.equal(world.get(b).dirty, false);
  } finally {
    world.close();
  }
});
