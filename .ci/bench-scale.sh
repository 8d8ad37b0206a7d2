#!/usr/bin/env bash
# `npm run bench:scale [-- COUNT] [--dir DIR] [--no-browser]`: builds, then
# measures a world of COUNT entities (default 1,000,000) end to end
# (tests/bench/scale.js). Minutes at 1,000,000; not part of `npm test`.
set -euo pipefail
cd "$(dirname "$0")/.."
bash .ci/build.sh >/dev/null
node tests/bench/scale.js "$@"
