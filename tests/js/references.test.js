// World#checkReferences and World#missingReferences: a world filled text by
// text (as the page fills a world served by the local server) gets the
// diagnostics of its dangling references that opening a directory gives,
// and again after files changed on disk were reloaded.
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { test } from 'node:test';
import { loadJuliet } from 'juliet-sample';
import { entityFile, sampleWorld } from '../shared/fixtures.js';

const juliet = await loadJuliet();
const PROP = '0x77a31d7500000003'; // a Prop whose parent is 0x77a31d7500000002

test('references to entities not in the world are reported where they are written', () => {
  const world = juliet.newWorld({ capacity: 16 });
  try {
    const path = entityFile(PROP);
    world.loadEntityText(readFileSync(join(sampleWorld, path)), { path, dirty: false });
    const found = world.checkReferences();
    assert.deepEqual(found, [{ path, line: 22, col: 1, message: 'reference to missing entity 0x77a31d7500000002', code: 'not_found' }]);
    assert.deepEqual(world.diagnostics(), found);
    // Once the target is in, nothing more is reported.
    const target = entityFile('0x77a31d7500000002');
    world.loadEntityText(readFileSync(join(sampleWorld, target)), { path: target, dirty: false });
    assert.deepEqual(world.checkReferences(), []);
  } finally {
    world.close();
  }
});

test('missingReferences follows files reloaded since, and adds nothing to diagnostics()', () => {
  const world = juliet.newWorld({ capacity: 16 });
  try {
    const path = entityFile(PROP);
    const target = entityFile('0x77a31d7500000002');
    world.reloadFile(path, readFileSync(join(sampleWorld, path)));
    const missing = [{ path, line: 22, col: 1, message: 'reference to missing entity 0x77a31d7500000002', code: 'not_found' }];
    assert.deepEqual(world.missingReferences(), missing);
    world.reloadFile(target, readFileSync(join(sampleWorld, target)));
    assert.deepEqual(world.missingReferences(), []);
    world.reloadFile(target, null); // the target's file deleted
    assert.deepEqual(world.missingReferences(), missing);
    // The referring file rewritten without the reference.
    const unparented = readFileSync(join(sampleWorld, path), 'utf8').replace(/; parent\n[^\n]*/, '; parent\nnone');
    world.reloadFile(path, unparented);
    assert.deepEqual(world.missingReferences(), []);
    assert.deepEqual(world.diagnostics(), []);
  } finally {
    world.close();
  }
});
