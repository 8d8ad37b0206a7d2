// Worlds on the real disk under Node: the sample world opened, edited
// and saved into a temporary copy, checked with node:fs; deferred deletion;
// the diagnostics of the malformed fixtures in assets/.
import assert from 'node:assert/strict';
import { existsSync, readFileSync, readdirSync, statSync, utimesSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { test } from 'node:test';

import { encodePack, entityPath, packReader } from 'juliet-world';
import { loadJuliet } from 'juliet-sample';
import { assets, copyWorld, parseJasset, readTree, sampleWorld } from './helpers.js';

const juliet = await loadJuliet();

/** The sample world's entity files, read with node:fs. */
function sampleFiles() {
  const dir = join(sampleWorld, 'Entities');
  return readdirSync(dir)
    .filter((name) => name.endsWith('.jasset'))
    .map((name) => ({ name, keys: parseJasset(readFileSync(join(dir, name), 'utf8')) }));
}

/** Sets every file's times to the epoch, so a rewrite shows in mtime. */
function ageFiles(dir) {
  for (const name of readdirSync(join(dir, 'Entities'))) utimesSync(join(dir, 'Entities', name), 0, 0);
}

test('the sample world opens with every entity as its files say, and no diagnostics', () => {
  const files = sampleFiles();
  assert.ok(files.length >= 30, `sample world has ${files.length} entities`);
  const world = juliet.openWorld(sampleWorld);
  try {
    assert.deepEqual(world.diagnostics(), []);
    const entities = world.entities();
    assert.equal(entities.length, files.length);
    const byId = new Map(entities.map((e) => [e.id, e]));
    for (const { name, keys } of files) {
      const entity = byId.get(keys.id);
      assert.ok(entity, `${name} (${keys.id}) is loaded`);
      assert.equal(entity.class, keys.class);
      assert.equal(entity.dirty, false);
      assert.equal(`${BigInt(keys.id)}.jasset`, name);
      const position = keys.position.split(/ +/).map(Number);
      assert.deepEqual(entity.position, position.map(Math.fround));
      const full = world.get(keys.id);
      assert.deepEqual(full.position, position);
      for (const field of juliet.schema(keys.class)) {
        if (!(field.name in keys)) continue;
        const text = keys[field.name];
        const value = full.fields[field.name];
        switch (field.type) {
          case 'f32':
            assert.equal(value, text === 'inf' ? Infinity : Number(text));
            break;
          case 'index':
            assert.equal(value, text === 'none' ? 4294967295 : Number(text));
            break;
          case 'bool':
            assert.equal(value, text === 'true');
            break;
          case 'vec3':
            assert.deepEqual(value, text.split(/ +/).map(Number));
            break;
          case 'color':
            assert.equal(value, text.toLowerCase());
            break;
          case 'entity_ref':
            assert.equal(value, text === 'none' ? null : text.toLowerCase());
            break;
        }
      }
    }
  } finally {
    world.close();
  }
});

test('an unchanged world saves zero files', () => {
  const dir = copyWorld();
  ageFiles(dir);
  const world = juliet.openWorld(dir);
  try {
    assert.deepEqual(world.save(), { written: [], deleted: [] });
  } finally {
    world.close();
  }
  for (const name of readdirSync(join(dir, 'Entities'))) {
    assert.equal(statSync(join(dir, 'Entities', name)).mtimeMs, 0, `${name} untouched`);
  }
});

test('edits save exactly the edited files, with the new values on disk', () => {
  const dir = copyWorld();
  ageFiles(dir);
  const before = readTree(dir);
  const world = juliet.openWorld(dir);
  let prop, light;
  try {
    const entities = world.entities();
    prop = entities.find((e) => e.class === 'Prop').id;
    light = entities.find((e) => e.class === 'Light').id;
    world.set(prop, 'position', [1.25, -2.5, 100]);
    world.set(prop, 'is_static', true);
    world.set(light, 'color', '#102030');
    world.set(light, 'radius', Infinity);
    assert.equal(world.get(prop).dirty, true);
    const report = world.save();
    assert.deepEqual(report.deleted, []);
    assert.deepEqual([...report.written].sort(), [join(dir, entityPath(prop)), join(dir, entityPath(light))].sort());
    assert.equal(world.get(prop).dirty, false);
    assert.deepEqual(world.save(), { written: [], deleted: [] });
  } finally {
    world.close();
  }
  const after = readTree(dir);
  assert.deepEqual([...after.keys()].sort(), [...before.keys()].sort());
  for (const [rel, bytes] of after) {
    if (rel === entityPath(prop) || rel === entityPath(light)) continue;
    assert.ok(bytes.equals(before.get(rel)), `${rel} unchanged`);
    if (rel.startsWith('Entities/')) assert.equal(statSync(join(dir, rel)).mtimeMs, 0, `${rel} not rewritten`);
  }
  const propKeys = parseJasset(after.get(entityPath(prop)).toString('utf8'));
  assert.equal(propKeys.position, '1.25 -2.5 100');
  assert.equal(propKeys.is_static, 'true');
  const lightKeys = parseJasset(after.get(entityPath(light)).toString('utf8'));
  assert.equal(lightKeys.color, '#102030');
  assert.equal(lightKeys.radius, 'inf');
  // Only the edited keys changed: every other line is as before.
  const oldProp = parseJasset(before.get(entityPath(prop)).toString('utf8'));
  for (const key of Object.keys(oldProp)) {
    if (key !== 'position' && key !== 'is_static') assert.equal(propKeys[key], oldProp[key], key);
  }
  // Reopening reads the saved values back.
  const again = juliet.openWorld(dir);
  try {
    assert.deepEqual(again.get(prop).position, [1.25, -2.5, 100]);
    assert.equal(again.get(light).fields.radius, Infinity);
    assert.equal(again.get(prop).dirty, false);
  } finally {
    again.close();
  }
});

test('unknown keys of a file survive an edit and a save', () => {
  const dir = copyWorld();
  const world = juliet.openWorld(dir);
  const withNote = sampleFiles().find((f) => 'editor_note' in f.keys);
  assert.ok(withNote, 'the sample has a file with an unknown key');
  try {
    world.set(withNote.keys.id, 'position', [0, 0, 0]);
    world.save();
  } finally {
    world.close();
  }
  const keys = parseJasset(readFileSync(join(dir, 'Entities', withNote.name), 'utf8'));
  assert.equal(keys.editor_note, withNote.keys.editor_note);
  assert.equal(keys.position, '0 0 0');
});

/** Appends an unknown key whose value is not UTF-8 to a file; returns its new bytes. */
function addBinaryKey(path) {
  const value = Buffer.from([0x61, 0xff, 0xfe, 0x62, 0xc3, 0x0a]); // a, two bytes never UTF-8, b, a lone lead byte
  const bytes = Buffer.concat([readFileSync(path), Buffer.from('; x_blob\n'), value]);
  writeFileSync(path, bytes);
  return bytes;
}

test('bytes that are not UTF-8 in an unknown value survive entityBytes, loadEntityText and a save', () => {
  const dir = copyWorld();
  const { name, keys } = sampleFiles()[0];
  const path = join(dir, 'Entities', name);
  const original = addBinaryKey(path);
  const world = juliet.openWorld(dir);
  try {
    assert.deepEqual(world.diagnostics(), []);
    const bytes = world.entityBytes(keys.id);
    assert.ok(bytes instanceof Uint8Array);
    assert.ok(Buffer.from(bytes).equals(original), 'entityBytes gives the file exactly');
    // The text form decodes them; only the bytes keep them.
    assert.match(world.entityText(keys.id), /; x_blob\na\uFFFD\uFFFDb\uFFFD\n$/);
    // As an undo of a delete does: remove, load the bytes back, save them.
    world.remove(keys.id);
    assert.equal(world.loadEntityText(bytes, { path: entityPath(keys.id), dirty: true }), keys.id);
    assert.deepEqual(world.save(), { written: [path], deleted: [] });
  } finally {
    world.close();
  }
  assert.ok(readFileSync(path).equals(original), 'the file is byte for byte as it was');
});

test('a created entity is written to Entities/<decimal id>.jasset on save', () => {
  const dir = copyWorld();
  const world = juliet.openWorld(dir);
  let id;
  try {
    id = world.create('Light', [3, 2, 1]);
    world.set(id, 'intensity', 4.5);
    assert.equal(existsSync(join(dir, entityPath(id))), false);
    assert.deepEqual(world.save(), { written: [join(dir, entityPath(id))], deleted: [] });
  } finally {
    world.close();
  }
  const keys = parseJasset(readFileSync(join(dir, entityPath(id)), 'utf8'));
  assert.deepEqual(
    { id: keys.id, class: keys.class, position: keys.position, intensity: keys.intensity },
    { id, class: 'Light', position: '3 2 1', intensity: '4.5' },
  );
});

test('deletion is deferred: the file stays until save, which deletes only it', () => {
  const dir = copyWorld();
  const before = readTree(dir);
  const world = juliet.openWorld(dir);
  let victim;
  try {
    victim = world.entities().find((e) => e.class === 'Inert').id;
    world.remove(victim);
    assert.equal(world.has(victim), false);
    assert.throws(() => world.get(victim), { code: 'not_found' });
    assert.equal(existsSync(join(dir, entityPath(victim))), true, 'file still on disk before save');
    assert.deepEqual(world.save(), { written: [], deleted: [join(dir, entityPath(victim))] });
    assert.equal(existsSync(join(dir, entityPath(victim))), false, 'file gone after save');
    assert.deepEqual(world.save(), { written: [], deleted: [] });
  } finally {
    world.close();
  }
  const after = readTree(dir);
  assert.equal(after.size, before.size - 1);
  for (const [rel, bytes] of after) assert.ok(bytes.equals(before.get(rel)), `${rel} unchanged`);
});

test('closing without saving leaves the disk as it was', () => {
  const dir = copyWorld();
  const before = readTree(dir);
  const world = juliet.openWorld(dir);
  const [first, second] = world.entities();
  world.remove(first.id);
  world.set(second.id, 'position', [9, 9, 9]);
  world.create('Prop');
  world.close();
  const after = readTree(dir);
  assert.equal(after.size, before.size);
  for (const [rel, bytes] of after) assert.ok(bytes.equals(before.get(rel)), `${rel} unchanged`);
});

test('every malformed fixture gives its expected diagnostic', () => {
  const expected = readFileSync(join(assets, 'malformed', 'expected.tsv'), 'utf8')
    .split('\n')
    .filter((line) => line.trim() && !line.startsWith('#'))
    .map((line) => {
      const [file, code, lineNo, col, message] = line.split('\t');
      return { file, code, line: Number(lineNo), col: Number(col), message };
    });
  assert.ok(expected.length >= 20);
  for (const want of expected) {
    const path = join(assets, 'malformed', want.file);
    let got;
    if (want.file.startsWith('worlds/')) {
      // A whole world directory: opening it lists the problem.
      const worldDir = join(assets, 'malformed', ...want.file.split('/').slice(0, 2));
      const world = juliet.openWorld(worldDir);
      try {
        const diagnostics = world.diagnostics();
        assert.equal(diagnostics.length, 1, `${want.file}: ${JSON.stringify(diagnostics)}`);
        got = diagnostics[0];
      } finally {
        world.close();
      }
    } else {
      // One file on its own: the error is thrown and kept as a diagnostic.
      const world = juliet.newWorld();
      try {
        const text = readFileSync(path, 'latin1');
        assert.throws(
          () => world.loadEntityText(text, { path: want.file }),
          (err) => {
            got = { path: join(assets, 'malformed', err.path), line: err.line, col: err.col, message: err.detail, code: err.code };
            return err.name === 'JulietError';
          },
        );
        assert.equal(world.count, 0, `${want.file}: nothing half-loaded`);
        assert.equal(world.diagnostics().length, 1);
      } finally {
        world.close();
      }
    }
    assert.equal(got.path, path, want.file);
    assert.equal(got.code, want.code, want.file);
    assert.equal(got.line, want.line, `${want.file} line`);
    assert.equal(got.col, want.col, `${want.file} col`);
    assert.ok(got.message.includes(want.message), `${want.file}: "${got.message}" has "${want.message}"`);
  }
});

test('a world with a bad file loads the rest and never rewrites the bad one', () => {
  const dir = copyWorld();
  const badText = readFileSync(join(assets, 'malformed', 'bad_bool.jasset'));
  // The fixture under the file name its ID asks for: only a value is wrong.
  const badPath = join(dir, entityPath(parseJasset(badText.toString('latin1')).id));
  writeFileSync(badPath, badText);
  const world = juliet.openWorld(dir);
  try {
    const diagnostics = world.diagnostics();
    assert.equal(diagnostics.length, 1);
    assert.equal(diagnostics[0].path, badPath);
    assert.equal(diagnostics[0].line, 20);
    assert.equal(world.count, sampleFiles().length);
    for (const e of world.entities()) world.set(e.id, 'position', e.position);
    const report = world.save();
    assert.equal(report.written.length, sampleFiles().length);
    assert.ok(!report.written.includes(badPath));
  } finally {
    world.close();
  }
  assert.ok(readFileSync(badPath).equals(badText), 'the bad file is untouched');
});

test('compatibility fixtures load: migration, read-only newer files, kept unknown keys', () => {
  const dir = join(assets, 'compat');
  const world = juliet.newWorld();
  try {
    const text = (name) => readFileSync(join(dir, name), 'utf8');
    const light = world.loadEntityText(text('light_v1_range.jasset'));
    assert.equal(world.get(light).fields.radius, 25.5);
    assert.equal(world.get(light).classVersion, 2);
    const newer = world.loadEntityText(text('newer_class_version.jasset'));
    assert.equal(world.get(newer).readOnly, true);
    assert.match(world.entityText(newer), /flicker_hz/);
    assert.throws(() => world.remove(newer), { code: 'read_only' });
    const unknown = world.loadEntityText(text('unknown_keys.jasset'));
    assert.match(world.entityText(unknown), /; wind_factor\n/);
    const tolerated = world.loadEntityText(text('tolerated.jasset'), { dirty: false });
    assert.equal(world.get(tolerated).dirty, false);
  } finally {
    world.close();
  }
});

test('restoreEntityText, reloadFile and markSaved leave the clean state to the engine', () => {
  const world = juliet.openWorld(sampleWorld);
  try {
    const id = world.entities().find((e) => e.class === 'Light').id;
    const file = world.entityBytes(id);
    world.set(id, 'cast_shadows', false);
    const edited = world.entityBytes(id);
    world.restoreEntityText(id, file);
    assert.equal(world.get(id).dirty, false, 'back to its file: clean');
    world.restoreEntityText(id, null);
    assert.equal(world.has(id), false);
    world.restoreEntityText(id, edited);
    assert.equal(world.get(id).dirty, true);
    // The file changed on disk to the edited text: clean, and its file's.
    assert.equal(world.reloadFile(entityPath(id), edited), id);
    assert.equal(world.get(id).dirty, false);
    assert.throws(() => world.reloadFile(entityPath(id), 'not a file'), { code: 'parse' });
    assert.equal(world.has(id), false, 'a file that does not load leaves no entity');
    assert.equal(world.reloadFile('WorldSettings.jasset', world.settingsBytes()), null);
    // Saved elsewhere: clean, and the text is the file's from now on.
    world.restoreEntityText(id, file);
    world.markSaved(id);
    assert.equal(world.get(id).dirty, false);
    world.restoreEntityText(id, edited);
    assert.equal(world.get(id).dirty, true);
    world.setSetting('time_of_day', 3);
    world.markSettingsSaved();
    assert.equal(world.settings().dirty, false);
  } finally {
    world.close();
  }
});

test('reloadFiles loads a run of a world pack as reloadFile loads each file, failures by index', () => {
  const read = (path) => new Uint8Array(readFileSync(join(sampleWorld, path)));
  const files = ['WorldSettings.jasset', ...readdirSync(join(sampleWorld, 'Entities')).map((n) => `Entities/${n}`)].map((path) => ({
    path,
    seq: 1,
    bytes: read(path),
  }));
  files.splice(2, 0, { path: 'Entities/4294967299.jasset', seq: 1, bytes: new TextEncoder().encode('; id\nbad\n') });
  const reader = packReader();
  const pack = encodePack({}, files);
  const runs = [];
  for (let at = 0; at < pack.length; at += 700) runs.push(...reader.pushRuns(pack.subarray(at, at + 700)));
  const world = juliet.newWorld();
  const one = juliet.newWorld();
  try {
    const { paths, sizes } = reader.index;
    const failures = runs.flatMap((run) => world.reloadFiles({ names: paths, sizes, ...run }));
    assert.deepEqual(runs.map((run) => run.to).at(-1), files.length, 'every file was handed out');
    assert.deepEqual(
      failures.map((f) => [f.index, f.error.code, f.error.id]),
      [[2, 'parse', '0x0000000100000003']],
    );
    for (const f of files) {
      try {
        one.reloadFile(f.path, f.bytes);
      } catch {
        // The broken file: `world` reported it above; `one` only needs the others.
      }
    }
    assert.equal(world.entities().length, files.length - 2, 'every entity but the broken one (and the settings)');
    for (const e of one.entities()) assert.deepEqual(world.entityBytes(e.id), one.entityBytes(e.id));
    assert.deepEqual(world.settings(), one.settings());
  } finally {
    world.close();
    one.close();
  }
});

test('reloadFile names the entity of a text that does not load on its error', () => {
  const world = juliet.openWorld(sampleWorld);
  try {
    const id = world.entities()[0].id;
    let caught = null;
    try {
      world.reloadFile(entityPath(id), '; id\nbad\n');
    } catch (err) {
      caught = err;
    }
    assert.equal(caught?.code, 'parse');
    assert.equal(caught.id, id);
    assert.ok(world.diagnostics().some((d) => d.path.endsWith(entityPath(id))));
  } finally {
    world.close();
  }
});
