#!/usr/bin/env bash
# Runs a command with another major version of Node.js first on the PATH, installed from the npm
# registry's `node` package into .cache/ (no system install): `scripts/with-node.sh 24 npm test`.
set -euo pipefail
major=${1:?usage: scripts/with-node.sh MAJOR COMMAND...}
shift
root=$(cd "$(dirname "$0")/.." && pwd)
dir="$root/.cache/node-$major"
if [ ! -x "$dir/node_modules/.bin/node" ]; then
  mkdir -p "$dir"
  npm install --prefix "$dir" --no-audit --no-fund --no-save --loglevel=error "node@$major" >/dev/null
fi
export PATH="$dir/node_modules/.bin:$PATH"
echo "node $(node --version)" >&2
exec "$@"
