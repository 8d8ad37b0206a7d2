// Entities of classes no build describes (opaque entities) through the JS
// API, on copies of assets/opaque_world: listed, read (base fields and
// kept keys as text), moved, refused a set of a kept key, warned about,
// saved file by file, and carried by a snapshot.
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { test } from 'node:test';

import { loadJuliet } from 'juliet-sample';
import { assets, copyWorld, readTree, snapshotOf } from './helpers.js';

const juliet = await loadJuliet();
const opaqueWorld = join(assets, 'opaque_world');
const ENEMY = '0x0000000200000001';
const DOOR = '0x0000000200000003';

function withWorld(fn) {
  const dir = copyWorld(opaqueWorld);
  const world = juliet.openWorld(dir);
  try {
    return fn(world, dir);
  } finally {
    world.close();
  }
}

test('opaque entities are listed beside described ones, with their classes', () => {
  withWorld((world) => {
    assert.deepEqual(world.diagnostics(), []);
    const byId = new Map(world.entities().map((e) => [e.id, e]));
    assert.equal(byId.size, 5);
    assert.equal(byId.get(ENEMY).class, 'Grunt');
    assert.deepEqual(byId.get(ENEMY).position, [4, 0, -2.5]);
    assert.equal(byId.get(DOOR).class, 'Door');
    assert.deepEqual(world.opaqueClasses().sort(), ['Door', 'Grunt']);
    assert.deepEqual(world.schema('Grunt'), []);
    // The module's own classes do not grow with a world's.
    assert.ok(!juliet.classes().includes('Grunt'));
  });
});

test('get gives the base fields and every kept key as its text, in file order', () => {
  withWorld((world) => {
    const enemy = world.get(ENEMY);
    assert.equal(enemy.opaque, true);
    assert.equal(enemy.class, 'Grunt');
    assert.equal(enemy.classVersion, 3);
    assert.equal(enemy.version, 1);
    assert.deepEqual(enemy.position, [4, 0, -2.5]);
    assert.deepEqual(Object.entries(enemy.fields), [
      ['health', '100'],
      ['loot', 'gold coins'],
      ['target', '0x77a31d7500000001'],
    ]);
    assert.equal(enemy.dirty, false);
    assert.deepEqual(world.get(DOOR).fields, { __proto__: null });
    const inert = world.get('0x77a31d7500000001');
    assert.equal('opaque' in inert, false);
    assert.equal(inert.classVersion, 1);
  });
});

test('loading warns at the class of each opaque file, with path, line and column', () => {
  withWorld((world, dir) => {
    const warnings = world.warnings();
    assert.equal(warnings.length, 3);
    const enemy = warnings.find((w) => w.path === join(dir, 'Entities', '8589934593.jasset'));
    assert.deepEqual(enemy, {
      path: join(dir, 'Entities', '8589934593.jasset'),
      line: 6,
      col: 1,
      message: "unknown class 'Grunt' (kept as text)",
      code: 'unknown_class',
    });
  });
});

test('a kept key cannot be set: the error says the class is unknown to this build', () => {
  withWorld((world) => {
    assert.throws(
      () => world.set(ENEMY, 'health', '5'),
      (err) => {
        assert.equal(err.name, 'JulietError');
        assert.equal(err.code, 'unknown_class');
        assert.match(err.message, /class Grunt is unknown to this build/);
        assert.match(err.message, /'health' is kept as text/);
        return true;
      },
    );
    assert.throws(() => world.create('Grunt'), { code: 'unknown_class' });
    assert.equal(world.get(ENEMY).dirty, false);
    assert.deepEqual(world.save().written, []);
  });
});

test('moving an opaque entity saves only its file: the position changes, the rest stays', () => {
  withWorld((world, dir) => {
    const before = readTree(dir);
    world.set(ENEMY, 'position', [7, 8, 9]);
    assert.equal(world.get(ENEMY).dirty, true);
    assert.deepEqual(world.get(ENEMY).position, [7, 8, 9]);
    const file = join(dir, 'Entities', '8589934593.jasset');
    assert.deepEqual(world.save().written, [file]);
    const after = readTree(dir);
    for (const [rel, bytes] of before) {
      if (rel === 'Entities/8589934593.jasset') continue;
      assert.deepEqual(after.get(rel), bytes, `${rel} untouched`);
    }
    const text = readFileSync(file, 'utf8');
    const original = before.get('Entities/8589934593.jasset').toString('utf8');
    assert.equal(text, original.replace('; position\n4 0 -2.5\n', '; position\n7 8 9\n'));
    assert.deepEqual(world.save().written, []);
  });
});

test('an opaque entity removed and saved loses its file; the others stay byte-identical', () => {
  withWorld((world, dir) => {
    const before = readTree(dir);
    world.remove(DOOR);
    const report = world.save();
    assert.deepEqual(report.written, []);
    assert.deepEqual(report.deleted, [join(dir, 'Entities', '8589934595.jasset')]);
    const after = readTree(dir);
    assert.equal(after.size, before.size - 1);
    for (const [rel, bytes] of after) assert.deepEqual(bytes, before.get(rel), `${rel} untouched`);
  });
});

test('a snapshot of a world with opaque entities opens with nothing lost', async () => {
  const copy = await juliet.openSnapshot(await snapshotOf(juliet, copyWorld(opaqueWorld)));
  try {
    assert.deepEqual(copy.get(ENEMY).fields, { __proto__: null, health: '100', loot: 'gold coins', target: '0x77a31d7500000001' });
    assert.equal(copy.get(ENEMY).classVersion, 3);
    const target = join(copyWorld(opaqueWorld), '..', 'unshared');
    copy.save(target);
    assert.deepEqual(readTree(target), readTree(opaqueWorld));
  } finally {
    copy.close();
  }
});
