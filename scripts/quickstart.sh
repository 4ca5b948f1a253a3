#!/usr/bin/env bash
# `npm start`: a quick benchmark of the built-in quick set, then the derived data and the site.
set -euo pipefail
cd "$(dirname "$0")/.."
node runner/bench-cli.ts --quick "$@"
node scripts/aggregate.ts
npm run -s site:build
echo
echo "Run file:  $(ls -t data/runs/*/*/*/*.json.br | head -1)  (brotli: read it with brotli -dc)"
echo "Summary:   data/summary.json, data/detailed-iterations.json; history: data/timeseries/"
echo "Site:      site/dist/index.html  (serve it with: npm run site:preview)"
# the site shows only quiet runs: say whether this one was, and why not
node --input-type=module -e '
import { readRunFile } from "./schema/storage.ts";
const run = readRunFile(process.argv[1]);
const q = run.quiet;
if (q?.quiet) console.log("Quiet:     yes: the run feeds the site");
else {
  const why = [!q ? "no evidence recorded" : !q.exclusive ? "the host lock was not held" : "", ...(q ? [q.before, ...q.rounds].flatMap((s) => s.reasons) : [])].filter(Boolean);
  console.log("Quiet:     NO: the site leaves this run out (it shows only runs measured on an otherwise idle machine)");
  for (const r of why.slice(0, 5)) console.log(`           - ${r}`);
}' "$(ls -t data/runs/*/*/*/*.json.br | head -1)"
