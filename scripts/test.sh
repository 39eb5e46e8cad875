#!/usr/bin/env bash
# The whole test suite: type check, then mocha against the real PostgreSQL and Redis.
set -euo pipefail
cd "$(dirname "$0")/.."
bash scripts/ensure-pgvector.sh
npx tsc --noEmit
NODE_ENV=test LOG_LEVEL=silent npx mocha "$@"
