#!/usr/bin/env bash
# `bash .ci/steps.sh DIR [ARG...]`: runs every DIR/*.sh in name order (the
# steps of build.sh, test.sh and bench.sh), each with ARG..., and stops at
# the first that fails, with its exit status.
#
# A DIR that holds no step (missing, empty, or no *.sh in it) is an error,
# not a no-op: the steps in .ci/*.d are the wasm and inspector builds and
# every suite after the native one, so a folder without them is a broken
# checkout or a wrong path, and a run that skipped them must not end with
# "all suites passed".
set -euo pipefail

if [ $# -lt 1 ]; then
  echo "usage: bash .ci/steps.sh DIR [ARG...]" >&2
  exit 2
fi
dir=$1
shift

shopt -s nullglob
steps=("$dir"/*.sh)
if [ ${#steps[@]} -eq 0 ]; then
  if [ -d "$dir" ]; then
    echo "ci: no steps in $dir (expected one or more *.sh files there)" >&2
  else
    echo "ci: $dir is not a folder (expected the *.sh steps there)" >&2
  fi
  exit 1
fi
for step in "${steps[@]}"; do
  status=0
  bash "$step" "$@" || status=$?
  if [ "$status" -ne 0 ]; then
    echo "ci: step $step failed (exit status $status)" >&2
    exit "$status"
  fi
done
