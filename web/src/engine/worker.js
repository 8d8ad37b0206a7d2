// The engine worker: owns the wasm module (through web/src/core/juliet.js)
// and the one open world, so that opening or saving thousands of files never
// blocks the page. It answers requests { id, op, args } from client.js with
// { id, ok, result } or { id, ok: false, error }, and reports long work as
// { progress: { label, done, total } }.
import { loadJuliet } from '../core/juliet.js';

let juliet = null;
let world = null;
let worldDir = null;
let openCount = 0;

function progress(label, done, total) {
  self.postMessage({ progress: { label, done, total } });
}

// The world's entities as columns, sorted by ID, ready to transfer.
function table() {
  const list = world.entities();
  list.sort((a, b) => (a.id < b.id ? -1 : a.id > b.id ? 1 : 0));
  const n = list.length;
  const ids = new Array(n);
  const classNames = [];
  const classIndex = new Map();
  const cls = new Uint8Array(n);
  const pos = new Float32Array(n * 3);
  const dirty = new Uint8Array(n);
  for (let i = 0; i < n; i++) {
    const e = list[i];
    ids[i] = e.id;
    let k = classIndex.get(e.class);
    if (k === undefined) {
      k = classNames.length;
      classNames.push(e.class);
      classIndex.set(e.class, k);
    }
    cls[i] = k;
    pos[i * 3] = e.position[0];
    pos[i * 3 + 1] = e.position[1];
    pos[i * 3 + 2] = e.position[2];
    dirty[i] = e.dirty ? 1 : 0;
  }
  return { ids, classNames, cls, pos, dirty };
}

function classList() {
  if (typeof juliet.classes === 'function') return juliet.classes();
  if (typeof world.classes === 'function') return world.classes();
  return ['Inert', 'Light', 'Prop'];
}

function schemas() {
  const out = {};
  for (const name of classList()) out[name] = world.schema(name);
  return out;
}

async function readBytes(item) {
  if (item.bytes) return item.bytes instanceof Uint8Array ? item.bytes : new Uint8Array(item.bytes);
  return new Uint8Array(await item.file.arrayBuffer());
}

const ops = {
  // files: [{ path, bytes | file }] relative to the world folder.
  async open({ files }) {
    juliet ??= await loadJuliet();
    if (world) {
      world.close();
      world = null;
    }
    worldDir = `/worlds/${++openCount}`;
    const total = files.length;
    const chunk = 2000;
    for (let start = 0; start < total; start += chunk) {
      const part = files.slice(start, start + chunk);
      const bytes = await Promise.all(part.map(readBytes));
      juliet.writeFiles(
        worldDir,
        part.map((item, i) => ({ path: item.path, bytes: bytes[i] })),
      );
      progress('Reading files', Math.min(start + chunk, total), total);
    }
    progress('Loading entities', total, total);
    world = await juliet.openWorld(worldDir);
    const t = table();
    return {
      result: { table: t, schemas: schemas(), diagnostics: world.diagnostics() },
      transfer: [t.cls.buffer, t.pos.buffer, t.dirty.buffer],
    };
  },
  async get({ id }) {
    return { result: world.get(id) };
  },
  async set({ id, field, value }) {
    world.set(id, field, value);
    return { result: world.get(id) };
  },
  async create({ className, position }) {
    const id = world.create(className, position);
    return { result: world.get(id) };
  },
  async remove({ id }) {
    world.remove(id);
    return { result: true };
  },
  // Saves into the in-memory folder and returns the bytes of every written
  // file, for the page to copy to the user's folder.
  async save() {
    const report = world.save();
    return {
      result: {
        written: report.written.map(relativePath),
        deleted: report.deleted.map(relativePath),
        files: readSaved(report.written),
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

function relativePath(path) {
  return path.startsWith(worldDir + '/') ? path.slice(worldDir.length + 1) : path;
}

function readSaved(paths) {
  return paths.map((path) => ({
    path: relativePath(path),
    bytes: juliet.readFile(path.startsWith('/') ? path : `${worldDir}/${path}`),
  }));
}

self.onmessage = async (event) => {
  const { id, op, args } = event.data;
  try {
    if (op !== 'open' && !world) throw new Error('No world is open');
    const { result, transfer = [] } = await ops[op](args ?? {});
    self.postMessage({ id, ok: true, result }, transfer);
  } catch (err) {
    self.postMessage({
      id,
      ok: false,
      error: {
        name: err?.name ?? 'Error',
        message: err?.message ?? String(err),
        code: err?.code,
        path: err?.path,
        line: err?.line,
      },
    });
  }
};
