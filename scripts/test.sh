#!/usr/bin/env bash
# The README's test command: installs what is missing (browsers via apt when root, npm packages), builds, type-checks,
# lints, then runs every test (unit and real-browser end-to-end) once. Arguments go to `vitest run` as they are.
set -euo pipefail
cd "$(dirname "$0")/.."
bash scripts/setup.sh
npm run build
npx tsc -p tsconfig.json
npx eslint .
# Built above: no test may build again. package.test.ts's `npm pack` would otherwise run prepack (the build), which
# rewrites dist/ while the other runner's browsers and `oriel` processes read it.
export ORIEL_SKIP_BUILD=1
if [ $# -gt 0 ]; then
  exec npx vitest run "$@"
fi
# The whole suite in two runners side by side (vitest.config.ts): the `beside` project — the files that mostly wait
# on the clock, and enough others that mostly wait on the browser to balance the two — and the `main` project, the
# rest. Its report follows the main one; the command fails if either runner fails.
beside_log=$(mktemp)
npx vitest run --project beside >"$beside_log" 2>&1 &
beside=$!
trap 'kill "$beside" 2>/dev/null || true; rm -f "$beside_log"' EXIT
status=0
npx vitest run --project main || status=$?
wait "$beside" || status=$?
echo
echo "--- the beside project (run beside the main one) ---"
cat "$beside_log"
exit "$status"
