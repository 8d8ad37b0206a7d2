#!/usr/bin/env bash
# Installs what the build and the tests need on a fresh Debian 12 machine:
# Debian's Emscripten, Chromium, Firefox ESR and Xvfb, clang runtimes, zlib
# and pkg-config, then the locked npm packages. With --inspector only what
# `npm start` needs (CMake and Emscripten for the wasm module, the npm
# packages). Each step is skipped when already done, so it is cheap to
# re-run.
set -euo pipefail
cd "$(dirname "$0")/.."

need=()
command -v cmake >/dev/null || need+=(cmake)
command -v emcc >/dev/null || need+=(emscripten)
if [ "${1:-}" != "--inspector" ]; then
  command -v gcc >/dev/null || need+=(gcc)
  command -v clang >/dev/null || need+=(clang)
  command -v clang-format >/dev/null || need+=(clang-format) # the C's layout, checked by the lint step
  command -v chromium >/dev/null || need+=(chromium)
  command -v firefox-esr >/dev/null || need+=(firefox-esr)
  command -v Xvfb >/dev/null || need+=(xvfb xauth) # Firefox has WebGL only on a display: the 3D view's tests run it on Xvfb
  command -v git >/dev/null || need+=(git)
  command -v strace >/dev/null || need+=(strace) # pauses a writer between its load and its lock
  command -v pkg-config >/dev/null || need+=(pkg-config) # the consumer built with pkg-config
  [ -f /usr/include/zlib.h ] || need+=(zlib1g-dev)
  ls /usr/lib/llvm-14/lib/clang/14*/lib/linux/libclang_rt.fuzzer-x86_64.a >/dev/null 2>&1 || need+=(libclang-rt-14-dev)
fi
if [ ${#need[@]} -gt 0 ]; then
  echo "setup: installing ${need[*]}"
  if [ "$(id -u)" -ne 0 ]; then
    echo "setup: need root to apt-get install ${need[*]}" >&2
    exit 1
  fi
  apt-get update -qq
  DEBIAN_FRONTEND=noninteractive apt-get install -y -qq "${need[@]}" >/dev/null
fi

# npm ci only when the lock file changed since the last install.
stamp=node_modules/.juliet-lock
if [ ! -f "$stamp" ] || ! cmp -s package-lock.json "$stamp"; then
  npm ci --no-audit --no-fund
  cp package-lock.json "$stamp"
fi
