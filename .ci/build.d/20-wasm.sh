#!/usr/bin/env bash
# The WebAssembly build (build/wasm): the engine library, the wasm modules
# (c/wasm: the npm library's, copied to packages/juliet-world/dist/, and the
# sample game's, with its classes compiled in, copied to
# packages/juliet-sample/dist/; both folders generated and git-ignored) and
# the C test suites as Node programs. Targets given as arguments are built
# alone (`npm start` builds juliet_sample_wasm only).
set -euo pipefail
cd "$(dirname "$0")/../.."

# Debian's emcc needs its JavaScript dependencies (acorn) on NODE_PATH.
export NODE_PATH=/usr/share/nodejs${NODE_PATH:+:$NODE_PATH}

# emcmake's default emulator passes a flag node 20 rejects: name our own,
# which ctest uses to run each test_*.js. Configured once: the build itself
# configures again when a CMakeLists.txt changes (0.7 s saved at `npm start`).
emulator="$(command -v node);--no-experimental-fetch"
cache=build/wasm/CMakeCache.txt
if ! { [ -f $cache ] && grep -qx 'CMAKE_BUILD_TYPE:STRING=Release' $cache &&
  grep -qxF "CMAKE_CROSSCOMPILING_EMULATOR:UNINITIALIZED=$emulator" $cache; }; then
  emcmake cmake -S . -B build/wasm -DCMAKE_BUILD_TYPE=Release "-DCMAKE_CROSSCOMPILING_EMULATOR=$emulator" >/dev/null
fi
targets=()
for target in "$@"; do targets+=(--target "$target"); done
cmake --build build/wasm -j "$(nproc)" "${targets[@]}"
