// openWorld under Node reaches the disk through Node's own fs (jl_fs_host):
// the world it opens is the one the native build opens. Its diagnostics and
// warnings are those the native build reports for the same directory, and a
// save never overwrites a file changed on disk since the open.
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, readdirSync, readFileSync, renameSync, symlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { test } from 'node:test';

import { loadJuliet } from 'juliet-sample';
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
