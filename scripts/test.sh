#!/usr/bin/env bash
# The whole test suite: type check, lint and format check, then mocha against the real PostgreSQL and Redis.
set -euo pipefail
cd "$(dirname "$0")/.."
bash scripts/ensure-pgvector.sh
npx tsc --noEmit
# Formatting, lint rules and import cycles (biome.jsonc); then no line of code over 140 characters.
npx biome ci --colors=off .
npx tsx scripts/line-length.ts
NODE_ENV=test LOG_LEVEL=silent npx mocha "$@"
