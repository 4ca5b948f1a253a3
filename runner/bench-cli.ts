// `npm run bench -- [options] [versions...]`: build (cached), measure interleaved, write one run file.
import { existsSync, readdirSync } from 'node:fs';
import { availableParallelism } from 'node:os';
import { join } from 'node:path';
import type { Run, RunMode } from '../schema/index.ts';
import { BENCHMARKS, DEFAULT_BENCHMARKS } from './benchmarks.ts';
import { binarySha256, releaseOfRecord } from './build/cache.ts';
import { buildMany, type BuildRequest } from './build/build.ts';
import { DEFAULT_MATRIX, OTHER_LIBRARIES, buildLabel, resolveBuildSpec } from '../catalogue/index.ts';
import { cpuCapabilities } from './cpucaps/cpucaps.ts';
import { describeHost, hostId } from './host.ts';
import { lockHostForMeasurement } from './host-lock.ts';
import { hostEvidence } from './quiet/evidence.ts';
import { commandLine } from './cli.ts';
import { DEFAULT_PRECISION } from './until-decided.ts';
import { askedWindows, chooseWindows, machineRuns } from './windows.ts';
import { leftOutBefore } from './night-plan.ts';
import { HARNESS_REVISION } from '../catalogue/harness-steps.ts';
import { executeRun } from './run.ts';
import { harnessInfo, newRunId } from './run/identity.ts';
import { journalDir, journalPath, readJournal, resumableRun, resumePlan, type RunPlan } from './run/journal.ts';

export const QUICK_VERSIONS = ['3.4', '3.5'];
/**
 * Full mode measures 6 rounds: the order-statistic interval of a median from n values is [min, max]
 * with coverage 1 - 2^(1-n), 93.75% at n = 5 and 96.9% at n = 6, so 6 is the fewest rounds whose
 * median has a real 95% interval. Quick mode says what it is (3 rounds, [min, max] covers 75%).
 */
export const ROUNDS: Record<RunMode, { rounds: number; warmupRounds: number }> = {
  quick: { rounds: 3, warmupRounds: 1 },
  full: { rounds: 6, warmupRounds: 1 },
};
/**
 * --full measures until decided (runner/until-decided.ts): its round count is the minimum, and this many
 * times it the budget (--max-rounds overrides). Twice: a full matrix whose every series ran to the budget
 * (13 rounds with the warm-up) still fits the submission's size caps (checks/validate-submission.ts SIZE,
 * sized for 7 rounds with room for about twice that). --quick keeps its fixed rounds unless --max-rounds is
 * given: at 3 rounds an interval is too wide to decide anything early, so a budget would only lengthen it.
 */
export const DEFAULT_BUDGET_FACTOR: Record<RunMode, number | null> = { quick: null, full: 2 };
/** How long to wait for a quiet host before the first task (then it starts anyway and the run says so). */
const SETTLE_SECONDS: Record<RunMode, number> = { quick: 30, full: 180 };

const HELP = `usage: npm run bench -- [--quick | --full] [options] [<version|series>[:<variant>]...]

Builds what is needed (cached), then measures every version interleaved round by round and writes
data/runs/<machine>/<YYYY>/<MM>/<runId>.json.br (compact JSON, brotli; brotli -dc reads it; <machine> is
the name plus a fingerprint of the hardware, schema/machine.ts). Each finished task is
appended to a journal in the build cache first, so a killed run loses at most the task in flight: the
next bench of the same request on this machine resumes it by itself (or --resume <runId>).

  --quick              ${ROUNDS.quick.rounds} measured rounds after ${ROUNDS.quick.warmupRounds} warm-up, short tasks; versions default to ${QUICK_VERSIONS.join(' ')}  (default)
  --full               at least ${ROUNDS.full.rounds} measured rounds after ${ROUNDS.full.warmupRounds} warm-up, then until decided (--max-rounds),
                       the whole matrix; versions default to
                       ${DEFAULT_MATRIX.join(' ')}
  --benchmarks a,b     which benchmarks (default: ${DEFAULT_BENCHMARKS.join(',')}); all: ${BENCHMARKS.map((b) => b.id).join(', ')}
  --rounds N           exactly N measured rounds (no early stop)
  --max-rounds M       measure until decided: after the mode's rounds, rounds go on while some timed
                       series is undecided, up to M (default for --full: ${(DEFAULT_BUDGET_FACTOR.full ?? 0) * ROUNDS.full.rounds}; --quick: fixed rounds).
                       A series is decided when its paired comparisons with the previous release and with
                       1.1.1w in the run are (sequential looks, alpha spending: runner/until-decided.ts),
                       or precise enough; a task whose series are all decided leaves the rounds
  --precision P        with --max-rounds: a series whose interval's relative half-width is below P is
                       precise enough (default ${DEFAULT_PRECISION}, i.e. ±${DEFAULT_PRECISION * 100}%)
  --budget-minutes B   with measuring until decided: the run is planned to take B minutes (a resumed run counts
                       what its earlier sessions spent); after the warm-up round it keeps the timed tasks
                       whose minimum rounds fit, counting the harness's time between tasks as the
                       warm-up measured it, with room to measure again what the host disturbs (three
                       rounds of the costliest kept task, or one round if less),
                       the headline series first (plain TLS 1.3 handshakes, and the series the tracker
                       follows: analysis/headline-metrics.ts), and lists the rest in the run file
                       (plan.leftOut) for the next night; after the minimum rounds a round that would
                       end after the budget runs only the open tasks that fit, cheapest first, and the
                       others stop for the budget (below them a night decides nothing, so they may run
                       up to a tenth of the budget past it; the run file says by how much)
                       (runner/night-plan.ts)
  --full-warmup        the warm-up round runs every timed task on every build. Without it the warm-up is
                       short where this machine's earlier quiet runs recorded the tasks' times (median
                       seconds of their measured rounds, per benchmark, task, build, mode and harness
                       revision: runner/task-times.ts): for each benchmark and build it runs only the first
                       task in run order (or those without a recorded time), and the budget's plan takes
                       the others' seconds from the records; the run file says which (plan.warmup). A
                       resumed run keeps the warm-up it started with
  --host-id NAME       the name of this machine (default: $OBSERVATORY_HOST_ID or the hostname); its folder
                       in data/runs/ is the name plus the hardware fingerprint
  --out DIR            where runs go (default: data/runs)
  --resume RUNID       continue an interrupted run from its journal (refused if the checkout moved since)
  --no-resume          start a new run even if an interrupted run of the same request could be resumed
  --allow-moved-checkout  resume even so; the run file records both commits
  --windows W          auto (default): a full run measures a benchmark whose window length is a choice
                       (handshake counts, AEAD CPU-seconds, s_time seconds) with quick mode's short windows
                       where this machine's quiet runs show they give less variance per second of
                       measuring, else with full mode's long ones (runner/windows.ts); short or long: that
                       one for every such benchmark. The run file says which and why (plan.windows)
  --deterministic-jobs N  deterministic tasks (instruction and call counts) run N at a time, in their own
                       phase before the timed rounds (default: the CPU count, ${availableParallelism()} here)
  --no-reuse           measure every deterministic task, even when the reuse cache holds its result for
                       the same binary, benchmark code, harness revision and mode (runner/deterministic.ts)
  --no-wait            fail at once if another measurement holds the host, instead of waiting for it
  --list               list the benchmarks and what they measure

A version may carry a build variant: 3.5:no-ml-kem. Other TLS libraries go by name, optionally with a
release and a variant: ${OTHER_LIBRARIES.join(', ')}, aws-lc@<release>, wolfssl:no-perf-options
(\`npm run openssl -- list\` shows what is catalogued); they run the benchmarks that do not need OpenSSL's
own tools or internals (handshake, aead), and the run says which it skipped for them.

Measuring holds the host lock exclusively (one measurement per machine; builds wait for it), and the
run records how quiet the machine was before it started and in every round (runner/quiet/).`;

/** A failure that is not a usage error (a resume that cannot be, nothing built): exit 2. */
function fail(msg: string): never {
  console.error(`error: ${msg}`);
  process.exit(2);
}

async function main(): Promise<void> {
  const {
    values,
    positionals,
    fail: usage,
  } = commandLine('bench', HELP, {
    quick: { type: 'boolean' },
    full: { type: 'boolean' },
    benchmarks: { type: 'string' },
    rounds: { type: 'string' },
    'max-rounds': { type: 'string' },
    precision: { type: 'string' },
    'budget-minutes': { type: 'string' },
    'host-id': { type: 'string' },
    out: { type: 'string' },
    resume: { type: 'string' },
    'no-resume': { type: 'boolean' },
    'allow-moved-checkout': { type: 'boolean' },
    'no-wait': { type: 'boolean' },
    'deterministic-jobs': { type: 'string' },
    'no-reuse': { type: 'boolean' },
    'full-warmup': { type: 'boolean' },
    windows: { type: 'string' },
    list: { type: 'boolean' },
  });
  if (values.list) {
    for (const b of BENCHMARKS) console.log(`${b.id.padEnd(12)} ${b.description}`);
    return;
  }
  if (values.quick && values.full) usage('choose one of --quick and --full');
  const outDir = values.out ?? join('data', 'runs');

  // what a new run would be, checked before anything else
  const mode: RunMode = values.full ? 'full' : 'quick';
  const specs = positionals.length ? positionals : mode === 'full' ? DEFAULT_MATRIX : QUICK_VERSIONS;
  const wantedBuilds: BuildRequest[] = (() => {
    try {
      return specs.map(resolveBuildSpec);
    } catch (e) {
      return usage((e as Error).message);
    }
  })();
  const wanted = values.benchmarks ? values.benchmarks.split(',').map((s) => s.trim()) : DEFAULT_BENCHMARKS;
  const unknown = wanted.filter((w) => !BENCHMARKS.some((b) => b.id === w));
  if (unknown.length) usage(`unknown benchmark(s) ${unknown.join(', ')}; known: ${BENCHMARKS.map((b) => b.id).join(', ')}`);
  const rounds = values.rounds ? Number(values.rounds) : ROUNDS[mode].rounds;
  if (!Number.isInteger(rounds) || rounds < 1 || rounds > 1000) usage(`--rounds must be a whole number from 1 to 1000, not ${values.rounds}`);
  if (values.rounds && values['max-rounds']) usage('--rounds N measures exactly N rounds, --max-rounds M until decided: choose one');
  const factor = DEFAULT_BUDGET_FACTOR[mode];
  const maxRounds = values['max-rounds'] ? Number(values['max-rounds']) : values.rounds || factor === null ? undefined : factor * rounds;
  if (maxRounds !== undefined && (!Number.isInteger(maxRounds) || maxRounds < Math.max(3, rounds) || maxRounds > 1000))
    usage(`--max-rounds must be a whole number from ${Math.max(3, rounds)} (the ${mode} rounds) to 1000, not ${values['max-rounds']}`);
  const precision = values.precision ? Number(values.precision) : DEFAULT_PRECISION;
  if (!(precision > 0 && precision < 1)) usage(`--precision must be a fraction between 0 and 1, e.g. 0.02, not ${values.precision}`);
  if (values.precision && maxRounds === undefined) usage('--precision applies to a run measured until decided (--full, or --max-rounds)');
  const budgetMinutes = values['budget-minutes'] ? Number(values['budget-minutes']) : undefined;
  if (budgetMinutes !== undefined && !(budgetMinutes > 0 && budgetMinutes <= 7 * 24 * 60))
    usage(`--budget-minutes must be a number of minutes above 0, not ${values['budget-minutes']}`);
  if (budgetMinutes !== undefined && maxRounds === undefined) usage('--budget-minutes applies to a run measured until decided (--full, or --max-rounds)');
  const deterministicJobs = values['deterministic-jobs'] ? Number(values['deterministic-jobs']) : availableParallelism();
  if (!Number.isInteger(deterministicJobs) || deterministicJobs < 1 || deterministicJobs > 4096)
    usage(`--deterministic-jobs must be a whole number from 1 to 4096, not ${values['deterministic-jobs']}`);
  const windowsAsked = values.windows ?? 'auto';
  if (windowsAsked !== 'auto' && windowsAsked !== 'short' && windowsAsked !== 'long')
    return usage(`--windows must be auto, short or long, not ${values.windows}`);
  const host = describeHost(hostId(values['host-id']));

  // a killed run of the same request on this machine is continued, not started over (a nightly job
  // killed by a reboot or its time limit loses at most the task in flight)
  let resume = values.resume;
  if (!resume && !values['no-resume']) {
    const found = resumableRun(host.id, {
      mode,
      benchmarks: wanted,
      rounds,
      maxRounds,
      builds: wantedBuilds.map((r) => buildLabel({ ...r.version, variant: r.variant })),
    });
    if (found)
      try {
        resumePlan(found.plan, harnessInfo(), false);
        resume = found.runId;
        console.log(`resuming the interrupted run ${found.runId} of the same request (started ${found.plan.startedAt}); --no-resume starts a new one`);
      } catch (e) {
        console.log(`not resuming the interrupted run ${found.runId}: ${(e as Error).message}`);
      }
  }

  let plan: RunPlan;
  let requests: BuildRequest[];
  if (resume) {
    // the journal sits in the folder of this machine's id: a resume on other hardware finds none
    const jpath = journalPath({ host, runId: resume });
    if (!existsSync(jpath)) {
      const dir = journalDir(host.id);
      const open = existsSync(dir) ? readdirSync(dir).filter((f) => f.endsWith('.partial.jsonl')) : [];
      fail(`no journal ${jpath}${open.length ? `; interrupted runs here: ${open.map((f) => f.replace('.partial.jsonl', '')).join(', ')}` : ''}`);
    }
    try {
      plan = resumePlan(readJournal(jpath).plan, harnessInfo(), values['allow-moved-checkout'] === true);
    } catch (e) {
      fail((e as Error).message);
    }
    requests = plan.builds.map((b) => {
      const version = releaseOfRecord(b);
      if (!version) fail(`cannot resume ${plan.runId}: ${buildLabel(b)} is no longer in the catalogue`);
      return { version, variant: b.variant };
    });
  } else {
    requests = wantedBuilds;
    const chosenBenchmarks = BENCHMARKS.filter((b) => wanted.includes(b.id));
    let here: Run[] | undefined;
    const runsHere = (): Run[] => {
      try {
        return (here ??= machineRuns(outDir, host.id));
      } catch (e) {
        return fail(
          `cannot read this machine's runs in ${outDir} (they choose the window lengths and what a budgeted night does first): ${(e as Error).message}`,
        );
      }
    };
    plan = {
      runId: newRunId(mode),
      mode,
      host,
      benchmarks: wanted,
      rounds,
      ...(maxRounds !== undefined ? { maxRounds, precision } : {}),
      ...(budgetMinutes !== undefined ? { budgetMinutes } : {}),
      warmupRounds: ROUNDS[mode].warmupRounds,
      windows: windowsAsked === 'auto' ? chooseWindows(mode, chosenBenchmarks, runsHere(), HARNESS_REVISION) : askedWindows(windowsAsked, chosenBenchmarks),
      ...(budgetMinutes !== undefined ? leftOutBefore(mode, runsHere()) : {}),
      builds: [],
      startedAt: new Date().toISOString(),
      harness: harnessInfo(),
    };
  }

  const command = `npm run bench -- ${process.argv.slice(2).join(' ')}`.trim();
  const noWait = values['no-wait'] === true;
  // with --no-wait, say now, not after the builds, that the host is taken (exit 75)
  if (noWait) (await lockHostForMeasurement(command, true)).release();
  console.log(`run ${plan.runId} (${plan.mode}) on ${plan.host.id}: ${requests.map((r) => buildLabel({ ...r.version, variant: r.variant })).join(', ')}`);
  const { built, failed } = await buildMany(requests, (v, variant, step) => console.log(`build ${v}/${variant}: ${step}`));
  for (const f of failed) console.error(`build of ${f.req.version.version}/${f.req.variant} failed: ${f.error}${f.log ? ` (log: ${f.log})` : ''}`);
  if (!built.length) fail('no build is available: nothing to measure');
  // keep the command-line order so the round rotation is what the user asked for
  const builds = requests.flatMap((r) =>
    built.filter((b) => b.req === r).map((b) => ({ record: b.build.record, prefix: b.build.prefix, binarySha256: binarySha256(b.build.dir) })),
  );
  const changed = plan.builds.filter((b) => !builds.some((x) => x.record.id === b.id));
  if (changed.length)
    fail(
      `cannot resume: the cached build of ${changed.map((b) => b.version).join(', ')} is no longer the one this run started with (compiler or options changed); start a new run`,
    );

  // builds are done: from here on this process measures, alone on the host
  const lock = await lockHostForMeasurement(command, noWait, plan.runId);
  const notes: string[] = [];
  // the capability vector each library uses on this host now (a resumed run keeps the one it started with)
  for (const b of builds) {
    const caps = await cpuCapabilities(b).catch(
      (e: Error) => (notes.push(`CPU capabilities of ${b.record.version}/${b.record.variant} unknown: ${e.message.slice(0, 500)}`), undefined),
    );
    const started = plan.builds.find((x) => x.id === b.record.id)?.cpuCapabilities;
    if (started && caps && started !== caps)
      notes.push(`the CPU capability vector of ${b.record.version}/${b.record.variant} changed on resume: ${started} at the start, ${caps} now`);
    if (caps && !started) b.record = { ...b.record, cpuCapabilities: caps };
  }
  if (!plan.builds.length) plan.builds = builds.map((b) => b.record);
  const benchmarks = BENCHMARKS.filter((b) => plan.benchmarks.includes(b.id));
  const evidence = hostEvidence({ exclusive: true, settleSeconds: SETTLE_SECONDS[plan.mode] });
  const { path, run } = await executeRun(plan, builds, benchmarks, outDir, { progress: (m) => console.log(m) }, notes, evidence, {
    deterministicJobs,
    reuse: values['no-reuse'] !== true,
    shortWarmup: values['full-warmup'] !== true,
  });
  lock.release();
  if (run.quiet && !run.quiet.quiet)
    console.log('\nthe host was NOT quiet during this run (see quiet in the run file): its numbers stay out of the default views');
  const measured = run.series.filter((s) => s.status === 'measured').length;
  const unsupported = run.series.filter((s) => s.status === 'unsupported').length;
  const failedSeries = run.series.filter((s) => s.status === 'failed').length;
  console.log(`\nwrote ${path}: ${measured} measured, ${unsupported} not supported by their version, ${failedSeries} failed series`);
  for (const n of run.notes) console.log(`note: ${n.split('\n')[0]}`);
  if (failed.length) process.exitCode = 1;
}

await main();
