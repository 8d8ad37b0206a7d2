// The median of measured figures, for the tests that print them and for
// the benches (which must not load node:test, as fixtures.js does).

/** The middle of `values` (the upper one of an even count). */
export function median(values) {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.floor(sorted.length / 2)];
}
