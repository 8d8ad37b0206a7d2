/**
 * juliet.js - the JavaScript API of Juliet World, the same in Node and in the
 * browser. The only module that imports the Emscripten output
 * (./generated/juliet_wasm.mjs, built by c/wasm/CMakeLists.txt).
 *
 *   const juliet = await loadJuliet();
 *   const world = juliet.openWorld('assets/sample_world');
 *   world.set(id, 'position', [1, 2, 3]);
 *   world.setSetting('time_of_day', 18); // WorldSettings.jasset
 *   world.save();   // { written: [paths], deleted: [paths] }
 *   world.close();
 *
 * Files: under Node, openWorld(path) mounts the real host directory into the
 * module's file system (NODEFS), so reads and writes hit the disk; in the
 * browser a path names a directory of the in-memory file system (MEMFS),
 * filled with juliet.writeFiles() and read back with juliet.readFile().
 * Those file calls only reach memory, never a mounted host directory.
 *
 * Errors: a failure reported by C is thrown as a JulietError carrying the
 * status name (`code`: 'parse', 'not_found', 'corrupt', ...) and, where one
 * applies, `path`, `line` and `col`. Arguments of the wrong type throw a
 * TypeError before anything reaches C.
 *
 * Boundary rules: every C export is wrapped once, at load, from the table
 * EXPORTS below (which lists exactly c/wasm/exports.json). Memory handed to
 * C is freed in `finally`; bulk data comes back as pointer + length and is
 * copied at once; views of the wasm memory are taken fresh after every call
 * that may grow it.
 *
 * Snapshots (world.snapshot(), juliet.openSnapshot()) are asynchronous: the
 * deflate step uses CompressionStream / DecompressionStream('deflate-raw'),
 * which only exist as streams.
 */
import createJulietModule from './generated/juliet_wasm.mjs';

/** Every C export: name -> [return type, [argument types]] for cwrap. */
const EXPORTS = {
  jlw_last_error: ['number', []],
  jlw_error_status: ['number', ['number']],
  jlw_error_line: ['number', ['number']],
  jlw_error_col: ['number', ['number']],
  jlw_error_path: ['number', ['number']],
  jlw_error_message: ['number', ['number']],
  jlw_status_name: ['number', ['number']],
  jlw_heap_used: ['number', []],
  jlw_class_count: ['number', []],
  jlw_class_name: ['number', ['number']],
  jlw_class_version: ['number', ['number']],
  jlw_class_field_count: ['number', ['number']],
  jlw_class_field_name: ['number', ['number', 'number']],
  jlw_class_field_type: ['number', ['number', 'number']],
  jlw_class_field_flags: ['number', ['number', 'number']],
  jlw_class_field_default: ['number', ['number', 'number']],
  jlw_settings_kind: ['number', []],
  jlw_world_new: ['number', ['number']],
  jlw_world_free: [null, ['number']],
  jlw_world_load: ['number', ['number', 'string']],
  jlw_world_check_references: ['number', ['number']],
  jlw_world_load_entity_text: ['number', ['number', 'string', 'number', 'number', 'number', 'number']],
  jlw_world_mark_all_dirty: [null, ['number']],
  jlw_world_count: ['number', ['number']],
  jlw_world_rows: ['number', ['number', 'number', 'number', 'number', 'number', 'number']],
  jlw_entity_state: ['number', ['number', 'number', 'number']],
  jlw_entity_text: ['number', ['number', 'number', 'number', 'number']],
  jlw_entity_set: ['number', ['number', 'number', 'number', 'string', 'number', 'number']],
  jlw_entity_create: ['number', ['number', 'string', 'number', 'number', 'number', 'number']],
  jlw_entity_remove: ['number', ['number', 'number', 'number']],
  jlw_settings_state: ['number', ['number']],
  jlw_settings_text: ['number', ['number', 'number']],
  jlw_settings_set: ['number', ['number', 'string', 'number', 'number']],
  jlw_world_load_settings_text: ['number', ['number', 'string', 'number', 'number', 'number']],
  jlw_world_save: ['number', ['number', 'string']],
  jlw_world_save_new: ['number', ['number', 'string']],
  jlw_save_written_count: ['number', []],
  jlw_save_written: ['number', ['number']],
  jlw_save_deleted_count: ['number', []],
  jlw_save_deleted: ['number', ['number']],
  jlw_save_failed_count: ['number', []],
  jlw_world_diagnostic_count: ['number', ['number']],
  jlw_world_diagnostic: ['number', ['number', 'number']],
  jlw_snapshot_encode: ['number', ['number', 'number']],
  jlw_snapshot_decode: ['number', ['number', 'number', 'number']],
  jlw_snapshot_max_bytes: ['number', []],
  jlw_snapshot_max_text: ['number', []],
  jlw_base64url_encoded_size: ['number', ['number']],
  jlw_base64url_encode: ['number', ['number', 'number', 'number']],
  jlw_base64url_decoded_size_max: ['number', ['number']],
  jlw_base64url_decode: ['number', ['number', 'number', 'number', 'number', 'number']],
  jlw_snapshot_link_payload: [null, ['number', 'number', 'number', 'number']],
  jlw_entity_get: ['number', ['number', 'number', 'number', 'string']],
  jlw_settings_get: ['number', ['number', 'string']],
  jlw_entity_base_version: ['number', []],
  jlw_value_check: ['number', ['string', 'number', 'number', 'number']],
};

/** The names of the C exports this module wraps (for tests). */
export const exportNames = Object.freeze(Object.keys(EXPORTS));

const ID_PATTERN = /^0x[0-9a-fA-F]{16}$/;
const NULL_ID = '0x0000000000000000';
/** INDEX fields: this value (JL_INDEX_MAX) means "no index". */
export const INDEX_NONE = 4294967295;
const FIELD_ALLOW_INF = 1; // JL_FIELD_ALLOW_INF
const STATE_DIRTY = 1;
const STATE_READ_ONLY = 2;
const STATE_FAILED = 4; // settings only: WorldSettings.jasset did not load
const SETTINGS_FILE = 'WorldSettings.jasset';
const MAX_CAPACITY = 16 << 20; // JL_MAX_CAPACITY
const PATH_MAX = 4000; // below the C side's JL_ERROR_PATH_MAX and stack use

const encoder = new TextEncoder();
const decoder = new TextDecoder();

const isNode =
  typeof process === 'object' && !!process.versions && !!process.versions.node &&
  typeof process.getBuiltinModule === 'function';

/**
 * An error reported by the C engine (or by this API for a state it refuses,
 * such as a closed world).
 */
export class JulietError extends Error {
  /**
   * @param {string} code lower-case status name ('parse', 'not_found', ...)
   * @param {string} message what went wrong
   * @param {{path?: string|null, line?: number, col?: number}} [where]
   */
  constructor(code, message, where = {}) {
    const path = where.path || null;
    const line = where.line || 0;
    const col = where.col || 0;
    let prefix = '';
    if (path) prefix = path + (line ? `:${line}${col ? `:${col}` : ''}` : '') + ': ';
    super(prefix + message);
    this.name = 'JulietError';
    this.code = code;
    this.path = path;
    this.line = line;
    this.col = col;
    this.detail = message;
  }
}

let loading = null;

/**
 * Loads the wasm module once and returns the API. Every call returns the
 * same promise; if loading fails the promise rejects, and a later call
 * tries again.
 * @returns {Promise<Juliet>}
 */
export function loadJuliet() {
  if (!loading) {
    loading = createJulietModule().then(
      (module) => new Juliet(module),
      (err) => {
        loading = null;
        throw err;
      },
    );
  }
  return loading;
}

/** Checks an entity ID argument and returns its [lo, hi] halves. */
function splitId(id, what = 'id') {
  if (typeof id !== 'string' || !ID_PATTERN.test(id)) {
    throw new TypeError(`${what} must be an ID string like 0x00000000000000a1, got ${describe(id)}`);
  }
  return [parseInt(id.slice(10), 16), parseInt(id.slice(2, 10), 16)];
}

function joinId(lo, hi) {
  // 2^32 + x has 9 hex digits: dropping the leading 1 zero-pads to 8.
  return '0x' + (0x100000000 + (hi >>> 0)).toString(16).slice(1) + (0x100000000 + (lo >>> 0)).toString(16).slice(1);
}

function describe(value) {
  if (value === null) return 'null';
  if (Array.isArray(value)) return `an array of ${value.length}`;
  if (typeof value === 'string') return JSON.stringify(value.length > 40 ? value.slice(0, 40) + '...' : value);
  if (typeof value === 'number' || typeof value === 'boolean') return String(value);
  return typeof value;
}

function checkString(value, what, max = PATH_MAX) {
  if (typeof value !== 'string' || value.length === 0) {
    throw new TypeError(`${what} must be a non-empty string, got ${describe(value)}`);
  }
  if (value.length > max || value.includes('\0')) {
    throw new TypeError(`${what} must be at most ${max} characters without NUL`);
  }
  return value;
}

/** Text for the engine: a string, or a file's bytes kept exactly. */
function checkText(text) {
  if (typeof text !== 'string' && !(text instanceof Uint8Array)) {
    throw new TypeError(`text must be a string or a Uint8Array, got ${describe(text)}`);
  }
}

function checkVec3(value, what) {
  if (!Array.isArray(value) && !ArrayBuffer.isView(value)) {
    throw new TypeError(`${what} must be an array [x, y, z] of numbers, got ${describe(value)}`);
  }
  if (value.length !== 3) throw new TypeError(`${what} must have 3 numbers, got ${value.length}`);
  for (let i = 0; i < 3; i++) {
    if (typeof value[i] !== 'number' || !Number.isFinite(value[i])) {
      throw new TypeError(`${what}[${i}] must be a finite number, got ${describe(value[i])}`);
    }
  }
  return [value[0], value[1], value[2]];
}

/** A float as the engine reads it ("inf", "-0", JavaScript's shortest form). */
function floatText(value) {
  if (value === Infinity) return 'inf';
  if (value === -Infinity) return '-inf';
  if (Object.is(value, -0)) return '-0';
  return String(value);
}

function parseFloatText(text) {
  if (text === 'inf') return Infinity;
  if (text === '-inf') return -Infinity;
  return Number(text);
}

/**
 * Turns a JavaScript value for a field of type `type` into the engine's
 * text for it, or throws a TypeError naming the field.
 */
function valueText(field, value) {
  const what = `field "${field.name}" (${field.type})`;
  switch (field.type) {
    case 'f32':
      if (typeof value !== 'number' || Number.isNaN(value)) {
        throw new TypeError(`${what} takes a number, got ${describe(value)}`);
      }
      if (!Number.isFinite(value) && !field.allowInf) {
        throw new TypeError(`${what} takes a finite number, got ${value}`);
      }
      return floatText(value);
    case 'index':
      if (value === null) return 'none';
      if (typeof value !== 'number' || !Number.isInteger(value) || value < 0 || value > INDEX_NONE) {
        throw new TypeError(`${what} takes an integer from 0 to ${INDEX_NONE} (none) or null, got ${describe(value)}`);
      }
      return value === INDEX_NONE ? 'none' : String(value);
    case 'bool':
      if (typeof value !== 'boolean') throw new TypeError(`${what} takes true or false, got ${describe(value)}`);
      return value ? 'true' : 'false';
    case 'vec3':
      return checkVec3(value, what).map(floatText).join(' ');
    case 'color':
      if (typeof value !== 'string' || !/^#[0-9a-fA-F]{6}$/.test(value)) {
        throw new TypeError(`${what} takes a colour string "#rrggbb", got ${describe(value)}`);
      }
      return value.toLowerCase();
    case 'entity_ref':
      if (value === null || value === NULL_ID) return 'none';
      splitId(value, what);
      return value.toLowerCase();
    default:
      throw new TypeError(`${what} has a type this API does not know`);
  }
}

/** The JavaScript value of a field's canonical text (see valueText). */
function textValue(type, text) {
  switch (type) {
    case 'f32':
      return parseFloatText(text);
    case 'index':
      return text === 'none' ? INDEX_NONE : Number(text);
    case 'bool':
      return text === 'true';
    case 'vec3':
      return text.split(/ +/).map(parseFloatText);
    case 'color':
      return text;
    case 'entity_ref':
      return text === 'none' ? null : text.toLowerCase();
    default:
      return text;
  }
}

/**
 * The field values of canonical .jasset text by a schema ({ name: value },
 * converted by textValue); every other key goes to other(key, value).
 */
function fieldValues(schema, text, other = () => {}) {
  const fields = {};
  for (const [key, value] of parseJasset(text)) {
    const field = schema.byName.get(key);
    if (field) fields[key] = textValue(field.type, value);
    else other(key, value);
  }
  return fields;
}

/** Splits canonical .jasset text into [key, value] pairs. */
function parseJasset(text) {
  const lines = text.split('\n');
  const pairs = [];
  for (let i = 0; i + 1 < lines.length; i++) {
    if (lines[i].startsWith('; ')) {
      pairs.push([lines[i].slice(2), lines[i + 1]]);
      i++;
    }
  }
  return pairs;
}

/** Pipes bytes through a (de)compression stream, stopping past maxBytes. */
async function pipeBytes(bytes, stream, maxBytes) {
  const writer = stream.writable.getWriter();
  const reader = stream.readable.getReader();
  // The writer's promises reject too when the data is bad; the reader
  // reports it, so these are only observed, never awaited first.
  const written = writer.write(bytes).then(() => writer.close());
  written.catch(() => {});
  const chunks = [];
  let total = 0;
  try {
    for (;;) {
      const { done, value } = await reader.read();
      if (done) break;
      total += value.length;
      if (total > maxBytes) {
        throw new JulietError('corrupt', `snapshot expands past ${maxBytes} bytes`);
      }
      chunks.push(value);
    }
  } catch (err) {
    reader.cancel().catch(() => {});
    writer.abort().catch(() => {});
    if (err instanceof JulietError) throw err;
    throw new JulietError('corrupt', `snapshot data is not valid deflate data (${err.message})`);
  }
  await written;
  const out = new Uint8Array(total);
  let offset = 0;
  for (const chunk of chunks) {
    out.set(chunk, offset);
    offset += chunk.length;
  }
  return out;
}

async function deflate(bytes) {
  return pipeBytes(bytes, new CompressionStream('deflate-raw'), Infinity);
}

/**
 * Inflates at most maxBytes and rejects bytes after the end of the deflate
 * stream. Chromium's DecompressionStream rejects them itself; Node's
 * silently drops them, so inflate once more without the last byte: a
 * stream that really ends at the last byte then fails as truncated, one
 * followed by junk still succeeds.
 */
async function inflate(bytes, maxBytes) {
  const out = await pipeBytes(bytes, new DecompressionStream('deflate-raw'), maxBytes);
  if (bytes.length > 0) {
    let shorter = true;
    try {
      await pipeBytes(bytes.subarray(0, bytes.length - 1), new DecompressionStream('deflate-raw'), maxBytes);
    } catch {
      shorter = false;
    }
    if (shorter) throw new JulietError('corrupt', 'bytes follow the end of the snapshot data');
  }
  return out;
}

/**
 * The loaded module: opens worlds and snapshots, reflects classes, and
 * reads and writes files of the in-memory file system.
 */
export class Juliet {
  /** @param {object} module the Emscripten module instance */
  constructor(module) {
    this._m = module;
    const c = {};
    for (const [name, [ret, args]] of Object.entries(EXPORTS)) {
      if (typeof module['_' + name] !== 'function') throw new Error(`the wasm module lacks ${name}`);
      c[name] = module.cwrap(name, ret, args);
    }
    this._c = c;
    // Room for the small out-parameters of one call (IDs, sizes): calls
    // never nest, so one block serves them all without a malloc per call.
    this._out = module._malloc(16);
    if (!this._out) throw new Error('cannot allocate the wasm out-parameter block');
    this._mounts = 0;
    this._schemas = new Map();
    this._settings = null; // the settings' schema, read on first use
    this._classes = [];
    for (let kind = 0, n = c.jlw_class_count(); kind < n; kind++) {
      this._classes.push(this._string(c.jlw_class_name(kind)));
    }
  }

  // ---- memory helpers ----

  _string(ptr) {
    return ptr ? this._m.UTF8ToString(ptr) : null;
  }

  _malloc(size) {
    const ptr = this._m._malloc(Math.max(1, size));
    if (!ptr) throw new JulietError('out_of_memory', `cannot allocate ${size} bytes in the wasm heap`);
    return ptr;
  }

  _free(ptr) {
    if (ptr) this._m._free(ptr);
  }

  /** Copies bytes into a new malloc'd block. */
  _copyIn(bytes) {
    const ptr = this._malloc(bytes.length);
    this._m.HEAPU8.set(bytes, ptr);
    return ptr;
  }

  /** Copies size bytes at ptr out of the wasm memory. */
  _copyOut(ptr, size) {
    return this._m.HEAPU8.slice(ptr, ptr + size);
  }

  _u32(ptr) {
    return this._m.HEAPU32[ptr >>> 2];
  }

  /** A JulietError from a jl_error record. */
  _errorFrom(errPtr, fallbackStatus, mapPath) {
    const c = this._c;
    const status = c.jlw_error_status(errPtr) || fallbackStatus;
    const path = this._string(c.jlw_error_path(errPtr)) || null;
    return new JulietError(this._statusName(status), this._string(c.jlw_error_message(errPtr)) || 'failed', {
      path: path && mapPath ? mapPath(path) : path,
      line: c.jlw_error_line(errPtr),
      col: c.jlw_error_col(errPtr),
    });
  }

  _lastError(status, mapPath) {
    return this._errorFrom(this._c.jlw_last_error(), status, mapPath);
  }

  _statusName(status) {
    return this._string(this._c.jlw_status_name(status)) || `status_${status}`;
  }

  // ---- classes ----

  /** Names of the entity classes this build knows, by class index. */
  classes() {
    return this._classes.slice();
  }

  /**
   * The fields of a class, in file order, for building editors:
   * [{ name, type, default, allowInf }], `type` one of 'f32', 'index',
   * 'bool', 'vec3', 'color', 'entity_ref', `default` a value as get() gives.
   * @param {string} className
   */
  schema(className) {
    return publicFields(this._schema(className));
  }

  /**
   * The fields of the world settings (WorldSettings.jasset), in the shape
   * schema() gives for a class.
   */
  settingsSchema() {
    return publicFields(this._settingsSchema());
  }

  _schema(className) {
    checkString(className, 'className', 256);
    let schema = this._schemas.get(className);
    if (schema) return schema;
    const kind = this._classes.indexOf(className);
    if (kind < 0) {
      throw new JulietError('unknown_class', `no class named "${className}" (known: ${this._classes.join(', ')})`);
    }
    schema = this._schemaOfKind(kind);
    return schema;
  }

  _schemaOfKind(kind) {
    const name = this._classes[kind];
    let schema = this._schemas.get(name);
    if (schema) return schema;
    schema = this._reflect(kind);
    this._schemas.set(name, schema);
    return schema;
  }

  /**
   * The settings' schema. Kept apart from the entity classes' cache so
   * that schema('WorldSettings') stays an unknown class.
   */
  _settingsSchema() {
    if (!this._settings) this._settings = this._reflect(this._c.jlw_settings_kind());
    return this._settings;
  }

  /** Reads class `kind` (an entity class or the settings) through the reflection exports. */
  _reflect(kind) {
    const c = this._c;
    const fields = [];
    for (let i = 0, n = c.jlw_class_field_count(kind); i < n; i++) {
      const type = this._string(c.jlw_class_field_type(kind, i));
      fields.push(Object.freeze({
        name: this._string(c.jlw_class_field_name(kind, i)),
        type,
        default: textValue(type, this._string(c.jlw_class_field_default(kind, i))),
        allowInf: (c.jlw_class_field_flags(kind, i) & FIELD_ALLOW_INF) !== 0,
      }));
    }
    return {
      name: this._string(c.jlw_class_name(kind)),
      kind,
      version: c.jlw_class_version(kind),
      fields,
      byName: new Map(fields.map((f) => [f.name, f])),
    };
  }

  // ---- worlds ----

  /**
   * Opens the world in directory `path` (WorldSettings.jasset and
   * Entities/*.jasset). Under Node `path` is a host directory; in the
   * browser a directory of the in-memory file system. Files that fail to
   * load are skipped and listed by world.diagnostics(); a directory that
   * does not exist throws a JulietError with code 'not_found'.
   * With { inMemory: true } a path of the in-memory file system is opened
   * under Node too (as the browser does). { capacity } is the most entities
   * the world holds (default 100,000; memory is reserved for it up front).
   * @param {string} path
   * @param {{inMemory?: boolean, capacity?: number}} [options]
   * @returns {World}
   */
  openWorld(path, options = {}) {
    checkString(path, 'path');
    const world = this._newWorld(options);
    try {
      world._attachExisting(path);
      this._c.jlw_world_load(world._ptr, world._vpath);
      this._c.jlw_world_check_references(world._ptr);
      return world;
    } catch (err) {
      world.close();
      throw err;
    }
  }

  /**
   * A new empty world with no directory yet: save(path) gives it one (a
   * host directory under Node unless { inMemory: true }). { capacity } as
   * for openWorld().
   * @param {{inMemory?: boolean, capacity?: number}} [options]
   * @returns {World}
   */
  newWorld(options = {}) {
    return this._newWorld(options);
  }

  _newWorld(options) {
    if (options === null || typeof options !== 'object') throw new TypeError('options must be an object');
    const capacity = options.capacity === undefined ? 0 : options.capacity; // 0: the default
    if (options.capacity !== undefined &&
        (!Number.isInteger(capacity) || capacity < 1 || capacity > MAX_CAPACITY)) {
      throw new TypeError(`options.capacity must be an integer from 1 to ${MAX_CAPACITY}, got ${describe(capacity)}`);
    }
    const ptr = this._c.jlw_world_new(capacity);
    if (!ptr) throw this._lastError(0);
    const world = new World(this, ptr);
    world._inMemory = !isNode || !!options.inMemory;
    return world;
  }

  /**
   * Opens a snapshot (the text world.snapshot() gave, or a whole link
   * `...#TEXT`) as a new world without a directory: every entity is dirty
   * and save(path) writes them out. Rejects with a JulietError ('corrupt',
   * 'unknown_class', ...) for damaged or hostile input, 'capacity' for more
   * entities than options.capacity (default 100,000). Options as for
   * newWorld().
   * @param {string} text
   * @param {{inMemory?: boolean, capacity?: number}} [options]
   * @returns {Promise<World>}
   */
  async openSnapshot(text, options = {}) {
    if (typeof text !== 'string') throw new TypeError(`snapshot must be a string, got ${describe(text)}`);
    if (options === null || typeof options !== 'object') throw new TypeError('options must be an object');
    const c = this._c;
    const maxText = c.jlw_snapshot_max_text();
    // A link may add its base and whitespace; anything much longer cannot
    // hold a snapshot the decoder would accept.
    if (text.length > maxText + 4096) {
      throw new JulietError('corrupt', `snapshot text longer than ${maxText} characters`);
    }
    let packed;
    const textBytes = encoder.encode(text);
    const textPtr = this._copyIn(textBytes);
    let outPtr = 0;
    const argsPtr = this._out;
    try {
      c.jlw_snapshot_link_payload(textPtr, textBytes.length, argsPtr, argsPtr + 4);
      const offset = this._u32(argsPtr);
      const size = this._u32(argsPtr + 4);
      if (size === 0) throw new JulietError('corrupt', 'the snapshot text is empty');
      if (size > maxText) throw new JulietError('corrupt', `snapshot text longer than ${maxText} characters`);
      const capacity = c.jlw_base64url_decoded_size_max(size);
      outPtr = this._malloc(capacity);
      const status = c.jlw_base64url_decode(textPtr + offset, size, outPtr, capacity, argsPtr);
      if (status !== 0) throw this._lastError(status);
      packed = this._copyOut(outPtr, this._u32(argsPtr));
    } finally {
      this._free(outPtr);
      this._free(textPtr);
    }
    const bytes = await inflate(packed, c.jlw_snapshot_max_bytes());
    const world = this._newWorld(options);
    try {
      const dataPtr = this._copyIn(bytes);
      try {
        const status = c.jlw_snapshot_decode(world._ptr, dataPtr, bytes.length);
        if (status !== 0) throw this._lastError(status);
      } finally {
        this._free(dataPtr);
      }
      return world;
    } catch (err) {
      world.close();
      throw err;
    }
  }

  // ---- the in-memory file system ----
  // These calls only reach memory: a path on, under (or, to list or remove,
  // above) a host directory that openWorld() mounted under Node throws, so
  // they never read or delete a real world. Every failure is a JulietError.

  /**
   * Writes files under directory `dir` of the in-memory file system,
   * creating directories as needed. Each file is { path, bytes } with a
   * relative path ('Entities/12.jasset') and a Uint8Array (or string).
   * Every path is checked before anything is written; a file system error
   * (a file where a directory should be) throws a JulietError 'io' naming
   * the file, after the files before it were written.
   * @param {string} dir
   * @param {{path: string, bytes: Uint8Array|string}[]} files
   */
  writeFiles(dir, files) {
    checkString(dir, 'dir');
    if (!Array.isArray(files)) throw new TypeError(`files must be an array of { path, bytes }, got ${describe(files)}`);
    const FS = this._m.FS;
    const root = this._memoryPath(dir);
    const mounts = this._otherMounts();
    const parents = new Set([root]); // directories known to be in memory
    const writes = files.map((file) => {
      if (!file || typeof file !== 'object') throw new TypeError('each file must be an object { path, bytes }');
      const rel = checkRelative(file.path);
      const bytes = file.bytes;
      if (!(bytes instanceof Uint8Array) && typeof bytes !== 'string') {
        throw new TypeError(`bytes of ${rel} must be a Uint8Array or a string, got ${describe(bytes)}`);
      }
      const full = childPath(root, rel);
      // A mount below dir: checked by name, and by node once per directory
      // (a lookup per file would cost as much as the writes).
      const parent = parentPath(full);
      const mount = mounts.find((point) => isWithin(full, point)) ||
        (parents.has(parent) ? null : this._linkedMount(parent));
      if (mount) throw notInMemory(full, mount);
      parents.add(parent);
      return { full, bytes };
    });
    const made = new Set();
    for (const { full, bytes } of writes) {
      onPath(full, () => {
        const parent = full.slice(0, full.lastIndexOf('/'));
        if (parent && !made.has(parent)) {
          mkdirTree(FS, parent);
          made.add(parent);
        }
        FS.writeFile(full, bytes);
      });
    }
  }

  /**
   * The bytes of a file of the in-memory file system (a copy).
   * @param {string} path
   * @returns {Uint8Array}
   */
  readFile(path) {
    checkString(path, 'path');
    const abs = this._memoryPath(path);
    return onPath(abs, () => this._m.FS.readFile(abs));
  }

  /**
   * The files under a directory of the in-memory file system, as sorted
   * relative paths ('Entities/12.jasset'); [] if it does not exist.
   * @param {string} dir
   * @returns {string[]}
   */
  listFiles(dir) {
    checkString(dir, 'dir');
    const FS = this._m.FS;
    const root = this._memoryPath(dir, true);
    const out = [];
    const walk = (abs, rel) => {
      for (const name of onPath(abs, () => FS.readdir(abs))) {
        if (name === '.' || name === '..') continue;
        const childAbs = childPath(abs, name);
        const childRel = rel ? `${rel}/${name}` : name;
        if (FS.isDir(onPath(childAbs, () => FS.lstat(childAbs)).mode)) walk(childAbs, childRel);
        else out.push(childRel);
      }
    };
    if (FS.analyzePath(root).exists) walk(root, '');
    return out.sort();
  }

  /**
   * Deletes a directory of the in-memory file system and everything in it
   * (for instance a world folder no longer needed). Missing is not an error;
   * the root directory is refused.
   * @param {string} dir
   */
  removeFiles(dir) {
    checkString(dir, 'dir');
    const FS = this._m.FS;
    if (resolvePath(dir) === '/') {
      throw new JulietError('invalid_argument', 'the root directory cannot be removed', { path: dir });
    }
    const root = this._memoryPath(dir, true);
    if (!FS.analyzePath(root).exists) return;
    // lstat: a symbolic link goes, never what it points to.
    const remove = (abs) => {
      if (FS.isDir(onPath(abs, () => FS.lstat(abs)).mode)) {
        for (const name of onPath(abs, () => FS.readdir(abs))) {
          if (name !== '.' && name !== '..') remove(childPath(abs, name));
        }
        onPath(abs, () => FS.rmdir(abs));
      } else {
        onPath(abs, () => FS.unlink(abs));
      }
    };
    remove(root);
  }

  /**
   * `path` as an absolute path of the module's file system ('.' and '..'
   * resolved as the file system resolves them), checked to be in memory:
   * on or under the mount of another file system (a host directory), it
   * throws a JulietError 'invalid_argument'. With `holding`, a path with
   * such a mount below it throws too (a walk of it would reach the mount).
   */
  _memoryPath(path, holding = false) {
    const abs = resolvePath(path);
    const mount = this._otherMounts().find((point) => isWithin(abs, point) || (holding && isWithin(point, abs)));
    if (mount) throw notInMemory(abs, mount);
    const linked = this._linkedMount(abs);
    if (linked) throw notInMemory(abs, linked);
    return abs;
  }

  /** Mount points of the file systems that are not in memory (MEMFS). */
  _otherMounts() {
    const FS = this._m.FS;
    return FS.getMounts(FS.root.mount).filter((m) => m.type !== this._m.MEMFS).map((m) => m.mountpoint);
  }

  /**
   * The mount point of a file system not in memory that `abs` (or its
   * nearest existing parent) is on once symbolic links are followed, or
   * null: a link can lead where its name does not say.
   */
  _linkedMount(abs) {
    const FS = this._m.FS;
    for (let path = abs; ; path = parentPath(path)) {
      let node;
      try {
        node = FS.lookupPath(path, { follow: true }).node;
      } catch {
        continue; // missing: its parent decides ('/' always exists)
      }
      return node.mount.type === this._m.MEMFS ? null : node.mount.mountpoint;
    }
  }

  /** Bytes of wasm memory the module has (it only grows). */
  heapBytes() {
    return this._m.HEAPU8.length;
  }

  /** Bytes of that memory currently allocated by the C heap (leak checks). */
  heapUsed() {
    return this._c.jlw_heap_used() >>> 0;
  }
}

function cloneValue(value) {
  return Array.isArray(value) ? value.slice() : value;
}

/** A schema's fields for callers: copies, so edits cannot reach the cache. */
function publicFields(schema) {
  return schema.fields.map((f) => ({ ...f, default: cloneValue(f.default) }));
}

function normalizeDir(dir) {
  const trimmed = dir.replace(/\/+$/, '');
  return trimmed.startsWith('/') ? trimmed : `/${trimmed}`;
}

function checkRelative(path) {
  checkString(path, 'file path');
  const parts = path.replace(/\\/g, '/').split('/');
  if (path.startsWith('/') || parts.some((p) => p === '' || p === '.' || p === '..')) {
    throw new TypeError(`file path must be relative without . or .. parts, got ${describe(path)}`);
  }
  return parts.join('/');
}

function mkdirTree(FS, dir) {
  let current = '';
  for (const part of dir.split('/')) {
    if (!part) continue;
    current += '/' + part;
    const found = FS.analyzePath(current);
    if (!found.exists) {
      FS.mkdir(current);
    } else if (!FS.isDir(found.object.mode)) {
      // The file system itself would only say "permission denied" further on.
      throw new JulietError('io', 'a file is in the way of a directory', { path: current });
    }
  }
}

/** An absolute path with '.', '..' and repeated '/' resolved ('/' for the root). */
function resolvePath(path) {
  const parts = [];
  for (const part of path.split('/')) {
    if (part === '..') parts.pop();
    else if (part && part !== '.') parts.push(part);
  }
  return '/' + parts.join('/');
}

function parentPath(abs) {
  return abs.slice(0, abs.lastIndexOf('/')) || '/';
}

function childPath(dir, name) {
  return dir === '/' ? `/${name}` : `${dir}/${name}`;
}

/** True if absolute path `abs` is `dir` or lies under it. */
function isWithin(abs, dir) {
  return abs === dir || abs.startsWith(dir === '/' ? '/' : `${dir}/`);
}

function notInMemory(path, mount) {
  return new JulietError('invalid_argument',
    `not in memory: ${mount} is a mounted host directory (or other file system), ` +
    'which writeFiles, readFile, listFiles and removeFiles never touch', { path });
}

/** What the file system's errno values mean (Emscripten's numbering). */
const ERRNO_TEXT = {
  2: 'permission denied',
  10: 'resource busy',
  20: 'file exists',
  28: 'invalid argument',
  29: 'input/output error',
  31: 'is a directory',
  32: 'too many levels of symbolic links',
  37: 'name too long',
  44: 'no such file or directory',
  48: 'out of memory',
  51: 'no space left on device',
  54: 'not a directory',
  55: 'directory not empty',
  63: 'operation not permitted',
  69: 'read-only file system',
};

/**
 * A JulietError for an error the file system raised on `path` (its
 * ErrnoError carries only a number and "FS error").
 */
function fsError(err, path) {
  if (err instanceof JulietError) return err;
  const errno = err && typeof err.errno === 'number' ? err.errno : null;
  const message = errno === null
    ? String((err && err.message) || err)
    : ERRNO_TEXT[errno] || `file system error (errno ${errno})`;
  return new JulietError(errno === 44 ? 'not_found' : 'io', message, { path });
}

/** Runs call(), turning what the file system throws into a JulietError naming `path`. */
function onPath(path, call) {
  try {
    return call();
  } catch (err) {
    throw fsError(err, path);
  }
}

/**
 * One open world. Methods throw a JulietError with code 'closed' after
 * close(), which itself may be called any number of times.
 */
export class World {
  constructor(juliet, ptr) {
    this._j = juliet;
    this._c = juliet._c;
    this._ptr = ptr;
    /** The world's directory as the caller named it, or null (snapshot). */
    this.path = null;
    this._vpath = null; // the same directory inside the module's file system
    this._mount = null; // under Node: where a host directory is mounted
    this._hostRoot = null; // ... and that host directory
    this._inMemory = !isNode; // paths name the in-memory file system
  }

  _live() {
    if (!this._ptr) throw new JulietError('closed', 'the world is closed');
    return this._ptr;
  }

  /**
   * Gives the world the existing directory it is opened from. Under Node
   * the host directory is mounted (NODEFS) at a fresh mount point; in the
   * browser (or in memory) the path is used as is.
   */
  _attachExisting(path) {
    const FS = this._j._m.FS;
    if (!this._inMemory) {
      const nodeFs = process.getBuiltinModule('fs');
      const host = process.getBuiltinModule('path').resolve(path);
      if (!nodeFs.existsSync(host)) throw new JulietError('not_found', 'no such directory', { path });
      if (!nodeFs.statSync(host).isDirectory()) throw new JulietError('not_found', 'not a directory', { path });
      this._mountHost(host);
      this.path = host;
      this._vpath = this._mount;
    } else {
      const dir = normalizeDir(path);
      const found = FS.analyzePath(dir);
      if (!found.exists) throw new JulietError('not_found', 'no such directory', { path });
      if (!FS.isDir(found.object.mode)) throw new JulietError('not_found', 'not a directory', { path });
      this.path = dir;
      this._vpath = dir;
    }
  }

  /**
   * Names the directory a world without one is first saved to. The engine
   * writes it beside that directory and renames it into place, so under
   * Node the parent directory is mounted.
   */
  _attachNew(path) {
    if (!this._inMemory) {
      const nodePath = process.getBuiltinModule('path');
      const host = nodePath.resolve(path);
      const parent = nodePath.dirname(host);
      process.getBuiltinModule('fs').mkdirSync(parent, { recursive: true });
      this._mountHost(parent);
      this.path = host;
      this._vpath = host === parent ? this._mount : `${this._mount}/${nodePath.basename(host)}`;
    } else {
      const dir = normalizeDir(path);
      mkdirTree(this._j._m.FS, parentPath(dir));
      this.path = dir;
      this._vpath = dir;
    }
  }

  _mountHost(host) {
    const FS = this._j._m.FS;
    const mount = `/host/${++this._j._mounts}`;
    mkdirTree(FS, mount);
    FS.mount(this._j._m.NODEFS, { root: host }, mount);
    this._mount = mount;
    this._hostRoot = host;
  }

  _unmount() {
    if (this._mount) {
      const FS = this._j._m.FS;
      try {
        FS.unmount(this._mount);
        FS.rmdir(this._mount);
      } catch {
        // A mount point that cannot go only costs an empty directory.
      }
    }
    this._mount = null;
    this._hostRoot = null;
  }

  /** A path the C side reported, in the caller's terms (host path under Node). */
  _mapPath(path) {
    if (this._mount && (path === this._mount || path.startsWith(this._mount + '/'))) {
      return this._hostRoot + path.slice(this._mount.length);
    }
    return path;
  }

  /** A message the C side wrote, with mount paths in the caller's terms. */
  _mapText(text) {
    return this._mount && text ? text.split(this._mount + '/').join(this._hostRoot + '/') : text;
  }

  _error(status) {
    const err = this._j._lastError(status, (p) => this._mapPath(p));
    if (this._mount) {
      const mapped = new JulietError(err.code, this._mapText(err.detail), err);
      return mapped;
    }
    return err;
  }

  _throw(status) {
    throw this._error(status);
  }

  /** Number of live entities. */
  get count() {
    return this._c.jlw_world_count(this._live());
  }

  /**
   * Every entity as columns, cheap for 100,000 entities: one call into C,
   * one copy per column.
   * @returns {{count: number, ids: string[], classNames: string[],
   *   classIndex: Uint8Array, positions: Float32Array, dirty: Uint8Array,
   *   readOnly: Uint8Array}} positions holds x, y, z per entity; classIndex
   *   indexes classNames; entities are in the engine's slot order.
   */
  rows() {
    const ptr = this._live();
    const j = this._j;
    const n = this._c.jlw_world_count(ptr);
    const block = j._malloc(n * 22 + 16);
    try {
      const idsPtr = (block + 7) & ~7;
      const posPtr = idsPtr + n * 8;
      const kindPtr = posPtr + n * 12;
      const statePtr = kindPtr + n;
      const count = this._c.jlw_world_rows(ptr, idsPtr, posPtr, kindPtr, statePtr, n);
      const m = j._m;
      const idWords = m.HEAPU32.slice(idsPtr >>> 2, (idsPtr >>> 2) + count * 2);
      const positions = m.HEAPF32.slice(posPtr >>> 2, (posPtr >>> 2) + count * 3);
      const classIndex = m.HEAPU8.slice(kindPtr, kindPtr + count);
      const states = m.HEAPU8.subarray(statePtr, statePtr + count);
      const dirty = new Uint8Array(count);
      const readOnly = new Uint8Array(count);
      for (let i = 0; i < count; i++) {
        dirty[i] = states[i] & STATE_DIRTY;
        readOnly[i] = (states[i] & STATE_READ_ONLY) >> 1;
      }
      const ids = new Array(count);
      for (let i = 0; i < count; i++) ids[i] = joinId(idWords[2 * i], idWords[2 * i + 1]);
      return { count, ids, classNames: j.classes(), classIndex, positions, dirty, readOnly };
    } finally {
      j._free(block);
    }
  }

  /**
   * Every entity: [{ id, class, position: [x, y, z], dirty }], in the
   * engine's slot order. (rows() gives the same as columns, faster.)
   */
  entities() {
    const r = this.rows();
    const out = new Array(r.count);
    for (let i = 0; i < r.count; i++) {
      out[i] = {
        id: r.ids[i],
        class: r.classNames[r.classIndex[i]],
        position: [r.positions[3 * i], r.positions[3 * i + 1], r.positions[3 * i + 2]],
        dirty: r.dirty[i] === 1,
      };
    }
    return out;
  }

  /** True if a live entity has this ID. */
  has(id) {
    const [lo, hi] = splitId(id);
    return this._c.jlw_entity_state(this._live(), lo, hi) >= 0;
  }

  /**
   * One entity with every field: { id, class, version, classVersion,
   * position, fields: { name: value }, dirty, readOnly }. Field values by
   * type: f32 number (Infinity where allowed), index number (INDEX_NONE for
   * none), bool, vec3 [x, y, z], color '#rrggbb', entity_ref ID string or
   * null. Throws 'not_found' if no entity has the ID.
   * @param {string} id
   */
  get(id) {
    const ptr = this._live();
    const [lo, hi] = splitId(id);
    const state = this._c.jlw_entity_state(ptr, lo, hi);
    if (state < 0) throw new JulietError('not_found', `no entity ${id}`);
    const text = this.entityText(id);
    const schema = this._j._schemaOfKind(state >> 8);
    const entity = {
      id: joinId(lo, hi),
      class: schema.name,
      version: 0,
      classVersion: 0,
      position: [0, 0, 0],
      fields: {},
      dirty: (state & STATE_DIRTY) !== 0,
      readOnly: (state & STATE_READ_ONLY) !== 0,
    };
    entity.fields = fieldValues(schema, text, (key, value) => {
      if (key === 'version') entity.version = Number(value);
      else if (key === 'class_version') entity.classVersion = Number(value);
      else if (key === 'position') entity.position = textValue('vec3', value);
    });
    return entity;
  }

  /**
   * The canonical .jasset text of an entity: what save() would write for it,
   * decoded as UTF-8 (bytes that are not UTF-8, kept in an unknown key's
   * value, read as U+FFFD: entityBytes() gives them exactly).
   * @param {string} id
   * @returns {string}
   */
  entityText(id) {
    const ptr = this._live();
    const [lo, hi] = splitId(id);
    return this._textAt(this._c.jlw_entity_text(ptr, lo, hi, this._j._out));
  }

  /**
   * The bytes save() would write for an entity, exactly (a copy): what
   * loadEntityText() takes to bring it back byte for byte (an undo).
   * @param {string} id
   * @returns {Uint8Array}
   */
  entityBytes(id) {
    const ptr = this._live();
    const [lo, hi] = splitId(id);
    return this._bytesAt(this._c.jlw_entity_text(ptr, lo, hi, this._j._out));
  }

  /** Decodes text an export returned (see _bytesAt). */
  _textAt(textPtr) {
    return decoder.decode(this._bytesAt(textPtr));
  }

  /** Copies the bytes of text an export returned (length in the out block), or throws its error. */
  _bytesAt(textPtr) {
    if (!textPtr) this._throw(0);
    const j = this._j;
    return j._copyOut(textPtr, j._u32(j._out));
  }

  /**
   * Copies text (a string, encoded as UTF-8, or bytes as they are) into the
   * wasm heap, calls call(textPtr, size) and throws the error of a failed
   * status; the copy is freed either way.
   */
  _withText(text, call) {
    const j = this._j;
    const bytes = typeof text === 'string' ? encoder.encode(text) : text;
    const textPtr = j._copyIn(bytes);
    try {
      const status = call(textPtr, bytes.length);
      if (status !== 0) this._throw(status);
    } finally {
      j._free(textPtr);
    }
  }

  /**
   * Adds an entity from the text of a .jasset file, validated exactly as a
   * file is (for an undo of a removal, or a file dropped into the page).
   * `path` names it in errors and diagnostics (a name ending in .jasset must
   * be the decimal ID); `dirty` (default true) says it differs from disk.
   * Returns its ID; a bad text throws (and is added to diagnostics()).
   * The text is a string or the file's bytes (entityBytes() gives them):
   * only bytes keep values that are not UTF-8 exactly.
   * @param {string|Uint8Array} text
   * @param {{path?: string, dirty?: boolean}} [options]
   * @returns {string}
   */
  loadEntityText(text, options = {}) {
    const ptr = this._live();
    checkText(text);
    if (options === null || typeof options !== 'object') throw new TypeError('options must be an object');
    const path = options.path === undefined ? null : checkString(options.path, 'path');
    const dirty = options.dirty === undefined ? true : options.dirty;
    if (typeof dirty !== 'boolean') throw new TypeError('options.dirty must be a boolean');
    const j = this._j;
    this._withText(text, (textPtr, size) =>
      this._c.jlw_world_load_entity_text(ptr, path, textPtr, size, dirty ? 1 : 0, j._out));
    return joinId(j._u32(j._out), j._u32(j._out + 4));
  }

  /**
   * The fields of a class (see Juliet#schema).
   * @param {string} className
   */
  schema(className) {
    return this._j.schema(className);
  }

  /**
   * Sets 'position' ([x, y, z]) or a field of the entity's class, and marks
   * the entity dirty. Wrong JavaScript types throw a TypeError; values the
   * engine refuses (out of range) a JulietError with code 'parse'.
   * @param {string} id
   * @param {string} field
   * @param {*} value
   */
  set(id, field, value) {
    const ptr = this._live();
    const [lo, hi] = splitId(id);
    checkString(field, 'field', 64);
    const state = this._c.jlw_entity_state(ptr, lo, hi);
    if (state < 0) throw new JulietError('not_found', `no entity ${id}`);
    let text;
    if (field === 'position') {
      text = checkVec3(value, 'position').map(floatText).join(' ');
    } else {
      const schema = this._j._schemaOfKind(state >> 8);
      const spec = schema.byName.get(field);
      if (!spec) throw new JulietError('not_found', `class ${schema.name} has no field "${field}"`);
      text = valueText(spec, value);
    }
    this._withText(text, (textPtr, size) => this._c.jlw_entity_set(ptr, lo, hi, field, textPtr, size));
  }

  // ---- the world settings (WorldSettings.jasset) ----

  /**
   * The fields of the world settings (see Juliet#settingsSchema).
   */
  settingsSchema() {
    return this._j.settingsSchema();
  }

  /**
   * The world settings: { fields: { name: value }, dirty, readOnly, failed },
   * values as get() gives them. `failed`: WorldSettings.jasset did not load
   * (the defaults stand in and the file is never rewritten); `readOnly`: the
   * file is newer than this build, or failed.
   */
  settings() {
    const ptr = this._live();
    const state = this._c.jlw_settings_state(ptr);
    return {
      fields: fieldValues(this._j._settingsSchema(), this.settingsText()),
      dirty: (state & STATE_DIRTY) !== 0,
      readOnly: (state & (STATE_READ_ONLY | STATE_FAILED)) !== 0,
      failed: (state & STATE_FAILED) !== 0,
    };
  }

  /**
   * Sets a settings field and marks the settings dirty, checked as set()
   * checks a class field: wrong JavaScript types throw a TypeError, an
   * unknown field a JulietError 'not_found', values the engine refuses
   * 'parse', read-only or failed settings 'read_only'.
   * @param {string} field
   * @param {*} value
   */
  setSetting(field, value) {
    const ptr = this._live();
    checkString(field, 'field', 64);
    const spec = this._j._settingsSchema().byName.get(field);
    if (!spec) throw new JulietError('not_found', `the world settings have no field "${field}"`);
    const text = valueText(spec, value);
    this._withText(text, (textPtr, size) => this._c.jlw_settings_set(ptr, field, textPtr, size));
  }

  /**
   * The canonical WorldSettings.jasset text: what save() would write,
   * decoded as UTF-8 (settingsBytes() gives the bytes exactly).
   * @returns {string}
   */
  settingsText() {
    return this._textAt(this._c.jlw_settings_text(this._live(), this._j._out));
  }

  /**
   * The bytes save() would write for WorldSettings.jasset, exactly (a
   * copy), for loadSettingsText().
   * @returns {Uint8Array}
   */
  settingsBytes() {
    return this._bytesAt(this._c.jlw_settings_text(this._live(), this._j._out));
  }

  /**
   * Replaces the settings from the text of a WorldSettings.jasset file,
   * validated exactly as the file is. A bad text throws (named after the
   * world's settings file, and added to diagnostics()) and leaves the
   * settings as they were; read-only or failed settings throw 'read_only'. `dirty` (default false) says the text differs
   * from the file on disk, so the next save writes it. The text is a string
   * or the file's bytes (settingsBytes() gives them exactly).
   * @param {string|Uint8Array} text
   * @param {{dirty?: boolean}} [options]
   */
  loadSettingsText(text, options = {}) {
    const ptr = this._live();
    checkText(text);
    if (options === null || typeof options !== 'object') throw new TypeError('options must be an object');
    const dirty = options.dirty === undefined ? false : options.dirty;
    if (typeof dirty !== 'boolean') throw new TypeError('options.dirty must be a boolean');
    // Errors name the file a save would write (mapped to the host path).
    const path = this._vpath === null ? SETTINGS_FILE : `${this._vpath}/${SETTINGS_FILE}`;
    this._withText(text, (textPtr, size) =>
      this._c.jlw_world_load_settings_text(ptr, path, textPtr, size, dirty ? 1 : 0));
  }

  /**
   * Creates an entity of a class at a position (default [0, 0, 0]) with the
   * class defaults; it is dirty. Returns its new ID.
   * @param {string} className
   * @param {number[]} [position]
   * @returns {string}
   */
  create(className, position = [0, 0, 0]) {
    const ptr = this._live();
    checkString(className, 'className', 256);
    const [x, y, z] = checkVec3(position, 'position');
    const j = this._j;
    j._schema(className); // unknown classes fail here with the known list
    const status = this._c.jlw_entity_create(ptr, className, x, y, z, j._out);
    if (status !== 0) this._throw(status);
    return joinId(j._u32(j._out), j._u32(j._out + 4));
  }

  /**
   * Removes an entity; its file is deleted at the next save.
   * @param {string} id
   */
  remove(id) {
    const ptr = this._live();
    const [lo, hi] = splitId(id);
    const status = this._c.jlw_entity_remove(ptr, lo, hi);
    if (status !== 0) this._throw(status);
  }

  /**
   * Saves: deletes the files of removed entities, writes every dirty entity
   * and WorldSettings.jasset if the settings are dirty, writes nothing else,
   * holding the world's lock (a JulietError 'locked' names the process
   * that holds it). `path` is only for a world without a directory yet
   * (from openSnapshot or newWorld): it must not exist or be empty (else
   * 'exists': a world is never merged into another), and receives the
   * whole world or nothing; the world then keeps it. Returns the paths
   * touched, in the caller's terms (host paths under Node). On failure the
   * JulietError names the file; what failed stays pending.
   * @param {string} [path]
   * @returns {{written: string[], deleted: string[]}}
   */
  save(path) {
    const ptr = this._live();
    const isNew = path !== undefined;
    if (isNew) {
      checkString(path, 'path');
      if (this.path !== null) {
        throw new TypeError('this world already has a directory: save() takes no path');
      }
      this._attachNew(path);
    } else if (this.path === null) {
      throw new TypeError('this world has no directory yet: pass one to save(path)');
    }
    const c = this._c;
    const status = isNew ? c.jlw_world_save_new(ptr, this._vpath) : c.jlw_world_save(ptr, this._vpath);
    const written = [];
    const deleted = [];
    for (let i = 0, n = c.jlw_save_written_count(); i < n; i++) {
      written.push(this._mapPath(this._j._string(c.jlw_save_written(i))));
    }
    for (let i = 0, n = c.jlw_save_deleted_count(); i < n; i++) {
      deleted.push(this._mapPath(this._j._string(c.jlw_save_deleted(i))));
    }
    if (status !== 0) {
      const err = this._error(status);
      err.written = written;
      err.deleted = deleted;
      if (isNew) {
        // Still a world without a directory.
        this._unmount();
        this.path = null;
        this._vpath = null;
      }
      throw err;
    }
    return { written, deleted };
  }

  /**
   * Marks every entity and the settings dirty, so the next save rewrites
   * every file in canonical form (read-only ones excepted).
   */
  markAllDirty() {
    this._c.jlw_world_mark_all_dirty(this._live());
  }

  /**
   * Problems found while loading, oldest first:
   * [{ path, line, col, message, code }] (line and col 0 when the problem
   * is the whole file).
   */
  diagnostics() {
    const ptr = this._live();
    const c = this._c;
    const out = [];
    for (let i = 0, n = c.jlw_world_diagnostic_count(ptr); i < n; i++) {
      const d = c.jlw_world_diagnostic(ptr, i);
      const path = this._j._string(c.jlw_error_path(d));
      out.push({
        path: path ? this._mapPath(path) : null,
        line: c.jlw_error_line(d),
        col: c.jlw_error_col(d),
        message: this._mapText(this._j._string(c.jlw_error_message(d))),
        code: this._j._statusName(c.jlw_error_status(d)),
      });
    }
    return out;
  }

  /**
   * The whole world as a short URL-safe string (C encoding, deflate-raw,
   * base64url): put it after '#' in a link; juliet.openSnapshot() reads it.
   * @returns {Promise<string>}
   */
  async snapshot() {
    const ptr = this._live();
    const j = this._j;
    const c = this._c;
    let bytes;
    const data = c.jlw_snapshot_encode(ptr, j._out);
    if (!data) this._throw(0);
    try {
      bytes = j._copyOut(data, j._u32(j._out));
    } finally {
      j._free(data);
    }
    const packed = await deflate(bytes);
    const inPtr = j._copyIn(packed);
    let outPtr = 0;
    try {
      outPtr = j._malloc(c.jlw_base64url_encoded_size(packed.length));
      const length = c.jlw_base64url_encode(inPtr, packed.length, outPtr);
      return decoder.decode(j._copyOut(outPtr, length));
    } finally {
      j._free(outPtr);
      j._free(inPtr);
    }
  }

  /** Frees the world (and under Node unmounts its directory). Safe twice. */
  close() {
    if (!this._ptr) return;
    const ptr = this._ptr;
    this._ptr = 0;
    this._c.jlw_world_free(ptr);
    this._unmount();
  }
}
