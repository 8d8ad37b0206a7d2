#!/usr/bin/env bash
# Builds everything without testing: native library, CLI, tests and
# benchmarks (build/native), the wasm module and wasm tests (build/wasm), and
# the inspector (web/dist).
set -euo pipefail
cd "$(dirname "$0")/.."
bash .ci/setup.sh

jobs=$(nproc)
cmake -S . -B build/native -DCMAKE_BUILD_TYPE=Release >/dev/null
cmake --build build/native -j "$jobs"

bash .ci/steps.sh .ci/build.d
