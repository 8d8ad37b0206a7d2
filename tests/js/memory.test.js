// The wasm heap stays flat over many worlds: everything a world takes is
// given back by close(), through open, edit, snapshot and close cycles.
import assert from 'node:assert/strict';
import { test } from 'node:test';

import { loadJuliet } from 'juliet-sample';
import { copyWorld } from './helpers.js';

const juliet = await loadJuliet();

test('1,000 open/edit/close cycles do not grow the wasm heap', () => {
  const dir = copyWorld();
  const cycle = (i) => {
    const world = juliet.openWorld(dir);
    try {
      const [first, second] = world.entities();
      world.set(first.id, 'position', [i, -i, i / 2]);
      world.get(second.id);
      const made = world.create('Light', [i, 0, 0]);
      world.set(made, 'intensity', i + 0.5);
      world.remove(made);
      world.diagnostics();
    } finally {
      world.close();
    }
  };
  // Warm up: the first worlds size the heap.
  for (let i = 0; i < 10; i++) cycle(i);
  const heap = juliet.heapBytes();
  const used = juliet.heapUsed();
  for (let i = 10; i < 1000; i++) cycle(i);
  assert.equal(juliet.heapBytes(), heap, 'wasm memory after 1,000 cycles');
  assert.equal(juliet.heapUsed(), used, 'bytes allocated after 1,000 cycles');
});

test('snapshot cycles and rejected snapshots do not grow the wasm heap', async () => {
  const dir = copyWorld();
  const source = juliet.openWorld(dir);
  const text = await source.snapshot();
  source.close();
  const cycle = async () => {
    const world = await juliet.openSnapshot(text);
    world.close();
    await assert.rejects(juliet.openSnapshot(text.slice(0, -8)), { code: 'corrupt' });
  };
  for (let i = 0; i < 5; i++) await cycle();
  const heap = juliet.heapBytes();
  const used = juliet.heapUsed();
  for (let i = 0; i < 100; i++) await cycle();
  assert.equal(juliet.heapBytes(), heap);
  assert.equal(juliet.heapUsed(), used);
});
