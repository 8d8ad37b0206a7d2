// world.js - one open world: its entities and settings read and changed
// through the C exports, its files saved, its snapshot and change links
// taken, change links applied.
import { booleanOption, checkOptions, checkString, checkText, checkVec3, describe } from './checks.js';
import { MAX_CAPACITY, SETTINGS_FILE } from './constants.js';
import { Classes, publicFields } from './classes.js';
import { JulietError } from './errors.js';
import { isNode } from './files.js';
import { joinId, splitId } from './ids.js';
import { applyChanges, changesText } from './changes.js';
import { snapshotText } from './snapshot.js';
import { fieldValues, nameRecord, textValue, valueText } from './values.js';

const STATE_DIRTY = 1;
const STATE_READ_ONLY = 2;
const STATE_FAILED = 4; // settings only: WorldSettings.jasset did not load

const decoder = new TextDecoder();

/**
 * What a world needs from the loaded module, handed over by Juliet (and
 * nothing else of it): the wrapped exports, the class reflection and the
 * file system.
 * @typedef {{wasm: import('./wasm.js').Wasm, classes: import('./classes.js').Classes,
 *   files: import('./files.js').Files}} Engine
 */

// ---- how Juliet makes worlds (its only way in) ----

/**
 * A new empty world without a directory (Juliet#newWorld). Options:
 * { inMemory, capacity } as documented there.
 * @param {Engine} engine
 * @returns {World}
 */
export function newWorld(engine, options) {
  checkOptions(options);
  const capacity = options.capacity === undefined ? 0 : options.capacity; // 0: the default
  if (options.capacity !== undefined && (!Number.isInteger(capacity) || capacity < 1 || capacity > MAX_CAPACITY)) {
    throw new TypeError(`options.capacity must be an integer from 1 to ${MAX_CAPACITY}, got ${describe(capacity)}`);
  }
  const inMemory = !isNode || !!options.inMemory;
  const ptr = engine.wasm.c.jlw_world_new(capacity, inMemory ? 0 : 1);
  if (!ptr) throw engine.wasm.lastError(0);
  return new World(engine, ptr, inMemory);
}

/**
 * The world of the existing directory `path` (Juliet#openWorld); files
 * that fail to load become diagnostics.
 * @param {Engine} engine
 * @returns {World}
 */
export function openWorld(engine, path, options) {
  checkString(path, 'path');
  const world = newWorld(engine, options);
  try {
    const { c } = engine.wasm;
    world._dir = engine.files.existingDir(path, world._inMemory);
    const read = options.read && !world._inMemory ? options.read : null;
    engine.files.withRead(world._dir, read, () => c.jlw_world_load(world._ptr, world._dir));
    c.jlw_world_check_references(world._ptr);
    return world;
  } catch (err) {
    world.close();
    throw err;
  }
}

/**
 * A world without a directory holding the entities and settings of
 * snapshot bytes (Juliet#openSnapshot).
 * @param {Engine} engine
 * @param {Uint8Array} bytes
 * @returns {World}
 */
export function worldOfSnapshot(engine, bytes, options) {
  const world = newWorld(engine, options);
  try {
    const { wasm } = engine;
    const status = wasm.withText(bytes, (dataPtr, size) => wasm.c.jlw_snapshot_decode(world._ptr, dataPtr, size));
    if (status !== 0) throw wasm.lastError(status);
    return world;
  } catch (err) {
    world.close();
    throw err;
  }
}

/**
 * One open world. Methods throw a JulietError with code 'closed' after
 * close(), which itself may be called any number of times.
 */
export class World {
  /**
   * @param {Engine} engine
   * @param {number} ptr the jl_world from jlw_world_new, owned from now on
   * @param {boolean} inMemory paths name the in-memory file system
   */
  constructor(engine, ptr, inMemory) {
    this._wasm = engine.wasm;
    this._c = engine.wasm.c;
    // The world's own classes: the module's, then those its class files
    // (Classes/<Name>.jclass) and its opaque entities add as files load.
    this._classes = new Classes(engine.wasm, ptr);
    this._files = engine.files;
    this._ptr = ptr;
    this._inMemory = inMemory;
    this._dir = null; // the directory once the world has one, as the engine names it
  }

  /** The world's directory (absolute under Node), or null (a snapshot or new world before its first save). */
  get path() {
    return this._dir;
  }

  _live() {
    if (!this._ptr) throw new JulietError('closed', 'the world is closed');
    return this._ptr;
  }

  _error(status) {
    return this._wasm.lastError(status);
  }

  _throw(status) {
    throw this._error(status);
  }

  /** Copies the text (pointer + length in the out block) an export returned, or throws its error. */
  _bytesAt(textPtr) {
    if (!textPtr) this._throw(0);
    return this._wasm.copyOut(textPtr, this._wasm.u32(this._wasm.out));
  }

  /** A value's canonical text a getter export returned, or throws its error. */
  _valueAt(textPtr) {
    if (!textPtr) this._throw(0);
    return this._wasm.string(textPtr);
  }

  /** Hands text to call(textPtr, size) (see Wasm#withText) and throws the error of a failed status. */
  _withText(text, call) {
    const status = this._wasm.withText(text, call);
    if (status !== 0) this._throw(status);
  }

  /** Number of live entities. */
  get count() {
    return this._c.jlw_world_count(this._live());
  }

  /**
   * Every entity as columns, cheap for 100,000 entities: one call into C,
   * one copy per column.
   * @returns {{count: number, ids: string[], idWords: Uint32Array,
   *   classNames: string[], classIndex: Uint8Array, positions: Float32Array,
   *   dirty: Uint8Array, readOnly: Uint8Array}} idWords holds the lo, hi
   *   halves of each ID, and `ids` is made from them when first read (a
   *   second at 1,000,000 entities); positions holds x, y, z per entity;
   *   classIndex indexes classNames; entities are in the engine's slot order.
   */
  rows() {
    const ptr = this._live();
    const wasm = this._wasm;
    const n = this._c.jlw_world_count(ptr);
    const block = wasm.malloc(n * 22 + 16);
    try {
      const idsPtr = (block + 7) & ~7;
      const posPtr = idsPtr + n * 8;
      const kindPtr = posPtr + n * 12;
      const statePtr = kindPtr + n;
      const count = this._c.jlw_world_rows(ptr, idsPtr, posPtr, kindPtr, statePtr, n);
      const m = wasm.module;
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
      let ids = null;
      return {
        count,
        get ids() {
          if (ids) return ids;
          ids = new Array(count);
          for (let i = 0; i < count; i++) ids[i] = joinId(idWords[2 * i], idWords[2 * i + 1]);
          return ids;
        },
        idWords,
        classNames: this._classes.names(),
        classIndex,
        positions,
        dirty,
        readOnly,
      };
    } finally {
      wasm.free(block);
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
   * position, fields: { name: value }, dirty, readOnly }, and opaque: true
   * for an opaque entity. `fields` has no prototype: its names come from
   * files, and one may be `__proto__` or `constructor`. Field
   * values by type: f32 number (Infinity where allowed), index number
   * (INDEX_NONE for none), bool, vec3 [x, y, z], color '#rrggbb',
   * entity_ref ID string or null. Values are read from C as canonical text
   * (jlw_entity_get); keys of its file this build does not know are kept
   * for saving but not listed. An opaque entity (its class is one no build
   * describes) lists every key of its file but the base ones, in file
   * order, each value the text the file has (read-only: set() refuses
   * them). Throws 'not_found' if no entity has the ID.
   * @param {string} id
   */
  get(id) {
    const ptr = this._live();
    const [lo, hi] = splitId(id);
    const state = this._c.jlw_entity_state(ptr, lo, hi);
    if (state < 0) throw new JulietError('not_found', `no entity ${id}`);
    const schema = this._classes.ofKind(state >> 8);
    const textOf = (field) => this._valueAt(this._c.jlw_entity_get(ptr, lo, hi, field));
    return {
      id: joinId(lo, hi),
      class: schema.name,
      version: this._c.jlw_entity_base_version(),
      classVersion: Number(textOf('class_version')),
      position: textValue('vec3', textOf('position')),
      fields: schema.opaque ? this._keptValues(lo, hi, textOf) : fieldValues(schema, textOf),
      ...(schema.opaque && { opaque: true }),
      dirty: (state & STATE_DIRTY) !== 0,
      readOnly: (state & STATE_READ_ONLY) !== 0,
    };
  }

  /**
   * The canonical text of one field of an entity (or of 'position', 'id',
   * 'class', 'class_version'), as its file holds it: one value without
   * reading the others, for looking through many entities. null if the
   * entity has no such field or no entity has the ID.
   * @param {string} id
   * @param {string} field
   * @returns {string|null}
   */
  fieldText(id, field) {
    const ptr = this._live();
    const [lo, hi] = splitId(id);
    checkString(field, 'field', 64);
    const textPtr = this._c.jlw_entity_get(ptr, lo, hi, field);
    if (textPtr) return this._wasm.string(textPtr);
    // Looked for in many entities, a field is often missing: no error built for that.
    const status = this._c.jlw_error_status(this._c.jlw_last_error());
    if (this._wasm.statusName(status) === 'not_found') return null;
    throw this._error(status);
  }

  /**
   * fieldText of every entity, in rows() order, in one call into C: what a
   * look through 100,000 entities can afford. null where the entity has no
   * such field.
   * @param {string} field
   * @returns {(string|null)[]}
   */
  fieldTexts(field) {
    const ptr = this._live();
    const wasm = this._wasm;
    checkString(field, 'field', 64);
    const n = this._c.jlw_world_count(ptr);
    const found = wasm.malloc(n);
    let block = 0;
    try {
      block = this._c.jlw_world_field_texts(ptr, field, found, n, wasm.out);
      if (!block) this._throw(0);
      const texts = decoder.decode(wasm.module.HEAPU8.subarray(block, block + wasm.u32(wasm.out))).split('\0');
      const has = wasm.module.HEAPU8.subarray(found, found + n);
      for (let i = 0; i < n; i++) if (!has[i]) texts[i] = null;
      texts.length = n;
      return texts;
    } finally {
      wasm.free(block);
      wasm.free(found);
    }
  }

  /** An opaque entity's kept keys: { key: text }, in file order. */
  _keptValues(lo, hi, textOf) {
    const c = this._c;
    const ptr = this._live();
    const keys = [];
    for (let i = 0, n = c.jlw_entity_kept_count(ptr, lo, hi); i < n; i++) {
      keys.push(this._valueAt(c.jlw_entity_kept_key(ptr, lo, hi, i)));
    }
    return nameRecord(keys.map((key) => [key, textOf(key)]));
  }

  /**
   * The canonical .jasset text of an entity: what save() would write for it,
   * decoded as UTF-8 (bytes that are not UTF-8, kept in an unknown key's
   * value, read as U+FFFD: entityBytes() gives them exactly).
   * @param {string} id
   * @returns {string}
   */
  entityText(id) {
    return decoder.decode(this.entityBytes(id));
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
    return this._bytesAt(this._c.jlw_entity_text(ptr, lo, hi, this._wasm.out));
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
    checkOptions(options);
    const path = options.path === undefined ? null : checkString(options.path, 'path');
    const dirty = booleanOption(options, 'dirty', true);
    const wasm = this._wasm;
    this._withText(text, (textPtr, size) => this._c.jlw_world_load_entity_text(ptr, path, textPtr, size, dirty ? 1 : 0, wasm.out));
    return joinId(...wasm.outHalves());
  }

  /**
   * The world's classes that no build describes (opaque: its files name
   * them), whose entities keep their keys as text.
   * @returns {string[]}
   */
  opaqueClasses() {
    this._live();
    const names = this._classes.names();
    return names.filter((name, kind) => this._classes.ofKind(kind).opaque);
  }

  /**
   * The fields of a class (see Juliet#schema).
   * @param {string} className
   */
  schema(className) {
    return publicFields(this._classes.named(className));
  }

  /**
   * Sets 'position' or a field of the entity's class, and marks the entity
   * dirty. The value is the field's JavaScript value (as get() gives it;
   * null for none) or its text as a user typed it ('2.5', '1 2 3', 'none'),
   * which the engine checks exactly as a file's value. A JavaScript type
   * the field cannot take throws a TypeError; a value the engine refuses a
   * JulietError 'parse' with the engine's message and column. An opaque
   * entity takes 'position' only: any other key throws 'unknown_class' (its
   * class is unknown to this build, its keys kept as text).
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
    const schema = this._classes.ofKind(state >> 8);
    if (field === 'position') {
      text = valueText('vec3', value, 'position');
    } else if (schema.opaque) {
      text = ''; // refused by the engine, which says why
    } else {
      const spec = schema.byName.get(field);
      if (!spec) throw new JulietError('not_found', `class ${schema.name} has no field "${field}"`);
      text = valueText(spec.type, value, `field "${field}" (${spec.type})`);
    }
    this._withText(text, (textPtr, size) => this._c.jlw_entity_set(ptr, lo, hi, field, textPtr, size));
  }

  /**
   * Makes entity `id` be the entity in `text` (a whole .jasset text carrying
   * that ID, as entityBytes() gives it), or removes it for null: one undo or
   * redo step. The engine decides whether it is clean: exactly when its
   * text is what its file holds (the file it was loaded from or last saved
   * to, even if it was removed in between); an entity back after a removal
   * keeps its file. A text that does not load throws (a JulietError naming
   * Entities/<id>.jasset, line and column) and leaves the entity as it was;
   * an entity from a newer file throws 'read_only'.
   * @param {string} id
   * @param {string|Uint8Array|null} text
   */
  restoreEntityText(id, text) {
    const ptr = this._live();
    const [lo, hi] = splitId(id);
    if (text === null) {
      const status = this._c.jlw_world_restore_entity_text(ptr, lo, hi, 0, 0);
      if (status !== 0) this._throw(status);
      return;
    }
    checkText(text);
    this._withText(text, (textPtr, size) => this._c.jlw_world_restore_entity_text(ptr, lo, hi, textPtr, size));
  }

  /**
   * A class file of the world (`path`: Classes/<Name>.jclass, `text` its
   * bytes), for a world whose files arrive one by one: its class joins the
   * world, as openWorld() loads the class files before the entities. Load
   * it before the entities of its class (loaded earlier, they are kept as
   * text). A file that does not load, or disagrees with the class of that
   * name, throws a JulietError ('parse') with its line and column.
   * @param {string} path
   * @param {string|Uint8Array} text
   */
  loadClassText(path, text) {
    const ptr = this._live();
    checkString(path, 'path');
    checkText(text);
    const status = this._wasm.withText(text, (textPtr, size) => this._c.jlw_world_load_class_text(ptr, path, textPtr, size));
    if (status !== 0) throw this._error(status);
  }

  /**
   * A file of the world changed on disk behind it (a save by another
   * program, a conflict settled for the disk's side): `name` is its path in
   * the world folder (WorldSettings.jasset or Entities/<decimal ID>.jasset)
   * and `text` what it holds now (null: the file is gone). Its entity, or
   * the settings, become that text, clean, and it is their file's from now
   * on; what changed in the world since is dropped. Returns the entity's ID
   * (null for the settings). A text that does not load throws a JulietError
   * with `id` set as the return value would be; the entity is then gone
   * (the settings unchanged but failed) and its file is never rewritten or
   * deleted. A name that is no file of the world throws 'parse', unless
   * `text` is null: such a file gone changes nothing (returns null). Both
   * failures are in diagnostics() too.
   * @param {string} name
   * @param {string|Uint8Array|null} text
   * @returns {string|null}
   */
  reloadFile(name, text) {
    const ptr = this._live();
    checkString(name, 'name');
    return this._reloadWith(text, (textPtr, size) => this._c.jlw_world_reload_file_text(ptr, name, textPtr, size, this._wasm.out));
  }

  /**
   * A file of the world's directory read again from disk, for a caller
   * that saw it hold `expected` (null: no file) and bases a change on that:
   * its entity or the settings become it, clean, and a later save()
   * replaces it only while it is still the version read here. Throws a
   * JulietError 'conflict' (the world unchanged) if it holds something
   * else now. Returns the entity's ID (null: the settings).
   * @param {string} name 'WorldSettings.jasset' or 'Entities/<decimal id>.jasset'
   * @param {string | Uint8Array | null} expected
   * @returns {string | null}
   */
  refreshFile(name, expected) {
    const ptr = this._live();
    checkString(name, 'name');
    if (this._dir === null) throw new TypeError('this world has no directory: nothing to read again');
    const dir = this._dir;
    return this._reloadWith(expected, (textPtr, size) => this._c.jlw_world_reload_file(ptr, dir, name, textPtr, size, this._wasm.out));
  }

  // Runs a reload export call(textPtr, size) with text (null: none) and
  // returns the ID it left, or throws its error.
  _reloadWith(text, call) {
    let status;
    if (text === null) {
      status = call(0, 0);
    } else {
      checkText(text);
      status = this._wasm.withText(text, call);
    }
    const { id, error } = this._reloaded(status);
    if (error) throw error;
    return id;
  }

  // The ID a reload left in wasm.out (null: the settings) and, for a failed
  // status, the JulietError naming it.
  _reloaded(status) {
    const [lo, hi] = this._wasm.outHalves();
    const id = lo === 0 && hi === 0 ? null : joinId(lo, hi);
    if (status === 0) return { id, error: null };
    const error = this._error(status);
    error.id = id;
    return { id, error };
  }

  /**
   * reloadFile for many files whose texts lie one after another in `bytes`
   * (a run of a world pack: lib/pack.js): file i, for i from `from` to
   * `to` - 1, is names[i] and its next sizes[i] bytes (-1: no file). One
   * copy into the engine for all of them, so that 100,000 files load without
   * a copy or an object each. Returns the failures, [{ index, error }] (the
   * JulietError reloadFile would throw), in order; the others loaded.
   * @param {{ names: string[], sizes: Int32Array, bytes: Uint8Array, at: number, from: number, to: number }} run
   * @returns {{ index: number, error: Error }[]}
   */
  reloadFiles({ names, sizes, bytes, at, from, to }) {
    const ptr = this._live();
    let total = 0;
    for (let i = from; i < to; i++) total += Math.max(sizes[i], 0);
    const wasm = this._wasm;
    const failures = [];
    const texts = new Uint8Array(bytes.buffer, bytes.byteOffset + at, total);
    wasm.withText(texts, (base) => {
      for (let i = from, pos = base; i < to; i++) {
        const name = checkString(names[i], 'name');
        const size = sizes[i];
        const status = this._c.jlw_world_reload_file_text(ptr, name, size < 0 ? 0 : pos, Math.max(size, 0), wasm.out);
        if (size > 0) pos += size;
        if (status !== 0) failures.push({ index: i, error: this._reloaded(status).error });
      }
    });
    return failures;
  }

  /**
   * After a save of this world made elsewhere (the local server wrote the
   * texts the page sent): entity `id`'s file holds its current text now, so
   * it is clean and later edits compare with that text. With no entity of
   * that ID, its file was deleted: nothing about it is pending any more.
   * An entity from a newer file throws 'read_only'.
   * @param {string} id
   */
  markSaved(id) {
    const ptr = this._live();
    const [lo, hi] = splitId(id);
    const status = this._c.jlw_entity_mark_saved(ptr, lo, hi);
    if (status !== 0) this._throw(status);
  }

  // ---- the world settings (WorldSettings.jasset) ----

  /**
   * The fields of the world settings (see Juliet#settingsSchema).
   */
  settingsSchema() {
    return publicFields(this._classes.settings());
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
    // The settings' field names are the build's, never a file's: a plain object.
    const textOf = (field) => this._valueAt(this._c.jlw_settings_get(ptr, field));
    const fields = { ...fieldValues(this._classes.settings(), textOf) };
    return {
      fields,
      dirty: (state & STATE_DIRTY) !== 0,
      readOnly: (state & (STATE_READ_ONLY | STATE_FAILED)) !== 0,
      failed: (state & STATE_FAILED) !== 0,
    };
  }

  /**
   * Sets a settings field and marks the settings dirty, taking a value or
   * its text as set() does: a JavaScript type the field cannot take throws
   * a TypeError, an unknown field a JulietError 'not_found', a value the
   * engine refuses 'parse', read-only or failed settings 'read_only'.
   * @param {string} field
   * @param {*} value
   */
  setSetting(field, value) {
    const ptr = this._live();
    checkString(field, 'field', 64);
    const spec = this._classes.settings().byName.get(field);
    if (!spec) throw new JulietError('not_found', `the world settings have no field "${field}"`);
    const text = valueText(spec.type, value, `field "${field}" (${spec.type})`);
    this._withText(text, (textPtr, size) => this._c.jlw_settings_set(ptr, field, textPtr, size));
  }

  /**
   * The canonical WorldSettings.jasset text: what save() would write,
   * decoded as UTF-8 (settingsBytes() gives the bytes exactly).
   * @returns {string}
   */
  settingsText() {
    return decoder.decode(this.settingsBytes());
  }

  /**
   * The bytes save() would write for WorldSettings.jasset, exactly (a
   * copy), for loadSettingsText().
   * @returns {Uint8Array}
   */
  settingsBytes() {
    return this._bytesAt(this._c.jlw_settings_text(this._live(), this._wasm.out));
  }

  /**
   * Replaces the settings from the text of a WorldSettings.jasset file,
   * validated exactly as the file is. A bad text throws (named after the
   * world's settings file, and added to diagnostics()) and leaves the
   * settings as they were; read-only or failed settings throw 'read_only'.
   * `dirty` (default false) says the text differs from the file on disk, so
   * the next save writes it. The text is a string or the file's bytes
   * (settingsBytes() gives them exactly).
   * @param {string|Uint8Array} text
   * @param {{dirty?: boolean}} [options]
   */
  loadSettingsText(text, options = {}) {
    const ptr = this._live();
    checkText(text);
    checkOptions(options);
    const dirty = booleanOption(options, 'dirty', false);
    // Errors name the file a save would write.
    const path = this._dir === null ? SETTINGS_FILE : `${this._dir}/${SETTINGS_FILE}`;
    this._withText(text, (textPtr, size) => this._c.jlw_world_load_settings_text(ptr, path, textPtr, size, dirty ? 1 : 0));
  }

  /**
   * Makes the settings be those of `text` (a WorldSettings.jasset text, as
   * settingsBytes() gives it): one undo or redo step, clean exactly when
   * the text is what WorldSettings.jasset holds. A text that does not load
   * throws and leaves the settings as they were; read-only or failed
   * settings throw 'read_only'.
   * @param {string|Uint8Array} text
   */
  restoreSettingsText(text) {
    const ptr = this._live();
    checkText(text);
    this._withText(text, (textPtr, size) => this._c.jlw_world_restore_settings_text(ptr, textPtr, size));
  }

  /**
   * After a save made elsewhere (see markSaved): WorldSettings.jasset holds
   * the current settings now, so they are clean. Read-only or failed
   * settings throw 'read_only'.
   */
  markSettingsSaved() {
    const status = this._c.jlw_settings_mark_saved(this._live());
    if (status !== 0) this._throw(status);
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
    const kind = this._classes.kindOf(className); // unknown classes fail here with the known list
    const [x, y, z] = checkVec3(position, 'position');
    const wasm = this._wasm;
    const status = this._c.jlw_entity_create(ptr, kind, x, y, z, wasm.out);
    if (status !== 0) this._throw(status);
    return joinId(...wasm.outHalves());
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
   * that holds it; a lock left by a process that died is taken over, and
   * `notice` says so). A file another program changed since this world
   * read it is left alone and stays pending: the JulietError 'conflict'
   * lists such files in `conflicts` (the rest of the save goes on). `path` is only for a world without a directory yet
   * (from openSnapshot or newWorld): it must not exist or be empty (else
   * 'exists': a world is never merged into another), and receives the
   * whole world or nothing; the world then keeps it. Returns the paths
   * touched, in the caller's terms (host paths under Node). On failure the
   * JulietError names the file; what failed stays pending.
   * @param {string} [path]
   * @returns {{written: string[], deleted: string[], notice?: string}}
   */
  save(path) {
    const ptr = this._live();
    const isNew = path !== undefined;
    if (isNew) {
      checkString(path, 'path');
      if (this._dir !== null) {
        throw new TypeError('this world already has a directory: save() takes no path');
      }
      this._dir = this._files.newDir(path, this._inMemory);
    } else if (this._dir === null) {
      throw new TypeError('this world has no directory yet: pass one to save(path)');
    }
    const c = this._c;
    const dir = this._dir;
    const status = isNew ? c.jlw_world_save_new(ptr, dir) : c.jlw_world_save(ptr, dir);
    const paths = (count, at) => Array.from({ length: count() }, (_, i) => this._wasm.string(at(i)));
    const written = paths(c.jlw_save_written_count, c.jlw_save_written);
    const deleted = paths(c.jlw_save_deleted_count, c.jlw_save_deleted);
    const conflicts = paths(c.jlw_save_conflict_count, c.jlw_save_conflict);
    const notice = this._wasm.string(c.jlw_save_notice()) || null;
    if (status !== 0) {
      const err = this._error(status);
      err.written = written;
      err.deleted = deleted;
      err.conflicts = conflicts;
      if (notice) err.notice = notice;
      if (isNew) {
        // Still a world without a directory.
        this._dir = null;
      }
      throw err;
    }
    return notice ? { written, deleted, notice } : { written, deleted };
  }

  /**
   * Marks every entity and the settings dirty, so the next save rewrites
   * every file in canonical form (read-only ones excepted).
   */
  markAllDirty() {
    this._c.jlw_world_mark_all_dirty(this._live());
  }

  /**
   * Adds a diagnostic for each entity reference read from a file (an
   * entity_ref field, the settings' spawn_point) whose target is not in the
   * world, as opening a directory does; for a world filled through
   * loadEntityText. Returns the diagnostics it added (see diagnostics()).
   * @returns {Diagnostic[]}
   */
  checkReferences() {
    const ptr = this._live();
    const before = this._c.jlw_world_diagnostic_count(ptr);
    this._c.jlw_world_check_references(ptr);
    return this.diagnostics().slice(before);
  }

  /**
   * The diagnostics checkReferences would add, for the references that
   * name no entity now, without adding them to diagnostics(): for checking
   * again after files were reloaded (reloadFile, reloadFiles).
   * @returns {Diagnostic[]}
   */
  missingReferences() {
    const ptr = this._live();
    const c = this._c;
    const missing = [];
    for (let i = 0, n = c.jlw_world_reference_count(ptr); i < n; i++) {
      const d = c.jlw_world_missing_reference(ptr, i);
      if (d) missing.push(...this._errorList(1, () => d));
    }
    return missing;
  }

  /**
   * Problems found while loading, oldest first:
   * [{ path, line, col, message, code }] (line and col 0 when the problem
   * is the whole file).
   */
  diagnostics() {
    const ptr = this._live();
    return this._errorList(this._c.jlw_world_diagnostic_count(ptr), (i) => this._c.jlw_world_diagnostic(ptr, i));
  }

  /**
   * What loading noticed without refusing, oldest first, shaped as
   * diagnostics(): today a file whose class no build describes, at its
   * class value, 'unknown class \'Enemy\' (kept as text)', code
   * 'unknown_class' (the entity loaded as an opaque one).
   */
  warnings() {
    const ptr = this._live();
    return this._errorList(this._c.jlw_world_warning_count(ptr), (i) => this._c.jlw_world_warning(ptr, i));
  }

  /** n jl_error records (at(i) gives each one's pointer) as plain objects. */
  _errorList(n, at) {
    const c = this._c;
    const wasm = this._wasm;
    const out = [];
    for (let i = 0; i < n; i++) {
      const d = at(i);
      const path = wasm.string(c.jlw_error_path(d));
      const message = wasm.string(c.jlw_error_message(d));
      out.push({
        path: path || null,
        line: c.jlw_error_line(d),
        col: c.jlw_error_col(d),
        message,
        code: wasm.statusName(c.jlw_error_status(d)),
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
    const wasm = this._wasm;
    const data = this._c.jlw_snapshot_encode(ptr, wasm.out);
    if (!data) this._throw(0);
    let bytes;
    try {
      bytes = wasm.copyOut(data, wasm.u32(wasm.out));
    } finally {
      wasm.free(data);
    }
    return snapshotText(wasm, bytes);
  }

  /**
   * A change link's text (C encoding, deflate-raw, base64url) of this
   * world's edits: `before` maps each edited entity's ID (null for the
   * settings) to its canonical text as its file held it (entityBytes() or
   * settingsBytes() before its first change; null for an entity that is
   * new). Each is compared with what the world holds now (an entity no
   * longer in it is deleted); only the keys that differ travel, with a
   * fingerprint of the text before. `options.name` is the world's name the
   * link carries (default ''). juliet.decodeChanges() reads it,
   * applyChanges() applies it.
   * @param {Map<string|null, string|Uint8Array|null>|Iterable<[string|null, string|Uint8Array|null]>} before
   * @param {{name?: string}} [options]
   * @returns {Promise<string>}
   */
  async changesText(before, options = {}) {
    this._live();
    checkOptions(options);
    const name = options.name === undefined ? '' : checkString(options.name, 'options.name', 255);
    const entries = [];
    for (const [id, old] of before) {
      if (old !== null) checkText(old);
      const now = id === null ? this.settingsBytes() : this.has(id) ? this.entityBytes(id) : null;
      if (old === null && now === null) continue; // added, then deleted: nothing to carry
      entries.push({ id, old, new: now });
    }
    return changesText(this._wasm, name, entries);
  }

  /**
   * Applies a change link (its text or a whole link): each changed
   * entity's keys set over its current state (the engine checks every
   * value, as in a file), added entities created under their IDs, deleted
   * ones removed; all of them dirty, for the next save. An entity whose
   * file changed since the link was made (its print differs), that is gone,
   * or (added) whose ID is taken is a conflict and is not applied; with
   * { allOrNothing: true } nothing is when anything conflicts. Returns {
   * applied, conflicts, failed }, each [{ kind: 'modified'|'new'|'deleted',
   * id (null: the settings), path }], failed ones with the engine's
   * `message`. Rejects as juliet.decodeChanges() does for a text that is
   * not a change link (nothing applied).
   * @param {string} text
   * @param {{allOrNothing?: boolean}} [options]
   * @returns {Promise<{applied: object[], conflicts: object[], failed: object[]}>}
   */
  async applyChanges(text, options = {}) {
    checkString(text, 'text', Infinity);
    checkOptions(options);
    const allOrNothing = booleanOption(options, 'allOrNothing', false);
    return applyChanges(this._wasm, this._live(), text, allOrNothing);
  }

  /** Frees the world. Safe twice. */
  close() {
    if (!this._ptr) return;
    const ptr = this._ptr;
    this._ptr = 0;
    this._c.jlw_world_free(ptr);
  }
}
