#!/usr/bin/env bash
# The WebAssembly suites: every native C test again, compiled to wasm and run
# under Node by ctest (flecs-style), then the node:test suites of tests/js
# against the real wasm module. Expects .ci/build.sh to have run.
set -euo pipefail
cd "$(dirname "$0")/../.."

echo "== wasm (ctest under node)"
ctest --test-dir build/wasm --output-on-failure -j "$(nproc)"

echo "== wasm (node --test tests/js)"
# node 20's --test does not expand globs: list the files.
mapfile -t suites < <(find tests/js -maxdepth 1 -name '*.test.js' | sort)
if [ ${#suites[@]} -eq 0 ]; then
  echo "no JavaScript suites in tests/js" >&2
  exit 1
fi
node --test "${suites[@]}"
