#!/usr/bin/env bash
# pnpm 9 from the npm registry (corepack's download of pnpm fails its signature check here).
set -euo pipefail
if ! command -v pnpm >/dev/null 2>&1 || [[ "$(pnpm --version)" != 9.* ]]; then
  npm install -g pnpm@9 >/dev/null
fi
