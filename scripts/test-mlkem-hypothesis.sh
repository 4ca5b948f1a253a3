#!/usr/bin/env bash
# Same as `npm run test:mlkem-hypothesis`: is OpenSSL 3.5's handshake slowdown its default key shares?
# Options are passed through (--quick, --full, --rounds N, --handshakes N, --help).
set -euo pipefail
cd "$(dirname "$0")/.."
bash scripts/ensure-deps.sh
exec node_modules/.bin/node experiments/hypothesis/mlkem-hypothesis.ts "$@"
