#!/usr/bin/env bash
# fetch-npm.sh NAME PACKAGE@VERSION [PACKAGE@VERSION...]
# Installs the packages and their dependencies from the npm registry into $CACHE/npm/NAME (outside
# the repository) with the machine's npm; prints that folder's node_modules (for NODE_PATH).
set -euo pipefail
CACHE=${CACHE:-/tmp/corpus-cache}
name=$1; shift
out=$CACHE/npm/$name
if [ ! -f "$out/.ok" ]; then
  rm -rf "$out"; mkdir -p "$out"
  echo '{"name":"corpus-'"$name"'","private":true}' > "$out/package.json"
  npm install --prefix "$out" --no-audit --no-fund --loglevel=error --save-exact "$@" >&2
  touch "$out/.ok"
fi
echo "$out/node_modules"
