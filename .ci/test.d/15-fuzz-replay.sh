#!/usr/bin/env bash
# Replays every fuzz target's seed corpus (tests/fuzz/corpus/<target>/,
# crash regressions included) plus the fixtures in assets/ it was drawn
# from, under libFuzzer + ASan + UBSan (build/fuzz). Each input runs once:
# this is a regression check taking seconds, not fuzzing (.ci/fuzz.sh).
set -euo pipefail
cd "$(dirname "$0")/../.."

echo "== fuzz targets: corpus replay (build/fuzz)"
cmake -S . -B build/fuzz -DCMAKE_C_COMPILER=clang -DJULIET_FUZZ=ON \
  -DCMAKE_BUILD_TYPE=RelWithDebInfo >/dev/null
targets=(fuzz_entity_file fuzz_world_dir fuzz_snapshot fuzz_changes fuzz_values fuzz_class_file)
cmake --build build/fuzz -j "$(nproc)" --target "${targets[@]}" >/dev/null

export ASAN_OPTIONS="halt_on_error=1:abort_on_error=1:detect_leaks=1${ASAN_OPTIONS:+:$ASAN_OPTIONS}"
export UBSAN_OPTIONS="halt_on_error=1:print_stacktrace=1${UBSAN_OPTIONS:+:$UBSAN_OPTIONS}"
# The fixtures each target's seeds come from (read recursively).
declare -A extra=(
  [fuzz_entity_file]="assets/sample_world/Entities assets/compat assets/malformed"
  [fuzz_world_dir]=""
  [fuzz_snapshot]="assets/snapshots/valid assets/snapshots/hostile"
  [fuzz_changes]=""
  [fuzz_values]=""
  [fuzz_class_file]=""
)
for target in "${targets[@]}"; do
  inputs=(tests/fuzz/corpus/"$target")
  for dir in ${extra[$target]}; do [ -d "$dir" ] && inputs+=("$dir"); done
  log=build/fuzz/replay-$target.log
  # -runs=0 runs each input once; crashes abort with a non-zero exit.
  if ! build/fuzz/tests/fuzz/"$target" -runs=0 -artifact_prefix=build/fuzz/ \
      "${inputs[@]}" >"$log" 2>&1; then
    cat "$log" >&2
    echo "fuzz replay: $target failed on an input above" >&2
    exit 1
  fi
  echo "$target: $(grep -c . <(find "${inputs[@]}" -type f)) inputs, $(grep -o 'cov: [0-9]*' "$log" | tail -1)"
done
