#!/usr/bin/env bash
# The README's test command: installs what is missing (browsers via apt when root, npm packages), builds, type-checks,
# lints, then runs every test (unit and real-browser end-to-end) once.
set -euo pipefail
cd "$(dirname "$0")/.."
bash scripts/setup.sh
npm run build
npx tsc -p tsconfig.json
npx eslint .
npx vitest run "$@"
