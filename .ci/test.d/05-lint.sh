#!/usr/bin/env bash
# The JavaScript's layout and lint: prettier (.prettierrc.json, skipping what
# .prettierignore lists) and ESLint's recommended rules (eslint.config.js).
# Both are pinned devDependencies that `npm ci` (.ci/setup.sh) installs; a
# file out of format or a lint error fails the run. `npm run format` fixes
# the layout.
set -euo pipefail
cd "$(dirname "$0")/../.."
for tool in prettier eslint; do
  if [ ! -x "node_modules/.bin/$tool" ]; then
    echo "lint: node_modules/.bin/$tool is missing (bash .ci/setup.sh runs npm ci, which installs it)" >&2
    exit 1
  fi
done

echo "== format (prettier --check)"
npx prettier --check . --log-level warn
echo "== lint (eslint)"
npx eslint .
