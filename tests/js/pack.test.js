// The world pack (juliet-world's encodePack, decodePack, ...), the one form in which the local
// server and the page exchange files: round trip, the index read alone, and
// hostile input refused with a message instead of read past its end.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { decodePack, encodePack, encodePackColumns, encodePackParts, packReader, packRuns, pathIndex, readPackIndex } from 'juliet-world';

const text = (s) => new TextEncoder().encode(s);

const files = [
  { path: 'WorldSettings.jasset', seq: 3, bytes: text('; version\n1\n') },
  { path: 'Entities/1.jasset', seq: 0, bytes: null },
  { path: 'Entities/2.jasset', seq: 7, bytes: new Uint8Array([0xff, 0, 0x80]) },
  { path: 'Entities/3.jasset', seq: 4294967295, bytes: new Uint8Array(0) },
];

test('a pack gives back its meta, paths, versions and bytes, and no file as null', () => {
  const { meta, files: back } = decodePack(encodePack({ name: 'w', seq: 9 }, files).buffer);
  assert.deepEqual(meta, { name: 'w', seq: 9 });
  assert.deepEqual(
    back.map((f) => [f.path, f.seq, f.bytes && [...f.bytes]]),
    files.map((f) => [f.path, f.seq, f.bytes && [...f.bytes]]),
  );
  const empty = decodePack(encodePack({ results: [] }, []));
  assert.deepEqual(empty, { meta: { results: [] }, files: [] });
});

test('a pack in parts is the same bytes, files lying one after another in one buffer sent as one part', () => {
  const one = new Uint8Array(new SharedArrayBuffer(12));
  one.set(text('abcdefghijkl'));
  const inOne = [
    { path: 'Entities/1.jasset', seq: 1, bytes: one.subarray(0, 3) },
    { path: 'Entities/2.jasset', seq: 1, bytes: null },
    { path: 'Entities/3.jasset', seq: 1, bytes: one.subarray(3, 7) },
    { path: 'Entities/4.jasset', seq: 1, bytes: text('elsewhere') },
    { path: 'Entities/5.jasset', seq: 1, bytes: one.subarray(8, 12) }, // not next to 3's
  ];
  const parts = encodePackParts({ seq: 1 }, inOne);
  assert.equal(parts.length, 4, 'the index, abcdefg, elsewhere, ijkl');
  assert.equal(Buffer.concat(parts.slice(1)).toString(), 'abcdefgelsewhereijkl');
  assert.deepEqual(Buffer.concat(parts), Buffer.from(encodePack({ seq: 1 }, inOne)));
  assert.equal(Buffer.from(parts[1].buffer).toString(), 'abcdefghijkl', 'a view, not a copy');
});

test('the index of a pack is read without its files', () => {
  const index = readPackIndex(encodePack({ seq: 1 }, files));
  assert.deepEqual(
    index.paths,
    files.map((f) => f.path),
  );
  assert.deepEqual(
    [...index.seqs],
    files.map((f) => f.seq),
  );
  assert.deepEqual([...index.sizes], [12, -1, 3, 0]);
  // The paths as the pack holds them, in which pathIndex finds each.
  assert.equal(Buffer.from(index.pathBytes).toString(), files.map((f) => f.path).join('\n'));
  const indexOf = pathIndex(index.pathBytes);
  files.forEach((f, i) => assert.equal(indexOf(f.path), i, f.path));
  // Packed again from those columns and the files' bytes: the same pack.
  const runs = packRuns();
  for (const f of files) if (f.bytes) runs.add(f.bytes.buffer, f.bytes.byteOffset, f.bytes.length);
  const parts = runs.parts();
  const again = encodePackColumns({ seq: 1 }, index, parts);
  assert.deepEqual(Buffer.concat(again), Buffer.from(encodePack({ seq: 1 }, files)));
  assert.equal(again[1], index.pathBytes, "the paths' bytes given are sent, not copied");
  // From the paths as strings: the same pack.
  const fromPaths = encodePackColumns({ seq: 1 }, { ...index, pathBytes: undefined }, parts);
  assert.deepEqual(Buffer.concat(fromPaths), Buffer.from(encodePack({ seq: 1 }, files)));
});

// A pack whose index says what the test wants (sizes, paths), over `data`.
function forged({ meta = '{}', seqs, sizes, paths, data = new Uint8Array(0) }) {
  const head = text(meta);
  const pathBytes = text(paths.join('\n'));
  const indexAt = (8 + head.length + 3) & ~3;
  const out = new Uint8Array(indexAt + 8 + seqs.length * 8 + pathBytes.length + data.length);
  const view = new DataView(out.buffer);
  out.set([0x4a, 0x4c, 0x57, 0x50]);
  view.setUint32(4, head.length, true);
  out.set(head, 8);
  view.setUint32(indexAt, seqs.length, true);
  view.setUint32(indexAt + 4, pathBytes.length, true);
  seqs.forEach((s, i) => view.setUint32(indexAt + 8 + i * 4, s, true));
  sizes.forEach((s, i) => view.setInt32(indexAt + 8 + seqs.length * 4 + i * 4, s, true));
  out.set(pathBytes, indexAt + 8 + seqs.length * 8);
  out.set(data, out.length - data.length);
  return out;
}

test('hostile packs are refused with what is wrong', () => {
  const good = encodePack({}, [{ path: 'Entities/1.jasset', seq: 1, bytes: text('abc') }]);
  const cases = [
    [new Uint8Array(3), /not a world pack/],
    [text('JLWQ\0\0\0\0'), /not a world pack/],
    [good.slice(0, good.length - 1), /fewer there/],
    [new Uint8Array([...good, 0]), /bytes after the last file/],
    [forged({ seqs: [1], sizes: [2 ** 30], paths: ['a'] }), /fewer there/],
    [forged({ seqs: [1, 1], sizes: [2 ** 30, 2 ** 30], paths: ['a', 'b'] }), /fewer there/],
    [forged({ seqs: [1], sizes: [-2], paths: ['a'] }), /bad size/],
    [forged({ seqs: [1], sizes: [0], paths: [''] }), /no valid path/],
    [forged({ seqs: [1, 1], sizes: [0, 0], paths: ['a'] }), /2 files announced, 1 paths there/],
    [forged({ meta: '[]', seqs: [], sizes: [], paths: [] }), /not an object/],
    [forged({ meta: '{{', seqs: [], sizes: [], paths: [] }), /not JSON/],
  ];
  for (const [bytes, message] of cases) assert.throws(() => decodePack(bytes), message);
  const huge = forged({ seqs: [], sizes: [], paths: [] });
  new DataView(huge.buffer).setUint32(12, 2 ** 28, true);
  assert.throws(() => decodePack(huge), /index longer than the pack/);
  const long = new Uint8Array(12);
  long.set([0x4a, 0x4c, 0x57, 0x50]);
  new DataView(long.buffer).setUint32(4, 1000, true);
  assert.throws(() => decodePack(long), /header longer than the pack/);
});

test('a pack read as it arrives gives each file once its bytes are in, and the same files', () => {
  const pack = encodePack({ seq: 2 }, files);
  for (const chunkSize of [1, 3, 7, 64, pack.length]) {
    const reader = packReader();
    const got = [];
    for (let at = 0; at < pack.length; at += chunkSize) {
      for (const f of reader.push(pack.subarray(at, at + chunkSize))) got.push([f.path, f.seq, f.bytes && [...f.bytes]]);
    }
    reader.end();
    assert.deepEqual(reader.index.meta, { seq: 2 });
    assert.deepEqual(
      got,
      files.map((f) => [f.path, f.seq, f.bytes && [...f.bytes]]),
      `chunks of ${chunkSize}`,
    );
  }
  // After the index, files whole in a chunk are handed out in the chunk's
  // own bytes; a file split between two chunks comes in a copy of its own.
  const { dataAt } = readPackIndex(pack);
  const reader = packReader();
  assert.deepEqual(reader.pushRuns(pack.subarray(0, dataAt)), []);
  const middle = dataAt + files[0].bytes.length + 1; // in the third file
  const first = pack.subarray(dataAt, middle);
  const [run] = reader.pushRuns(first);
  assert.deepEqual([run.from, run.to, run.at], [0, 2, 0]);
  assert.equal(run.bytes, first);
  const rest = pack.subarray(middle);
  const [split, others] = reader.pushRuns(rest);
  assert.deepEqual([split.from, split.to, split.at, [...split.bytes]], [2, 3, 0, [...files[2].bytes]]);
  assert.deepEqual([others.from, others.to, others.at], [3, 4, 2]);
  assert.equal(others.bytes, rest);
  reader.end();
  const truncated = packReader();
  truncated.push(pack.subarray(0, pack.length - 2));
  assert.throws(() => truncated.end(), /fewer there/);
  const early = packReader();
  early.push(pack.subarray(0, 5));
  assert.throws(() => early.end(), /not a world pack/);
  const trailing = packReader();
  trailing.push(pack);
  assert.throws(() => trailing.push(new Uint8Array(1)), /bytes after the last file/);
});
