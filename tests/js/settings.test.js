// The world settings (WorldSettings.jasset) through the JavaScript API:
// reflection, reading, editing and saving them on the real disk under
// Node, their text, and worlds whose settings file is missing, malformed
// or newer than this build.
import assert from 'node:assert/strict';
import { existsSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { test } from 'node:test';

import { JulietError } from 'juliet-world';
import { loadJuliet } from 'juliet-sample';
import { assets, copyWorld, parseJasset, readTree } from './helpers.js';

const juliet = await loadJuliet();

const SETTINGS = 'WorldSettings.jasset';
const DEFAULTS = {
  gravity: [0, -9.81, 0],
  ambient_color: '#404040',
  ambient_intensity: 0.25,
  time_of_day: 12,
  spawn_point: null,
  share_base: '',
};

/** Opens dir, runs body(world) and closes the world whatever happens. */
function withWorld(dir, body) {
  const world = juliet.openWorld(dir);
  try {
    return body(world);
  } finally {
    world.close();
  }
}

/** Asserts that every file of before is still there with the same bytes. */
function assertUnchanged(dir, before, except = []) {
  const after = readTree(dir);
  assert.deepEqual([...after.keys()].sort(), [...before.keys()].sort());
  for (const [rel, bytes] of after) {
    if (!except.includes(rel)) assert.ok(bytes.equals(before.get(rel)), `${rel} unchanged`);
  }
}

test('settingsSchema lists the six settings fields with their types and defaults', () => {
  const expected = [
    { name: 'gravity', type: 'vec3', default: [0, -9.81, 0], allowInf: false },
    { name: 'ambient_color', type: 'color', default: '#404040', allowInf: false },
    { name: 'ambient_intensity', type: 'f32', default: 0.25, allowInf: false },
    { name: 'time_of_day', type: 'f32', default: 12, allowInf: false },
    { name: 'spawn_point', type: 'entity_ref', default: null, allowInf: false },
    { name: 'share_base', type: 'string', default: '', allowInf: false },
  ];
  assert.deepEqual(juliet.settingsSchema(), expected);
  const world = juliet.newWorld();
  try {
    assert.deepEqual(world.settingsSchema(), expected);
    // Copies: editing one cannot reach the next.
    world.settingsSchema()[0].default[1] = 5;
    assert.deepEqual(world.settingsSchema()[0].default, [0, -9.81, 0]);
  } finally {
    world.close();
  }
  // The settings are not an entity class.
  assert.ok(!juliet.classes().includes('WorldSettings'));
  assert.throws(() => juliet.schema('WorldSettings'), { code: 'unknown_class' });
});

test('settings() of the sample world gives the values of its file, clean', () => {
  const dir = copyWorld();
  withWorld(dir, (world) => {
    assert.deepEqual(world.settings(), {
      fields: {
        gravity: [0, -9.81, 0],
        ambient_color: '#404040',
        ambient_intensity: 0.25,
        time_of_day: 12,
        spawn_point: '0x77a31d7500000001',
        share_base: '',
      },
      dirty: false,
      readOnly: false,
      failed: false,
    });
    // The canonical text is the file as it is on disk.
    assert.equal(world.settingsText(), readFileSync(join(dir, SETTINGS), 'utf8'));
  });
});

test('setSetting marks the settings dirty and save writes exactly WorldSettings.jasset', () => {
  const dir = copyWorld();
  const before = readTree(dir);
  const settingsPath = join(dir, SETTINGS);
  withWorld(dir, (world) => {
    world.setSetting('time_of_day', 18.5);
    world.setSetting('gravity', [0, -1.62, 0]);
    world.setSetting('ambient_color', '#A0B0C0');
    world.setSetting('spawn_point', null);
    world.setSetting('share_base', 'https://team.example/tools/juliet/');
    const settings = world.settings();
    assert.deepEqual(settings.fields, {
      gravity: [0, -1.62, 0],
      ambient_color: '#a0b0c0',
      ambient_intensity: 0.25,
      time_of_day: 18.5,
      spawn_point: null,
      share_base: 'https://team.example/tools/juliet/',
    });
    assert.equal(settings.dirty, true);
    assert.ok(
      world.entities().every((e) => !e.dirty),
      'no entity became dirty',
    );
    assert.deepEqual(world.save(), { written: [settingsPath], deleted: [] });
    assert.equal(world.settings().dirty, false);
    assert.deepEqual(world.save(), { written: [], deleted: [] });
  });
  assertUnchanged(dir, before, [SETTINGS]);
  const keys = parseJasset(readFileSync(settingsPath, 'utf8'));
  assert.deepEqual(keys, {
    version: '1',
    gravity: '0 -1.62 0',
    ambient_color: '#a0b0c0',
    ambient_intensity: '0.25',
    time_of_day: '18.5',
    spawn_point: 'none',
    share_base: 'https://team.example/tools/juliet/',
  });
  withWorld(dir, (world) => {
    assert.equal(world.settings().fields.time_of_day, 18.5);
    assert.equal(world.settings().dirty, false);
  });
});

test('a value the engine refuses throws a JulietError "parse" and leaves the setting', () => {
  const dir = copyWorld();
  withWorld(dir, (world) => {
    assert.throws(
      () => world.setSetting('ambient_intensity', 1e39),
      (err) => {
        assert.ok(err instanceof JulietError);
        assert.equal(err.code, 'parse');
        assert.match(err.message, /ambient_intensity/);
        return true;
      },
    );
    assert.equal(world.settings().fields.ambient_intensity, 0.25);
    assert.equal(world.settings().dirty, false);
    assert.deepEqual(world.save(), { written: [], deleted: [] });
  });
});

test('wrong JavaScript types throw a TypeError, unknown fields a JulietError "not_found"', () => {
  const world = juliet.newWorld();
  try {
    const cases = [
      () => world.setSetting('time_of_day', null),
      () => world.setSetting('time_of_day', true),
      () => world.setSetting('gravity', [0, -9.81]),
      () => world.setSetting('gravity', [0, '-9.81', 0]),
      () => world.setSetting('ambient_color', 0x404040),
      () => world.setSetting('spawn_point', 1),
      () => world.setSetting('', 1),
      () => world.setSetting(7, 1),
    ];
    for (const call of cases) assert.throws(call, TypeError, String(call));
    // Values of the right type that the engine refuses, with its message.
    const refused = [
      [() => world.setSetting('time_of_day', NaN), 'time_of_day: expected a number'],
      [() => world.setSetting('time_of_day', Infinity), 'time_of_day: infinity is not allowed here'],
      [() => world.setSetting('ambient_color', 'red'), 'ambient_color: expected a color #rrggbb'],
      [() => world.setSetting('spawn_point', '0x1z'), 'spawn_point: unexpected character in hex number'],
    ];
    for (const [call, message] of refused) assert.throws(call, { name: 'JulietError', code: 'parse', message });
    assert.throws(() => world.setSetting('wind', 1), { name: 'JulietError', code: 'not_found' });
    assert.throws(() => world.loadSettingsText(42), TypeError);
    assert.throws(() => world.loadSettingsText('', { dirty: 'yes' }), TypeError);
    assert.throws(() => world.loadSettingsText('', null), TypeError);
    assert.deepEqual(world.settings(), { fields: DEFAULTS, dirty: false, readOnly: false, failed: false });
  } finally {
    world.close();
  }
});

test('settingsText and loadSettingsText round trip; a bad text throws with its line', () => {
  const dir = copyWorld();
  const before = readTree(dir);
  withWorld(dir, (world) => {
    world.setSetting('time_of_day', 6.25);
    const text = world.settingsText();
    assert.equal(parseJasset(text).time_of_day, '6.25');
    world.setSetting('time_of_day', 20);

    // Clean by default: the text is taken to match the file.
    world.loadSettingsText(text);
    assert.equal(world.settings().fields.time_of_day, 6.25);
    assert.equal(world.settings().dirty, false);
    assert.equal(world.settingsText(), text);
    assert.deepEqual(world.save(), { written: [], deleted: [] });

    // A bad text changes nothing and is named after the settings file.
    const bad = '; version\n1\n; gravity\n0 -9.81\n';
    assert.throws(
      () => world.loadSettingsText(bad),
      (err) => {
        assert.ok(err instanceof JulietError);
        assert.equal(err.code, 'parse');
        assert.equal(err.path, join(dir, SETTINGS));
        assert.equal(err.line, 4);
        assert.ok(err.col > 0);
        assert.match(err.detail, /gravity/);
        return true;
      },
    );
    assert.equal(world.settingsText(), text);
    assert.equal(world.settings().dirty, false);
    assert.equal(world.diagnostics().at(-1).line, 4);

    // dirty: true makes the next save write it.
    world.loadSettingsText(text.replace('6.25', '7'), { dirty: true });
    assert.equal(world.settings().fields.time_of_day, 7);
    assert.equal(world.settings().dirty, true);
    assert.deepEqual(world.save(), { written: [join(dir, SETTINGS)], deleted: [] });
  });
  assertUnchanged(dir, before, [SETTINGS]);
  assert.equal(parseJasset(readFileSync(join(dir, SETTINGS), 'utf8')).time_of_day, '7');
});

test('bytes that are not UTF-8 in an unknown settings value survive settingsBytes, loadSettingsText and a save', () => {
  const dir = copyWorld();
  const path = join(dir, SETTINGS);
  const value = Buffer.from([0x61, 0xff, 0xfe, 0x62, 0xc3, 0x0a]);
  const original = Buffer.concat([readFileSync(path), Buffer.from('; x_blob\n'), value]);
  writeFileSync(path, original);
  withWorld(dir, (world) => {
    assert.deepEqual(world.diagnostics(), []);
    const bytes = world.settingsBytes();
    assert.ok(Buffer.from(bytes).equals(original), 'settingsBytes gives the file exactly');
    world.setSetting('time_of_day', 3);
    world.loadSettingsText(bytes, { dirty: true });
    assert.deepEqual(world.save(), { written: [path], deleted: [] });
  });
  assert.ok(readFileSync(path).equals(original), 'the file is byte for byte as it was');
});

test('a world without a directory names its settings text WorldSettings.jasset in errors', () => {
  const world = juliet.newWorld();
  try {
    assert.throws(() => world.loadSettingsText('; version\n1\n; time_of_day\nnoon\n'), { code: 'parse', path: SETTINGS, line: 4 });
  } finally {
    world.close();
  }
});

// A copy of the sample world whose WorldSettings.jasset holds `bytes`;
// returns its path.
function worldWithSettingsFile(bytes) {
  const settingsPath = join(copyWorld(), SETTINGS);
  writeFileSync(settingsPath, bytes);
  return settingsPath;
}

test('a malformed WorldSettings.jasset reports failed, refuses edits and is never rewritten', () => {
  const badText = Buffer.from('; version\n1\n; gravity\nbanana\n');
  const settingsPath = worldWithSettingsFile(badText);
  withWorld(dirname(settingsPath), (world) => {
    const [diagnostic] = world.diagnostics();
    assert.equal(diagnostic.path, settingsPath);
    assert.equal(diagnostic.line, 4);
    assert.deepEqual(world.settings(), { fields: DEFAULTS, dirty: false, readOnly: true, failed: true });
    assert.throws(() => world.setSetting('time_of_day', 3), { name: 'JulietError', code: 'read_only' });
    // Nor can good text replace them: it would be saved over the bad file.
    assert.throws(() => world.loadSettingsText('; version\n1\n; time_of_day\n3\n', { dirty: true }), {
      code: 'read_only',
    });
    assert.equal(world.settings().fields.time_of_day, 12);
    world.markAllDirty();
    const report = world.save();
    assert.ok(report.written.length > 0, 'the entities were rewritten');
    assert.ok(!report.written.includes(settingsPath));
  });
  assert.ok(readFileSync(settingsPath).equals(badText), 'the bad file is untouched');
});

test('a WorldSettings.jasset newer than this build is read-only and never rewritten', () => {
  const newer = Buffer.from('; version\n2\n; time_of_day\n3\n; clouds\nmany\n');
  const settingsPath = worldWithSettingsFile(newer);
  withWorld(dirname(settingsPath), (world) => {
    assert.deepEqual(world.diagnostics(), []);
    const settings = world.settings();
    assert.deepEqual(settings.fields, { ...DEFAULTS, time_of_day: 3 });
    assert.equal(settings.readOnly, true);
    assert.equal(settings.failed, false);
    assert.throws(() => world.setSetting('time_of_day', 4), { code: 'read_only' });
    assert.throws(() => world.loadSettingsText('; version\n1\n; time_of_day\n4\n'), { code: 'read_only' });
    world.markAllDirty();
    assert.ok(!world.save().written.includes(settingsPath));
  });
  assert.ok(readFileSync(settingsPath).equals(newer));
});

test('a world without WorldSettings.jasset has the defaults; a save after an edit creates it', () => {
  const dir = copyWorld();
  const settingsPath = join(dir, SETTINGS);
  rmSync(settingsPath);
  withWorld(dir, (world) => {
    assert.deepEqual(world.diagnostics(), []);
    assert.deepEqual(world.settings(), { fields: DEFAULTS, dirty: false, readOnly: false, failed: false });
    assert.deepEqual(world.save(), { written: [], deleted: [] });
    assert.equal(existsSync(settingsPath), false, 'clean defaults are not written');
    world.setSetting('ambient_intensity', 0.5);
    assert.deepEqual(world.save(), { written: [settingsPath], deleted: [] });
  });
  assert.deepEqual(parseJasset(readFileSync(settingsPath, 'utf8')), {
    version: '1',
    gravity: '0 -9.81 0',
    ambient_color: '#404040',
    ambient_intensity: '0.5',
    time_of_day: '12',
    spawn_point: 'none',
    share_base: '""',
  });
});

test('settings travel in snapshots', async () => {
  const source = juliet.openWorld(copyWorld());
  let text;
  try {
    source.setSetting('ambient_color', '#123456');
    source.setSetting('share_base', 'https://team.example/tools/juliet/');
    text = await source.snapshot();
  } finally {
    source.close();
  }
  const world = await juliet.openSnapshot(text);
  try {
    assert.equal(world.settings().fields.ambient_color, '#123456');
    assert.equal(world.settings().fields.spawn_point, '0x77a31d7500000001');
    assert.equal(world.settings().fields.share_base, 'https://team.example/tools/juliet/');
  } finally {
    world.close();
  }
});

test('a link made before share_base existed opens, with share_base empty', async () => {
  const link = readFileSync(join(assets, 'snapshots/valid/sample_world_before_share_base.link'), 'utf8').trim();
  const world = await juliet.openSnapshot(link);
  try {
    assert.equal(world.entities().length, 36);
    assert.equal(world.settings().fields.share_base, '');
    assert.equal(world.settings().fields.spawn_point, '0x77a31d7500000001');
  } finally {
    world.close();
  }
});

test('settings methods throw "closed" after close()', () => {
  const world = juliet.newWorld();
  world.close();
  for (const call of [
    () => world.settings(),
    () => world.settingsText(),
    () => world.setSetting('time_of_day', 1),
    () => world.loadSettingsText(''),
  ]) {
    assert.throws(call, { code: 'closed' });
  }
});
