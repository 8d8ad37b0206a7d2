#!/usr/bin/env bash
# test_steps.sh - .ci/steps.sh, the runner of the steps in .ci/*.d, against
# folders made here: a folder with no step fails with a message naming it,
# steps run in name order with the arguments given, and the first failing
# step stops the run with its status. Run by CTest (`ci.steps`).
set -uo pipefail
steps="$(cd "$(dirname "$0")/../.." && pwd)/.ci/steps.sh"
tmp=$(mktemp -d "${TMPDIR:-/tmp}/juliet-ci-XXXXXX")
trap 'rm -rf "$tmp"' EXIT
failures=0

# run NAME DIR [ARG...]: runs the runner on DIR; $status, $out and $err hold
# what it did.
run() {
  local name=$1
  shift
  status=0
  bash "$steps" "$@" >"$tmp/$name.out" 2>"$tmp/$name.err" || status=$?
  out=$(cat "$tmp/$name.out")
  err=$(cat "$tmp/$name.err")
}

# expect WHAT CONDITION...: counts a failure, naming WHAT, unless CONDITION holds.
expect() {
  local what=$1
  shift
  if ! "$@"; then
    echo "FAIL $what (status $status; stdout: '$out'; stderr: '$err')" >&2
    failures=$((failures + 1))
  fi
}

contains() { [[ $1 == *"$2"* ]]; }

mkdir "$tmp/empty.d"
run empty "$tmp/empty.d"
expect "an empty folder fails" test "$status" -eq 1
expect "an empty folder is named in the message" contains "$err" "no steps in $tmp/empty.d"

mkdir "$tmp/other.d"
touch "$tmp/other.d/README" "$tmp/other.d/step.txt"
run other "$tmp/other.d"
expect "a folder with no *.sh fails" test "$status" -eq 1
expect "a folder with no *.sh is named in the message" contains "$err" "no steps in $tmp/other.d"

run missing "$tmp/missing.d"
expect "a missing folder fails" test "$status" -eq 1
expect "a missing folder is named in the message" contains "$err" "$tmp/missing.d is not a folder"

run usage
expect "no folder is a usage error" test "$status" -eq 2
expect "no folder prints the usage" contains "$err" "usage:"

mkdir "$tmp/good.d"
echo 'echo "second $*"' >"$tmp/good.d/20-second.sh"
echo 'echo "first $*"' >"$tmp/good.d/10-first.sh"
run good "$tmp/good.d" --json x
expect "steps that pass pass" test "$status" -eq 0
expect "steps run in name order with the arguments" test "$out" = $'first --json x\nsecond --json x'

mkdir "$tmp/bad.d"
echo 'echo first' >"$tmp/bad.d/10-first.sh"
echo 'exit 3' >"$tmp/bad.d/20-fails.sh"
echo 'echo third' >"$tmp/bad.d/30-third.sh"
run bad "$tmp/bad.d"
expect "a failing step gives its status" test "$status" -eq 3
expect "no step runs after a failing one" test "$out" = "first"
expect "the failing step is named" contains "$err" "step $tmp/bad.d/20-fails.sh failed (exit status 3)"

if [ "$failures" -ne 0 ]; then
  echo "$failures checks failed" >&2
  exit 1
fi
echo "ok   every check of .ci/steps.sh"
