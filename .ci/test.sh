#!/usr/bin/env bash
# `npm test`: installs what is missing, builds, then runs every suite.
set -euo pipefail
cd "$(dirname "$0")/.."
bash .ci/build.sh

echo "== native (ctest)"
ctest --test-dir build/native --output-on-failure -j "$(nproc)"

bash .ci/steps.sh .ci/test.d
echo "== all suites passed"
