// The engine the models call, set once by the composition root (main.jsx:
// the page's worker; a test: an in-process engine, engine/local.js).
let engine = null;

export function setEngine(next) {
  engine = next;
}

export function getEngine() {
  if (!engine) throw new Error('No engine: setEngine() is called first (main.jsx)');
  return engine;
}
