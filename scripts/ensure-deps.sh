#!/usr/bin/env bash
# Runs before `npm start` and `npm test` (npm's pre-scripts): installs the npm dependencies (which
# include Node 24 itself) when they are missing or stale, and checks the system tools.
set -euo pipefail
cd "$(dirname "$0")/.."
if [ ! -f node_modules/.package-lock.json ] || [ package-lock.json -nt node_modules/.package-lock.json ]; then
  echo "installing npm dependencies (npm ci)..."
  npm ci --no-audit --no-fund --loglevel=error
fi
# actionlint (for the workflow checks in npm test) comes from the Go module proxy
if ! command -v actionlint >/dev/null 2>&1 && [ ! -x .cache/tools/bin/actionlint ] && command -v go >/dev/null 2>&1; then
  echo "installing actionlint..."
  GOBIN="$PWD/.cache/tools/bin" go install github.com/rhysd/actionlint/cmd/actionlint@v1.7.12
fi
missing=()
for t in cc make perl valgrind chromium cmake c++ autoreconf automake libtoolize; do command -v "$t" >/dev/null 2>&1 || missing+=("$t"); done
if [ ${#missing[@]} -gt 0 ] || ! grep -rqs 'Types: deb-src' /etc/apt/sources.list.d/; then
  if [ "$(id -u)" -eq 0 ] && command -v apt-get >/dev/null; then
    bash scripts/setup-machine.sh
  else
    echo "missing: ${missing[*]:-deb-src entries}. Run: sudo bash scripts/setup-machine.sh" >&2
    exit 1
  fi
fi
