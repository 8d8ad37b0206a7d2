// constants.js - the names and limits of a world on disk that JavaScript
// needs before (or without) loading the wasm module: a world's folders and
// settings file, and the engine's size limits. Each mirrors a C constant,
// named beside it; tests/js/api.test.js checks them against the C headers.

/** The world's settings file, relative to its directory (jl_world_load). */
export const SETTINGS_FILE = 'WorldSettings.jasset';
/** The folder of a world's entity files, Entities/<decimal ID>.jasset. */
export const ENTITIES_DIR = 'Entities';
/** The folder of a world's class files, Classes/<Name>.jclass. */
export const CLASSES_DIR = 'Classes';
/** The largest file the engine reads (JL_ARCHIVE_FILE_MAX): a larger one
 * is refused without being read. */
export const FILE_MAX = 8 << 20;
/** The most entities a world holds (JL_MAX_CAPACITY). */
export const MAX_CAPACITY = 16 << 20;
/** The entities a world holds unless told (JL_DEFAULT_CAPACITY). */
export const DEFAULT_CAPACITY = 100_000;
/** The longest link (base, '#' and text) a browser is taken to open from
 * its address (JL_SNAPSHOT_LINK_MAX): a longer one is shared as a file. */
export const LINK_MAX = 1_000_000;
