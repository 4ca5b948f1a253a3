// npm run aggregate: data/runs/** -> data/summary.json, data/detailed-iterations.json, data/timeseries/<host>/<YYYY>.json
// and data/schema/*.json (scripts/aggregate/: selection.ts, summary.ts, derived-files.ts). The same run files give
// byte-identical output; a file that cannot be used is named and skipped, the rest written, and the exit status is EXIT_SKIPPED.
import { join } from 'node:path';
import { z } from 'zod';
import { DataFileError, describeIssues } from '../schema/index.ts';
import { commandLine } from '../runner/cli.ts';
import { writeAll } from './aggregate/derived-files.ts';

/** Exit status of `npm run aggregate` when it wrote everything else but skipped files. */
export const EXIT_SKIPPED = 3;

const HELP = `usage: npm run aggregate -- [--rebuild] [--local-host MACHINE_ID] [DATA_DIR]

Derives from the run files under DATA_DIR/runs (default data) the files the site reads:
DATA_DIR/summary.json, DATA_DIR/detailed-iterations.json, DATA_DIR/timeseries/<machine>/<YYYY>.json and
DATA_DIR/schema/*.json. Reads only the run files the time series do not know yet; --rebuild reads them all.
A run file it cannot use is named and skipped, everything else written, and the exit status is ${EXIT_SKIPPED}.
--local-host MACHINE_ID: a local build (npm start passes it): that machine's runs that were not quiet feed
the summary too, after its quiet ones, marked so the site calls their values indicative and opens on it.
Never for the committed data/: without it only quiet runs count.`;

if (import.meta.main) {
  const cli = commandLine('aggregate', HELP, { rebuild: { type: 'boolean' }, 'local-host': { type: 'string' } });
  const { rebuild = false, 'local-host': localHost } = cli.values;
  if (localHost !== undefined && (!localHost || localHost.startsWith('-'))) cli.fail('--local-host needs a machine id');
  if (cli.positionals.length > 1) cli.fail(`one DATA_DIR, not ${cli.positionals.join(' ')}`);
  const dataDir = cli.positionals[0] ?? 'data';
  try {
    const r = writeAll(dataDir, { rebuild, localHost });
    for (const i of r.ignored) console.log(`rebuilt from the run files: ${i}`);
    for (const s of r.skipped) console.error(`skipped ${join(dataDir, s.path)}: ${s.reason}`);
    console.log(
      `aggregated ${r.runs} run(s) (${r.read} read, the others known from ${dataDir}/timeseries/): ${r.selected} behind the summary, ` +
        `${r.entries} summary entries, ${r.rows} iterations, ${r.timeseries} time-series file(s) -> ${dataDir}/summary.json, ${dataDir}/detailed-iterations.json, ${dataDir}/timeseries/`,
    );
    if (r.skipped.length) {
      console.error(`${r.skipped.length} run file(s) skipped (listed above): everything else was written. Fix or remove them; exit status ${EXIT_SKIPPED}.`);
      process.exit(EXIT_SKIPPED);
    }
  } catch (e) {
    if (e instanceof z.ZodError) {
      console.error(`aggregation stopped, nothing written: the derived files would not validate\n${describeIssues(e)}`);
      process.exit(1);
    }
    if (e instanceof DataFileError) {
      console.error(`aggregation stopped, nothing written:\n${e.message}`);
      process.exit(1);
    }
    throw e;
  }
}
