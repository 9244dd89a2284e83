#!/usr/bin/env bash
# Debian packages the test suite drives, installed when missing (this kind of machine runs as
# root and reaches Debian's archive; nothing is downloaded from elsewhere):
# - docker-compose: test/deploy/compose.test.ts validates docker-compose.yml with
#   `docker-compose config` (no engine needed);
# - chromium: services/api/test/browser-explorer.test.ts drives /api/docs headless (never a
#   browser downloaded by a test tool);
# - iputils-ping: the ping monitor type runs it (packages/probe/src/ping/), and its tests run it
#   as nobody in network namespaces of their own (packages/probe/test/support/ping-namespace.ts),
#   made with iproute2's `ip netns`.
set -euo pipefail
missing=()
if ! command -v docker-compose >/dev/null 2>&1 && ! docker compose version >/dev/null 2>&1; then missing+=(docker-compose); fi
command -v chromium >/dev/null 2>&1 || missing+=(chromium)
command -v ping >/dev/null 2>&1 || missing+=(iputils-ping)
command -v ip >/dev/null 2>&1 || missing+=(iproute2)
if [ ${#missing[@]} -gt 0 ]; then
  echo "installing ${missing[*]} from Debian's packages"
  apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq "${missing[@]}" >/dev/null
fi
