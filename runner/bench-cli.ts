// `npm run bench -- [options] [versions...]`: build (cached), measure interleaved, write one run file.
import { existsSync, readdirSync } from 'node:fs';
import { loadavg } from 'node:os';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import type { RunMode } from '../schema/index.ts';
import { BENCHMARKS, DEFAULT_BENCHMARKS } from './benchmarks.ts';
import { buildMany, type BuildRequest } from './build.ts';
import { DEFAULT_MATRIX, resolveVersion, variantAllowed } from './catalogue.ts';
import { describeHost, hostId } from './host.ts';
import { executeRun, harnessInfo, journalPath, newRunId, readJournal, type RunPlan } from './run.ts';

export const QUICK_VERSIONS = ['3.4', '3.5'];
const ROUNDS: Record<RunMode, { rounds: number; warmupRounds: number }> = {
  quick: { rounds: 3, warmupRounds: 1 },
  full: { rounds: 5, warmupRounds: 1 },
};

const HELP = `usage: npm run bench -- [--quick | --full] [options] [<version|series>[:<variant>]...]

Builds what is needed (cached), then measures every version interleaved round by round and writes
data/runs/<host>/<YYYY>/<MM>/<runId>.json.gz (compact JSON, gzip; zcat reads it). Each finished task is
appended to a journal first, so a killed run loses nothing: resume it with --resume <runId>.

  --quick              ${ROUNDS.quick.rounds} measured rounds after ${ROUNDS.quick.warmupRounds} warm-up, short tasks; versions default to ${QUICK_VERSIONS.join(' ')}  (default)
  --full               ${ROUNDS.full.rounds} measured rounds after ${ROUNDS.full.warmupRounds} warm-up, the whole matrix; versions default to
                       ${DEFAULT_MATRIX.join(' ')}
  --benchmarks a,b     which benchmarks (default: ${DEFAULT_BENCHMARKS.join(',')}); all: ${BENCHMARKS.map((b) => b.id).join(', ')}
  --rounds N           override the number of measured rounds
  --host-id ID         name of this machine in data/runs/ (default: $OBSERVATORY_HOST_ID or the hostname)
  --out DIR            where runs go (default: data/runs)
  --resume RUNID       continue an interrupted run from its journal
  --list               list the benchmarks and what they measure

A version may carry a build variant: 3.5:no-ml-kem.`;

function fail(msg: string): never {
  console.error(`error: ${msg}`);
  process.exit(2);
}

async function main(): Promise<void> {
  let args;
  try {
    args = parseArgs({
      allowPositionals: true,
      options: {
        quick: { type: 'boolean' },
        full: { type: 'boolean' },
        benchmarks: { type: 'string' },
        rounds: { type: 'string' },
        'host-id': { type: 'string' },
        out: { type: 'string' },
        resume: { type: 'string' },
        list: { type: 'boolean' },
        help: { type: 'boolean', short: 'h' },
      },
    });
  } catch (e) {
    fail(`${(e as Error).message}\n\n${HELP}`);
  }
  const { values, positionals } = args;
  if (values.help) return console.log(HELP);
  if (values.list) {
    for (const b of BENCHMARKS) console.log(`${b.id.padEnd(12)} ${b.description}`);
    return;
  }
  if (values.quick && values.full) fail('choose one of --quick and --full');
  const outDir = values.out ?? join('data', 'runs');

  let plan: RunPlan;
  let requests: BuildRequest[];
  if (values.resume) {
    const host = hostId(values['host-id']);
    const jpath = journalPath(outDir, { host: { id: host } as RunPlan['host'], runId: values.resume });
    if (!existsSync(jpath)) {
      const dir = join(outDir, host);
      const open = existsSync(dir) ? readdirSync(dir).filter((f) => f.endsWith('.partial.jsonl')) : [];
      fail(`no journal ${jpath}${open.length ? `; interrupted runs here: ${open.map((f) => f.replace('.partial.jsonl', '')).join(', ')}` : ''}`);
    }
    plan = readJournal(jpath).plan;
    requests = plan.builds.map((b) => ({ version: resolveVersion(b.version), variant: b.variant }));
  } else {
    const mode: RunMode = values.full ? 'full' : 'quick';
    const specs = positionals.length ? positionals : mode === 'full' ? DEFAULT_MATRIX : QUICK_VERSIONS;
    try {
      requests = specs.map((spec) => {
        const [v, variant = 'default'] = spec.split(':');
        const version = resolveVersion(v!);
        const bad = variantAllowed(version, variant);
        if (bad) throw new Error(bad);
        return { version, variant };
      });
    } catch (e) {
      fail((e as Error).message);
    }
    const wanted = values.benchmarks ? values.benchmarks.split(',').map((s) => s.trim()) : DEFAULT_BENCHMARKS;
    const unknown = wanted.filter((w) => !BENCHMARKS.some((b) => b.id === w));
    if (unknown.length) fail(`unknown benchmark(s) ${unknown.join(', ')}; known: ${BENCHMARKS.map((b) => b.id).join(', ')}`);
    const rounds = values.rounds ? Number(values.rounds) : ROUNDS[mode].rounds;
    if (!Number.isInteger(rounds) || rounds < 1 || rounds > 1000) fail(`--rounds must be a whole number from 1 to 1000, not ${values.rounds}`);
    plan = {
      runId: newRunId(mode),
      mode,
      host: describeHost(hostId(values['host-id'])),
      benchmarks: wanted,
      rounds,
      warmupRounds: ROUNDS[mode].warmupRounds,
      builds: [],
      startedAt: new Date().toISOString(),
      harness: harnessInfo(),
    };
  }

  console.log(`run ${plan.runId} (${plan.mode}) on ${plan.host.id}: ${requests.map((r) => `${r.version.version}${r.variant === 'default' ? '' : ':' + r.variant}`).join(' ')}`);
  const { built, failed } = await buildMany(requests, (v, variant, step) => console.log(`build ${v}/${variant}: ${step}`));
  for (const f of failed) console.error(`build of ${f.req.version.version}/${f.req.variant} failed: ${f.error}${f.log ? ` (log: ${f.log})` : ''}`);
  if (!built.length) fail('no build is available: nothing to measure');
  // keep the command-line order so the round rotation is what the user asked for
  const builds = requests.flatMap((r) => built.filter((b) => b.req === r).map((b) => ({ record: b.build.record, prefix: b.build.prefix })));
  if (!plan.builds.length) plan.builds = builds.map((b) => b.record);
  const changed = plan.builds.filter((b) => !builds.some((x) => x.record.id === b.id));
  if (changed.length)
    fail(`cannot resume: the cached build of ${changed.map((b) => b.version).join(', ')} is no longer the one this run started with (compiler or options changed); start a new run`);
  const benchmarks = BENCHMARKS.filter((b) => plan.benchmarks.includes(b.id));
  const load = loadavg().map((l) => l.toFixed(2)).join(' ');
  console.log(`load average before measuring: ${load} (on ${plan.host.logicalCpus} CPUs)`);
  const { path, run } = await executeRun(plan, builds, benchmarks, outDir, { progress: (m) => console.log(m) }, [
    `load average (1, 5, 15 min) before measuring: ${load} on ${plan.host.logicalCpus} logical CPUs`,
  ]);
  const measured = run.series.filter((s) => s.status === 'measured').length;
  const unsupported = run.series.filter((s) => s.status === 'unsupported').length;
  const failedSeries = run.series.filter((s) => s.status === 'failed').length;
  console.log(`\nwrote ${path}: ${measured} measured, ${unsupported} not supported by their version, ${failedSeries} failed series`);
  for (const n of run.notes) console.log(`note: ${n.split('\n')[0]}`);
  if (failed.length) process.exitCode = 1;
}

await main();
