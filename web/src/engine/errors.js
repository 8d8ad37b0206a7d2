// Errors across the worker boundary. An Error does not survive postMessage
// with its own fields, so the worker sends errorInfo(err), a plain object,
// and the page rebuilds it with toError(info): the same name, message and
// the engine's code, path, line, column (`col`), message without its
// place (`detail`) and why a link is not a level (`reason`), as juliet.js's
// JulietError carries them.
const FIELDS = ['code', 'path', 'line', 'col', 'detail', 'reason'];

// What the worker sends of an error (anything thrown).
export function errorInfo(err) {
  const info = { name: err?.name ?? 'Error', message: err?.message ?? String(err) };
  for (const key of FIELDS) if (err?.[key] !== undefined) info[key] = err[key];
  return info;
}

// The page's Error (TypeError for a TypeError) for what errorInfo() sent.
export function toError(info) {
  const err = info.name === 'TypeError' ? new TypeError(info.message) : new Error(info.message);
  if (info.name !== err.name) err.name = info.name;
  for (const key of FIELDS) if (info[key] !== undefined) err[key] = info[key];
  return err;
}
