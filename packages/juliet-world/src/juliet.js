/**
 * juliet.js - the JavaScript API of Juliet World, the same in Node and in the
 * browser, and the one entry its consumers import. The Emscripten output
 * (../dist/juliet_wasm.mjs, built by c/wasm/CMakeLists.txt) is imported
 * here only, when loadJuliet() first needs it. It has no class compiled in:
 * a world's classes come from its class files. A program whose classes are
 * compiled into a module of its own (the same exports, c/wasm) hands that
 * module's factory to loadJuliet({ module }).
 *
 *   const juliet = await loadJuliet();
 *   const world = juliet.openWorld('assets/sample_world');
 *   world.set(id, 'position', [1, 2, 3]);
 *   world.set(id, 'intensity', '2.5');       // text as typed: C checks it
 *   world.setSetting('time_of_day', 18); // WorldSettings.jasset
 *   world.save();   // { written: [paths], deleted: [paths] }
 *   world.close();
 *
 * Files: under Node, openWorld(path) opens the host directory, which the
 * engine reads and writes through Node's own fs; in the browser a path names
 * a directory of the in-memory file system (MEMFS), filled with
 * juliet.writeFiles() and read back with juliet.readFile(). Those file calls
 * only reach memory, never the host's disk.
 *
 * Errors: a failure reported by C is thrown as a JulietError carrying the
 * status name (`code`: 'parse', 'not_found', 'corrupt', ...), C's message
 * and, where one applies, `path`, `line` and `col`. Arguments of the wrong
 * type throw a TypeError before anything reaches C.
 *
 * Values: C owns the text form of field values (parse, check, format);
 * JavaScript only prints numbers as text and reads C's canonical text back.
 *
 * Modules, one concern each: wasm.js (the exports and the heap), errors.js,
 * checks.js (argument types), ids.js (IDs and their file paths), values.js
 * (values <-> the engine's text), classes.js (reflection), files.js (the
 * module's file system and worlds' directories), deflate.js, snapshot.js and changes.js (links), world.js (World),
 * constants.js (names and limits of a world on disk) and pack.js (the world
 * pack, the binary form in which a server and a page exchange a world's files).
 */
import { booleanOption, checkOptions, checkString, checkText, describe } from './checks.js';
import { decodeChanges, linkKind } from './changes.js';
import { Classes, publicFields } from './classes.js';
import { DEFAULT_CAPACITY } from './constants.js';
import { JulietError } from './errors.js';
import { Files } from './files.js';
import { entitiesHeld, snapshotBytes, snapshotProblem } from './snapshot.js';
import { FIELD_ALLOW_INF, textValue } from './values.js';
import { Wasm } from './wasm.js';
import { newWorld, openWorld, worldOfSnapshot } from './world.js';

export { CLASSES_DIR, DEFAULT_CAPACITY, ENTITIES_DIR, FILE_MAX, LINK_MAX, MAX_CAPACITY, SETTINGS_FILE } from './constants.js';
export { JulietError } from './errors.js';
export { ID_TEXT_LENGTH, entityPath, idOfNumber, idOfPath, idsText, isClassFilePath } from './ids.js';
export { INDEX_NONE, nameRecord, textValue, valueText } from './values.js';
export { decodePack, encodePack, encodePackColumns, encodePackParts, packReader, packRuns, readPackIndex } from './pack.js';
export { pathIndex } from './pathIndex.js';
export { exportNames } from './wasm.js';
export { World } from './world.js';

// Module factory -> the promise of its Juliet; null stands for the
// library's own module.
const loaded = new Map();

const ABSENT = 0xffffffff; // a value one side of a diff lacks (exports.c)
const decoder = new TextDecoder();

/**
 * A reader of the records of jlw_text_diff and jlw_text_merge: u32 sizes
 * (little-endian; ABSENT for a value one side lacks), then the bytes.
 */
function records(bytes) {
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  let at = 0;
  const text = (size) => {
    if (size === ABSENT) return null;
    const decoded = decoder.decode(bytes.subarray(at, at + size));
    at += size;
    return decoded;
  };
  return {
    done: () => at >= bytes.length,
    /** The texts of the next record of n values. */
    next(n) {
      const sizes = [];
      for (let i = 0; i < n; i++) sizes.push(view.getUint32(at + 4 * i, true));
      at += 4 * n;
      return sizes.map(text);
    },
    rest: () => decoder.decode(bytes.subarray(at)),
  };
}

/** The records of jlw_text_diff as [{ key, old, new }]. */
function keyChanges(bytes) {
  const reader = records(bytes);
  const out = [];
  while (!reader.done()) {
    const [key, old, now] = reader.next(3);
    out.push({ key, old, new: now });
  }
  return out;
}

/** The block of jlw_text_merge: count conflicts, then the merged text. */
function mergeResult(bytes, count) {
  const reader = records(bytes);
  const conflicts = [];
  for (let i = 0; i < count; i++) {
    const [key, base, ours, theirs] = reader.next(4);
    conflicts.push({ key, base, ours, theirs });
  }
  return { text: reader.rest(), conflicts };
}

/**
 * Loads the wasm module once and returns the API. Every call returns the
 * same promise; if loading fails the promise rejects, and a later call
 * tries again. `options.module`: the factory (the default export) of
 * another build of the module, one with a program's classes compiled in;
 * each factory is loaded once.
 * @param {{ module?: () => Promise<object> }} [options]
 * @returns {Promise<Juliet>}
 */
export function loadJuliet(options = {}) {
  const factory = checkOptions(options).module ?? null;
  if (factory !== null && typeof factory !== 'function') {
    throw new TypeError(`options.module must be a module factory (a function), got ${describe(factory)}`);
  }
  let loading = loaded.get(factory);
  if (!loading) {
    const create = factory ? Promise.resolve(factory) : import('../dist/juliet_wasm.mjs').then((m) => m.default);
    loading = create
      .then((createModule) => createModule())
      .then(
        (module) => new Juliet(module),
        (err) => {
          loaded.delete(factory);
          throw err;
        },
      );
    loaded.set(factory, loading);
  }
  return loading;
}

/**
 * The loaded module: opens worlds and snapshots, reflects classes, checks
 * values, and reads and writes files of the in-memory file system.
 */
export class Juliet {
  /** @param {object} module the Emscripten module instance */
  constructor(module) {
    const wasm = new Wasm(module);
    // The classes this build knows are registered before any world exists.
    const status = wasm.c.jlw_init();
    if (status !== 0) throw wasm.lastError(status);
    // All a World gets of the module (see world.js).
    this._engine = Object.freeze({ wasm, classes: new Classes(wasm), files: new Files(module) });
  }

  // ---- classes and values ----

  /** Names of the entity classes this build knows, by class index. */
  classes() {
    return this._engine.classes.names();
  }

  /**
   * The fields of a class, in file order, for building editors:
   * [{ name, type, default, allowInf, names }], `type` one of 'f32',
   * 'index', 'bool', 'vec3', 'color', 'entity_ref', 'i32', 'u32', 'string',
   * 'enum', 'vec2', 'quat', `default` a value as get() gives, `names` (enum
   * fields only) the names the field takes, in value order.
   * @param {string} className
   */
  schema(className) {
    return publicFields(this._engine.classes.named(className));
  }

  /**
   * The fields of the world settings (WorldSettings.jasset), in the shape
   * schema() gives for a class.
   */
  settingsSchema() {
    return publicFields(this._engine.classes.settings());
  }

  /**
   * Checks text typed for a value of field type `type` with the engine's
   * own parser, the one files are read with (so '+1' and '1.' are refused
   * as in a file). Returns { value, text }: the value as get() gives it and
   * its canonical text; or { error, col }: the engine's message and the
   * 1-based column it points at. { allowInf } for an f32 field that takes
   * infinity (FieldSchema#allowInf). An unknown type throws a JulietError
   * 'invalid_argument'.
   * @param {string} type
   * @param {string} text
   * @param {{allowInf?: boolean}} [options]
   * @returns {{value: *, text: string} | {error: string, col: number}}
   */
  checkValue(type, text, options = {}) {
    checkString(type, 'type', 64);
    if (typeof text !== 'string') throw new TypeError(`text must be a string, got ${describe(text)}`);
    checkOptions(options);
    const flags = booleanOption(options, 'allowInf', false) ? FIELD_ALLOW_INF : 0;
    return this._check(type, text, (textPtr, size) => this._engine.wasm.c.jlw_value_check(type, flags, textPtr, size));
  }

  /**
   * checkValue for field `field` of class `className`: its type, flags and,
   * for an enum, the names it takes (which checkValue cannot know). A class
   * or field that does not exist throws a JulietError 'unknown_class' or
   * 'not_found'.
   * @param {string} className
   * @param {string} field
   * @param {string} text
   * @returns {{value: *, text: string} | {error: string, col: number}}
   */
  checkField(className, field, text) {
    const schema = this._engine.classes.named(className);
    checkString(field, 'field', 64);
    if (typeof text !== 'string') throw new TypeError(`text must be a string, got ${describe(text)}`);
    const spec = schema.byName.get(field);
    if (!spec) throw new JulietError('not_found', `class ${schema.name} has no field "${field}"`);
    return this._check(spec.type, text, (textPtr, size) =>
      this._engine.wasm.c.jlw_class_field_check(0, schema.kind, spec.index, textPtr, size),
    );
  }

  /** Runs a C check of `text` (call(textPtr, size) -> canonical text or NULL) for a value of `type`. */
  _check(type, text, call) {
    const { wasm } = this._engine;
    const canonical = wasm.withText(text, (textPtr, size) => wasm.string(call(textPtr, size)));
    if (canonical !== null) return { value: textValue(type, canonical), text: canonical };
    const err = wasm.lastError(0);
    if (err.code !== 'parse') throw err;
    return { error: err.detail, col: err.col };
  }

  // ---- the review of changes ----

  /**
   * What changed between two versions of a .jasset text, key by key, with
   * the engine's own comparison (the one `juliet diff` prints): [{ key,
   * old, new }] for each key whose value differs, `old` null for a key only
   * `newText` has and `new` null for one only `oldText` has; the keys of
   * `newText` in its order, then those only `oldText` has. Formatting is
   * compared as written: pass canonical texts (World#entityBytes) to see
   * value changes only. An empty text has no keys (a new or a deleted
   * entity against nothing). A text that does not tokenize throws a
   * JulietError 'parse' naming `path` (if given), line and column.
   * @param {string|Uint8Array} oldText
   * @param {string|Uint8Array} newText
   * @param {{path?: string}} [options]
   * @returns {{key: string, old: string|null, new: string|null}[]}
   */
  textDiff(oldText, newText, options = {}) {
    checkText(oldText);
    checkText(newText);
    checkOptions(options);
    const path = options.path === undefined ? null : checkString(options.path, 'path');
    const { wasm } = this._engine;
    const block = wasm.withText(oldText, (oldPtr, oldSize) =>
      wasm.withText(newText, (newPtr, newSize) => wasm.c.jlw_text_diff(oldPtr, oldSize, newPtr, newSize, path, wasm.out, wasm.out + 4)),
    );
    return keyChanges(wasm.takeBlock(block));
  }

  /**
   * The three-way merge of an entity's .jasset text, key by key, with the
   * engine's own merge (the one `juliet merge` runs): a key one side
   * changed from `base` takes that change (a value, an addition or a
   * removal), the same change on both sides is taken once, and a key both
   * sides changed differently is a conflict that keeps `ours`, or `theirs`
   * if `options.theirs` names it. Values are compared as `textDiff`
   * compares them; the text holds ours' keys in ours' order, a key only
   * theirs has after the key it follows in theirs, each written as the
   * engine writes a file (the merge of canonical texts is canonical).
   * Returns { text, conflicts: [{ key, base, ours, theirs }] } in the
   * text's order, null for a value a side lacks. A text that does not
   * tokenize throws a JulietError 'parse' naming `path` (if given), line
   * and column.
   * @param {string|Uint8Array} base
   * @param {string|Uint8Array} ours
   * @param {string|Uint8Array} theirs
   * @param {{path?: string, theirs?: string[]}} [options]
   * @returns {{text: string, conflicts: {key: string, base: string|null, ours: string|null, theirs: string|null}[]}}
   */
  textMerge(base, ours, theirs, options = {}) {
    for (const text of [base, ours, theirs]) checkText(text);
    checkOptions(options);
    const path = options.path === undefined ? null : checkString(options.path, 'path');
    const keys = options.theirs ?? [];
    if (!Array.isArray(keys)) throw new TypeError(`options.theirs must be an array of keys, got ${describe(keys)}`);
    keys.forEach((key, i) => checkString(key, `options.theirs[${i}]`, 64));
    const { wasm } = this._engine;
    // Key names cannot hold NUL (checkString): it separates them.
    const texts = [base, ours, theirs, keys.join('\0')];
    const block = wasm.withTexts(texts, (b, bSize, o, oSize, t, tSize, k, kSize) =>
      wasm.c.jlw_text_merge(b, bSize, o, oSize, t, tSize, path, k, kSize, wasm.out, wasm.out + 4),
    );
    return mergeResult(wasm.takeBlock(block), wasm.u32(wasm.out + 4));
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
   * { read } under Node: files of the directory read already (FilesRead in
   * juliet.d.ts), each taken as it was read instead of reading it again.
   * @param {string} path
   * @param {{inMemory?: boolean, capacity?: number, read?: object}} [options]
   * @returns {World}
   */
  openWorld(path, options = {}) {
    return openWorld(this._engine, path, options);
  }

  /**
   * A new empty world with no directory yet: save(path) gives it one (a
   * host directory under Node unless { inMemory: true }). { capacity } as
   * for openWorld().
   * @param {{inMemory?: boolean, capacity?: number}} [options]
   * @returns {World}
   */
  newWorld(options = {}) {
    return newWorld(this._engine, options);
  }

  /**
   * Opens a snapshot (the text world.snapshot() gave, or a whole link
   * `...#TEXT`) as a new world without a directory: every entity is dirty
   * and save(path) writes them out. Rejects with a JulietError ('corrupt',
   * 'unknown_class', ...) for damaged or hostile input, 'capacity' for more
   * entities than options.capacity. Without that option the world takes
   * 100,000 entities, or those of a larger snapshot and 100,000 more.
   * Options as for newWorld(). A 'corrupt' error carries `reason`: why the text is not a
   * level, in a link holder's terms ('truncated', 'foreign', 'damaged',
   * 'version': snapshot.js's snapshotProblem).
   * @param {string} text
   * @param {{inMemory?: boolean, capacity?: number}} [options]
   * @returns {Promise<World>}
   */
  async openSnapshot(text, options = {}) {
    if (typeof text !== 'string') throw new TypeError(`snapshot must be a string, got ${describe(text)}`);
    checkOptions(options);
    try {
      const bytes = await snapshotBytes(this._engine.wasm, text);
      try {
        return worldOfSnapshot(this._engine, bytes, options);
      } catch (err) {
        // The default world is too small: one that fits it, and room.
        const held = options.capacity === undefined ? entitiesHeld(err) : null;
        if (held === null) throw err;
        return worldOfSnapshot(this._engine, bytes, { ...options, capacity: held + DEFAULT_CAPACITY });
      }
    } catch (err) {
      const reason = await snapshotProblem(this._engine.wasm, text, err);
      if (reason) err.reason = reason;
      throw err;
    }
  }

  /**
   * Reads a change link (the text world.changesText() gave, or a whole
   * link `...#TEXT`) without applying it: { world (the name of the world
   * it was made for), settings: { print, fields } | null, changed: [{ id,
   * print, fields: [{ field, text }] }], added: [{ id, text }], deleted:
   * [{ id, print }] }, lists by ascending ID; a field's text is the value
   * as a file holds it, null for a key the edit removed; print is the low
   * 32 bits of the print of the file the edit was made against. Rejects
   * with a JulietError 'corrupt' for damaged or hostile input, carrying
   * `reason` as openSnapshot() does ('truncated', 'foreign', 'damaged',
   * 'version'; a world link is 'foreign' here).
   * @param {string} text
   * @returns {Promise<object>}
   */
  async decodeChanges(text) {
    if (typeof text !== 'string') throw new TypeError(`change link must be a string, got ${describe(text)}`);
    return decodeChanges(this._engine.wasm, text);
  }

  /**
   * What a link (or the text after its '#') holds, told by its first
   * bytes without reading the rest: 'world' (openSnapshot opens it),
   * 'changes' (decodeChanges, World#applyChanges) or null (neither: either
   * call then says why).
   * @param {string} text
   * @returns {Promise<'world'|'changes'|null>}
   */
  async linkKind(text) {
    if (typeof text !== 'string') throw new TypeError(`link must be a string, got ${describe(text)}`);
    return linkKind(this._engine.wasm, text);
  }

  // ---- the in-memory file system (see files.js) ----

  /**
   * Writes files ({ path: 'Entities/12.jasset', bytes }) under directory
   * `dir` of the in-memory file system, creating directories as needed.
   * @param {string} dir
   * @param {{path: string, bytes: Uint8Array|string}[]} files
   */
  writeFiles(dir, files) {
    this._engine.files.writeFiles(dir, files);
  }

  /**
   * The bytes of a file of the in-memory file system (a copy).
   * @param {string} path
   * @returns {Uint8Array}
   */
  readFile(path) {
    return this._engine.files.readFile(path);
  }

  /**
   * The files under a directory of the in-memory file system, as sorted
   * relative paths; [] if it does not exist.
   * @param {string} dir
   * @returns {string[]}
   */
  listFiles(dir) {
    return this._engine.files.listFiles(dir);
  }

  /**
   * Deletes a directory of the in-memory file system and everything in it.
   * @param {string} dir
   */
  removeFiles(dir) {
    this._engine.files.removeFiles(dir);
  }

  /** Bytes of wasm memory the module has (it only grows). */
  heapBytes() {
    return this._engine.wasm.module.HEAPU8.length;
  }

  /** Bytes of that memory currently allocated by the C heap (leak checks). */
  heapUsed() {
    return this._engine.wasm.c.jlw_heap_used() >>> 0;
  }
}
