#!/usr/bin/env bash
# The whole jest suite (`pnpm test`), in two runs (docs/testing.md): the files that need the
# machine to themselves one at a time (jest.config.js, project "alone"), then every other file two
# at a time, each jest worker on its own database and queue prefix. Both runs always run; the
# exit code is the first failure's.
set -uo pipefail
cd "$(dirname "$0")/.."
status=0
pnpm exec jest --selectProjects alone --runInBand || status=$?
pnpm exec jest --selectProjects shared --maxWorkers=2 || { code=$?; [[ $status -ne 0 ]] || status=$code; }
exit "$status"
