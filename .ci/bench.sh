#!/usr/bin/env bash
# `npm run bench [-- --json]`: builds, then runs every benchmark program.
set -euo pipefail
cd "$(dirname "$0")/.."
bash .ci/build.sh >/dev/null
for bench in build/native/tests/bench/bench_*; do
  [ -x "$bench" ] && "$bench" "$@"
done
for step in .ci/bench.d/*.sh; do
  [ -e "$step" ] && bash "$step" "$@"
done
