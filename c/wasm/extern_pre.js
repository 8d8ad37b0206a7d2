// extern_pre.js - placed before the generated ES module, outside its factory
// (and not minified, so import.meta may appear here).
//
// Emscripten 3.1.6's Node branch is CommonJS: it calls require() and reads
// __dirname. Under Node's ES modules neither exists, so define both from
// import.meta.url. In a browser these stay undefined and the Node branch is
// never taken.
var require, __filename, __dirname;
if (typeof process === 'object' && process.versions && process.versions.node &&
    typeof process.getBuiltinModule === 'function') {
  require = process.getBuiltinModule('module').createRequire(import.meta.url);
  __filename = require('url').fileURLToPath(import.meta.url);
  __dirname = require('path').dirname(__filename);
}
