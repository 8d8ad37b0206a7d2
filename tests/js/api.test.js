// The JavaScript API itself: loading, reflection, argument checking, errors,
// the in-memory file system and the lifetime of worlds.
import assert from 'node:assert/strict';
import { existsSync, mkdirSync, readFileSync, readdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { test } from 'node:test';

import {
  DEFAULT_CAPACITY,
  FILE_MAX,
  LINK_MAX,
  ID_TEXT_LENGTH,
  INDEX_NONE,
  JulietError,
  MAX_CAPACITY,
  SETTINGS_FILE,
  entityPath,
  exportNames,
  idsText,
} from 'juliet-world';
import { loadJuliet } from 'juliet-sample';
import { assets, copyWorld, readTree, repo, tempDir } from './helpers.js';

const juliet = await loadJuliet();

/** Runs body(world) on a new empty world, closed afterwards whatever happens. */
function inNewWorld(body) {
  const world = juliet.newWorld();
  try {
    body(world);
  } finally {
    world.close();
  }
}

test('exports.json lists exactly the C functions juliet.js wraps', () => {
  const listed = JSON.parse(readFileSync(join(repo, 'c/wasm/exports.json'), 'utf8'))
    .filter((name) => name !== '_malloc' && name !== '_free')
    .map((name) => name.slice(1));
  assert.deepEqual([...listed].sort(), [...exportNames].sort());
});

test('loadJuliet returns one cached promise', async () => {
  const a = loadJuliet();
  const b = loadJuliet();
  assert.equal(a, b);
  assert.equal(await a, juliet);
});

test('classes and their schemas come from reflection', () => {
  assert.deepEqual(juliet.classes(), ['Inert', 'Light', 'Prop']);
  assert.deepEqual(juliet.schema('Inert'), [{ name: 'mesh_instance', type: 'index', default: INDEX_NONE, allowInf: false }]);
  assert.deepEqual(juliet.schema('Light'), [
    { name: 'color', type: 'color', default: '#ffffff', allowInf: false },
    { name: 'intensity', type: 'f32', default: 1, allowInf: false },
    { name: 'radius', type: 'f32', default: 10, allowInf: true },
    { name: 'cast_shadows', type: 'bool', default: true, allowInf: false },
  ]);
  assert.deepEqual(juliet.schema('Prop'), [
    { name: 'mesh_instance', type: 'index', default: INDEX_NONE, allowInf: false },
    { name: 'density', type: 'f32', default: 1, allowInf: false },
    { name: 'is_static', type: 'bool', default: false, allowInf: false },
    { name: 'velocity', type: 'vec3', default: [0, 0, 0], allowInf: false },
    { name: 'parent', type: 'entity_ref', default: null, allowInf: false },
  ]);
  assert.throws(() => juliet.schema('Dragon'), { name: 'JulietError', code: 'unknown_class' });
});

test('a created entity has the class defaults, its position, and is dirty', () => {
  inNewWorld((world) => {
    const id = world.create('Prop', [1.5, -2, 1e-7]);
    assert.match(id, /^0x[0-9a-f]{16}$/);
    const prop = world.get(id);
    assert.deepEqual(prop, {
      id,
      class: 'Prop',
      version: 1,
      classVersion: 1,
      position: [1.5, -2, 1e-7],
      fields: { __proto__: null, mesh_instance: INDEX_NONE, density: 1, is_static: false, velocity: [0, 0, 0], parent: null },
      dirty: true,
      readOnly: false,
    });
    assert.deepEqual(world.entities(), [{ id, class: 'Prop', position: [1.5, -2, Math.fround(1e-7)], dirty: true }]);
    assert.equal(world.count, 1);
    assert.equal(world.has(id), true);
  });
});

test('set takes every field type and get reads it back', () => {
  inNewWorld((world) => {
    const light = world.create('Light');
    const prop = world.create('Prop');
    world.set(light, 'color', '#FF8000');
    world.set(light, 'radius', Infinity);
    world.set(light, 'intensity', 0.1);
    world.set(light, 'cast_shadows', false);
    world.set(prop, 'mesh_instance', 63);
    world.set(prop, 'velocity', [0.5, -0, 3e30]);
    world.set(prop, 'parent', light);
    world.set(prop, 'position', [-100, 100, 0.25]);
    assert.deepEqual(world.get(light).fields, { __proto__: null, color: '#ff8000', intensity: 0.1, radius: Infinity, cast_shadows: false });
    const p = world.get(prop);
    assert.deepEqual(p.fields, {
      __proto__: null,
      mesh_instance: 63,
      density: 1,
      is_static: false,
      velocity: [0.5, -0, 3e30],
      parent: light,
    });
    assert.deepEqual(p.position, [-100, 100, 0.25]);
    world.set(prop, 'mesh_instance', null);
    world.set(prop, 'parent', null);
    assert.equal(world.get(prop).fields.mesh_instance, INDEX_NONE);
    assert.equal(world.get(prop).fields.parent, null);
    world.set(prop, 'mesh_instance', 7);
    world.set(prop, 'mesh_instance', INDEX_NONE);
    assert.equal(world.get(prop).fields.mesh_instance, INDEX_NONE);
  });
});

test('wrong argument types throw a TypeError before reaching C', () => {
  inNewWorld((world) => {
    const prop = world.create('Prop');
    const light = world.create('Light');
    const cases = [
      () => world.get(42),
      () => world.get('0x123'),
      () => world.get('12345'),
      () => world.set(prop, 'density', null),
      () => world.set(prop, 'density', [1]),
      () => world.set(prop, 'is_static', 1),
      () => world.set(prop, 'mesh_instance', true),
      () => world.set(prop, 'velocity', [1, 2]),
      () => world.set(prop, 'velocity', [1, 2, '3']),
      () => world.set(prop, 'velocity', { x: 1, y: 2, z: 3 }),
      () => world.set(prop, 'parent', 12),
      () => world.set(light, 'color', 0xff8000),
      () => world.set(light, 'color', null),
      () => world.set(prop, 'position', null),
      () => world.set(prop, 7, 1),
      () => world.create(),
      () => world.create('Prop', [0, 0]),
      () => world.create('Prop', 'here'),
      () => world.remove(undefined),
      () => juliet.openWorld(42),
      () => juliet.openWorld(''),
      () => juliet.writeFiles('/w', 'files'),
      () => juliet.writeFiles('/w', [{ path: '../escape', bytes: new Uint8Array(1) }]),
      () => juliet.writeFiles('/w', [{ path: 'a.jasset', bytes: 12 }]),
    ];
    for (const [i, call] of cases.entries()) {
      assert.throws(call, TypeError, `case ${i}: ${call}`);
    }
    // Nothing changed on the way: the entity is as created.
    assert.equal(world.get(prop).fields.density, 1);
  });
});

test('values the engine refuses throw a JulietError with its code', () => {
  inNewWorld((world) => {
    const prop = world.create('Prop');
    const err = (() => {
      try {
        world.set(prop, 'density', 1e39);
      } catch (e) {
        return e;
      }
    })();
    assert.ok(err instanceof JulietError);
    assert.equal(err.code, 'parse');
    assert.match(err.message, /range/);
    assert.throws(() => world.set(prop, 'velocity', [1e-50, 0, 0]), { code: 'parse' });
    // Whether a value is valid is the engine's call alone: its message says why.
    const light = world.create('Light');
    const refused = [
      [() => world.set(prop, 'density', NaN), 'density: expected a number'],
      [() => world.set(prop, 'density', Infinity), 'density: infinity is not allowed here'], // density forbids inf
      [() => world.set(prop, 'mesh_instance', 1.5), 'mesh_instance: unexpected character in whole number'],
      [() => world.set(prop, 'mesh_instance', -1), 'mesh_instance: must be 0 or more'],
      [() => world.set(prop, 'mesh_instance', 2 ** 32), 'mesh_instance: number out of range (max 4294967295)'],
      [() => world.set(prop, 'parent', '0xnothex000000000'), 'parent: unexpected character in hex number'],
      [() => world.set(light, 'color', 'red'), 'color: expected a color #rrggbb'],
      [() => world.set(light, 'color', '#12345'), 'color: expected a color #rrggbb'],
      [() => world.set(prop, 'position', [0, 0, Infinity]), 'position: infinity is not allowed here'],
    ];
    for (const [i, [call, message]] of refused.entries()) {
      assert.throws(call, { name: 'JulietError', code: 'parse', message }, `case ${i}`);
    }
    assert.throws(() => world.set(prop, 'no_such_field', 1), { code: 'not_found' });
    assert.throws(() => world.get('0x0000000000000bad'), { code: 'not_found' });
    assert.throws(() => world.set('0x0000000000000bad', 'position', [0, 0, 0]), { code: 'not_found' });
    assert.throws(() => world.remove('0x0000000000000bad'), { code: 'not_found' });
    assert.throws(() => world.create('Dragon'), { code: 'unknown_class' });
    assert.throws(() => juliet.openWorld(join(tempDir(), 'missing')), { code: 'not_found' });
    assert.equal(world.get(prop).fields.density, 1);
  });
});

test('close twice is harmless and a closed world refuses calls', async () => {
  const world = juliet.newWorld();
  const id = world.create('Inert');
  world.close();
  world.close();
  assert.throws(() => world.get(id), { code: 'closed' });
  assert.throws(() => world.entities(), { code: 'closed' });
  assert.throws(() => world.save(), { code: 'closed' });
  await assert.rejects(world.snapshot(), { code: 'closed' });
});

test('a world without a directory needs one to save, then keeps it', () => {
  inNewWorld((world) => {
    const id = world.create('Inert', [1, 2, 3]);
    assert.throws(() => world.save(), TypeError);
    const dir = join(tempDir(), 'new_world');
    const report = world.save(dir);
    assert.deepEqual(report, { written: [join(dir, entityPath(id))], deleted: [] });
    assert.equal(world.path, dir);
    assert.deepEqual(world.save(), { written: [], deleted: [] });
    assert.throws(() => world.save(join(dir, 'elsewhere')), TypeError);
  });
});

test('in-memory files: write, list, read, open as a world, remove', () => {
  const text = [
    '; asset_type',
    'entity_instance',
    '; id',
    '0x00000000000000a1',
    '; class',
    'Inert',
    '; version',
    '1',
    '; class_version',
    '1',
    '; position',
    '1 2 3',
    '; mesh_instance',
    '5',
    '',
  ].join('\n');
  juliet.writeFiles('/mem/world', [{ path: 'Entities/161.jasset', bytes: new TextEncoder().encode(text) }]);
  assert.deepEqual(juliet.listFiles('/mem/world'), ['Entities/161.jasset']);
  assert.equal(new TextDecoder().decode(juliet.readFile('/mem/world/Entities/161.jasset')), text);
  const world = juliet.openWorld('/mem/world', { inMemory: true });
  try {
    assert.deepEqual(world.diagnostics(), []);
    assert.deepEqual(world.entities(), [{ id: '0x00000000000000a1', class: 'Inert', position: [1, 2, 3], dirty: false }]);
    world.set('0x00000000000000a1', 'mesh_instance', 6);
    assert.deepEqual(world.save(), { written: ['/mem/world/Entities/161.jasset'], deleted: [] });
    assert.match(new TextDecoder().decode(juliet.readFile('/mem/world/Entities/161.jasset')), /; mesh_instance\n6\n/);
  } finally {
    world.close();
  }
  juliet.removeFiles('/mem/world');
  assert.deepEqual(juliet.listFiles('/mem/world'), []);
  assert.throws(() => juliet.readFile('/mem/world/Entities/161.jasset'), { code: 'not_found' });
});

/** Runs call and returns what it threw (failing if it did not throw). */
function thrown(call) {
  try {
    call();
  } catch (err) {
    return err;
  }
  assert.fail(`no error from ${call}`);
}

test('the in-memory file calls never reach the host directory of an open world: its path names memory there', () => {
  const dir = copyWorld();
  const before = readTree(dir);
  const world = juliet.openWorld(dir);
  try {
    assert.equal(world.path, dir);
    assert.deepEqual(juliet.listFiles(dir), [], 'nothing of the disk in memory');
    juliet.writeFiles(dir, [{ path: 'Entities/1.jasset', bytes: 'x' }]);
    assert.deepEqual(juliet.listFiles(dir), ['Entities/1.jasset']);
    assert.equal(Buffer.from(juliet.readFile(`${dir}/Entities/1.jasset`)).toString(), 'x');
    assert.throws(
      () => juliet.readFile(`${dir}/WorldSettings.jasset`),
      (err) => err instanceof JulietError && err.code === 'not_found',
    );
    juliet.removeFiles(dir);
    assert.deepEqual(juliet.listFiles(dir), []);
    assert.deepEqual(world.save(), { written: [], deleted: [] });
    assert.ok(world.count > 0, 'the world is still the one on disk');
  } finally {
    world.close();
  }
  const after = readTree(dir);
  assert.deepEqual([...after.keys()].sort(), [...before.keys()].sort());
  for (const [rel, bytes] of after) assert.ok(bytes.equals(before.get(rel)), `${rel} unchanged`);
});

test('in-memory file system failures throw a JulietError naming the path, never an ErrnoError', () => {
  juliet.writeFiles('/mem/errors', [
    { path: 'file', bytes: 'x' },
    { path: 'dir/inside', bytes: 'y' },
  ]);
  try {
    const cases = [
      [
        () => juliet.writeFiles('/mem/errors', [{ path: 'file/below', bytes: 'x' }]),
        'io',
        '/mem/errors/file',
        /a file is in the way of a directory/,
      ],
      [
        () => juliet.writeFiles('/mem/errors/file', [{ path: 'below', bytes: 'x' }]),
        'io',
        '/mem/errors/file',
        /a file is in the way of a directory/,
      ],
      [() => juliet.writeFiles('/mem/errors', [{ path: 'dir', bytes: 'x' }]), 'io', '/mem/errors/dir', /is a directory/],
      [() => juliet.readFile('/mem/errors/dir'), 'io', '/mem/errors/dir', /is a directory \(EISDIR\)/],
      [() => juliet.readFile('/mem/errors/missing'), 'not_found', '/mem/errors/missing', /no such file/],
      [() => juliet.listFiles('/mem/errors/file'), 'io', '/mem/errors/file', /not a directory/],
      [() => juliet.removeFiles('/'), 'invalid_argument', '/', /root/],
    ];
    for (const [i, [call, code, path, message]] of cases.entries()) {
      const err = thrown(call);
      assert.ok(err instanceof JulietError, `case ${i}: ${err}`);
      assert.deepEqual([err.code, err.path], [code, path], `case ${i}`);
      assert.match(err.detail, message, `case ${i}`);
    }
    assert.deepEqual(juliet.listFiles('/mem/errors'), ['dir/inside', 'file']);
  } finally {
    juliet.removeFiles('/mem/errors');
  }
});

test('rows() gives the same entities as entities(), as columns', () => {
  inNewWorld((world) => {
    for (let i = 0; i < 100; i++) world.create(['Inert', 'Light', 'Prop'][i % 3], [i, -i, i / 4]);
    const rows = world.rows();
    const list = world.entities();
    assert.equal(rows.count, 100);
    assert.ok(rows.positions instanceof Float32Array && rows.classIndex instanceof Uint8Array);
    for (let i = 0; i < 100; i++) {
      assert.equal(rows.ids[i], list[i].id);
      assert.equal(rows.classNames[rows.classIndex[i]], list[i].class);
      assert.deepEqual([...rows.positions.subarray(3 * i, 3 * i + 3)], list[i].position);
      assert.equal(rows.dirty[i], 1);
    }
    // The IDs' halves, and the IDs as one text in any order.
    const reversed = Array.from({ length: 100 }, (_, i) => 99 - i);
    assert.equal(idsText(rows.idWords, reversed), reversed.map((i) => list[i].id).join(''));
  });
});

test('idsText writes each ID as its 18 characters, high half first', () => {
  const words = new Uint32Array([0x89abcdef, 0x01234567, 0xffffffff, 0xffffffff, 1, 0]);
  assert.equal(ID_TEXT_LENGTH, 18);
  assert.equal(idsText(words, [2, 0, 1]), '0x0000000000000001' + '0x0123456789abcdef' + '0xffffffffffffffff');
  assert.equal(idsText(words, []), '');
});

test('a world holds at most its capacity of entities', () => {
  const world = juliet.newWorld({ capacity: 10 });
  try {
    for (let i = 0; i < 10; i++) world.create('Inert', [i, 0, 0]);
    assert.throws(() => world.create('Inert'), { name: 'JulietError', code: 'capacity' });
    assert.equal(world.count, 10);
  } finally {
    world.close();
  }
  for (const capacity of [0, -1, 1.5, '10', 2 ** 30]) {
    assert.throws(() => juliet.newWorld({ capacity }), TypeError, String(capacity));
  }
});

test('a world of memory opens as the same world on disk does: classes, entities and what fails', () => {
  // The game world with a directory named like an entity file, a file over
  // the size limit, two files that do not parse (one named in more than
  // ASCII) and an interrupted save's temporary among the files (deleted as
  // the load passes it, so the files after it are read from a directory
  // that changed since it was listed), on disk and in memory.
  const disk = copyWorld(join(assets, 'game_world'));
  const temporary = 'Entities/7964898520896503811.jasset.tmp';
  writeFileSync(join(disk, temporary), 'cut sho');
  mkdirSync(join(disk, 'Entities', '12.jasset'));
  writeFileSync(join(disk, 'Entities', '13.jasset'), Buffer.alloc(8 * 1024 * 1024 + 1, 'x'));
  writeFileSync(join(disk, 'Entities', '14.jasset'), '; asset_type\nentity_instance\n; id\n0xzz\n');
  writeFileSync(join(disk, 'Entities', 'café_ø.jasset'), '; asset_type\nentity_instance\n; id\n0xzz\n');
  const files = [];
  const walk = (rel) => {
    for (const entry of readdirSync(join(disk, rel), { withFileTypes: true })) {
      const path = rel ? `${rel}/${entry.name}` : entry.name;
      if (path === 'Entities/12.jasset') continue;
      if (entry.isDirectory()) walk(path);
      else files.push({ path, bytes: readFileSync(join(disk, path)) });
    }
  };
  walk('');
  juliet.writeFiles('/mem/game/Entities/12.jasset', [{ path: 'README', bytes: 'a folder' }]);
  juliet.writeFiles('/mem/game', files);
  const opened = (path, inMemory) => {
    const world = juliet.openWorld(path, { inMemory });
    try {
      const relative = (p) => p.slice(path.length);
      return {
        diagnostics: world.diagnostics().map((d) => ({ ...d, path: relative(d.path), message: d.message.split(path).join('') })),
        texts: world.entities().map((e) => world.entityText(e.id)),
      };
    } finally {
      world.close();
    }
  };
  const onDisk = opened(disk, false);
  assert.equal(onDisk.diagnostics.length, 4, JSON.stringify(onDisk.diagnostics));
  assert.ok(onDisk.diagnostics.some((d) => d.path.endsWith('/Entities/café_ø.jasset')));
  assert.ok(onDisk.texts.length > 0);
  assert.deepEqual(opened('/mem/game', true), onDisk);
  assert.ok(!existsSync(join(disk, temporary)));
  assert.ok(!juliet.listFiles('/mem/game').includes(temporary));
  juliet.removeFiles('/mem/game');
});

test("the library's limits are the engine's: FILE_MAX, MAX_CAPACITY, DEFAULT_CAPACITY and LINK_MAX as the C headers define them", () => {
  const limit = (header, name) => {
    const text = readFileSync(join(repo, 'c/include/juliet', header), 'utf8');
    const [, value, shift = 0] = new RegExp(`\\b${name} = (\\d+)u?(?: << (\\d+))?,`).exec(text);
    return Number(value) * 2 ** Number(shift);
  };
  assert.equal(FILE_MAX, limit('archive.h', 'JL_ARCHIVE_FILE_MAX'));
  assert.equal(MAX_CAPACITY, limit('entity_manager.h', 'JL_MAX_CAPACITY'));
  assert.equal(DEFAULT_CAPACITY, limit('entity_manager.h', 'JL_DEFAULT_CAPACITY'));
  assert.equal(LINK_MAX, limit('snapshot.h', 'JL_SNAPSHOT_LINK_MAX'));
});

test('the settings file the library names is the one the engine saves', () => {
  const world = juliet.openWorld(copyWorld());
  try {
    world.setSetting('time_of_day', 7.25);
    assert.deepEqual(
      world.save().written.map((path) => path.slice(world.path.length + 1)),
      [SETTINGS_FILE],
    );
  } finally {
    world.close();
  }
});
