// Types of src/juliet.js, the JavaScript API of Juliet World.

/** Canonical entity ID: "0x" followed by 16 hex digits, as in the .jasset files. */
export type EntityId = string;

export type Vec2 = [number, number];
export type Vec3 = [number, number, number];
/** A rotation as x, y, z, w, stored as given (not required to be normalized). */
export type Quat = [number, number, number, number];

export type FieldType = 'f32' | 'index' | 'bool' | 'vec3' | 'color' | 'entity_ref' | 'i32' | 'u32' | 'string' | 'enum' | 'vec2' | 'quat';

/**
 * A field value by type: f32 a number (Infinity only where allowInf), index
 * an integer (INDEX_NONE = no index; set() also takes null), i32 and u32
 * integers, bool, vec2 [x, y], vec3 [x, y, z], quat [x, y, z, w], color
 * "#rrggbb", entity_ref an ID or null for none, string the string itself
 * (one line of text, no control characters), enum the name of its value.
 * set() also takes a value's text as a string for every type but string,
 * where a string is the value.
 */
export type FieldValue = number | boolean | string | Vec2 | Vec3 | Quat | null;

/** Juliet#checkValue's answer: the value and its canonical text, or the engine's message. */
export type ValueCheck = { value: FieldValue; text: string } | { error: string; /** 1-based column in the text. */ col: number };

/** One key of Juliet#textDiff: `old` null for a key only the newer text has, `new` null for one only the older has. */
export interface KeyChange {
  key: string;
  old: string | null;
  new: string | null;
}

/** One changed key of a change link: the value as a file holds it, null for a key the edit removed. */
export interface ChangedField {
  field: string;
  text: string | null;
}

/** A change link read by Juliet#decodeChanges; lists by ascending ID. */
export interface DecodedChanges {
  /** The name of the world the link was made for (its folder's name). */
  world: string;
  /** print: the low 32 bits of the print of the file the edit was made against. */
  settings: { print: number; fields: ChangedField[] } | null;
  changed: { id: string; print: number; fields: ChangedField[] }[];
  added: { id: string; text: string }[];
  deleted: { id: string; print: number }[];
}

/** One entity World#applyChanges dealt with (id null: the settings). */
export interface ChangeOutcome {
  kind: 'modified' | 'new' | 'deleted';
  id: string | null;
  path: string;
  /** On a failed one: why the engine refused it. */
  message?: string;
}

/** A key Juliet#textMerge found changed differently on both sides: each value null where that text lacks the key. */
export interface KeyConflict {
  key: string;
  base: string | null;
  ours: string | null;
  theirs: string | null;
}

/** Juliet#textMerge's answer: the merged text and its conflicts, in the text's order. */
export interface TextMerge {
  text: string;
  conflicts: KeyConflict[];
}

/** JL_INDEX_MAX: the "no index" value of index fields. */
export declare const INDEX_NONE: 4294967295;

/** The world's settings file, relative to its directory. */
export declare const SETTINGS_FILE: 'WorldSettings.jasset';
/** The folder of a world's entity files. */
export declare const ENTITIES_DIR: 'Entities';
/** The folder of a world's class files. */
export declare const CLASSES_DIR: 'Classes';
/** JL_ARCHIVE_FILE_MAX: the largest file the engine reads, in bytes (8 MiB). */
export declare const FILE_MAX: number;
/** JL_MAX_CAPACITY: the most entities a world holds. */
export declare const MAX_CAPACITY: number;
/** JL_DEFAULT_CAPACITY: the entities a world holds unless told. */
export declare const DEFAULT_CAPACITY: number;
/** JL_SNAPSHOT_LINK_MAX: the longest link a browser is taken to open from its address, in characters. */
export declare const LINK_MAX: number;

/** The C exports the module wraps (the same list as c/wasm/exports.json). */
export declare const exportNames: readonly string[];

/** The file of an entity in its world's directory: "Entities/<decimal ID>.jasset". */
export declare function entityPath(id: EntityId): string;
/** The length of an ID string: '0x' and 16 hex digits. */
export declare const ID_TEXT_LENGTH: 18;
/** The IDs of rows().idWords at `order`, one after another, as one text of ID_TEXT_LENGTH characters each. */
export declare function idsText(idWords: Uint32Array, order: ArrayLike<number>): string;

/** The ID of the entity saved in a path entityPath gives, or null for any other path. */
export declare function idOfPath(path: string): EntityId | null;

/**
 * The text of a value for a field of `type`, as set() sends it to the engine
 * (a string field's string quoted); `what` names the field in a TypeError.
 */
export declare function valueText(type: FieldType, value: FieldValue, what?: string): string;
/** The value of a field's canonical text (fieldText's answer) for a field of `type`: valueText read back. */
export declare function textValue(type: FieldType, text: string): FieldValue;
/** A record with no prototype, for keys that are names from files (a class or field may be named `__proto__` or `constructor`): [name, value] pairs or an object's own entries. */
export declare function nameRecord<T>(entries?: [string, T][] | Record<string, T>): Record<string, T>;

/** True for the path of a class file in a world folder: "Classes/<Name>.jclass". */
export declare function isClassFilePath(path: string): boolean;

/** The ID whose file name is a decimal number as typed ("12", "012"), or null for any other text. */
export declare function idOfNumber(digits: string): EntityId | null;

export interface FieldSchema {
  name: string;
  type: FieldType;
  default: FieldValue;
  /** f32 fields that may hold +/-Infinity. */
  allowInf: boolean;
  /** enum fields: the names the field takes, in value order. */
  names?: string[];
}

export interface EntitySummary {
  id: EntityId;
  class: string;
  /** float32 values widened to numbers. */
  position: Vec3;
  dirty: boolean;
}

export interface Entity {
  id: EntityId;
  class: string;
  /** Base-entity format version written for it. */
  version: number;
  classVersion: number;
  /** Shortest decimals that read back to the stored float32 values. */
  position: Vec3;
  /**
   * For an opaque entity, every key of its file but the base ones, each the text the file has.
   * An object with no prototype: a name such as `__proto__` or `constructor` is a key like any
   * other (test one with `Object.hasOwn(fields, name)`).
   */
  fields: Record<string, FieldValue>;
  /** Present (true) when its class is one no build describes: its keys are kept as text, only its position can be set. */
  opaque?: true;
  dirty: boolean;
  /** Loaded from a file newer than this build: never rewritten. */
  readOnly: boolean;
}

/** The world settings (WorldSettings.jasset), as World#settings gives them. */
export interface WorldSettings {
  /** gravity, ambient_color, ambient_intensity, time_of_day, spawn_point, share_base (where share links open; empty: none): values as in Entity#fields. */
  fields: Record<string, FieldValue>;
  /** Changed since loaded or saved: the next save writes WorldSettings.jasset. */
  dirty: boolean;
  /** The file is newer than this build, or failed: setSetting throws 'read_only', save never writes it. */
  readOnly: boolean;
  /** WorldSettings.jasset did not load (see diagnostics()): the defaults stand in. */
  failed: boolean;
}

/** Every entity as columns (World#rows), in the engine's slot order. */
export interface EntityRows {
  count: number;
  /** Made from idWords when first read (a second at 1,000,000 entities). */
  ids: EntityId[];
  /** The 32-bit halves of each ID: lo, hi per entity (idsText). */
  idWords: Uint32Array;
  classNames: string[];
  /** Index into classNames per entity. */
  classIndex: Uint8Array;
  /** x, y, z per entity. */
  positions: Float32Array;
  /** 1 if dirty. */
  dirty: Uint8Array;
  /** 1 if read-only. */
  readOnly: Uint8Array;
}

export interface SaveReport {
  /** Files written, in the caller's terms (host paths under Node). */
  written: string[];
  /** Files deleted (entities removed since the last save). */
  deleted: string[];
  /** "took over the lock left by pid N, which is no longer running", only when the save did. */
  notice?: string;
}

export interface Diagnostic {
  path: string | null;
  /** 1-based; 0 when the problem is the whole file. */
  line: number;
  col: number;
  message: string;
  /** Status name: 'parse', 'unknown_class', 'duplicate_id', 'io', ... */
  code: string;
}

export interface WorldOptions {
  /** Under Node, paths name the in-memory file system (as in the browser). */
  inMemory?: boolean;
  /** Most entities the world holds; memory is reserved for it. Default 100,000. */
  capacity?: number;
}

/**
 * Files of a world's directory the caller has read already (the local
 * server reads them for its page), for openWorld under Node: the engine
 * takes a file listed in the directory from here instead of reading it
 * again, with its stamp then, so that a save finds a file changed since
 * then changed, as any file changed after the world opened (a conflict,
 * the file left alone). A file modified within 3 s before the reading
 * began (its stamp could hide a later write), or not here, is read from
 * the disk.
 */
export interface FilesRead {
  /** Relative paths, '/'-separated, e.g. "Entities/12.jasset" (or indexOf). */
  paths?: string[];
  /** Instead of paths: the index of a relative path among the files read, or -1. */
  indexOf?(path: string): number;
  /** Five numbers a file, as fs.lstat with { bigint: true } gives them: inode, device, size, whole seconds and nanoseconds of the modification time. */
  stamps: Float64Array;
  /** The bytes of file i as read, or null. */
  bytes(i: number): Uint8Array | null;
  /** When the reading began, in seconds since the epoch. */
  startedSec: number;
}

export interface OpenWorldOptions extends WorldOptions {
  /** Node: files read already, taken instead of reading them again. */
  read?: FilesRead;
}

export interface FileEntry {
  /** Relative path inside the directory, e.g. "Entities/12.jasset". */
  path: string;
  bytes: Uint8Array | string;
}

/** A failure reported by the engine. */
export declare class JulietError extends Error {
  /** Lower-case status name: 'parse', 'not_found', 'corrupt', 'locked', 'exists', 'closed', ... */
  code: string;
  path: string | null;
  line: number;
  col: number;
  /** The message without the path:line:col prefix. */
  detail: string;
  /**
   * On a 'corrupt' snapshot or link (openSnapshot, decodeChanges,
   * applyChanges): why it is not a level (or a change link).
   * 'truncated': its text stops short (a link cut when pasted); 'foreign':
   * not a Juliet link; 'version': another version of the format; 'damaged':
   * characters changed (the data or its checksum is wrong).
   */
  reason?: 'truncated' | 'foreign' | 'version' | 'damaged';
  /** On a failed save: what was written and deleted before the failure. */
  written?: string[];
  deleted?: string[];
}

export declare class World {
  /** The world's directory (host path under Node), or null before the first save of a snapshot. */
  readonly path: string | null;
  /** Number of live entities. */
  readonly count: number;
  rows(): EntityRows;
  entities(): EntitySummary[];
  has(id: EntityId): boolean;
  get(id: EntityId): Entity;
  schema(className: string): FieldSchema[];
  /** Canonical .jasset text of an entity (what save() writes for it), decoded as UTF-8. */
  entityText(id: EntityId): string;
  /** The canonical text of one field (or 'position', 'id', 'class', 'class_version'); null if the entity or the field does not exist. */
  fieldText(id: EntityId, field: string): string | null;
  /** fieldText of every entity, in rows() order, in one call: null where an entity has no such field. */
  fieldTexts(field: string): (string | null)[];
  /** The bytes save() writes for an entity, exactly (values that are not UTF-8 included). */
  entityBytes(id: EntityId): Uint8Array;
  /** Adds an entity from .jasset text or bytes (kept exactly), validated as a file; returns its ID. */
  loadEntityText(text: string | Uint8Array, options?: { path?: string; dirty?: boolean }): EntityId;
  /** An undo or redo step: the entity becomes the text (null: removed); clean exactly when it is its file's text. A bad text throws and changes nothing. */
  restoreEntityText(id: EntityId, text: string | Uint8Array | null): void;
  /**
   * A class file (`Classes/<Name>.jclass`) for a world whose files arrive one
   * by one: its class joins the world; load it before its entities. Throws
   * 'parse' with line and column for a file that does not load.
   */
  loadClassText(path: string, text: string | Uint8Array): void;
  /** A file changed on disk (null: gone): its entity or the settings become it, clean. Returns the entity's ID (null: the settings); a bad text throws a JulietError with `id`, and the entity is gone. */
  reloadFile(name: string, text: string | Uint8Array | null): EntityId | null;
  /** The file read again from the world's directory, which must hold `expected` (null: no file; else a JulietError 'conflict', nothing changed): its entity or the settings become it, clean, and a later save() replaces it only while it is still that version. */
  refreshFile(name: string, expected: string | Uint8Array | null): EntityId | null;
  /** reloadFile for files from..to-1 whose texts lie one after another in `bytes` from `at` on (sizes[i] bytes each, -1: no file), in one copy; returns the failures with their index. */
  reloadFiles(run: {
    names: string[];
    sizes: Int32Array;
    bytes: Uint8Array;
    at: number;
    from: number;
    to: number;
  }): { index: number; error: JulietError }[];
  /** After a save made elsewhere: the entity's file holds its current text (no entity: the file was deleted). */
  markSaved(id: EntityId): void;
  /**
   * A value, or its text as a user typed it ("2.5", "1 2 3", "none"), which
   * the engine checks exactly as a value in a file. TypeError for a
   * JavaScript type the field cannot take; JulietError 'parse' (the engine's
   * message and column) for a value it refuses, 'not_found' for no such
   * entity or field.
   */
  set(id: EntityId, field: 'position', value: Vec3 | string): void;
  set(id: EntityId, field: string, value: FieldValue): void;
  create(className: string, position?: Vec3): EntityId;
  remove(id: EntityId): void;
  /** Fields of the world settings, shaped as schema() gives a class's. */
  settingsSchema(): FieldSchema[];
  settings(): WorldSettings;
  /**
   * Sets a settings field (a value or its typed text, checked as set() checks a
   * class field) and marks the settings dirty. TypeError for a wrong type;
   * JulietError 'not_found' (no such field), 'parse' (value refused),
   * 'read_only' (newer or failed file).
   */
  setSetting(field: string, value: FieldValue): void;
  /** Canonical WorldSettings.jasset text (what save() writes for the settings), decoded as UTF-8. */
  settingsText(): string;
  /** The bytes save() writes for WorldSettings.jasset, exactly. */
  settingsBytes(): Uint8Array;
  /**
   * Replaces the settings from WorldSettings.jasset text, validated as the file.
   * A bad text throws (with path, line, col) and changes nothing; read-only or
   * failed settings throw 'read_only'. dirty (default
   * false): the next save writes it.
   */
  loadSettingsText(text: string | Uint8Array, options?: { dirty?: boolean }): void;
  /** An undo or redo step for the settings; clean exactly when the text is WorldSettings.jasset's. */
  restoreSettingsText(text: string | Uint8Array): void;
  /** After a save made elsewhere: WorldSettings.jasset holds the current settings. */
  markSettingsSaved(): void;
  /** path only for a world with no directory yet (snapshot or newWorld): a new or empty directory, written all or nothing. Writes dirty entities and dirty settings, holding the world's lock ('locked' if another process holds it). */
  /** Throws JulietError 'conflict' (with `conflicts`, `written`, `deleted`) when files changed on disk since they were read: those are left alone and stay pending. */
  save(path?: string): SaveReport;
  /** The next save rewrites every file (canonical form). */
  markAllDirty(): void;
  /** Diagnostics of references to entities not in the world (those added). */
  checkReferences(): Diagnostic[];
  /** The same diagnostics for the references missing now, not added to diagnostics(). */
  missingReferences(): Diagnostic[];
  diagnostics(): Diagnostic[];
  /** Noticed while loading without refusing: a file whose class no build describes (code 'unknown_class'). */
  warnings(): Diagnostic[];
  /** The world's classes no build describes (its files name them): their entities are opaque. */
  opaqueClasses(): string[];
  /** Asynchronous: deflate runs through CompressionStream. */
  snapshot(): Promise<string>;
  /**
   * A change link's text of the edits of the entities `before` names: each
   * ID (null: the settings) maps to its canonical text as its file held it
   * (null: new), compared with the world now (gone: deleted). Only changed
   * keys travel, with a print of the text before. options.name: the world's
   * name in the link.
   */
  changesText(
    before: Map<string | null, string | Uint8Array | null> | Iterable<[string | null, string | Uint8Array | null]>,
    options?: { name?: string },
  ): Promise<string>;
  /**
   * Applies a change link: changed keys set over each entity's current
   * state (engine-checked), added entities created with their IDs, deleted
   * ones removed. An entity whose file changed since the link was made (or
   * is gone, or an added ID that is taken) is a conflict and is not applied;
   * with allOrNothing nothing is when anything conflicts.
   */
  applyChanges(
    text: string,
    options?: { allOrNothing?: boolean },
  ): Promise<{ applied: ChangeOutcome[]; conflicts: ChangeOutcome[]; failed: ChangeOutcome[] }>;
  /** Safe to call twice; other methods then throw a JulietError 'closed'. */
  close(): void;
}

export declare class Juliet {
  classes(): string[];
  schema(className: string): FieldSchema[];
  /** Fields of the world settings (not an entity class: schema('WorldSettings') throws). */
  settingsSchema(): FieldSchema[];
  /**
   * Checks typed text as a value of a field type with the engine's own parser
   * (the one files are read with). allowInf: an f32 field that takes infinity.
   * JulietError 'invalid_argument' for an unknown type, and for 'enum' (its
   * names come from a field: use checkField).
   */
  checkValue(type: FieldType, text: string, options?: { allowInf?: boolean }): ValueCheck;
  /** checkValue for a field of a class: its type, flags and, for an enum, its names. */
  checkField(className: string, field: string, text: string): ValueCheck;
  /**
   * The engine's key-by-key comparison of two .jasset texts (as `juliet
   * diff`): the keys of newText whose value differs or is new, in its
   * order, then the keys only oldText has. Throws a JulietError 'parse'
   * (naming options.path, line, column) for a text that does not tokenize.
   */
  textDiff(oldText: string | Uint8Array, newText: string | Uint8Array, options?: { path?: string }): KeyChange[];
  /**
   * The engine's three-way merge of an entity's .jasset text, key by key (as
   * `juliet merge`): a key one side changed from base takes that change,
   * a key both sides changed differently is a conflict that keeps ours, or
   * theirs if options.theirs names it. Ours' keys in ours' order, a key only
   * theirs has after the key it follows in theirs; written as the engine
   * writes files. Throws a JulietError 'parse' (naming options.path, line,
   * column) for a text that does not tokenize.
   */
  textMerge(
    base: string | Uint8Array,
    ours: string | Uint8Array,
    theirs: string | Uint8Array,
    options?: { path?: string; theirs?: string[] },
  ): TextMerge;
  /** Node: a host directory (read and written through Node's fs) unless inMemory. Browser: an in-memory directory. */
  openWorld(path: string, options?: OpenWorldOptions): World;
  newWorld(options?: WorldOptions): World;
  /** Snapshot text or a whole link ending in #TEXT. Asynchronous (DecompressionStream). Without options.capacity, a snapshot of more than DEFAULT_CAPACITY entities gets a world of its entities and DEFAULT_CAPACITY more. */
  openSnapshot(text: string, options?: WorldOptions): Promise<World>;
  /** Reads a change link (its text or a whole link) without applying it; a 'corrupt' one carries reason. */
  decodeChanges(text: string): Promise<DecodedChanges>;
  /** What a link holds, by its first bytes: a world (openSnapshot), changes (decodeChanges), or null. */
  linkKind(text: string): Promise<'world' | 'changes' | null>;
  /**
   * In-memory file system (the browser's world folders). Never the host's
   * disk: under Node a host path names a directory of memory here. A file
   * system failure throws a JulietError 'io' or 'not_found' naming the path.
   */
  writeFiles(dir: string, files: FileEntry[]): void;
  readFile(path: string): Uint8Array;
  listFiles(dir: string): string[];
  removeFiles(dir: string): void;
  /** Size of the wasm memory in bytes. */
  heapBytes(): number;
  /** Bytes currently allocated by the C heap. */
  heapUsed(): number;
}

/** One file of a world pack: `seq` the sender's version of it (0: never seen), `bytes` null for no file. */
export interface PackFile {
  path: string;
  seq: number;
  bytes: Uint8Array | null;
}

/** The index of a pack without its files' bytes: the files' bytes start at `dataAt` in `bytes`. */
export interface PackIndex {
  meta: any;
  paths: string[];
  /** The paths as the pack holds them: UTF-8, a line break between two (pathIndex). */
  pathBytes: Uint8Array;
  seqs: Uint32Array;
  sizes: Int32Array;
  dataAt: number;
  bytes: Uint8Array;
}

/**
 * The world pack: the binary form in which a server and a page exchange a
 * world's files (the whole world, the files changed since a version, a save
 * and its answer). encodePack packs `files` with `meta` (JSON-able); paths
 * may not hold a line break.
 */
export declare function encodePack(meta: unknown, files: PackFile[]): Uint8Array;
/** encodePack's bytes as parts to send one after another, the files not copied: the header and index, then the files' bytes (files lying one after another in one buffer make one part). */
export declare function encodePackParts(meta: unknown, files: PackFile[]): Uint8Array[];
/** encodePackParts from columns, as readPackIndex gives them back (`sizes` -1 for no file), and the files' bytes one after another as `parts` (packRuns): no object a file. */
export declare function encodePackColumns(
  meta: unknown,
  columns: { paths: string[]; seqs: ArrayLike<number>; sizes: ArrayLike<number> },
  parts: Uint8Array[],
): Uint8Array[];
/** indexOf(path): the index of `path` among the paths in `bytes` (UTF-8, a line break between two, as a pack's index holds them: PackIndex.pathBytes), or -1; made in one pass over the bytes, without a string a path. */
export declare function pathIndex(bytes: Uint8Array): (path: string) => number;
/** The parts of a pack's files' bytes, added in order: bytes that follow the last ones in the same buffer extend its part, not copied. */
export declare function packRuns(): { add(buffer: ArrayBufferLike, offset: number, size: number): void; parts(): Uint8Array[] };
/** The meta and files of a pack, each file's bytes a view into the input. Throws an Error saying what is wrong for a malformed pack. */
export declare function decodePack(input: ArrayBuffer | Uint8Array): { meta: any; files: PackFile[] };
/** The meta and index of a pack without building an object per file. Throws as decodePack does. */
export declare function readPackIndex(input: ArrayBuffer | Uint8Array): PackIndex;
/**
 * Reads a pack as its bytes arrive: push(chunk) returns the files complete
 * since the last push; pushRuns(chunk) the same as runs of the index
 * (files from..to-1, their bytes one after another in `bytes` from `at`:
 * the chunk's own, or a copy of a file split between chunks); end() throws
 * if the pack is not complete. `index` has no `bytes`.
 */
export declare function packReader(): {
  index: Omit<PackIndex, 'bytes'> | null;
  push(chunk: Uint8Array): PackFile[];
  pushRuns(chunk: Uint8Array): { from: number; to: number; bytes: Uint8Array; at: number }[];
  end(): void;
};

/** The options of loadJuliet. */
export interface LoadOptions {
  /**
   * The factory (default export) of another build of the module: the same
   * exports (c/wasm) with a program's classes compiled in. Without it, the
   * package's own module, which has no class compiled in.
   */
  module?: () => Promise<object>;
}

/** Loads the module once (once per factory); every call returns the same promise. */
export declare function loadJuliet(options?: LoadOptions): Promise<Juliet>;
