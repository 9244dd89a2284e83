#!/usr/bin/env bash
# Builds the web app into services/web/dist when it is missing or older than its sources (the
# app's own files and the typed client it uses); the api serves that folder (docs/operations.md).
# Does nothing in a checkout without services/web.
set -euo pipefail
cd "$(dirname "$0")/.."
web=services/web
[[ -f $web/package.json ]] || exit 0
built=$web/dist/index.html
if [[ -f $built ]]; then
  newer=$(find "$web" packages/client/src pnpm-lock.yaml \( -name node_modules -o -path "$web/dist" \) -prune -o -type f -newer "$built" -print -quit)
  [[ -z $newer ]] && exit 0
  echo "Rebuilding the web app: $newer changed since the last build"
else
  echo "Building the web app (first run)"
fi
pnpm --filter @uptime/web build
