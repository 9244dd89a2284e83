#!/usr/bin/env bash
# Installs dependencies and starts api, check-worker and notifier in one process.
set -euo pipefail
cd "$(dirname "$0")/.."
bash scripts/ensure-pnpm.sh
pnpm install --frozen-lockfile
exec pnpm start
