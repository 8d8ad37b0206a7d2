#!/usr/bin/env bash
# `npm run bench [-- --json]`: builds, then runs every benchmark program.
set -euo pipefail
cd "$(dirname "$0")/.."
bash .ci/build.sh >/dev/null
shopt -s nullglob
benches=(build/native/tests/bench/bench_*)
if [ ${#benches[@]} -eq 0 ]; then
  echo "bench: no build/native/tests/bench/bench_* programs (the native build makes them)" >&2
  exit 1
fi
for bench in "${benches[@]}"; do
  if [ -f "$bench" ] && [ -x "$bench" ]; then "$bench" "$@"; fi
done
bash .ci/steps.sh .ci/bench.d "$@"
