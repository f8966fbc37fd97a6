#!/usr/bin/env bash
# The README's test command: installs what is missing (browsers via apt when root, npm packages), builds, type-checks,
# lints, then runs every test (unit and real-browser end-to-end) once. Arguments go to `vitest run` as they are.
set -euo pipefail
cd "$(dirname "$0")/.."
bash scripts/setup.sh
npm run build
npx tsc -p tsconfig.json
npx eslint .
if [ $# -gt 0 ]; then
  exec npx vitest run "$@"
fi
# The whole suite: the files that mostly wait on the clock (the `waits` project, vitest.config.ts) run in a second
# runner beside the rest, so their minutes of waiting overlap the working files. Their report follows the main one;
# the command fails if either runner fails.
waits_log=$(mktemp)
npx vitest run --project waits >"$waits_log" 2>&1 &
waits=$!
trap 'kill "$waits" 2>/dev/null || true; rm -f "$waits_log"' EXIT
status=0
npx vitest run --project work || status=$?
wait "$waits" || status=$?
echo
echo "--- the waits project (run beside the rest) ---"
cat "$waits_log"
exit "$status"
