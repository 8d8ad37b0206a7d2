#!/usr/bin/env bash
# The inspector (web/ -> web/dist), after the wasm module it imports.
set -euo pipefail
cd "$(dirname "$0")/../.."
for f in web/src/core/juliet.js web/src/core/generated/juliet_wasm.mjs web/src/core/generated/juliet_wasm.wasm; do
  if [ ! -f "$f" ]; then
    echo "web: $f is missing (the wasm build, .ci/build.d/20-wasm.sh, makes the generated files)" >&2
    exit 1
  fi
done
npx vite build --config web/vite.config.js --logLevel warn
test -f web/dist/index.html
