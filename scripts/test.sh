#!/usr/bin/env bash
# The whole test suite: type check, lint and format check, then mocha against the real PostgreSQL and Redis.
set -euo pipefail
cd "$(dirname "$0")/.."
bash scripts/ensure-pgvector.sh
bash scripts/ensure-chromium.sh
# The web app (skipped when up to date); it generates the API client's types the web type check reads.
npx tsx scripts/build-web.ts
npx tsc --noEmit
npx tsc --noEmit -p web
# Formatting, lint rules and import cycles (biome.jsonc); then no line of code over 140 characters.
npx biome ci --colors=off .
npx tsx scripts/line-length.ts
NODE_ENV=test LOG_LEVEL=silent npx mocha "$@"
