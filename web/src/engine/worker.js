// The engine worker: owns the wasm module (through the juliet-world
// package) and the one open world, so that opening or saving thousands of files never
// blocks the page. It answers requests { id, op, args } from client.js with
// { id, ok, result } or { id, ok: false, error }, and reports long work as
// { progress: { label, done, total } }.
import { idOfPath, isClassFilePath, loadJuliet } from 'juliet-world';
import { SETTINGS, SETTINGS_PATH, sameBytes } from '../lib/fields.js';
import { packReader } from '../lib/pack.js';
import { errorInfo } from './errors.js';

let juliet = null;
// The open world. Whether an entity (or the settings) is clean, that is
// holds what its file holds, is the engine's to decide: this worker keeps
// no file texts. The world settings go through the same requests as an
// entity, under the name SETTINGS in place of an ID (edits, undo, kept
// work). Texts in the answers are the file's bytes (Uint8Array), never
// decoded.
let world = null;
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
  const byId = (a, b) => (ids[a] < ids[b] ? -1 : ids[a] > ids[b] ? 1 : 0);
  // (Most opens have no IDs to put last: then no lookups per comparison.)
  order.sort(
    rank.size === 0
      ? byId
      : (a, b) => (rank.get(ids[a]) ?? 0) - (rank.get(ids[b]) ?? 0) || byId(a, b),
  );
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

// The fields of each of the world's own classes (`names`: the world's, by
// class index), not of the classes the module was built with.
function schemas(names) {
  const out = {};
  for (const name of names) out[name] = world.schema(name);
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
  if (worldDir) juliet.removeFiles(worldDir);
  worldDir = null;
}

// The current text of entity `id` (or of the settings), as its file holds
// it once saved.
function textOf(id) {
  return id === SETTINGS ? world.settingsBytes() : world.entityBytes(id);
}

// Entity `id` (or the settings) becomes `text` (null: removed): an undo
// step, clean when it is its file's text (the engine's rule).
function restoreText(id, text) {
  if (id === SETTINGS) {
    if (text !== null) world.restoreSettingsText(text);
  } else {
    world.restoreEntityText(id, text);
  }
}

// A failed load (a JulietError) as a diagnostic of the file at `path`.
function diagnosticOf(err, path) {
  return {
    path: err.path ?? path,
    line: err.line ?? 0,
    col: err.col ?? 0,
    message: err.detail ?? err.message,
    code: err.code ?? 'invalid_argument',
  };
}

// The file at `path` (an entity's, or the settings') holds `bytes` (null:
// it is gone): the engine makes its entity (or the settings) that text,
// clean, checking that the file's name is the entity's ID. Returns { id,
// failure }: the entity's ID (null for the settings or a path that names
// none) and null, or the diagnostic of a text that did not load (then no
// entity holds it, or the settings are failed).
function loadFile(path, bytes) {
  try {
    // A class file joins the world before the entities of its class (the
    // server sends class files first); changed later, it must agree with
    // the class the world has (else a diagnostic naming both: the world
    // uses the new file when it is opened again).
    if (isClassFilePath(path)) {
      if (bytes !== null) world.loadClassText(path, bytes);
      return { id: null, failure: null };
    }
    return { id: world.reloadFile(path, bytes), failure: null };
  } catch (err) {
    return { id: err.id ?? null, failure: diagnosticOf(err, path) };
  }
}

function opened(timings, last) {
  const t = performance.now();
  const columns = table(last);
  timings.tableMs = performance.now() - t;
  return {
    result: {
      table: columns,
      schemas: schemas(columns.classNames),
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
    world = juliet.openWorld(worldDir);
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
    world = next;
    return opened({ loadMs: performance.now() - t });
  },
  // A world served by the local server (web/server): its pack (lib/pack.js)
  // fetched with `request` ({ url, headers }) and read as it downloads, each
  // file loaded as soon as its bytes are in. It has no folder here: the
  // server saves it. The answer also holds the pack's `index`: its meta and
  // the version of each file.
  async openServed({ request }) {
    const t = performance.now();
    // The download starts while the wasm module loads.
    const responded = fetch(request.url, { headers: request.headers, cache: 'no-store' });
    juliet ??= await loadJuliet();
    const bootMs = performance.now() - t;
    const response = await responded;
    if (!response.ok) throw new Error(`the local server answered ${response.status}: ${await response.text()}`);
    const reader = packReader();
    const failures = [];
    const stream = response.body.getReader();
    let loaded = 0;
    let started = false;
    for (;;) {
      const { done, value } = await stream.read();
      if (done) break;
      const files = reader.push(value);
      // The world the files go into, once the index tells how many.
      if (reader.index && !started) {
        started = true;
        const next = juliet.newWorld({ capacity: Math.max(100_000, reader.index.paths.length * 2) });
        await closeWorld();
        world = next;
      }
      for (const { path, bytes } of files) {
        if (bytes === null) continue;
        const { failure } = loadFile(path, bytes);
        if (failure) failures.push(failure);
      }
      loaded += files.length;
      if (files.length) progress('Loading entities', loaded, reader.index.paths.length);
    }
    reader.end();
    const { meta, paths, seqs } = reader.index;
    const out = opened({ bootMs, loadMs: performance.now() - t });
    // The references checked once every file is in, as for a folder.
    out.result.diagnostics = [...failures, ...world.checkReferences()];
    // Paths as one text: one string crosses to the page faster than 100,000.
    out.result.index = { meta, paths: paths.join('\n'), seqs };
    out.transfer.push(seqs.buffer);
    return out;
  },
  // Files of a pack's world changed on disk (or their disk version was
  // chosen over the page's): [{ path, text }] (text null: no file). Each
  // entity, or the settings, becomes its file's text, clean, and that text
  // is its file's from now on. With keepEdited, an entity (or the settings)
  // changed in the page since it was last clean is left as it is and its
  // path listed in `skipped` (an edit that reached the engine first).
  // Returns the entities ({ id, entity } with entity null for none), the
  // settings and the diagnostics of the texts that did not load.
  async putFiles({ files, keepEdited = false }) {
    const entities = [];
    const diagnostics = [];
    const skipped = [];
    for (const { path, text } of files) {
      if (keepEdited && isEdited(path)) {
        skipped.push(path);
        continue;
      }
      const { id, failure } = loadFile(path, text);
      if (failure) diagnostics.push(failure);
      if (id !== null) entities.push({ id, entity: world.has(id) ? world.get(id) : null });
    }
    return { result: { entities, settings: world.settings(), diagnostics, skipped } };
  },
  // After the local server saved: the texts of `written` (IDs or SETTINGS)
  // are their files' now, and clean; `deleted` have no file. Returns the
  // written entities as they are now, and the settings.
  async markSaved({ written, deleted }) {
    const entities = [];
    for (const id of written) {
      if (id === SETTINGS) {
        if (!world.settings().readOnly) world.markSettingsSaved();
      } else if (world.has(id)) {
        world.markSaved(id);
        entities.push(world.get(id));
      }
    }
    for (const id of deleted) if (id !== SETTINGS && !world.has(id)) world.markSaved(id);
    return { result: { entities, settings: world.settings() } };
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
  // Fields `names` of each entity in `ids` (what the map draws: lights,
  // references, names): per entity the values in that order (undefined for
  // a field its class lacks), null for an entity that is gone.
  async values({ ids, names }) {
    const out = ids.map((id) => {
      if (!world.has(id)) return null;
      const { fields } = world.get(id);
      return names.map((name) => fields[name]);
    });
    return { result: out };
  },
  // Edits return the entity's text before and after, for undo.
  async set({ id, field, value }) {
    const change = edit(id, () => world.set(id, field, value));
    return { result: { entity: world.get(id), ...change } };
  },
  async setSetting({ field, value }) {
    const change = edit(SETTINGS, () => world.setSetting(field, value));
    return { result: { settings: world.settings(), ...change } };
  },
  async create({ className, position }) {
    const id = world.create(className, position);
    return { result: { entity: world.get(id), before: null, after: world.entityBytes(id) } };
  },
  async remove({ id }) {
    const before = world.has(id) ? world.entityBytes(id) : null;
    world.remove(id);
    return { result: { before, after: null } };
  },
  // Undo and redo: the entity becomes `text` again (null: removed).
  async restore({ id, text }) {
    restoreText(id, text);
    if (id === SETTINGS) return { result: { settings: world.settings() } };
    return { result: { entity: world.has(id) ? world.get(id) : null } };
  },
  // The current text of each entity (null if it is gone).
  async texts({ ids }) {
    return { result: ids.map((id) => (id === SETTINGS || world.has(id) ? textOf(id) : null)) };
  },
  // Re-applies unsaved work kept from an earlier session: [id, text or
  // null, dirty] per changed entity (the engine decides again whether each
  // is clean: its text may be what its file holds now). Returns the new
  // table (with the IDs of `added` last) and the changes that could not be
  // applied.
  async applyChanges({ changes, added }) {
    const failed = [];
    for (const [id, text] of changes) {
      try {
        restoreText(id, text);
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
    return { result: true };
  },
};

// True if the entity (or the settings) of the file at `path` changed in the
// page since it was last clean (the page's own reading of file names, as
// state/diskFiles.js's: the engine checks the name when it loads the file).
function isEdited(path) {
  if (path === SETTINGS_PATH) return world.settings().dirty;
  const id = idOfPath(path);
  return id !== null && world.has(id) && world.get(id).dirty;
}

// Runs `change` on entity `id` (or the settings) and returns its text
// before and after. A change that leaves the text as it was (a value typed
// again) is no edit in the inspector, whatever the engine's rule (spec 6.3:
// any set marks dirty): the entity is put back as it was, clean if it was.
function edit(id, change) {
  const before = textOf(id);
  change();
  const after = textOf(id);
  if (sameBytes(before, after)) restoreText(id, before);
  return { before, after };
}

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
    if (!['begin', 'addFiles', 'load', 'openSnapshot', 'openServed', 'check'].includes(op) && !world) throw new Error('No world is open');
    const { result, transfer = [] } = await ops[op](args ?? {});
    self.postMessage({ id, ok: true, result }, transfer);
  } catch (err) {
    self.postMessage({ id, ok: false, error: errorInfo(err) });
  }
};
