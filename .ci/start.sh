#!/usr/bin/env bash
# `npm start [-- DIR] [--port N] [--share-base URL]`: builds what the
# inspector needs (build-inspector.sh: the sample game's wasm module,
# packages/juliet-sample, and the page, nothing else) and serves it on
# 127.0.0.1 with the local server (web/server). With DIR the page opens that
# world directory, saves into it and follows its changes on disk; without,
# it opens the bundled sample. The printed address carries this run's token.
# --share-base: where this run's share links open (the team's hosted
# inspector).
set -euo pipefail
# A relative DIR means where the command was typed (npm says where in INIT_CWD).
export INIT_CWD=${INIT_CWD:-$PWD}
cd "$(dirname "$0")/.."
bash .ci/build-inspector.sh
exec node web/server/main.js "$@"
