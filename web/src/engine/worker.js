// The engine worker: owns the wasm module (through web/src/core/juliet.js)
// and the one open world, so that opening or saving thousands of files never
// blocks the page. It answers requests { id, op, args } from client.js with
// { id, ok, result } or { id, ok: false, error }, and reports long work as
// { progress: { label, done, total } }.
import { idOfPath, loadJuliet } from '../core/juliet.js';
import { SETTINGS, SETTINGS_PATH } from '../lib/fields.js';
import { errorInfo } from './errors.js';
import { fileTexts, textOf } from './fileTexts.js';

let juliet = null;
let world = null;
// The file text of each entity of `world` (fileTexts.js). The world settings
// go through the same text machinery as an entity, under the name SETTINGS
// in place of an ID (edits, undo, kept work). Texts in the answers are the
// file's bytes (Uint8Array), never decoded.
let fileText = null;
let worldDir = null;
let openCount = 0;

function progress(label, done, total) {
  self.postMessage({ progress: { label, done, total } });
}

// The world's entities as columns sorted by ID (fixed-length hex strings,
// so text order is numeric order), ready to transfer. The IDs in `last`
// come last, in that order (entities added in the session being restored).
function table(last = []) {
  const r = world.rows();
  const n = r.count;
  const ids = r.ids;
  const rank = new Map(last.map((id, i) => [id, i + 1]));
  const order = new Uint32Array(n);
  for (let i = 0; i < n; i++) order[i] = i;
  order.sort((a, b) => {
    const ra = rank.get(ids[a]) ?? 0;
    const rb = rank.get(ids[b]) ?? 0;
    if (ra !== rb) return ra - rb;
    return ids[a] < ids[b] ? -1 : ids[a] > ids[b] ? 1 : 0;
  });
  const sortedIds = new Array(n);
  const cls = new Uint8Array(n);
  const pos = new Float32Array(n * 3);
  const dirty = new Uint8Array(n);
  for (let i = 0; i < n; i++) {
    const k = order[i];
    sortedIds[i] = ids[k];
    cls[i] = r.classIndex[k];
    pos[i * 3] = r.positions[k * 3];
    pos[i * 3 + 1] = r.positions[k * 3 + 1];
    pos[i * 3 + 2] = r.positions[k * 3 + 2];
    dirty[i] = r.dirty[k];
  }
  return { ids: sortedIds, classNames: r.classNames, cls, pos, dirty };
}

function schemas() {
  const out = {};
  for (const name of juliet.classes()) out[name] = world.schema(name);
  return out;
}

// IDs of the entities still dirty (after a save).
function dirtyIds() {
  const r = world.rows();
  const out = [];
  for (let i = 0; i < r.count; i++) if (r.dirty[i]) out.push(r.ids[i]);
  return out;
}

// Paths in diagnostics, and in their messages, relative to the world folder.
function diagnostics() {
  return world.diagnostics().map((d) => ({
    ...d,
    path: d.path ? relativePath(d.path) : d.path,
    message: d.message && worldDir ? d.message.split(`${worldDir}/`).join('') : d.message,
  }));
}

async function closeWorld() {
  juliet ??= await loadJuliet();
  if (world) world.close();
  world = null;
  fileText = null;
  if (worldDir) juliet.removeFiles(worldDir);
  worldDir = null;
}

// The world just opened (`next`), with no file text remembered yet.
function use(next) {
  world = next;
  fileText = fileTexts(next);
}

function opened(timings, last) {
  const t = performance.now();
  const columns = table(last);
  timings.tableMs = performance.now() - t;
  return {
    result: {
      table: columns,
      schemas: schemas(),
      settings: world.settings(),
      settingsSchema: world.settingsSchema(),
      diagnostics: diagnostics(),
      timings,
    },
    transfer: [columns.cls.buffer, columns.pos.buffer, columns.dirty.buffer],
  };
}

const ops = {
  // Opening a world: begin, then addFiles for each chunk of its files
  // (paths relative to the world folder, contents as ArrayBuffers), then
  // load.
  async begin() {
    await closeWorld();
    worldDir = `/worlds/${++openCount}`;
    return { result: true };
  },
  async addFiles({ paths, buffers }) {
    juliet.writeFiles(
      worldDir,
      paths.map((path, i) => ({ path, bytes: new Uint8Array(buffers[i]) })),
    );
    return { result: true };
  },
  async load() {
    const t = performance.now();
    use(juliet.openWorld(worldDir));
    return opened({ loadMs: performance.now() - t });
  },
  // A shared level (a link, its part after '#', or snapshot text): a new
  // world with no folder until it is saved.
  // A link that cannot be read leaves the open world as it was.
  async openSnapshot({ text }) {
    juliet ??= await loadJuliet();
    const t = performance.now();
    const next = await juliet.openSnapshot(text);
    await closeWorld();
    use(next);
    return opened({ loadMs: performance.now() - t });
  },
  async snapshot() {
    return { result: await world.snapshot() };
  },
  // Text typed for a value of field type `type`, checked by the engine's
  // own parser: { value, text } or { error, col } (Juliet#checkValue).
  // Needs no world: nothing changes.
  async check({ type, text, allowInf }) {
    juliet ??= await loadJuliet();
    return { result: juliet.checkValue(type, text, { allowInf }) };
  },
  async get({ id }) {
    return { result: world.get(id) };
  },
  // Edits return the entity's text before and after, for undo.
  async set({ id, field, value }) {
    const before = fileText.textBefore(id);
    world.set(id, field, value);
    // Back to what the file holds (typed again, or dragged back): clean.
    fileText.cleanIfAsFile(id);
    return { result: { entity: world.get(id), before, after: world.entityBytes(id) } };
  },
  async setSetting({ field, value }) {
    const before = fileText.textBefore(SETTINGS);
    world.setSetting(field, value);
    fileText.cleanIfAsFile(SETTINGS);
    return { result: { settings: world.settings(), before, after: world.settingsBytes() } };
  },
  async create({ className, position }) {
    const id = world.create(className, position);
    return { result: { entity: world.get(id), before: null, after: world.entityBytes(id) } };
  },
  async remove({ id }) {
    const before = fileText.textBefore(id);
    world.remove(id);
    return { result: { before, after: null } };
  },
  // Undo and redo: the entity becomes `text` again (null: removed).
  async restore({ id, text }) {
    fileText.textBefore(id);
    fileText.putText(id, text);
    if (id === SETTINGS) return { result: { settings: world.settings() } };
    return { result: { entity: world.has(id) ? world.get(id) : null } };
  },
  // The current text of each entity (null if it is gone).
  async texts({ ids }) {
    return { result: ids.map((id) => (id === SETTINGS || world.has(id) ? textOf(world, id) : null)) };
  },
  // Re-applies unsaved work kept from an earlier session: [id, text or
  // null, dirty] per changed entity. Returns the new table (with the IDs of
  // `added` last) and the changes that could not be applied.
  async applyChanges({ changes, added }) {
    const failed = [];
    for (const [id, text, dirty] of changes) {
      try {
        fileText.textBefore(id);
        fileText.putText(id, text, dirty);
      } catch (err) {
        failed.push({ id, message: err.message });
      }
    }
    const out = opened({}, added);
    out.result.failed = failed;
    return out;
  },
  // Saves into the in-memory folder and returns the bytes of every written
  // file, for the page to copy to the user's folder.
  // A failed save throws with what it did write and delete (err.written,
  // err.deleted), which then also need copying.
  async save() {
    let report;
    let failure = null;
    try {
      if (world.path === null) {
        worldDir = `/worlds/${++openCount}`;
        report = world.save(worldDir);
      } else {
        report = world.save();
      }
    } catch (err) {
      if (!err.written) throw err;
      report = { written: err.written, deleted: err.deleted };
      failure = { ...errorInfo(err), path: err.path && relativePath(err.path) };
    }
    const idsOf = (paths) =>
      paths.map(relativePath).map((rel) => (rel === SETTINGS_PATH ? SETTINGS : idOfPath(rel))).filter(Boolean);
    fileText.saved(idsOf(report.written), idsOf(report.deleted));
    return {
      result: {
        written: report.written.map(relativePath),
        deleted: report.deleted.map(relativePath),
        files: readSaved(report.written),
        stillDirty: dirtyIds(),
        settings: world.settings(),
        failure,
      },
    };
  },
  // Re-reads files written by an earlier save (when copying them failed).
  async read({ paths }) {
    return { result: readSaved(paths) };
  },
  async close() {
    if (world) world.close();
    world = null;
    fileText = null;
    return { result: true };
  },
};

function relativePath(path) {
  return worldDir && path.startsWith(worldDir + '/') ? path.slice(worldDir.length + 1) : path;
}

function readSaved(paths) {
  return paths.map((path) => {
    const rel = relativePath(path);
    return { path: rel, bytes: juliet.readFile(`${worldDir}/${rel}`) };
  });
}

self.onmessage = async (event) => {
  const { id, op, args } = event.data;
  try {
    if (!['begin', 'addFiles', 'load', 'openSnapshot', 'check'].includes(op) && !world) throw new Error('No world is open');
    const { result, transfer = [] } = await ops[op](args ?? {});
    self.postMessage({ id, ok: true, result }, transfer);
  } catch (err) {
    self.postMessage({ id, ok: false, error: errorInfo(err) });
  }
};
