// Juliet#textMerge: the engine's three-way merge of an entity's .jasset text,
// key by key (jl_text_merge, the one `juliet merge` runs as git's merge
// driver).
import assert from 'node:assert/strict';
import { test } from 'node:test';

import { loadJuliet } from 'juliet-sample';
import { entityText, sampleWorld } from './helpers.js';

const juliet = await loadJuliet();

/** A Light file's text with `intensity` holding value (and `extra` lines appended). */
const lightText = (intensity, extra = []) => entityText('Light', 'intensity', intensity, extra);

test('textMerge takes a change made on one side', () => {
  const base = lightText('1', ['; radius', '4']);
  const result = juliet.textMerge(base, lightText('2', ['; radius', '4']), lightText('1', ['; radius', '9']));
  assert.deepEqual(result, { text: lightText('2', ['; radius', '9']), conflicts: [] });
});

test('textMerge keeps ours for a key both sides changed differently, unless options.theirs names it', () => {
  const base = lightText('1', ['; radius', '4']);
  const ours = lightText('2', ['; radius', '5']);
  const theirs = lightText('3', ['; radius', '6']);
  const conflicts = [
    { key: 'intensity', base: '1', ours: '2', theirs: '3' },
    { key: 'radius', base: '4', ours: '5', theirs: '6' },
  ];
  assert.deepEqual(juliet.textMerge(base, ours, theirs), { text: ours, conflicts });
  assert.deepEqual(juliet.textMerge(base, ours, theirs, { theirs: ['radius'] }), {
    text: lightText('2', ['; radius', '6']),
    conflicts,
  });
});

test('textMerge takes a removal or an addition of one side, and reports null for a value a side lacks', () => {
  const base = lightText('1', ['; gone', 'x']);
  assert.deepEqual(juliet.textMerge(base, lightText('1'), lightText('1', ['; gone', 'x', '; added', 'y'])), {
    text: lightText('1', ['; added', 'y']),
    conflicts: [],
  });
  assert.deepEqual(juliet.textMerge(base, lightText('1'), lightText('1', ['; gone', 'z'])).conflicts, [
    { key: 'gone', base: 'x', ours: null, theirs: 'z' },
  ]);
  assert.deepEqual(juliet.textMerge(lightText('1'), lightText('1', ['; n', 'a']), lightText('1', ['; n', 'b'])).conflicts, [
    { key: 'n', base: null, ours: 'a', theirs: 'b' },
  ]);
});

test('textMerge of texts that differ in formatting only is clean and canonical', () => {
  const base = lightText('1');
  const ours = base.replace(/\n/g, '\r\n').replace('; intensity', '  ;intensity  ');
  assert.deepEqual(juliet.textMerge(base, ours, lightText('7')), { text: lightText('7'), conflicts: [] });
});

test('textMerge of a text that does not tokenize throws a parse error naming path, line and column', () => {
  assert.throws(
    () => juliet.textMerge(lightText('1'), lightText('1'), '; id\n0x1\n; id\n0x2\n', { path: 'Entities/183.jasset' }),
    (err) => err.code === 'parse' && err.path === 'Entities/183.jasset' && err.line === 3 && err.col === 3,
  );
});

test('textMerge of two edits of a sample world entity gives the text the engine writes for both', () => {
  const world = juliet.openWorld(sampleWorld);
  try {
    const { id } = world.entities().find((e) => e.class === 'Light');
    const base = world.entityText(id);
    const intensity = world.fieldText(id, 'intensity');
    world.set(id, 'intensity', '42');
    const ours = world.entityText(id);
    world.set(id, 'radius', '3');
    const both = world.entityText(id);
    world.set(id, 'intensity', intensity);
    const theirs = world.entityText(id);
    assert.deepEqual(juliet.textMerge(base, ours, theirs), { text: both, conflicts: [] });
  } finally {
    world.close();
  }
});

test('textMerge checks its arguments and leaks nothing', () => {
  assert.throws(() => juliet.textMerge('', '', 1), TypeError);
  assert.throws(() => juliet.textMerge('', '', '', { path: 3 }), TypeError);
  assert.throws(() => juliet.textMerge('', '', '', { theirs: 'radius' }), TypeError);
  assert.throws(() => juliet.textMerge('', '', '', { theirs: [''] }), TypeError);
  const used = juliet.heapUsed();
  for (let i = 0; i < 50; i++) juliet.textMerge(lightText('0'), lightText(String(i)), lightText('-1'), { theirs: ['intensity'] });
  assert.throws(
    () => juliet.textMerge('; a\n', '', ''),
    (err) => err.code === 'parse',
  );
  assert.equal(juliet.heapUsed(), used);
});
