// Class, field and key names from files that are also names of
// Object.prototype (__proto__, constructor, hasOwnProperty, toString,
// valueOf): valid names in .jclass and .jasset files, so each is an own key
// of what the API returns, read, set, saved and carried by JSON and
// snapshots like any other name, and no inherited member reads as a field.
import assert from 'node:assert/strict';
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { test } from 'node:test';

import { entityPath } from 'juliet-world';
import { loadJuliet } from 'juliet-sample';
import { tempDir } from './helpers.js';

const juliet = await loadJuliet();

const CLASSES = ['__proto__', 'constructor', 'hasOwnProperty'];
const FIELDS = ['__proto__', 'constructor', 'hasOwnProperty', 'toString'];
// One entity per class, and one of a class no file describes (opaque).
// (A literal's `__proto__: v` sets the prototype; `['__proto__']: v` is a key.)
const IDS = {
  ['__proto__']: '0x5e7a000000000001',
  constructor: '0x5e7a000000000002',
  hasOwnProperty: '0x5e7a000000000003',
};
const OPAQUE = '0x5e7a000000000004';
// What each entity's file holds in its fields.
const VALUES = { ['__proto__']: 2.5, constructor: 'made', hasOwnProperty: 7, toString: false };

function entityFile(id, className, keys) {
  const lines = ['asset_type', 'entity_instance', 'id', id, 'class', className, 'version', '1', 'class_version', '1', 'position', '1 2 3'];
  for (const [key, text] of keys) lines.push(key, text);
  return lines.map((l, i) => (i % 2 ? `${l}\n` : `; ${l}\n`)).join('');
}

// A world of the classes above, each with the fields above (and one with a
// reference field named valueOf), written to a fresh folder.
function writeWorld() {
  const dir = join(tempDir('proto'), 'world');
  mkdirSync(join(dir, 'Classes'), { recursive: true });
  mkdirSync(join(dir, 'Entities'));
  for (const name of CLASSES) {
    const extra = name === 'constructor' ? '; field valueOf\nentity_ref none\n' : '';
    writeFileSync(
      join(dir, 'Classes', `${name}.jclass`),
      `; asset_type\nclass\n; name\n${name}\n; field __proto__\nf32 1\n; field constructor\nstring plain\n` +
        `; field hasOwnProperty\ni32 3\n; field toString\nbool true\n${extra}`,
    );
    const keys = [
      ['__proto__', '2.5'],
      ['constructor', 'made'],
      ['hasOwnProperty', '7'],
      ['toString', 'false'],
    ];
    writeFileSync(join(dir, entityPath(IDS[name])), entityFile(IDS[name], name, keys));
  }
  writeFileSync(
    join(dir, entityPath(OPAQUE)),
    entityFile(OPAQUE, 'valueOf', [
      ['__proto__', 'kept'],
      ['hasOwnProperty', '1 2'],
    ]),
  );
  return dir;
}

// The fields of entity `id` of `world`, checked to be a record with no
// inherited members.
function fieldsOf(world, id) {
  const { fields } = world.get(id);
  assert.equal(Object.getPrototypeOf(fields), null, 'fields inherit nothing');
  return fields;
}

test('classes named like Object.prototype members load with their fields', () => {
  const world = juliet.openWorld(writeWorld());
  try {
    assert.deepEqual(world.diagnostics(), []);
    assert.deepEqual(world.opaqueClasses(), ['valueOf']);
    const classes = world
      .entities()
      .map((e) => e.class)
      .sort();
    assert.deepEqual(classes, [...CLASSES, 'valueOf'].sort());
    for (const name of CLASSES) {
      assert.equal(world.get(IDS[name]).class, name);
      assert.deepEqual(
        world
          .schema(name)
          .slice(0, 4)
          .map((f) => f.name),
        FIELDS,
      );
      assert.deepEqual(
        world
          .schema(name)
          .slice(0, 4)
          .map((f) => f.type),
        ['f32', 'string', 'i32', 'bool'],
      );
    }
    assert.deepEqual(
      world
        .rows()
        .classNames.filter((n) => [...CLASSES, 'valueOf'].includes(n))
        .sort(),
      [...CLASSES, 'valueOf'].sort(),
    );
  } finally {
    world.close();
  }
});

test('fields named like Object.prototype members are own keys of get(id).fields', () => {
  const world = juliet.openWorld(writeWorld());
  try {
    for (const name of CLASSES) {
      const fields = fieldsOf(world, IDS[name]);
      assert.deepEqual(Object.keys(fields), name === 'constructor' ? [...FIELDS, 'valueOf'] : FIELDS);
      for (const field of FIELDS) {
        assert.ok(Object.hasOwn(fields, field), field);
        assert.equal(fields[field], VALUES[field], field);
      }
    }
    // A name no field has is not there, whatever Object.prototype holds.
    const fields = fieldsOf(world, IDS.__proto__);
    assert.equal(fields.valueOf, undefined);
    assert.equal('valueOf' in fields, false);
    assert.equal(fieldsOf(world, IDS.constructor).valueOf, null);
  } finally {
    world.close();
  }
});

test('an opaque entity keeps keys named like Object.prototype members as own keys', () => {
  const world = juliet.openWorld(writeWorld());
  try {
    const entity = world.get(OPAQUE);
    assert.equal(entity.opaque, true);
    assert.equal(entity.class, 'valueOf');
    const fields = fieldsOf(world, OPAQUE);
    assert.deepEqual(Object.entries(fields), [
      ['__proto__', 'kept'],
      ['hasOwnProperty', '1 2'],
    ]);
  } finally {
    world.close();
  }
});

test('set() writes fields named like Object.prototype members and nothing else', () => {
  const world = juliet.openWorld(writeWorld());
  try {
    const id = IDS.hasOwnProperty;
    world.set(id, '__proto__', 9.5);
    world.set(id, 'constructor', 'changed');
    world.set(id, 'hasOwnProperty', '-4');
    world.set(id, 'toString', true);
    const fields = fieldsOf(world, id);
    assert.deepEqual(Object.entries(fields), [
      ['__proto__', 9.5],
      ['constructor', 'changed'],
      ['hasOwnProperty', -4],
      ['toString', true],
    ]);
    assert.equal(fields.__proto__, 9.5);
    assert.throws(() => world.set(id, 'valueOf', null), { code: 'not_found' });
    assert.throws(() => world.set(IDS.__proto__, 'valueOf', null), { code: 'not_found' });
    assert.equal(world.checkReferences().length, 0);
  } finally {
    world.close();
  }
});

test('an entity with such names survives a JSON round trip, and its parsed fields set back', () => {
  const world = juliet.openWorld(writeWorld());
  try {
    const entity = world.get(IDS.__proto__);
    const json = JSON.stringify(entity);
    assert.match(json, /"fields":\{"__proto__":2\.5,"constructor":"made","hasOwnProperty":7,"toString":false\}/);
    const parsed = JSON.parse(json);
    assert.ok(Object.hasOwn(parsed.fields, '__proto__'));
    assert.deepEqual(Object.entries(parsed.fields), Object.entries(entity.fields));
    // Each parsed value set on another entity of another class with the same fields.
    const other = IDS.hasOwnProperty;
    for (const [field, value] of Object.entries(parsed.fields)) world.set(other, field, value);
    assert.deepEqual(Object.entries(fieldsOf(world, other)), Object.entries(entity.fields));
  } finally {
    world.close();
  }
});

test('a world with such names is saved and reopened with the same values', () => {
  const dir = writeWorld();
  const world = juliet.openWorld(dir);
  let created;
  try {
    world.set(IDS.constructor, '__proto__', 11);
    world.set(IDS.constructor, 'valueOf', IDS.__proto__);
    created = world.create('__proto__', [4, 5, 6]);
    world.set(created, 'toString', false);
    world.set(created, 'hasOwnProperty', 12);
    assert.deepEqual(Object.entries(fieldsOf(world, created)), [
      ['__proto__', 1],
      ['constructor', 'plain'],
      ['hasOwnProperty', 12],
      ['toString', false],
    ]);
    world.save();
  } finally {
    world.close();
  }
  const saved = readFileSync(join(dir, entityPath(IDS.constructor)), 'utf8');
  assert.match(saved, /\n; __proto__\n11\n/);
  assert.match(saved, new RegExp(`\n; valueOf\n${IDS.__proto__}\n`));
  const again = juliet.openWorld(dir);
  try {
    assert.deepEqual(again.diagnostics(), []);
    assert.equal(again.get(created).class, '__proto__');
    assert.deepEqual(Object.entries(fieldsOf(again, created)), [
      ['__proto__', 1],
      ['constructor', 'plain'],
      ['hasOwnProperty', 12],
      ['toString', false],
    ]);
    const fields = fieldsOf(again, IDS.constructor);
    assert.equal(fields.__proto__, 11);
    assert.equal(fields.valueOf, IDS.__proto__);
    assert.deepEqual(Object.entries(fieldsOf(again, OPAQUE)), [
      ['__proto__', 'kept'],
      ['hasOwnProperty', '1 2'],
    ]);
  } finally {
    again.close();
  }
});

test('a snapshot of a world with such names opens with the same classes and fields', async () => {
  const world = juliet.openWorld(writeWorld());
  try {
    const copy = await juliet.openSnapshot(await world.snapshot());
    try {
      for (const id of [...Object.values(IDS), OPAQUE]) {
        assert.equal(copy.get(id).class, world.get(id).class);
        assert.deepEqual(Object.entries(fieldsOf(copy, id)), Object.entries(world.get(id).fields));
      }
    } finally {
      copy.close();
    }
  } finally {
    world.close();
  }
});
