// changes.js - change links: a world's edits (changed keys, added and
// deleted entities, with the print of each file they were made against),
// encoded, decoded and applied by C (changes.h), carried as the same
// deflated base64url text as a snapshot (snapshot.js).
import { SETTINGS_FILE } from './constants.js';
import { entityPath, joinId, splitId } from './ids.js';
import { linkProblem, linkStart, snapshotBytes, snapshotText } from './snapshot.js';

const encoder = new TextEncoder();
const decoder = new TextDecoder();
const ABSENT = 0xffffffff; // JLW_ABSENT: no such text or value
const MAGIC = [0x4a, 0x4c, 0x43]; // "JLC": every change link starts so (changes.h)
const WORLD_MAGIC = [0x4a, 0x4c, 0x57]; // "JLW": a snapshot's (snapshot.h)
// jl_change_kind and jl_change_outcome, in the words of the pending list.
const KINDS = ['new', 'deleted', 'modified'];
const OUTCOMES = ['applied', 'conflict', 'failed'];

const bytesOf = (text) => (text === null || text === undefined ? null : typeof text === 'string' ? encoder.encode(text) : text);

/**
 * The link text of edits `entries` ({ id, old, new }: an entity ID, or null
 * for the settings; its canonical text as its file held it, null for an
 * entity that is new; its text now, null for one deleted) of the world
 * named `name`.
 * @param {import('./wasm.js').Wasm} wasm
 * @param {string} name
 * @param {{id: string|null, old: string|Uint8Array|null, new: string|Uint8Array|null}[]} entries
 * @returns {Promise<string>}
 */
export async function changesText(wasm, name, entries) {
  const parts = entries.map(({ id, old, new: now }) => {
    const [lo, hi] = id === null ? [0, 0] : splitId(id);
    return { lo, hi, old: bytesOf(old), now: bytesOf(now) };
  });
  const size = parts.reduce((n, p) => n + 16 + (p.old?.length ?? 0) + (p.now?.length ?? 0), 0);
  const records = new Uint8Array(size);
  const view = new DataView(records.buffer);
  let at = 0;
  for (const p of parts) {
    view.setUint32(at, p.lo, true);
    view.setUint32(at + 4, p.hi, true);
    view.setUint32(at + 8, p.old ? p.old.length : ABSENT, true);
    view.setUint32(at + 12, p.now ? p.now.length : ABSENT, true);
    at += 16;
    for (const text of [p.old, p.now]) {
      if (!text) continue;
      records.set(text, at);
      at += text.length;
    }
  }
  const block = wasm.withText(records, (ptr, n) => wasm.c.jlw_changes_encode(name, ptr, n, wasm.out));
  return snapshotText(wasm, wasm.takeBlock(block));
}

/**
 * The bytes of a change link's text (or of a whole link), rejecting with a
 * JulietError 'corrupt' carrying `reason` ('foreign', 'truncated',
 * 'damaged', 'version') for text that is not one; call(bytes) then reads
 * them, its 'corrupt' errors explained the same way.
 */
async function withLinkBytes(wasm, text, call) {
  try {
    return call(await snapshotBytes(wasm, text));
  } catch (err) {
    const reason = await linkProblem(wasm, text, err, MAGIC);
    if (reason) err.reason = reason;
    throw err;
  }
}

/**
 * A change link decoded: { world, settings: { print, fields } | null,
 * changed: [{ id, print, fields: [{ field, text }] }], added: [{ id, text }],
 * deleted: [{ id, print }] }; a field's text is null for a key the edit
 * removed.
 * @param {import('./wasm.js').Wasm} wasm
 * @param {string} text
 */
export async function decodeChanges(wasm, text) {
  return withLinkBytes(wasm, text, (bytes) => {
    const block = wasm.withText(bytes, (ptr, n) => wasm.c.jlw_changes_decode(ptr, n, wasm.out));
    const reader = blockReader(wasm.takeBlock(block));
    const out = { world: reader.text(reader.u32()), settings: null, changed: [], added: [], deleted: [] };
    for (let i = 0, n = reader.u32(); i < n; i++) {
      const [kind, lo, hi, print, count] = [reader.u32(), reader.u32(), reader.u32(), reader.u32(), reader.u32()];
      const id = joinId(lo, hi);
      if (kind === 2) {
        out.added.push({ id, text: reader.text(count) });
      } else if (kind === 3) {
        out.deleted.push({ id, print });
      } else {
        const fields = [];
        for (let f = 0; f < count; f++) {
          const [keySize, valueSize] = [reader.u32(), reader.u32()];
          const field = reader.text(keySize);
          fields.push({ field, text: valueSize === ABSENT ? null : reader.text(valueSize) });
        }
        if (kind === 0) out.settings = { print, fields };
        else out.changed.push({ id, print, fields });
      }
    }
    return out;
  });
}

/**
 * Applies a change link to the world at worldPtr (jl_changes_apply; with
 * allOrNothing, nothing when anything conflicts). Returns { applied,
 * conflicts, failed }, each [{ kind: 'modified'|'new'|'deleted', id, path
 * }] (id null for the settings), failed ones with the engine's `message`.
 * @param {import('./wasm.js').Wasm} wasm
 * @param {number} worldPtr
 * @param {string} text
 * @param {boolean} allOrNothing
 */
export async function applyChanges(wasm, worldPtr, text, allOrNothing) {
  return withLinkBytes(wasm, text, (bytes) => {
    const block = wasm.withText(bytes, (ptr, n) => wasm.c.jlw_changes_apply(worldPtr, ptr, n, allOrNothing ? 1 : 0, wasm.out));
    const reader = blockReader(wasm.takeBlock(block));
    const out = { applied: [], conflicts: [], failed: [] };
    const lists = { applied: out.applied, conflict: out.conflicts, failed: out.failed };
    for (let i = 0, n = reader.u32(); i < n; i++) {
      const [kind, outcome, lo, hi, messageSize] = [reader.u32(), reader.u32(), reader.u32(), reader.u32(), reader.u32()];
      const message = reader.text(messageSize);
      const id = lo === 0 && hi === 0 ? null : joinId(lo, hi);
      const entry = { kind: KINDS[kind], id, path: id === null ? SETTINGS_FILE : entityPath(id) };
      if (OUTCOMES[outcome] === 'failed') entry.message = message;
      lists[OUTCOMES[outcome]].push(entry);
    }
    return out;
  });
}

/**
 * What a link (or its text) holds, by its first inflated bytes: 'world' (a
 * snapshot), 'changes' (a change link) or null (neither, or too damaged to
 * tell: opening it says why).
 * @param {import('./wasm.js').Wasm} wasm
 * @param {string} text
 * @returns {Promise<'world'|'changes'|null>}
 */
export async function linkKind(wasm, text) {
  const start = await linkStart(wasm, text, 3);
  const is = (magic) => start?.head.length === 3 && magic.every((b, i) => start.head[i] === b);
  return is(WORLD_MAGIC) ? 'world' : is(MAGIC) ? 'changes' : null;
}

function blockReader(bytes) {
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  let at = 0;
  return {
    u32() {
      const v = view.getUint32(at, true);
      at += 4;
      return v;
    },
    text(n) {
      const s = decoder.decode(bytes.subarray(at, at + n));
      at += n;
      return s;
    },
  };
}
