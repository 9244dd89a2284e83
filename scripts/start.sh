#!/usr/bin/env bash
# Installs dependencies, builds the web app when needed, and starts api (serving the app),
# check-worker and notifier in one process. With no DATABASE_URL/REDIS_URL and nothing at the
# default addresses, it embeds PostgreSQL and starts a private redis-server, data in .data/
# (docs/first-run.md).
set -euo pipefail
cd "$(dirname "$0")/.."
bash scripts/ensure-pnpm.sh
pnpm install --frozen-lockfile
bash scripts/build-web.sh
# The address the app is opened at: the one sign-in redirects to, so the session cookie matches.
echo "Starting. Open ${APP_URL:-${PUBLIC_URL:-http://localhost:${PORT:-3000}}} in a browser once the api is listening."
exec pnpm start
