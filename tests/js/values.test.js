// Field values through the JavaScript API, with the engine (C) as the only
// judge of a value's text: checkValue, set() with typed text, get() and
// settings() read through the C getters, unknown keys, and the file of each
// entity ID.
import assert from 'node:assert/strict';
import { readFileSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { test } from 'node:test';

import { INDEX_NONE, entityPath, idOfNumber, idOfPath } from 'juliet-world';
import { loadJuliet } from 'juliet-sample';
import { assertChecks, assets, entityText, sampleWorld } from './helpers.js';

const juliet = await loadJuliet();

/** Opens the sample world, runs body(world) and closes it whatever happens. */
function withSample(body) {
  const world = juliet.openWorld(sampleWorld);
  try {
    return body(world);
  } finally {
    world.close();
  }
}

/** A Prop file's text with `density` holding value. */
const propText = (density) => entityText('Prop', 'density', density);

test('the engine refuses "+1" and "1." as a typed value, as it does in a file', () => {
  assert.deepEqual(juliet.checkValue('f32', '+1'), { error: 'expected a number', col: 1 });
  assert.deepEqual(juliet.checkValue('f32', '1.'), { error: 'unexpected character in number', col: 3 });
  const world = juliet.newWorld();
  try {
    assert.throws(() => world.loadEntityText(propText('+1')), { code: 'parse', detail: 'density: expected a number' });
    assert.throws(() => world.loadEntityText(propText('1.')), { code: 'parse', detail: 'density: unexpected character in number' });
    const prop = world.create('Prop');
    assert.throws(() => world.set(prop, 'density', '+1'), {
      name: 'JulietError',
      code: 'parse',
      message: 'density: expected a number',
      col: 1,
    });
    assert.throws(() => world.set(prop, 'density', '1.'), { code: 'parse', message: 'density: unexpected character in number', col: 3 });
    assert.equal(world.get(prop).fields.density, 1);
  } finally {
    world.close();
  }
});

test("checkValue gives the value and canonical text of every field type, or the engine's message", () => {
  const valid = [
    ['f32', '2.50', {}, 2.5, '2.5'],
    ['f32', '-0', {}, -0, '-0'],
    ['f32', 'inf', { allowInf: true }, Infinity, 'inf'],
    ['index', '7', {}, 7, '7'],
    ['index', 'none', {}, INDEX_NONE, 'none'],
    ['bool', 'false', {}, false, 'false'],
    ['vec3', '1  -2.5 3e2', {}, [1, -2.5, 300], '1 -2.5 300'],
    ['color', '#A0b1C2', {}, '#a0b1c2', '#a0b1c2'],
    ['entity_ref', '0xABC', {}, '0x0000000000000abc', '0x0000000000000abc'],
    ['entity_ref', 'none', {}, null, 'none'],
  ];
  const refused = [
    ['f32', 'inf', 'infinity is not allowed here', 1],
    ['f32', '1e39', 'number out of float32 range', 1],
    ['f32', '', 'expected a number', 1],
    ['index', '-1', 'must be 0 or more', 1],
    ['index', '4294967296', 'number out of range (max 4294967295)', 1],
    ['bool', 'yes', 'expected true or false', 1],
    ['vec3', '1 2', 'expected 3 numbers', 4],
    ['color', 'red', 'expected a color #rrggbb', 1],
    ['entity_ref', '12', 'expected 0x and hex digits', 1],
  ];
  assertChecks(juliet, valid, refused);
  assert.throws(() => juliet.checkValue('float', '1'), { name: 'JulietError', code: 'invalid_argument' });
  assert.throws(() => juliet.checkValue('f32', 1), TypeError);
  assert.throws(() => juliet.checkValue('f32', '1', { allowInf: 'yes' }), TypeError);
});

test('set takes the text a user typed for every field type, as if the value were given', () => {
  const world = juliet.newWorld();
  try {
    const byText = world.create('Prop');
    const byValue = world.create('Prop');
    const light = world.create('Light');
    const texts = {
      mesh_instance: '12',
      density: '0.1',
      is_static: 'true',
      velocity: '1 -0 2.5',
      parent: light.toUpperCase().replace('0X', '0x'),
    };
    const values = { mesh_instance: 12, density: 0.1, is_static: true, velocity: [1, -0, 2.5], parent: light };
    for (const [field, text] of Object.entries(texts)) world.set(byText, field, text);
    for (const [field, value] of Object.entries(values)) world.set(byValue, field, value);
    world.set(byText, 'position', '4 5 6');
    world.set(byValue, 'position', [4, 5, 6]);
    const a = world.get(byText);
    const b = world.get(byValue);
    assert.deepEqual(a.fields, { __proto__: null, ...values });
    assert.deepEqual({ ...a, id: null }, { ...b, id: null });
    world.set(light, 'color', '#00FF7f');
    world.set(light, 'radius', 'inf');
    world.set(byText, 'mesh_instance', 'none');
    world.set(byText, 'parent', 'none');
    assert.deepEqual([world.get(light).fields.color, world.get(light).fields.radius], ['#00ff7f', Infinity]);
    assert.deepEqual([world.get(byText).fields.mesh_instance, world.get(byText).fields.parent], [INDEX_NONE, null]);
  } finally {
    world.close();
  }
});

test('get() gives every field type of Inert, Light and Prop as the sample files hold them', () => {
  withSample((world) => {
    const base = { version: 1, dirty: false, readOnly: false };
    assert.deepEqual(world.get('0x77a31d7500000001'), {
      ...base,
      id: '0x77a31d7500000001',
      class: 'Inert',
      classVersion: 1,
      position: [-28.37, 33.37, -115.23],
      fields: { __proto__: null, mesh_instance: 185 },
    });
    assert.deepEqual(world.get('0x77a31d7500000002'), {
      ...base,
      id: '0x77a31d7500000002',
      class: 'Light',
      classVersion: 2,
      position: [304.55, 16.74, -269.94],
      fields: { __proto__: null, color: '#a3e36d', intensity: 18.1, radius: 28.5, cast_shadows: true },
    });
    assert.equal(world.get('0x77a31d7500000023').fields.radius, Infinity);
    assert.deepEqual(world.get('0x77A31D7500000003'), {
      ...base,
      id: '0x77a31d7500000003',
      class: 'Prop',
      classVersion: 1,
      position: [-271.14, 15.56, 121.45],
      fields: { __proto__: null, mesh_instance: 149, density: 12.8, is_static: false, velocity: [0, 0, 0], parent: '0x77a31d7500000002' },
    });
  });
});

test('setSetting takes typed text, and settings() reads it back through C', () => {
  withSample((world) => {
    world.setSetting('time_of_day', '6.25');
    world.setSetting('gravity', '0 -1.62 0');
    world.setSetting('ambient_color', '#A0B0C0');
    world.setSetting('spawn_point', 'none');
    assert.deepEqual(world.settings(), {
      fields: {
        gravity: [0, -1.62, 0],
        ambient_color: '#a0b0c0',
        ambient_intensity: 0.25,
        time_of_day: 6.25,
        spawn_point: null,
        share_base: '',
      },
      dirty: true,
      readOnly: false,
      failed: false,
    });
    assert.throws(() => world.setSetting('time_of_day', '6,25'), {
      code: 'parse',
      message: 'time_of_day: unexpected character in number',
      col: 2,
    });
  });
});

test('unknown keys stay out of get() and in the entity text, as before', () => {
  const world = juliet.newWorld();
  try {
    const id = world.loadEntityText(readFileSync(join(assets, 'compat', 'unknown_keys.jasset')));
    assert.deepEqual(world.get(id), {
      id: '0x0000000200000004',
      class: 'Prop',
      version: 1,
      classVersion: 1,
      position: [1.5, 0, -2],
      fields: { __proto__: null, mesh_instance: 9, density: 2.5, is_static: false, velocity: [0, 0, 0], parent: null },
      dirty: true,
      readOnly: false,
    });
    world.set(id, 'density', 3);
    assert.match(world.entityText(id), /; density\n3\n[^]*; wind_factor\n0\.3\n; tags\ncrate wooden\n$/);
  } finally {
    world.close();
  }
  withSample((world) => {
    assert.deepEqual(world.get('0x77a31d7500000001').fields, { __proto__: null, mesh_instance: 185 });
    assert.match(world.entityText('0x77a31d7500000001'), /; editor_note\nhand-placed by level design\n$/);
  });
});

test('entityPath and idOfPath map an ID to its file and back, as the loader names files', () => {
  const cases = [
    ['0x77a31d7500000001', 'Entities/8620766500065640449.jasset'],
    ['0x0000000000000001', 'Entities/1.jasset'],
    ['0xffffffffffffffff', 'Entities/18446744073709551615.jasset'],
  ];
  for (const [id, path] of cases) {
    assert.equal(entityPath(id), path);
    assert.equal(idOfPath(path), id);
  }
  assert.equal(entityPath('0x77A31D7500000001'), 'Entities/8620766500065640449.jasset');
  for (const path of [
    'Entities/012.jasset',
    'Entities/0.jasset',
    'Entities/18446744073709551616.jasset',
    'Entities/12.jasset.tmp',
    'Entities/x.jasset',
    'WorldSettings.jasset',
    '/w/Entities/12.jasset',
    12,
  ]) {
    assert.equal(idOfPath(path), null, String(path));
  }
  assert.throws(() => entityPath('12'), TypeError);
  // Every file of the sample is named as entityPath names its entity.
  const files = readdirSync(join(sampleWorld, 'Entities')).map((name) => `Entities/${name}`);
  withSample((world) => {
    assert.deepEqual(
      world
        .entities()
        .map(({ id }) => entityPath(id))
        .sort(),
      files.sort(),
    );
    for (const path of files) assert.ok(world.has(idOfPath(path)), path);
  });
});

test('idOfNumber reads the decimal number of a file name as typed, leading zeros and all', () => {
  assert.equal(idOfNumber('8620766500065640449'), '0x77a31d7500000001');
  assert.equal(idOfNumber('012'), '0x000000000000000c');
  assert.equal(idOfNumber('0'), '0x0000000000000000');
  assert.equal(idOfNumber('18446744073709551615'), '0xffffffffffffffff');
  for (const text of ['18446744073709551616', '123456789012345678901', '', ' 12', '0x12', '1e3', '-1', 12]) {
    assert.equal(idOfNumber(text), null, String(text));
  }
});
