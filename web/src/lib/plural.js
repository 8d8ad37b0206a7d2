// A count with its noun, as the inspector's messages show it: `1 file`,
// `0 files`, `1,024 entities` (thousands separated, whatever the locale).
export function plural(n, one, many = `${one}s`) {
  return `${n.toLocaleString('en')} ${n === 1 ? one : many}`;
}
