#!/usr/bin/env bash
# Browser tests of the inspector: headless Debian Chromium driven by
# playwright-core against a Vite preview of web/dist. Screenshots go to
# tests/e2e/artifacts/. JULIET_E2E_PERF=0 skips the 100,000-entity run.
set -euo pipefail
cd "$(dirname "$0")/../.."
if [ ! -f web/dist/index.html ]; then
  echo "browser tests: skipped, web/dist was not built" >&2
  exit 0
fi
echo "== browser (node --test tests/e2e)"
# node 20's --test does not expand globs: list the files.
mapfile -t suites < <(find tests/e2e -maxdepth 1 -name '*.test.js' | sort)
[ ${#suites[@]} -gt 0 ] || exit 0
node --test --test-concurrency=1 "${suites[@]}"
