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
# A save's fsyncs wait together in libuv's thread pool (juliet-world's
# syncer), as many at once as it has threads: 4 unless told before start.
export UV_THREADPOOL_SIZE=${UV_THREADPOOL_SIZE:-64}
exec node web/server/main.js "$@"
