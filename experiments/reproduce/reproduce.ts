// `npm run reproduce -- <write-up> [--budget-minutes 10] [--host-id NAME] [--out DIR]`: measure what a
// write-up's claims need on this machine with the sequential paired design and print a verdict per claim.
// What is measured: plan.ts; what the data say of each comparison: comparisons.ts; when it stops: stopping.ts; the verdicts: verdicts.ts. The result is a normal run file (data/runs/...),
// aggregated and submitted like any run; its notes say it is a reproduction and how it stopped.
import { existsSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { BENCHMARKS } from '../../runner/benchmarks.ts';
import { binarySha256 } from '../../runner/build/cache.ts';
import { buildMany, type BuildRequest } from '../../runner/build/build.ts';
import { buildLabel, resolveBuildSpec } from '../../catalogue/index.ts';
import { cpuCapabilities } from '../../runner/cpucaps/cpucaps.ts';
import { commandLine } from '../../runner/cli.ts';
import { describeHost, hostId } from '../../runner/host.ts';
import { lockHostForMeasurement } from '../../runner/host-lock.ts';
import { hostEvidence } from '../../runner/quiet/evidence.ts';
import { executeRun } from '../../runner/run.ts';
import { harnessInfo, newRunId } from '../../runner/run/identity.ts';
import type { RunPlan } from '../../runner/run/journal.ts';
import { buildName, type Build } from '../../site/src/lib/claims/schema.ts';
import { buildSpec, needsOf, planTasks, readWriteup, wantedKeys } from './plan.ts';
import { MAX_ROUNDS, SPENDING_WORDS, Stopper } from './stopping.ts';
import { Reproduction } from './comparisons.ts';
import { claimOutcomes, verdictReport } from './verdicts.ts';

const WRITEUPS = join('site', 'src', 'content', 'writeups');
const DEFAULT_BUDGET_MINUTES = 10;
/** a shorter wait for a quiet host than a full run's: it counts against the budget */
const SETTLE_SECONDS = 30;

const HELP = `usage: npm run reproduce -- <write-up> [--budget-minutes ${DEFAULT_BUDGET_MINUTES}] [--host-id NAME] [--out DIR] [--no-wait]

Measures on this machine what the claims of one write-up (site/src/content/writeups/<write-up>.md)
compare, and prints a verdict per claim and per comparison:
  - the builds the claims name (built first if not cached; the build time is not in the budget), and only
    the tasks that produce the series the claims compare;
  - every build runs every task once per round, the order rotating each round; a comparison's evidence is
    the ratio of its two values in the same round;
  - after a warm-up round it looks after measured rounds 6, 8, 10, 13 (each about 30% more); a look
    spends alpha = 0.05 in proportion to the measuring time since the last one, and a CPU-time comparison
    whose t interval (at the look's confidence) lies inside or entirely outside the claim's range is decided;
  - a task leaves the rounds once every comparison it feeds is decided or belongs to a claim whose verdict
    the comparisons still open cannot change (each may still reach only the verdicts its last look's
    interval meets); it stops when every claim is so settled, or when the next round would overrun the
    budget (one last look then spends the alpha left); instruction counts and bytes are measured once and
    compared exactly;
  - a CPU-time comparison left open says how widely its paired ratios spread here, and after about how
    many paired rounds an interval at its last alpha would decide it, were the mean and the spread to hold.
Writes a run file (data/runs/<machine>/...) that can be aggregated and submitted like any run.

  --budget-minutes N   the time the measuring may take (default ${DEFAULT_BUDGET_MINUTES}; the quiet-host wait counts)
  --host-id NAME       the name of this machine (default: $OBSERVATORY_HOST_ID or the hostname)
  --out DIR            where the run goes (default: data/runs)
  --no-wait            fail at once if another measurement holds the host
  --list               list the write-ups
  --plan               print what would be measured (builds, benchmarks, tasks) and stop

A verdict from a machine that was busy while it measured is not data: the run records how quiet the host
was (runner/quiet/), and says so at the end.`;

/** A failure that is not a usage error: exit status 2. */
function failure(msg: string): never {
  console.error(`error: ${msg}`);
  process.exit(2);
}

async function main(): Promise<number> {
  const cli = commandLine('reproduce', HELP, {
    'budget-minutes': { type: 'string' },
    'host-id': { type: 'string' },
    out: { type: 'string' },
    'no-wait': { type: 'boolean' },
    list: { type: 'boolean' },
    plan: { type: 'boolean' },
  });
  const { values, positionals } = cli;
  const fail: (message: string) => never = cli.fail;
  const slugs = readdirSync(WRITEUPS)
    .filter((f) => f.endsWith('.md'))
    .map((f) => f.replace(/\.md$/, ''))
    .sort();
  if (values.list) return (console.log(slugs.join('\n')), 0);
  if (positionals.length !== 1) fail(`name one write-up (known: ${slugs.join(', ')})`);
  const slug = positionals[0]!;
  const file = join(WRITEUPS, `${slug}.md`);
  if (!existsSync(file)) fail(`no write-up ${slug} (known: ${slugs.join(', ')})`);
  const budgetMinutes = values['budget-minutes'] === undefined ? DEFAULT_BUDGET_MINUTES : Number(values['budget-minutes']);
  if (!(budgetMinutes > 0 && budgetMinutes <= 600)) fail(`--budget-minutes must be a number above 0 and at most 600, not ${values['budget-minutes']}`);
  const outDir = values.out ?? join('data', 'runs');

  const w = readWriteup(file);
  const needs = needsOf(w);
  const tested = w.claims.filter((c) => !c.unverified);
  console.log(
    `write-up ${slug}: ${w.claims.length} claims (${tested.length} tested), ${needs.comparisons.length} comparisons of ${needs.keys.size} series on ${needs.builds.map(buildName).join(', ')}`,
  );
  if (!needs.comparisons.length) {
    console.log('nothing to measure: every claim of this write-up is unverified');
    return 0;
  }
  const taskPlan = planTasks(needs.keys, needs.builds, BENCHMARKS);
  if (taskPlan.missing.length) console.error(`no benchmark produces ${taskPlan.missing.join(', ')}: the comparisons of these series stay not measured`);
  if (!taskPlan.benchmarks.length) failure('no benchmark produces any series the claims compare');
  console.log(
    `measuring ${taskPlan.tasks} task(s) of ${taskPlan.benchmarks.join(', ')} (${taskPlan.mode} mode)${taskPlan.undeclared.length ? `; ${taskPlan.undeclared.length} series come from benchmarks run whole (their tasks do not declare their series)` : ''}`,
  );

  if (values.plan) {
    console.log(
      `builds: ${needs.builds.map(buildSpec).join(' ')}; ${taskPlan.timed ? 'timed tasks: rounds with looks' : 'deterministic series only: one measured round'}`,
    );
    if (taskPlan.undeclared.length) console.log(`from benchmarks run whole: ${taskPlan.undeclared.join(', ')}`);
    return taskPlan.missing.length ? 1 : 0;
  }
  let requests: BuildRequest[];
  try {
    requests = needs.builds.map((b) => resolveBuildSpec(buildSpec(b)));
  } catch (e) {
    failure((e as Error).message);
  }
  const command = `npm run reproduce -- ${process.argv.slice(2).join(' ')}`.trim();
  const noWait = values['no-wait'] === true;
  if (noWait) (await lockHostForMeasurement(command, true)).release();
  const { built, failed } = await buildMany(requests, (v, variant, step) => console.log(`build ${v}/${variant}: ${step}`));
  for (const f of failed) console.error(`build of ${f.req.version.version}/${f.req.variant} failed: ${f.error}${f.log ? ` (log: ${f.log})` : ''}`);
  if (!built.length) failure('no build is available: nothing to measure');
  const builds = requests.flatMap((r) =>
    built.filter((b) => b.req === r).map((b) => ({ record: b.build.record, prefix: b.build.prefix, binarySha256: binarySha256(b.build.dir) })),
  );

  const timed = taskPlan.timed;
  const plan: RunPlan = {
    runId: newRunId(taskPlan.mode),
    mode: taskPlan.mode,
    host: describeHost(hostId(values['host-id'])),
    benchmarks: taskPlan.benchmarks,
    // the run file records the rounds measured: the stopping rule ends the run
    rounds: timed ? MAX_ROUNDS : 1,
    warmupRounds: timed ? 1 : 0,
    builds: [],
    startedAt: new Date().toISOString(),
    harness: harnessInfo(),
    reproduces: slug,
  };
  const lock = await lockHostForMeasurement(command, noWait, plan.runId);
  const notes: string[] = [];
  for (const b of builds) {
    const caps = await cpuCapabilities(b).catch(
      (e: Error) => (notes.push(`CPU capabilities of ${b.record.version}/${b.record.variant} unknown: ${e.message.slice(0, 500)}`), undefined),
    );
    if (caps) b.record = { ...b.record, cpuCapabilities: caps };
  }
  plan.builds = builds.map((b) => b.record);
  const idOf = (b: Build) => builds.find((x) => x.record.library === b.library && x.record.version === b.version && x.record.variant === b.variant)?.record.id;
  const test = new Reproduction(needs.comparisons, idOf);
  const start = Date.now() / 1000;
  const stopper = new Stopper(test, {
    warmupRounds: plan.warmupRounds,
    budgetSeconds: budgetMinutes * 60,
    now: () => Date.now() / 1000,
    start,
    timed,
    declared: (warmup, left) => console.log(`warm-up round: ${warmup.toFixed(1)} s; ${left.toFixed(0)} s left for measured rounds; ${SPENDING_WORDS}`),
    looked: (l) =>
      console.log(
        `look after round ${l.round} (alpha ${l.alpha.toPrecision(3)}${l.final ? ', final: the budget ends' : ''}): ${l.undecided} CPU-time comparison(s) undecided`,
      ),
  });
  const wanted = wantedKeys(needs.keys);
  const benchmarks = BENCHMARKS.filter((b) => plan.benchmarks.includes(b.id));
  const evidence = hostEvidence({ exclusive: true, settleSeconds: SETTLE_SECONDS });
  let outcomes: ReturnType<typeof claimOutcomes> = [];
  const { path, run } = await executeRun(
    plan,
    builds,
    benchmarks,
    outDir,
    // no planned totals: the stopping rule ends the run
    {
      progress: (m) =>
        console.log(
          m
            .replace(/, ~\d+ min left/, '')
            .replace(/\[(\d+)\/\d+ /, '[$1 ')
            .replace(/round (\d+)\/\d+ /, 'round $1 '),
        ),
    },
    notes,
    evidence,
    {
      wanted,
      retired: stopper.retired,
      // the stopping rule spends its alpha by the clock, so the warm-up only has to warm: the tasks this machine timed before are not run twice
      shortWarmup: true,
      afterRound: (round, entries, seconds) => {
        const stop = stopper.afterRound(round, entries, seconds);
        if (stop) {
          // the notes go into the run file: what it reproduces, how it stopped, what it found here
          test.close('the run ended before this comparison was measured');
          outcomes = claimOutcomes(w.claims, test, plan.host.cpuFlags);
          notes.unshift(
            `reproduction of write-up ${slug} (${command}): the sequential paired design of npm run reproduce over ${builds.map((b) => buildLabel(b.record)).join(', ')}, only the tasks that produce the ${needs.keys.size} series its claims compare; ${stopper.record(budgetMinutes)}`,
            ...outcomes
              .filter((o) => o.verdict !== 'unverified')
              .map((o) =>
                `reproduction verdict, claim ${o.claim.id}: ${o.verdict}; ${o.comparisons.map((c) => `${c.pairing.label}: ${c.verdict}${c.ratio !== null && Number.isFinite(c.ratio) ? ` ratio ${c.ratio.toPrecision(4)}` : ''}${c.interval ? ` [${c.interval.low.toPrecision(4)}, ${c.interval.high.toPrecision(4)}] at ${(c.interval.confidence * 100).toPrecision(4)}%, ${c.pairs} rounds` : ''}`).join('; ')}`.slice(
                  0,
                  2000,
                ),
              ),
          );
        }
        return stop;
      },
    },
  );
  lock.release();
  const seconds = Date.now() / 1000 - start;
  console.log('');
  for (const line of verdictReport(slug, run.host.id, outcomes)) console.log(line);
  console.log(`\n${stopper.record(budgetMinutes)}`);
  console.log(`measuring took ${(seconds / 60).toFixed(1)} min`);
  if (run.quiet && !run.quiet.quiet) console.log('\nthe host was NOT quiet during this run (see quiet in the run file): these verdicts are not data');
  console.log(`\nwrote ${path}; to submit it, check it with npm run validate -- ${path} and open a pull request adding it (CONTRIBUTING.md)`);
  return failed.length ? 1 : 0;
}

process.exitCode = await main();
