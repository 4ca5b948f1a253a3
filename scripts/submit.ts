// `npm run submit -- [--host-id ID] [--resume RUNID] [--no-wait] [versions...]`: a contributor's full benchmark run,
// checked with the same validator as the pull-request check, then the git steps to submit it.
//
// It refuses early what the pull-request check would refuse late (after the whole benchmark): a dirty
// checkout, a quick run, a reserved host id. The name chosen with --host-id on other hardware is another
// machine (schema/machine.ts): the run is published as that machine, never compared with the other.
import { execFileSync, spawnSync } from 'node:child_process';
import { parseArgs } from 'node:util';
import { describeMachine, safeId, type Run } from '../schema/index.ts';
import { describeHost, hostId as defaultHostId } from '../runner/host.ts';
import { commandLine, openingComment } from '../runner/cli.ts';
import { lockHostForMeasurement } from '../runner/host-lock.ts';
import { formatProblems } from '../checks/submission/report.ts';
import { untrackedRuns } from '../checks/submission/changes.ts';
import { validateSubmission } from '../checks/validate-submission.ts';
import { isReservedHostId, lookalikeOf, RESERVED_HOST_PREFIXES } from '../catalogue/hosts.ts';

export interface SubmitIo {
  root: string;
  /** runs `npm run bench -- <args>` and returns its exit status */
  bench(args: string[]): number;
  log(line: string): void;
  /** the machine this runs on (tests pass a stand-in) */
  host?: Run['host'];
}

const BENCH_OPTIONS_REFUSED = ['quick', 'rounds', 'out', 'benchmarks'];

export class SubmitError extends Error {}

export function submit(argv: string[], io: SubmitIo): string {
  const { values, positionals } = parseArgs({
    args: argv,
    allowPositionals: true,
    options: {
      'host-id': { type: 'string' },
      resume: { type: 'string' },
      full: { type: 'boolean' },
      ...Object.fromEntries(BENCH_OPTIONS_REFUSED.map((k) => [k, { type: 'string' as const }])),
    },
    strict: false,
  });
  for (const k of BENCH_OPTIONS_REFUSED)
    if (values[k] !== undefined)
      throw new SubmitError(`--${k} is not allowed: a submission is a full run of every benchmark (use npm run bench for experiments)`);
  const unknown = Object.keys(values).filter((k) => !['host-id', 'resume', 'full'].includes(k));
  if (unknown.length) throw new SubmitError(`unknown option --${unknown[0]}`);
  const id = defaultHostId(values['host-id'] as string | undefined);
  if (!safeId.safeParse(id).success) throw new SubmitError(`host id "${id}" may use only letters, digits, ".", "_" and "-"`);
  if (isReservedHostId(id))
    throw new SubmitError(
      `host ids starting with ${RESERVED_HOST_PREFIXES.map((p) => `"${p}"`).join(' or ')} (in any letter case) are reserved for the project's bench runners: choose another with --host-id`,
    );
  // names of accepted machines are the pull-request check's to compare (it reads them all); the prefix is known here
  const lookalike = lookalikeOf(id, []);
  if (lookalike) throw new SubmitError(`${lookalike}: choose another with --host-id`);
  const host = io.host ?? describeHost(id);
  io.log(`this machine: ${host.id} (${describeMachine(host)})`);
  const dirty = execFileSync('git', ['-C', io.root, 'status', '--porcelain', '--untracked-files=no'], { encoding: 'utf8' });
  if (dirty.trim())
    throw new SubmitError(`the checkout has uncommitted changes:\n${dirty}A submitted run must come from a known commit: commit or stash them first.`);
  if (!values['host-id']) io.log(`host id: "${id}" (from $OBSERVATORY_HOST_ID or the hostname; it is published: pass --host-id to choose another)`);

  const before = new Set(untrackedRuns(io.root).map((c) => c.path));
  const benchArgs = ['--full', '--host-id', id, ...(values.resume ? ['--resume', String(values.resume)] : []), ...positionals];
  io.log(
    `running: npm run bench -- ${benchArgs.join(' ')}  (${positionals.length ? 'the versions given' : 'the whole default matrix'}; it can be resumed if killed)`,
  );
  const status = io.bench(benchArgs);
  if (status !== 0)
    throw new SubmitError(`npm run bench failed (exit ${status}); if it was interrupted, continue with: npm run submit -- --host-id ${id} --resume <runId>`);
  const created = untrackedRuns(io.root).filter((c) => !before.has(c.path));
  if (created.length !== 1) throw new SubmitError(`expected the benchmark to write one new run file under data/runs/, found ${created.length}`);
  const file = created[0]!.path;
  const report = validateSubmission({ root: io.root, changed: created, mode: 'submission' });
  if (!report.ok)
    throw new SubmitError(
      `${file} would be rejected by the pull-request check:\n${formatProblems(report)}\nThe file is left in place for you to inspect; do not submit it.`,
    );
  const run = report.files[0]!.run!;
  const branch = `run/${run.host.id}/${run.runId}`;
  return [
    `\n${file} is valid: ${run.series.length} series from ${run.builds.length} builds on ${run.host.cpuModel}.`,
    'Next steps (submit this file and nothing else):',
    `  git switch -c ${branch}`,
    `  git add ${file}`,
    `  git commit -m "Run ${run.runId} on ${run.host.id}"`,
    `  git push -u <your-fork> ${branch}`,
    'then open a pull request against main. The "validate submitted runs" check shows what the run adds.',
  ].join('\n');
}

async function main(): Promise<void> {
  // the bench options a submission refuses are known here so that submit() can say why
  const refused = Object.fromEntries(BENCH_OPTIONS_REFUSED.map((k) => [k, { type: k === 'quick' ? ('boolean' as const) : ('string' as const) }]));
  commandLine('submit', openingComment(import.meta.url), {
    'host-id': { type: 'string' },
    resume: { type: 'string' },
    full: { type: 'boolean' },
    'no-wait': { type: 'boolean' },
    ...refused,
  });
  // the whole submission measures: hold the host lock (the bench it runs takes part in it); --no-wait fails if it is taken
  const argv = process.argv.slice(2).filter((a) => a !== '--no-wait');
  await lockHostForMeasurement(`npm run submit -- ${argv.join(' ')}`.trim(), argv.length !== process.argv.length - 2);
  const io: SubmitIo = {
    root: process.cwd(),
    bench: (args) => spawnSync('npm', ['run', 'bench', '--', ...args], { stdio: 'inherit' }).status ?? 1,
    log: (line) => console.log(line),
  };
  try {
    console.log(submit(argv, io));
  } catch (e) {
    if (!(e instanceof SubmitError)) throw e;
    console.error(`error: ${e.message}`);
    process.exit(1);
  }
}

if (import.meta.main) await main();
