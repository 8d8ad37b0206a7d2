// A world whose classes exist only as class files (assets/class_world,
// Classes/<Name>.jclass): opened through the wasm module on the real disk,
// every field type read, set and saved, the saved text checked with
// node:fs; and the same world through a snapshot link.
import assert from 'node:assert/strict';
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { test } from 'node:test';

import { entityPath } from 'juliet-world';
import { loadJuliet } from 'juliet-sample';
import { assets, copyWorld, parseJasset, readTree, snapshotOf } from './helpers.js';

const juliet = await loadJuliet();
const classWorld = join(assets, 'class_world');
const boss = '0x4a11000000000001';
const grunt = '0x4a11000000000002';

test('a world of class files opens with its classes, every field type read', () => {
  const world = juliet.openWorld(classWorld);
  try {
    assert.deepEqual(world.diagnostics(), []);
    assert.equal(world.entities().length, 4);
    const types = world.schema('Ghoul').map((field) => field.type);
    assert.deepEqual([...new Set(types)].sort(), [
      'bool',
      'color',
      'entity_ref',
      'enum',
      'f32',
      'i32',
      'index',
      'quat',
      'string',
      'u32',
      'vec2',
      'vec3',
    ]);
    const team = world.schema('Ghoul').find((field) => field.name === 'team');
    assert.deepEqual(team.names, ['red', 'blue', 'green']);
    assert.equal(team.default, 'red');
    const { fields } = world.get(boss);
    assert.equal(fields.health, 75.5);
    assert.equal(fields.shield, Infinity);
    assert.equal(fields.mesh_instance, 7);
    assert.equal(fields.is_boss, true);
    assert.deepEqual(fields.velocity, [0.5, -1, 2.25]);
    assert.equal(fields.tint, '#102030');
    assert.equal(fields.target, grunt);
    assert.equal(fields.ammo, -12);
    assert.equal(fields.score, 4000000000);
    assert.equal(fields.display_name, 'The "Boss"');
    assert.equal(fields.team, 'green');
    assert.deepEqual(fields.waypoint, [-3.5, 8]);
    assert.deepEqual(fields.facing, [0, 0.7071068, 0, 0.7071068]);
    // The defaults are the class file's.
    assert.equal(world.get(grunt).fields.display_name, 'Grunt the Second');
    assert.equal(world.get(grunt).fields.ammo, -1);
  } finally {
    world.close();
  }
});

test('every field type of a class from a file is set and saved', () => {
  const dir = copyWorld(classWorld);
  const before = readTree(join(dir, 'Classes'));
  const world = juliet.openWorld(dir);
  const values = {
    health: 12.25,
    shield: -Infinity,
    mesh_instance: 42,
    is_boss: false,
    velocity: [1, 2, 3],
    tint: '#abcdef',
    target: null,
    ammo: -2147483648,
    score: 4294967295,
    display_name: ' spaced "quoted" \\ name ',
    team: 'blue',
    waypoint: [0.5, -0.25],
    facing: [0, 0, 1, 0],
  };
  const texts = {
    health: '12.25',
    shield: '-inf',
    mesh_instance: '42',
    is_boss: 'false',
    velocity: '1 2 3',
    tint: '#abcdef',
    target: 'none',
    ammo: '-2147483648',
    score: '4294967295',
    display_name: '" spaced \\"quoted\\" \\\\ name "',
    team: 'blue',
    waypoint: '0.5 -0.25',
    facing: '0 0 1 0',
  };
  try {
    for (const [field, value] of Object.entries(values)) world.set(boss, field, value);
    const created = world.create('Ghoul', [1, 2, 3]);
    assert.deepEqual(world.get(created).fields.facing, [0, 0, 0, 1]);
    const { written } = world.save();
    assert.equal(written.length, 2);
    assert.deepEqual(world.diagnostics(), []);
    const keys = parseJasset(readFileSync(join(dir, entityPath(boss)), 'utf8'));
    for (const [field, text] of Object.entries(texts)) assert.equal(keys[field], text, field);
    assert.equal(keys.class, 'Ghoul');
    assert.equal(keys.class_version, '2');
  } finally {
    world.close();
  }
  // Class files are read, never rewritten; the saved world opens again alike.
  assert.deepEqual(readTree(join(dir, 'Classes')), before);
  const again = juliet.openWorld(dir);
  try {
    assert.deepEqual(again.diagnostics(), []);
    assert.equal(again.entities().length, 5);
    const { fields } = again.get(boss);
    for (const [field, value] of Object.entries(values)) {
      if (field === 'facing' || field === 'waypoint' || field === 'velocity') {
        assert.deepEqual(fields[field], value, field);
      } else {
        assert.equal(fields[field], value, field);
      }
    }
    assert.deepEqual(again.save(), { written: [], deleted: [] });
  } finally {
    again.close();
  }
});

test('a snapshot of a world of class files opens where the classes are not compiled', async () => {
  const back = await juliet.openSnapshot(await snapshotOf(juliet, classWorld));
  try {
    assert.equal(back.entities().length, 4);
    assert.equal(back.get(boss).fields.display_name, 'The "Boss"');
    assert.equal(back.get(boss).fields.team, 'green');
    assert.equal(back.schema('Beacon').length, 2);
  } finally {
    back.close();
  }
});

test('a broken class file is a diagnostic with its line and column; its entities are kept as text', () => {
  const dir = copyWorld(classWorld);
  const path = join(dir, 'Classes', 'Beacon.jclass');
  const text = readFileSync(path, 'utf8').replace('f32 12.5', 'f32 twelve');
  writeFileSync(path, text);
  const world = juliet.openWorld(dir);
  try {
    const diagnostics = world.diagnostics();
    assert.equal(diagnostics.length, 1);
    assert.equal(diagnostics[0].line, 8);
    assert.equal(diagnostics[0].col, 5);
    assert.match(diagnostics[0].message, /default of range/);
    assert.equal(world.warnings().length, 1);
    assert.deepEqual(world.opaqueClasses(), ['Beacon']);
    assert.equal(world.entities().length, 4);
  } finally {
    world.close();
  }
});
