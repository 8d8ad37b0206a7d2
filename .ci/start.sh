#!/usr/bin/env bash
# `npm start`: builds what the inspector needs and serves it on the sample world.
set -euo pipefail
cd "$(dirname "$0")/.."
bash .ci/build.sh
exec npx vite --config web/vite.config.js
