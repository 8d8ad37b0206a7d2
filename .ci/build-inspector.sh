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
# The page only if something it is built from is newer than it: at
# `npm start` this check takes a few milliseconds, a build over a second.
inputs=(web/src web/index.html web/vite.config.js packages/juliet-world packages/juliet-sample package.json package-lock.json)
[ -f node_modules/.package-lock.json ] && inputs+=(node_modules/.package-lock.json)
if [ -f web/dist/index.html ] && [ -z "$(find "${inputs[@]}" -newer web/dist/index.html -print -quit)" ]; then
  echo "web: web/dist is up to date"
else
  bash .ci/build.d/30-web.sh
fi
