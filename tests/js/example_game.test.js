// The example game's world (examples/game, built natively) opened with the
// JS API: the game writes its level and its classes as class files; the
// world opens with every entity, no diagnostic and no warning, and edits save.
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { test } from 'node:test';
import { loadJuliet } from 'juliet-sample';
import { repo, tempDir } from '../shared/fixtures.js';

const game = join(repo, 'build', 'native', 'examples', 'game', 'example_game');

test('the JS API opens the world the example game wrote, and saves an edit of it', async () => {
  const dir = join(tempDir('game'), 'level');
  execFileSync(game, ['save', dir]);
  const juliet = await loadJuliet();
  const world = juliet.openWorld(dir);
  try {
    assert.deepEqual(world.diagnostics(), []);
    assert.deepEqual(world.warnings(), []);
    const count = (name) => world.entities().filter((e) => e.class === name).length;
    assert.equal(count('Enemy'), 3);
    assert.equal(count('Pickup'), 2);
    const boss = world.entities().find((e) => e.class === 'Enemy' && world.get(e.id).fields.rank === 'boss');
    assert.ok(boss, 'the boss keeps its enum value');
    assert.deepEqual(world.get(boss.id).fields.patrol, [6, 2.5]);
    world.set(boss.id, 'name', 'Big Brute');
    const { written } = world.save();
    assert.equal(written.length, 1);
    assert.match(readFileSync(written[0], 'utf8'), /\n; name\nBig Brute\n/);
  } finally {
    world.close();
  }
});
