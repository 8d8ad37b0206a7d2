#!/usr/bin/env bash
# The inspector (web/ -> web/dist), after the wasm module it imports.
set -euo pipefail
cd "$(dirname "$0")/../.."
if [ ! -f web/src/core/juliet.js ]; then
  echo "web: skipped, web/src/core/juliet.js is not there yet" >&2
  exit 0
fi
npx vite build --config web/vite.config.js --logLevel warn
