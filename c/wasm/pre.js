// pre.js - runs first inside the module factory.
//
// Under Node the generated loader would try to fetch() or read a file: URL
// for the .wasm and fail; hand it the bytes instead, read beside this file
// (the name is fixed by c/wasm/CMakeLists.txt). No import.meta here: the
// minifier of 3.1.6 crashes on it; _scriptDir holds import.meta.url.
if (typeof process === 'object' && process.versions && process.versions.node &&
    !Module['wasmBinary']) {
  Module['wasmBinary'] = require('fs').readFileSync(new URL('juliet_wasm.wasm', _scriptDir));
}
