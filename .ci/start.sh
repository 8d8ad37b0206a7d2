#!/usr/bin/env bash
# `npm start [-- DIR] [--port N]`: builds what the inspector needs (the
# sample game's wasm module, packages/juliet-sample, and the page, nothing
# else) and serves it on 127.0.0.1 with the local server (web/server). With
# DIR the page opens that world directory, saves into it and follows its
# changes on disk; without, it opens the bundled sample. The printed address carries this run's token.
set -euo pipefail
# A relative DIR means where the command was typed (npm says where in INIT_CWD).
export INIT_CWD=${INIT_CWD:-$PWD}
cd "$(dirname "$0")/.."
bash .ci/setup.sh --inspector
bash .ci/build.d/20-wasm.sh juliet_sample_wasm >/dev/null
bash .ci/build.d/30-web.sh
exec node web/server/main.js "$@"
