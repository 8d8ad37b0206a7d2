#!/usr/bin/env bash
# The code's layout and lint: the C's by clang-format (.clang-format;
# Debian 12's clang-format 14, which .ci/setup.sh installs), the
# JavaScript's by prettier (.prettierrc.json, skipping what .prettierignore
# lists) and ESLint's recommended rules (eslint.config.js), pinned
# devDependencies that `npm ci` installs. A file out of format or a lint
# error fails the run. `npm run format` fixes the layout.
set -euo pipefail
cd "$(dirname "$0")/../.."
for tool in prettier eslint; do
  if [ ! -x "node_modules/.bin/$tool" ]; then
    echo "lint: node_modules/.bin/$tool is missing (bash .ci/setup.sh runs npm ci, which installs it)" >&2
    exit 1
  fi
done

if ! command -v clang-format >/dev/null; then
  echo "lint: clang-format is missing (bash .ci/setup.sh installs it)" >&2
  exit 1
fi
echo "== format (clang-format --dry-run)"
git ls-files -z '*.c' '*.h' | xargs -0 clang-format --dry-run --Werror
echo "== format (prettier --check)"
npx prettier --check . --log-level warn
echo "== lint (eslint)"
npx eslint .
