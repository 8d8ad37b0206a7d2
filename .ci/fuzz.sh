#!/usr/bin/env bash
# `npm run fuzz -- SECONDS [TARGET...]`: fuzzes each libFuzzer target
# (tests/fuzz) for SECONDS of wall time on one core each, FUZZ_JOBS targets
# at a time (default: the number of cores), then prints per target the
# executions, executions per second (of wall time and of CPU time) and
# crashes found. FUZZ_CLOCK=cpu makes SECONDS CPU seconds of each target
# instead (on a busy machine a wall-clock budget buys less fuzzing).
#
# A crash does not end a target's run (libFuzzer's fork mode): its input is
# saved under build/fuzz/artifacts/<target>/ and fuzzing goes on. "crashes"
# counts crashes, leaks, timeouts and out-of-memory inputs.
# New coverage goes to build/fuzz/corpus/<target>/ (seeded from
# tests/fuzz/corpus/<target>/, which tests/fuzz/make_corpus.py draws from
# assets/). To keep a crash as a regression
# case once it is fixed, copy it to tests/fuzz/corpus/<target>/regression-NAME.
# FUZZ_BUILD_DIR (default build/fuzz) keeps a long run's binaries apart from
# the ones `npm test` rebuilds. Exit status 1 if any target crashed.
set -uo pipefail
cd "$(dirname "$0")/.."

seconds=${1:-60}
shift || true
if ! [[ "$seconds" =~ ^[0-9]+$ ]] || [ "$seconds" -lt 1 ]; then
  echo "usage: npm run fuzz -- SECONDS [TARGET...]" >&2
  exit 2
fi
targets=("$@")
[ ${#targets[@]} -gt 0 ] || targets=(fuzz_entity_file fuzz_world_dir fuzz_snapshot fuzz_changes fuzz_values fuzz_class_file)
jobs=${FUZZ_JOBS:-$(nproc)}
clock=${FUZZ_CLOCK:-wall}
out=${FUZZ_BUILD_DIR:-build/fuzz}

bash .ci/setup.sh >/dev/null
cmake -S . -B "$out" -DCMAKE_C_COMPILER=clang -DJULIET_FUZZ=ON \
  -DCMAKE_BUILD_TYPE=RelWithDebInfo >/dev/null || exit 2
cmake --build "$out" -j "$(nproc)" --target "${targets[@]}" >/dev/null || exit 2

export ASAN_OPTIONS="halt_on_error=1:abort_on_error=1:detect_leaks=1${ASAN_OPTIONS:+:$ASAN_OPTIONS}"
export UBSAN_OPTIONS="halt_on_error=1:print_stacktrace=1${UBSAN_OPTIONS:+:$UBSAN_OPTIONS}"

# Fuzzes one target for $seconds (wall or CPU, see FUZZ_CLOCK), in chunks
# of at most a minute when the budget is CPU time.
fuzz_one() {
  local target=$1 bin=$out/tests/fuzz/$1
  local work=$out/corpus/$target artifacts=$out/artifacts/$target
  local log=$out/fuzz-$target.log summary=$out/summary-$target.txt
  local timing=$out/time-$target.txt
  rm -rf "$artifacts"
  mkdir -p "$work" "$artifacts"
  : >"$log"
  local seeds=(tests/fuzz/corpus/"$target")
  local start now left chunk rc execs=0 crashes=0 runs=0 n cpu=0
  start=$(date +%s.%N)
  while :; do
    now=$(date +%s.%N)
    if [ "$clock" = cpu ]; then
      left=$(awk -v c="$cpu" -v t="$seconds" 'BEGIN { l = int(t - c); print (l > 0 ? l : 0) }')
      chunk=$((left < 60 ? left : 60))
    else
      left=$(awk -v s="$start" -v n="$now" -v t="$seconds" 'BEGIN { l = int(s + t - n); print (l > 0 ? l : 0) }')
      chunk=$left
    fi
    [ "$left" -gt 0 ] || break
    runs=$((runs + 1))
    local before
    before=$(wc -l <"$log")
    TIMEFORMAT='%U %S'
    # Fork mode: a crash, leak, timeout or out-of-memory is saved and
    # counted, and fuzzing goes on (bash's `time` includes the children).
    { time "$bin" -fork=1 -ignore_crashes=1 -ignore_timeouts=1 -ignore_ooms=1 \
        -max_total_time="$chunk" -timeout=10 -rss_limit_mb=2560 \
        -dict=tests/fuzz/"$target".dict -artifact_prefix="$artifacts"/ \
        "$work" "${seeds[@]}" >>"$log" 2>&1; } 2>"$timing"
    rc=$?
    cpu=$(awk -v c="$cpu" '{ c += $1 + $2 } END { print c }' "$timing")
    # The last progress line: "#EXECS: cov: ... oom/timeout/crash: A/B/C ...".
    local last
    last=$(tail -n +"$((before + 1))" "$log" | grep -E '^#[0-9]+: ' | tail -1)
    n=$(printf '%s' "$last" | grep -o '^#[0-9]*' | tr -d '#')
    local found
    found=$(printf '%s' "$last" | grep -o 'oom/timeout/crash: [0-9/]*' | awk -F'[ /]' '{ print $2 + $3 + $4 }')
    if [ -z "$last" ] && [ "$rc" -ne 0 ]; then found=1; fi
    crashes=$((crashes + ${found:-0}))
    [ "$rc" -eq 0 ] || echo "== run $runs ended with exit $rc" >>"$log"
    execs=$((execs + ${n:-0}))
  done
  now=$(date +%s.%N)
  awk -v t="$target" -v e="$execs" -v c="$crashes" -v s="$start" -v n="$now" -v cpu="$cpu" \
    -v cov="$(grep -o 'cov: [0-9]*' "$log" | tail -1 | grep -o '[0-9]*')" \
    'BEGIN { d = n - s; if (cpu < 0.001) cpu = 0.001;
             printf "%-17s %6.0f s wall %6.0f s cpu %11d execs %7.0f exec/s wall %7.0f exec/cpu-s %5s edges %3d crashes\n",
                    t, d, cpu, e, e / d, e / cpu, cov, c }' >"$summary"
}

running=0
for target in "${targets[@]}"; do
  if [ ! -x "$out"/tests/fuzz/"$target" ]; then
    echo "no fuzz target $target" >&2
    exit 2
  fi
  fuzz_one "$target" &
  running=$((running + 1))
  if [ "$running" -ge "$jobs" ]; then
    wait -n
    running=$((running - 1))
  fi
done
wait

echo "fuzzing: $seconds s ($clock) per target, $jobs at a time (logs: $out/fuzz-TARGET.log)"
status=0
for target in "${targets[@]}"; do
  cat "$out"/summary-"$target".txt
  if [ "$(ls "$out"/artifacts/"$target" | wc -l)" -gt 0 ] && grep -q ' [1-9][0-9]* crashes' "$out"/summary-"$target".txt; then
    ls "$out"/artifacts/"$target" | sed "s|^|  $out/artifacts/$target/|"
    status=1
  fi
done
exit $status
