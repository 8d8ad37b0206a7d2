// Level snapshots in wasm: exact round trips, the URL size target, and
// hostile input rejected with an error (never a crash of the module).
import assert from 'node:assert/strict';
import { join } from 'node:path';
import { test } from 'node:test';
import { crc32 } from 'node:zlib';

import { DEFAULT_CAPACITY, JulietError } from 'juliet-world';
import { loadJuliet } from 'juliet-sample';
import { b64, deflate, inflate, readTree, rng, sampleWorld, snapshotOf, tempDir, unb64 } from './helpers.js';

const juliet = await loadJuliet();

const sampleSnapshot = () => snapshotOf(juliet, sampleWorld);

/** Expects openSnapshot(text) to reject with a JulietError of code. */
async function rejects(text, code, pattern) {
  await assert.rejects(juliet.openSnapshot(text), (err) => {
    assert.ok(err instanceof JulietError, `${err.name}: ${err.message}`);
    assert.equal(err.code, code, err.message);
    if (pattern) assert.match(err.message, pattern);
    return true;
  });
}

test('a snapshot of the sample world saves byte-identical files', async () => {
  const text = await sampleSnapshot();
  assert.match(text, /^[A-Za-z0-9_-]+$/);
  const world = await juliet.openSnapshot(text);
  const dir = join(tempDir(), 'from_snapshot');
  try {
    assert.equal(world.path, null);
    assert.ok(world.entities().every((e) => e.dirty));
    world.save(dir);
  } finally {
    world.close();
  }
  const original = readTree(sampleWorld);
  const copy = readTree(dir);
  assert.deepEqual([...copy.keys()].sort(), [...original.keys()].sort());
  for (const [rel, bytes] of original) assert.ok(copy.get(rel).equals(bytes), `${rel} identical`);
});

test('a whole link opens, with its base and surrounding whitespace', async () => {
  const text = await sampleSnapshot();
  const world = await juliet.openSnapshot(`  https://example.org/inspector/#${text}\n`);
  try {
    const original = juliet.openWorld(sampleWorld);
    try {
      assert.equal(world.count, original.count);
      for (const e of original.entities()) assert.deepEqual(world.get(e.id).fields, original.get(e.id).fields);
    } finally {
      original.close();
    }
  } finally {
    world.close();
  }
});

test('edits survive a snapshot: positions, fields, created and removed entities', async () => {
  const world = juliet.openWorld(sampleWorld);
  let text, created, removed;
  const expected = new Map();
  try {
    const [a, b] = world.entities();
    removed = a.id;
    world.remove(removed);
    world.set(b.id, 'position', [0.01, -99.99, 12345.678]);
    created = world.create('Prop', [1, 2, 3]);
    world.set(created, 'parent', b.id);
    world.set(created, 'velocity', [-0, 1e-30, 3.4028234663852886e38]);
    for (const e of world.entities()) expected.set(e.id, world.get(e.id));
    text = await world.snapshot();
  } finally {
    world.close();
  }
  const copy = await juliet.openSnapshot(text);
  try {
    assert.equal(copy.has(removed), false);
    assert.equal(copy.count, expected.size);
    for (const [id, entity] of expected) assert.deepEqual(copy.get(id), { ...entity, dirty: true });
  } finally {
    copy.close();
  }
});

test('1,000 entities with 2-decimal positions take at most 11 URL characters each', async (t) => {
  const world = juliet.newWorld();
  try {
    const random = rng(12345);
    const coord = () => Math.round((random() * 200 - 100) * 100) / 100;
    const classes = ['Inert', 'Light', 'Prop'];
    for (let i = 0; i < 1000; i++) {
      const id = world.create(classes[i % 3], [coord(), coord(), coord()]);
      if (classes[i % 3] !== 'Light') world.set(id, 'mesh_instance', Math.floor(random() * 64));
    }
    const text = await world.snapshot();
    const perEntity = text.length / 1000;
    t.diagnostic(`snapshot of 1,000 entities: ${text.length} characters, ${perEntity.toFixed(2)} per entity`);
    assert.ok(perEntity <= 11, `${perEntity} characters per entity`);
    // And it decodes to the same world.
    const copy = await juliet.openSnapshot(text);
    try {
      assert.deepEqual(copy.rows().positions, world.rows().positions);
    } finally {
      copy.close();
    }
  } finally {
    world.close();
  }
});

test('a snapshot of more entities than a world takes by default opens in a world that fits it, with room for as many more', async () => {
  const count = DEFAULT_CAPACITY + 5;
  const world = juliet.newWorld({ inMemory: true, capacity: count });
  let text;
  try {
    for (let i = 0; i < count; i++) world.create('Inert', [i, 0, 0]);
    text = await world.snapshot();
  } finally {
    world.close();
  }
  const copy = await juliet.openSnapshot(text);
  try {
    assert.equal(copy.count, count);
    for (let i = 0; i < DEFAULT_CAPACITY; i++) copy.create('Inert', [0, 1, 0]);
    assert.throws(
      () => copy.create('Inert', [0, 1, 0]),
      (err) => err.code === 'capacity',
    );
  } finally {
    copy.close();
  }
  // A capacity given is kept.
  await assert.rejects(
    juliet.openSnapshot(text, { capacity: count - 1 }),
    (err) => err.code === 'capacity' && /snapshot has 100005 entities/.test(err.message),
  );
});

test('arguments that are not strings are a TypeError', async () => {
  for (const value of [undefined, null, 42, {}, new Uint8Array(4)]) {
    await assert.rejects(juliet.openSnapshot(value), TypeError);
  }
});

test('broken text is rejected: empty, foreign characters, impossible length, padding', async () => {
  const text = await sampleSnapshot();
  await rejects('', 'corrupt');
  await rejects('https://example.org/#', 'corrupt');
  const bad = text.slice(0, 10) + '*' + text.slice(11);
  await assert.rejects(juliet.openSnapshot(bad), (err) => err.code === 'corrupt' && err.col === 11);
  await rejects(text.slice(0, 4 * Math.floor(text.length / 4)) + 'A', 'corrupt');
  await rejects(text + '=', 'corrupt');
});

test('broken deflate data is rejected: truncated, trailing bytes, not deflate', async () => {
  const packed = unb64(await sampleSnapshot());
  await rejects(b64(packed.subarray(0, packed.length - 3)), 'corrupt', /deflate/);
  await rejects(b64(packed.subarray(0, 1)), 'corrupt');
  const junk = new Uint8Array(packed.length + 2);
  junk.set(packed);
  junk.set([0x41, 0x42], packed.length);
  await rejects(b64(junk), 'corrupt', /follow the end/);
  await rejects(b64(new Uint8Array([0xff, 0xfe, 0xfd, 0xfc])), 'corrupt');
});

test('broken payloads are rejected: magic, version, checksum, trailing bytes, truncation', async () => {
  const raw = await inflate(unb64(await sampleSnapshot()));
  const variant = async (edit) => {
    const bytes = raw.slice();
    return b64(await deflate(edit(bytes) ?? bytes));
  };
  await rejects(
    await variant((b) => {
      b[0] ^= 0xff;
    }),
    'corrupt',
  );
  await rejects(
    await variant((b) => {
      b[3] = 99;
    }),
    'corrupt',
    /version/,
  );
  await rejects(
    await variant((b) => {
      b[b.length >> 1] ^= 0x10;
    }),
    'corrupt',
  );
  await rejects(
    await variant((b) => {
      b[b.length - 1] ^= 0x01;
    }),
    'corrupt',
  );
  await rejects(
    await variant((b) => {
      const c = new Uint8Array(b.length + 1);
      c.set(b);
      return c;
    }),
    'corrupt',
  );
  await rejects(await variant((b) => b.subarray(0, b.length - 5)), 'corrupt');
  await rejects(await variant(() => new Uint8Array(0)), 'corrupt');
});

/** Expects openSnapshot(text) to reject as corrupt with err.reason `reason`. */
async function rejectsFor(text, reason, what) {
  await assert.rejects(juliet.openSnapshot(text), (err) => {
    assert.equal(err.code, 'corrupt', `${what}: ${err.message}`);
    assert.equal(err.reason, reason, `${what}: ${err.message}`);
    return true;
  });
}

test('a link that cannot be read says why: cut off, not a Juliet link, damaged, another version', async () => {
  const text = await sampleSnapshot();
  // Cut anywhere past its first bytes: at a whole byte, inside a byte, one character short.
  for (const length of [200, 301, 302, 303, text.length - 1, text.length - 2, text.length - 3]) {
    await rejectsFor(`https://example.org/#${text.slice(0, length)}`, 'truncated', `cut at ${length}`);
  }
  await rejectsFor('https://example.org/#section-2', 'foreign', 'a page anchor');
  await rejectsFor('https://example.org/#/top?x=1', 'foreign', 'a route');
  await rejectsFor(b64(await deflate(new TextEncoder().encode('some other deflated text'))), 'foreign', 'other data');
  await rejectsFor('', 'foreign', 'nothing');
  // Characters changed past the start: the data or its checksum is wrong.
  let damaged = 0;
  for (let at = 100; at < text.length - 4; at += 37) {
    const changed = text.slice(0, at) + (text[at] === 'A' ? 'B' : 'A') + text.slice(at + 1);
    const reason = await juliet.openSnapshot(changed).then(
      () => 'opened',
      (err) => err.reason,
    );
    assert.ok(['damaged', 'opened'].includes(reason), `changed at ${at}: ${reason}`);
    if (reason === 'damaged') damaged++;
  }
  assert.ok(damaged > 10, `${damaged} damaged`);
  const raw = await inflate(unb64(text));
  raw[3] = 99;
  await rejectsFor(b64(await deflate(raw)), 'version', 'format version 99');
  // A failure that is not about the text has no reason.
  await assert.rejects(juliet.openSnapshot(text, { capacity: 1 }), (err) => err.reason === undefined);
});

test('a damaged link is reported as damaged, not as the unknown class its bytes now name', async () => {
  const raw = await inflate(unb64(await sampleSnapshot()));
  raw[6] ^= 0xff; // first byte of the first class's name CRC; the checksum stays as it was
  await rejects(b64(await deflate(raw)), 'corrupt', /damaged \(checksum mismatch\)/);
});

test('a class this build lacks, under a right checksum, is unknown_class', async () => {
  const raw = await inflate(unb64(await sampleSnapshot()));
  raw[6] ^= 0xff;
  const body = raw.subarray(0, raw.length - 4);
  new DataView(raw.buffer, raw.byteOffset).setUint32(raw.length - 4, crc32(body), true);
  await rejects(b64(await deflate(raw)), 'unknown_class', /unknown to this build/);
});

test('an expansion bomb stops at the size cap', async () => {
  // 80 MiB of zeros deflate to about 80 KiB of text.
  const zeros = new Uint8Array(80 << 20);
  const text = b64(await deflate(zeros));
  assert.ok(text.length < 200000);
  const heapBefore = juliet.heapBytes();
  await rejects(text, 'corrupt', /expands past/);
  assert.ok(juliet.heapBytes() - heapBefore < 8 << 20, 'the bomb never reached the wasm heap');
});

test('text longer than any snapshot is refused before decoding', async () => {
  await rejects('A'.repeat(96 << 20), 'corrupt', /longer than/);
});

test('random damage never crashes the module', async () => {
  const packed = unb64(await sampleSnapshot());
  const raw = await inflate(packed);
  const original = await juliet.openSnapshot(b64(packed));
  const texts = new Map(original.entities().map((e) => [e.id, original.entityText(e.id)]));
  original.close();
  const random = rng(7).int;
  let rejected = 0;
  for (let i = 0; i < 150; i++) {
    let damaged;
    if (i % 3 === 0) {
      // A bit of the deflate stream.
      damaged = packed.slice();
      damaged[random(damaged.length)] ^= 1 << random(8);
    } else {
      // Bytes of the payload, deflated again.
      const bytes = raw.slice();
      for (let f = 1 + random(4); f > 0; f--) bytes[random(bytes.length)] ^= 1 + random(255);
      damaged = await deflate(bytes);
    }
    try {
      const world = await juliet.openSnapshot(b64(damaged));
      // Only damage deflate itself absorbs (say a padding bit of the last
      // byte) may open, and then it is the original world exactly.
      try {
        assert.ok(i % 3 === 0, `${i}: a damaged payload passed its checksum`);
        assert.equal(world.count, texts.size);
        for (const [id, text] of texts) assert.equal(world.entityText(id), text);
      } finally {
        world.close();
      }
    } catch (err) {
      assert.ok(err instanceof JulietError, `${i}: ${err.stack}`);
      rejected++;
    }
  }
  assert.ok(rejected >= 140, `${rejected} of 150 rejected`);
  const world = await juliet.openSnapshot(b64(packed));
  try {
    assert.ok(world.count > 0, 'the module still works');
  } finally {
    world.close();
  }
});
