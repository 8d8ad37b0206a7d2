#!/usr/bin/env bash
# Every native suite again under AddressSanitizer + UndefinedBehaviorSanitizer
# (clang, build/sanitize). Any report fails the run: UBSan does not recover
# (-fno-sanitize-recover=all in the JULIET_SANITIZE build), ASan and
# LeakSanitizer abort the test process, and ctest sees the failure.
set -euo pipefail
cd "$(dirname "$0")/../.."

echo "== native under ASan + UBSan (build/sanitize, ctest)"
cmake -S . -B build/sanitize -DCMAKE_C_COMPILER=clang -DJULIET_SANITIZE=ON \
  -DCMAKE_BUILD_TYPE=RelWithDebInfo >/dev/null
# The test programs and the CLI; the benchmarks are not run here.
cmake --build build/sanitize -j "$(nproc)" >/dev/null

export ASAN_OPTIONS="halt_on_error=1:abort_on_error=1:detect_leaks=1:strict_string_checks=1:detect_stack_use_after_return=1:check_initialization_order=1${ASAN_OPTIONS:+:$ASAN_OPTIONS}"
export UBSAN_OPTIONS="halt_on_error=1:print_stacktrace=1${UBSAN_OPTIONS:+:$UBSAN_OPTIONS}"
ctest --test-dir build/sanitize --output-on-failure -j "$(nproc)"
