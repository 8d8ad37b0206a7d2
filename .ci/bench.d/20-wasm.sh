#!/usr/bin/env bash
# WebAssembly figures (tests/js/bench.js): the engine's create and load
# benchmarks compiled to wasm and run under node, their ratio to the native
# builds, and the same work through the JavaScript API. Takes the arguments
# of .ci/bench.sh (--json).
set -euo pipefail
cd "$(dirname "$0")/../.."
# Its served save runs in this process: with the thread pool the local
# server has under npm start (start.sh).
UV_THREADPOOL_SIZE=${UV_THREADPOOL_SIZE:-64} node tests/js/bench.js "$@"
