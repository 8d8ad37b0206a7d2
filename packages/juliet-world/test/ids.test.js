// The library's own modules that it does not export, tested directly: the
// two 32-bit halves in which an entity ID crosses the wasm boundary (ids.js).
// Consumers' suites (tests/js) reach the library only through its package.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { joinId, splitId } from '../src/ids.js';

test('the halves of an ID join into its canonical text, every byte value in every place', () => {
  for (let b = 0; b < 256; b++) {
    const lo = (b * 0x01010101 + 0x00010203) >>> 0;
    const hi = ((255 - b) * 0x01010101) >>> 0;
    const want = '0x' + ((BigInt(hi) << 32n) | BigInt(lo)).toString(16).padStart(16, '0');
    assert.equal(joinId(lo, hi), want);
    assert.deepEqual(splitId(want), [lo, hi]);
  }
});
