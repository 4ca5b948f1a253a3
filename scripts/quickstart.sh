#!/usr/bin/env bash
# `npm start`: a quick benchmark of the built-in quick set, then the derived data and the site.
set -euo pipefail
cd "$(dirname "$0")/.."
node runner/bench-cli.ts --quick "$@"
node scripts/aggregate.ts
npm run -s site:build
echo
echo "Run file:  $(ls -t data/runs/*/*/*/*.json.gz | head -1)  (gzip: read it with zcat)"
echo "Summary:   data/summary.json, data/detailed-iterations.json; history: data/timeseries/"
echo "Site:      site/dist/index.html  (serve it with: npm run site:preview)"
