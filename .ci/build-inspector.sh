#!/usr/bin/env bash
# `npm run build:inspector`: the inspector alone, in web/dist: what it needs
# installed (setup.sh --inspector), the sample game's wasm module
# (packages/juliet-sample) and the page. web/dist is a static folder with
# paths relative to its page: `npm start` serves it, and any static host
# can, under any path (README: hosting the inspector). `npm run build`
# builds it too, with everything else.
set -euo pipefail
cd "$(dirname "$0")/.."
bash .ci/setup.sh --inspector
bash .ci/build.d/20-wasm.sh juliet_sample_wasm >/dev/null
bash .ci/build.d/30-web.sh
