#!/usr/bin/env bash
# The WebAssembly suites: every native C test again, compiled to wasm and run
# under Node by ctest (flecs-style), then the node:test suites of tests/js
# and of each package (packages/*/test) against the real wasm module.
# Expects .ci/build.sh to have run.
set -euo pipefail
cd "$(dirname "$0")/../.."

echo "== wasm (ctest under node)"
ctest --test-dir build/wasm --output-on-failure -j "$(nproc)"

echo "== wasm (node --test tests/js packages/*/test)"
# node 20's --test does not expand globs: list the files. The packages'
# own suites test their modules from inside; tests/js uses them as a
# consumer does.
mapfile -t suites < <(find tests/js packages/*/test -maxdepth 1 -name '*.test.js' | sort)
if [ ${#suites[@]} -eq 0 ]; then
  echo "no JavaScript suites in tests/js" >&2
  exit 1
fi
node --test "${suites[@]}"
