#!/usr/bin/env bash
# Installs dependencies and starts api, check-worker and notifier in one process. With no
# DATABASE_URL/REDIS_URL and nothing at the default addresses, it embeds PostgreSQL and starts a
# private redis-server, data in .data/ (docs/first-run.md).
set -euo pipefail
cd "$(dirname "$0")/.."
bash scripts/ensure-pnpm.sh
pnpm install --frozen-lockfile
exec pnpm start
