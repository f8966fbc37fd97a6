#!/usr/bin/env bash
# Installs what Oriel's demo and tests need on a fresh machine: Debian's chromium and firefox-esr, and python3 for the
# upload tests' symlink-race helper (apt, when root), the npm packages (npm ci), and the MCP Python SDK in a virtual
# environment at .cache/py (the Python client tests drive Oriel with it). Without root it stops with the exact
# command to run.
set -euo pipefail
cd "$(dirname "$0")/.."
missing=()
[ -x /usr/bin/chromium ] || missing+=(chromium)
[ -x /usr/bin/firefox-esr ] || missing+=(firefox-esr)
command -v python3 >/dev/null || missing+=(python3)
if [ ${#missing[@]} -gt 0 ]; then
  if [ "$(id -u)" = 0 ]; then
    echo "oriel setup: installing ${missing[*]} with apt" >&2
    apt-get update -qq
    DEBIAN_FRONTEND=noninteractive apt-get install -y -qq "${missing[@]}" >&2
  else
    echo "oriel setup: missing packages. Run: sudo apt-get update && sudo apt-get install -y ${missing[*]}" >&2
    exit 1
  fi
fi
if [ ! -d node_modules ] || [ package-lock.json -nt node_modules/.package-lock.json ]; then
  echo "oriel setup: installing npm packages (npm ci)" >&2
  PUPPETEER_SKIP_DOWNLOAD=1 npm ci --no-audit --no-fund >&2
fi
# The Python SDK client (test/e2e/clients-python.test.ts), pinned, in a venv of its own.
PY_MCP_VERSION=2.3.0
if ! .cache/py/bin/python -c "import importlib.metadata as m, sys; sys.exit(m.version('mcp') != '$PY_MCP_VERSION')" 2>/dev/null; then
  echo "oriel setup: installing the MCP Python SDK $PY_MCP_VERSION into .cache/py" >&2
  # The demo does not need it: a failed install (no route to the package index) is said plainly, not fatal here;
  # the Python client test then fails with the same cause.
  if ! { python3 -m venv .cache/py >&2 && .cache/py/bin/pip install --quiet --retries 1 "mcp==$PY_MCP_VERSION" >&2; }; then
    echo "oriel setup: WARNING: could not install the MCP Python SDK $PY_MCP_VERSION (see pip's message above)." >&2
    echo "oriel setup: the demo does not need it; test/e2e/clients-python.test.ts fails until 'bash scripts/setup.sh' installs it." >&2
  fi
fi
