// classes.js - the entity classes and the world settings as the engine
// reflects them: names, versions and fields with their types, flags and
// defaults, read once through the reflection exports and cached. The
// classes are those of one world (its own registry, which grows when a
// file names a class no build describes: an opaque class), or with world 0
// the ones compiled into the module.
import { checkString } from './checks.js';
import { JulietError } from './errors.js';
import { FIELD_ALLOW_INF, textValue } from './values.js';

/**
 * A schema: { name, kind, version, opaque, fields: [{ name, index, type,
 * default, allowInf, names (enum fields: the names it takes, in value
 * order) }], byName: Map }. An opaque class (one the world made for a
 * class name its files use that no build describes) has no fields: its
 * entities' keys are kept as text (World#get lists them). Cached schemas are shared: callers outside this module get
 * copies (publicFields), without the field's index.
 */
export class Classes {
  /**
   * @param {import('./wasm.js').Wasm} wasm
   * @param {number} [world] a world pointer whose classes to reflect; 0: the module's
   */
  constructor(wasm, world = 0) {
    this._wasm = wasm;
    this._world = world;
    this._byName = new Map();
    this._settings = null; // read on first use
    this._names = [];
    this._kinds = new Map(); // name -> kind
    this._sync();
  }

  /** Reads the names of classes added since (a world's opaque classes, made as files load). */
  _sync() {
    const { c } = this._wasm;
    for (let kind = this._names.length, n = c.jlw_class_count(this._world); kind < n; kind++) {
      const name = this._wasm.string(c.jlw_class_name(this._world, kind));
      this._names.push(name);
      this._kinds.set(name, kind);
    }
  }

  /** Names of the entity classes, by class index (a copy). */
  names() {
    this._sync();
    return this._names.slice();
  }

  /** The schema of class `className`; 'unknown_class' lists the known ones. */
  named(className) {
    return this.ofKind(this.kindOf(className));
  }

  /**
   * The index of class `className`; 'unknown_class' lists the known ones.
   * Classes are never taken away, so only a name not seen yet asks C.
   */
  kindOf(className) {
    checkString(className, 'className', 256);
    if (!this._kinds.has(className)) this._sync();
    const kind = this._kinds.get(className);
    if (kind === undefined) {
      throw new JulietError('unknown_class', `no class named "${className}" (known: ${this._names.join(', ')})`);
    }
    return kind;
  }

  /** The schema of the class with index `kind`. */
  ofKind(kind) {
    if (kind >= this._names.length) this._sync();
    const name = this._names[kind];
    let schema = this._byName.get(name);
    if (!schema) {
      schema = this._reflect(kind);
      this._byName.set(name, schema);
    }
    return schema;
  }

  /**
   * The settings' schema. Kept apart from the entity classes so that
   * named('WorldSettings') stays an unknown class.
   */
  settings() {
    if (!this._settings) this._settings = this._reflect(this._wasm.c.jlw_settings_kind());
    return this._settings;
  }

  /** Reads class `kind` (an entity class or the settings) through the reflection exports. */
  _reflect(kind) {
    const { c } = this._wasm;
    const world = this._world;
    const string = (ptr) => this._wasm.string(ptr);
    const fields = [];
    for (let i = 0, n = c.jlw_class_field_count(world, kind); i < n; i++) {
      const type = string(c.jlw_class_field_type(world, kind, i));
      const field = {
        name: string(c.jlw_class_field_name(world, kind, i)),
        index: i,
        type,
        default: textValue(type, string(c.jlw_class_field_default(world, kind, i))),
        allowInf: (c.jlw_class_field_flags(world, kind, i) & FIELD_ALLOW_INF) !== 0,
      };
      if (type === 'enum') {
        const names = [];
        for (let j = 0, m = c.jlw_class_field_enum_count(world, kind, i); j < m; j++) {
          names.push(string(c.jlw_class_field_enum_name(world, kind, i, j)));
        }
        field.names = Object.freeze(names);
      }
      fields.push(Object.freeze(field));
    }
    return {
      name: string(c.jlw_class_name(world, kind)),
      kind,
      version: c.jlw_class_version(world, kind),
      opaque: c.jlw_class_opaque(world, kind) !== 0,
      fields,
      byName: new Map(fields.map((f) => [f.name, f])),
    };
  }
}

/** A schema's fields for callers: copies, so edits cannot reach the cache. */
export function publicFields(schema) {
  return schema.fields.map(({ index, ...f }) => {
    const copy = { ...f, default: Array.isArray(f.default) ? f.default.slice() : f.default };
    if (f.names) copy.names = f.names.slice();
    return copy;
  });
}
