// The world pack (web/src/lib/pack.js), the one form in which the local
// server and the page exchange files: round trip, and hostile input refused
// with a message instead of read past its end.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { decodePack, encodePack } from '../../web/src/lib/pack.js';

const text = (s) => new TextEncoder().encode(s);

test('a pack gives back its meta, paths, versions and bytes, and no file as null', () => {
  const files = [
    { path: 'WorldSettings.jasset', seq: 3, bytes: text('; version\n1\n') },
    { path: 'Entities/1.jasset', seq: 0, bytes: null },
    { path: 'Entities/2.jasset', seq: 7, bytes: new Uint8Array([0xff, 0, 0x80]) },
    { path: 'Entities/3.jasset', seq: 1, bytes: new Uint8Array(0) },
  ];
  const { meta, files: back } = decodePack(encodePack({ name: 'w', seq: 9 }, files).buffer);
  assert.deepEqual(meta, { name: 'w', seq: 9 });
  assert.deepEqual(
    back.map((f) => [f.path, f.seq, f.bytes && [...f.bytes]]),
    files.map((f) => [f.path, f.seq, f.bytes && [...f.bytes]]),
  );
});

test('hostile packs are refused with what is wrong', () => {
  const good = encodePack({}, [{ path: 'Entities/1.jasset', seq: 1, bytes: text('abc') }]);
  const withHead = (head, tail = new Uint8Array(0)) => {
    const json = text(JSON.stringify(head));
    const out = new Uint8Array(8 + json.length + tail.length);
    out.set([0x4a, 0x4c, 0x57, 0x50]);
    new DataView(out.buffer).setUint32(4, json.length, true);
    out.set(json, 8);
    out.set(tail, 8 + json.length);
    return out;
  };
  const cases = [
    [new Uint8Array(3), /not a world pack/],
    [text('JLWQ\0\0\0\0'), /not a world pack/],
    [good.slice(0, good.length - 1), /fewer there/],
    [new Uint8Array([...good, 0]), /bytes after the last file/],
    [withHead({ files: [['a', 1, 2 ** 40]] }), /fewer there/],
    [withHead({ files: [['a', -1, 0]] }), /bad version/],
    [withHead({ files: [['a', 1, -2]] }), /bad size/],
    [withHead({ files: [[1, 1, 0]] }), /no valid path/],
    [withHead({ files: [['a', 1]] }), /not \[path, seq, size\]/],
    [withHead({ files: {} }), /no file list/],
    [withHead([]), /no file list/],
  ];
  for (const [bytes, message] of cases) assert.throws(() => decodePack(bytes), message);
  const head = new Uint8Array(12);
  head.set([0x4a, 0x4c, 0x57, 0x50]);
  new DataView(head.buffer).setUint32(4, 1000, true);
  assert.throws(() => decodePack(head), /header longer than the pack/);
  head.set([0x4a, 0x4c, 0x57, 0x50, 4, 0, 0, 0, 0x7b, 0x7b, 0x7b, 0x7b]);
  assert.throws(() => decodePack(head), /not JSON/);
});
