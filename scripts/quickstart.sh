#!/usr/bin/env bash
# `npm start`: a quick benchmark of the built-in quick set, then the derived data and the site, built locally
# around this computer: aggregate --local-host takes its run even when it was not quiet (marked indicative)
# and the site opens on it, beside the committed machines.
set -euo pipefail
cd "$(dirname "$0")/.."
for arg in "$@"; do
  if [ "$arg" = --help ] || [ "$arg" = -h ]; then
    echo "usage: npm start [-- <npm run bench options>]"
    echo "  A quick benchmark (npm run bench -- --quick, with these options), then npm run aggregate -- --local-host"
    echo "  <this machine> and npm run site:build: the site opens on this computer's run. The bench options:"
    echo
    node runner/bench-cli.ts --help
    exit 0
  fi
done
node runner/bench-cli.ts --quick "$@"
run_file="$(ls -t data/runs/*/*/*/*.json.br | head -1)"
machine="$(basename "$(dirname "$(dirname "$(dirname "$run_file")")")")"
node scripts/aggregate.ts --local-host "$machine"
npm run -s site:build
echo
echo "Run file:  $run_file  (brotli: read it with brotli -dc)"
echo "Summary:   data/summary.json, data/detailed-iterations.json; history: data/timeseries/"
echo "Site:      site/dist/index.html  (serve it with: npm run site:preview); it opens on this computer, $machine"
# say whether the run was quiet, and why not
node --input-type=module -e '
import { readRunFile } from "./schema/storage.ts";
const run = readRunFile(process.argv[1]);
const q = run.quiet;
if (q?.quiet) console.log("Quiet:     yes");
else {
  const why = [!q ? "no evidence recorded" : !q.exclusive ? "the host lock was not held" : "", ...(q ? [q.before, ...q.rounds].flatMap((s) => s.reasons) : [])].filter(Boolean);
  console.log("Quiet:     NO: this local site shows it marked \"not quiet: indicative\"; the published site takes only runs measured on an otherwise idle machine");
  for (const r of why.slice(0, 5)) console.log(`           - ${r}`);
}' "$run_file"
