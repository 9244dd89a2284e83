#!/usr/bin/env bash
# Installs everything and runs the whole suite: typecheck, lint, jest (real Postgres and Redis).
set -euo pipefail
cd "$(dirname "$0")/.."
bash scripts/ensure-pnpm.sh
bash scripts/ensure-system-packages.sh
pnpm install --frozen-lockfile
pnpm typecheck
pnpm lint
pnpm test
