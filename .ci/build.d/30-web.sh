#!/usr/bin/env bash
# The inspector (web/ -> web/dist), after the wasm module it imports: the
# sample game's (packages/juliet-sample/dist/, the library's exports with the
# sample classes compiled in).
set -euo pipefail
cd "$(dirname "$0")/../.."
for f in packages/juliet-sample/dist/juliet_wasm.mjs packages/juliet-sample/dist/juliet_wasm.wasm; do
  if [ ! -f "$f" ]; then
    echo "web: $f is missing (the wasm build, .ci/build.d/20-wasm.sh, builds it)" >&2
    exit 1
  fi
done
npx vite build --config web/vite.config.js --logLevel warn
test -f web/dist/index.html
