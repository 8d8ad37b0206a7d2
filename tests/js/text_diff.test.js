// Juliet#textDiff: the engine's key-by-key comparison of two .jasset texts
// (jl_text_diff, the one `juliet diff` prints), as the inspector's review of
// pending changes reads it.
import assert from 'node:assert/strict';
import { test } from 'node:test';

import { loadJuliet } from 'juliet-sample';
import { entityText, sampleWorld } from './helpers.js';

const juliet = await loadJuliet();

/** A Light file's text with `intensity` holding value (and `extra` lines appended). */
const lightText = (intensity, extra = []) => entityText('Light', 'intensity', intensity, extra);

test('textDiff lists a changed value as key, old and new', () => {
  assert.deepEqual(juliet.textDiff(lightText('18.1'), lightText('42')), [{ key: 'intensity', old: '18.1', new: '42' }]);
});

test('textDiff of equal texts is empty', () => {
  assert.deepEqual(juliet.textDiff(lightText('1'), lightText('1')), []);
});

test('textDiff lists keys only the newer text has, then keys only the older has', () => {
  const older = lightText('1', ['; gone', 'x']);
  const newer = lightText('1', ['; added', 'y']);
  assert.deepEqual(juliet.textDiff(older, newer), [
    { key: 'added', old: null, new: 'y' },
    { key: 'gone', old: 'x', new: null },
  ]);
});

test('textDiff against an empty text lists every key (a new entity)', () => {
  const changes = juliet.textDiff('', lightText('3'));
  assert.deepEqual(
    changes.map((c) => c.key),
    ['asset_type', 'id', 'class', 'version', 'class_version', 'position', 'intensity'],
  );
  assert.ok(changes.every((c) => c.old === null));
  assert.deepEqual(
    juliet.textDiff(lightText('3'), '').map((c) => c.new),
    new Array(7).fill(null),
  );
});

test('textDiff takes bytes and keeps UTF-8 values', () => {
  const bytes = new TextEncoder().encode(lightText('1', ['; note', 'café']));
  assert.deepEqual(juliet.textDiff(lightText('1', ['; note', 'tea']), bytes), [{ key: 'note', old: 'tea', new: 'café' }]);
});

test('textDiff of a text that does not tokenize throws a parse error naming path, line and column', () => {
  assert.throws(
    () => juliet.textDiff(lightText('1'), '; id\n0x1\n; id\n0x2\n', { path: 'Entities/183.jasset' }),
    (err) => err.code === 'parse' && err.path === 'Entities/183.jasset' && err.line === 3,
  );
});

test('textDiff of two entities of the sample world shows their differing keys', () => {
  const world = juliet.openWorld(sampleWorld);
  try {
    const [a] = world.entities();
    const before = world.entityBytes(a.id);
    world.set(a.id, 'position', [1, 2, 3]);
    assert.deepEqual(
      juliet.textDiff(before, world.entityBytes(a.id)).map((c) => [c.key, c.new]),
      [['position', '1 2 3']],
    );
  } finally {
    world.close();
  }
});

test('textDiff checks its arguments and leaks nothing', () => {
  assert.throws(() => juliet.textDiff(1, ''), TypeError);
  assert.throws(() => juliet.textDiff('', '', { path: 3 }), TypeError);
  const used = juliet.heapUsed();
  for (let i = 0; i < 50; i++) juliet.textDiff(lightText(String(i)), lightText('0'));
  assert.equal(juliet.heapUsed(), used);
});
