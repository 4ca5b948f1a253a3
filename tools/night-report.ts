// What a night cost and what it decided (issue 32's before/after): per benchmark, the wall time of its timed
// tasks in the warm-up and in the measured rounds, the tasks a budget left out, why series stopped, and the
// paired comparisons the aggregation makes of its timed series (with the previous release and with 1.1.1w,
// within the run) with how many are decided and the median relative half-width of the series' intervals.
//
//   node tools/night-report.ts [--json] RUNFILE...
//
// With several run files, the first is "before" and each later one is also compared with it like for like:
// only the comparisons both runs make, with how many each decided.
//
// Comparisons come from the aggregation itself (scripts/aggregate/summary.ts aggregate() on the one run), so they
// count what the site's tables show. A benchmark's time is what the run file records (phases.timed.benchmarks);
// runs from before that record get an estimate, each task's time taken as the gap between its end and the end
// of the task before it (iterations' `at`): it includes the harness's work between tasks and any dropped
// round's attempt, and misplaces the time of tasks whose series the file does not hold (left out by a budget).
import { commandLine, openingComment } from '../runner/cli.ts';
import { readRunFile, type Run, type SummaryEntry } from '../schema/index.ts';
import { aggregate } from '../scripts/aggregate/summary.ts';
import { DETERMINISTIC_METHODS, median } from '../analysis/stats.ts';

export interface BenchmarkCost {
  benchmark: string;
  /** seconds of its timed tasks in the warm-up round(s) and in the measured rounds */
  warmupSeconds: number;
  measuredSeconds: number;
  tasksLeftOut: number;
  /** timed series by why they stopped (runs measured until decided), e.g. decided, precise, budget */
  stopped: Record<string, number>;
  /** paired comparisons of timed series (previous release, 1.1.1w) and how many lie above or below 1 */
  comparisons: number;
  decided: number;
  /** median over the timed series of (interval high - low) / (2 x median); null without intervals */
  medianHalfWidth: number | null;
  medianCv: number | null;
}

export interface NightReport {
  runId: string;
  host: string;
  mode: Run['mode'];
  builds: number;
  measuredRounds: number;
  budgetMinutes: number | null;
  warmup: string;
  /** recorded: the run file's phases.timed.benchmarks; estimated: from the gaps between task end times */
  benchmarkSeconds: 'recorded' | 'estimated';
  /** wall seconds: the whole run and its phases (warm-up and measured rounds split from the timed phase) */
  wallSeconds: number;
  /** null for runs from before the phases were recorded (their deterministic tasks ran inside the rounds) */
  phases: { prepare: number; deterministic: number; warmup: number; measured: number } | null;
  deterministicTasks: { run: number; reused: number };
  benchmarks: BenchmarkCost[];
}

const seconds = (a: string, b: string) => (Date.parse(b) - Date.parse(a)) / 1000;
const DECIDED = new Set(['higher', 'lower']);

/** The timed series of one run as the aggregation summarises it alone. */
function timedEntries(run: Run, path: string): SummaryEntry[] {
  const { summary } = aggregate([{ run, path }], { localHost: run.host.id });
  return summary.entries.filter((e) => e.status === 'measured' && e.stats && !e.stats.deterministic);
}

/** An entry's paired comparisons (with the previous release series, with 1.1.1w), each with a key that names it across runs. */
function comparisonsOf(e: SummaryEntry) {
  return (
    [
      ['previous', e.vsPreviousSeries],
      ['baseline', e.vsBaseline],
    ] as const
  ).flatMap(([against, comparison]) => (comparison ? [{ key: `${e.key}|${e.version}|${e.variant}|${against}`, comparison }] : []));
}

export interface LikeForLike {
  before: string;
  after: string;
  /** per benchmark: the comparisons both runs make, and how many of them each decided */
  benchmarks: { benchmark: string; comparisons: number; decidedBefore: number; decidedAfter: number }[];
}

/**
 * Before/after on the same footing: only the comparisons both runs make (same series, build and
 * counterpart), since two nights that measured different tasks decide different numbers of comparisons.
 */
export function likeForLike(before: Run, after: Run): LikeForLike {
  const decided = (run: Run) =>
    new Map(
      timedEntries(run, run.runId).flatMap((e) =>
        comparisonsOf(e).map((c) => [c.key, { benchmark: e.benchmark, decided: DECIDED.has(c.comparison.verdict) }] as const),
      ),
    );
  const a = decided(before);
  const b = decided(after);
  const benchmarks = new Map<string, LikeForLike['benchmarks'][number]>();
  for (const [key, x] of a) {
    const y = b.get(key);
    if (!y) continue;
    const row = benchmarks.get(x.benchmark) ?? { benchmark: x.benchmark, comparisons: 0, decidedBefore: 0, decidedAfter: 0 };
    row.comparisons++;
    if (x.decided) row.decidedBefore++;
    if (y.decided) row.decidedAfter++;
    benchmarks.set(x.benchmark, row);
  }
  return { before: before.runId, after: after.runId, benchmarks: [...benchmarks.values()].sort((p, q) => p.benchmark.localeCompare(q.benchmark)) };
}

export function formatLikeForLike(l: LikeForLike): string {
  return [
    `like for like, ${l.before} -> ${l.after}: the comparisons both runs make`,
    '| benchmark | comparisons in both | decided before | decided after |',
    '|---|---|---|---|',
    ...l.benchmarks.map((b) => `| ${b.benchmark} | ${b.comparisons} | ${b.decidedBefore} | ${b.decidedAfter} |`),
  ].join('\n');
}

export function nightReport(run: Run, path = run.runId): NightReport {
  const deterministic = run.phases?.deterministic?.seconds ?? 0;
  const prepare = run.phases?.prepare?.seconds ?? 0;
  const timedStart = new Date(Date.parse(run.startedAt) + (prepare + deterministic) * 1000).toISOString();
  const warmupRounds = run.plan.warmupRounds;

  // one task = the series one program call wrote: same benchmark, round and end time
  const tasks = new Map<string, { benchmark: string; round: number; at: string }>();
  for (const s of run.series)
    for (const it of s.iterations)
      if (!DETERMINISTIC_METHODS.includes(s.method)) tasks.set(`${s.benchmark}|${it.round}|${it.at}`, { benchmark: s.benchmark, round: it.round, at: it.at });
  const ordered = [...tasks.values()].filter((t) => t.at >= timedStart).sort((a, b) => a.at.localeCompare(b.at));
  const cost = new Map<string, { warmup: number; measured: number }>();
  let previous = timedStart;
  let warmupEnd = timedStart;
  for (const t of ordered) {
    const c = cost.get(t.benchmark) ?? { warmup: 0, measured: 0 };
    const d = Math.max(0, seconds(previous, t.at));
    if (t.round < warmupRounds) {
      c.warmup += d;
      warmupEnd = t.at;
    } else c.measured += d;
    cost.set(t.benchmark, c);
    previous = t.at;
  }

  const timed = timedEntries(run, path);
  const halfWidth = (e: SummaryEntry) =>
    e.stats?.interval && e.stats.median ? (e.stats.interval.high - e.stats.interval.low) / (2 * Math.abs(e.stats.median)) : null;
  const numbers = (xs: (number | null | undefined)[]) => xs.filter((x): x is number => typeof x === 'number' && Number.isFinite(x));

  const recorded = run.phases?.timed.benchmarks;
  const benchmarks = run.plan.benchmarks.map((benchmark): BenchmarkCost => {
    const mine = timed.filter((e) => e.benchmark === benchmark);
    const comparisons = mine.flatMap(comparisonsOf).map((c) => c.comparison);
    const stopped: Record<string, number> = {};
    for (const s of run.series) if (s.benchmark === benchmark && s.stopped) stopped[s.stopped.reason] = (stopped[s.stopped.reason] ?? 0) + 1;
    const halfWidths = numbers(mine.map(halfWidth));
    const cvs = numbers(mine.map((e) => e.stats?.cv));
    return {
      benchmark,
      warmupSeconds: recorded ? (recorded[benchmark]?.warmupSeconds ?? 0) : (cost.get(benchmark)?.warmup ?? 0),
      measuredSeconds: recorded ? (recorded[benchmark]?.measuredSeconds ?? 0) : (cost.get(benchmark)?.measured ?? 0),
      tasksLeftOut: (run.plan.leftOut ?? []).filter((t) => t.benchmark === benchmark).length,
      stopped,
      comparisons: comparisons.length,
      decided: comparisons.filter((c) => DECIDED.has(c.verdict)).length,
      medianHalfWidth: halfWidths.length ? median(halfWidths) : null,
      medianCv: cvs.length ? median(cvs) : null,
    };
  });

  const timedSeconds = run.phases?.timed?.seconds ?? seconds(timedStart, run.finishedAt);
  const warmup = Math.min(timedSeconds, Math.max(0, seconds(timedStart, warmupEnd)));
  return {
    runId: run.runId,
    host: run.host.id,
    mode: run.mode,
    builds: run.builds.length,
    measuredRounds: run.plan.rounds,
    budgetMinutes: run.plan.budgetMinutes ?? null,
    warmup: run.plan.warmup ?? 'whole-round',
    benchmarkSeconds: recorded ? 'recorded' : 'estimated',
    wallSeconds: seconds(run.startedAt, run.finishedAt),
    phases: run.phases ? { prepare, deterministic, warmup, measured: timedSeconds - warmup } : null,
    deterministicTasks: { run: run.phases?.deterministic?.tasks ?? 0, reused: run.phases?.deterministic?.reused ?? 0 },
    benchmarks,
  };
}

const min = (s: number) => `${(s / 60).toFixed(1)} min`;
const pct = (x: number | null) => (x === null ? 'n/a' : `${(100 * x).toFixed(1)}%`);

export function formatReport(r: NightReport): string {
  const wall = r.wallSeconds;
  const p = r.phases;
  const lines = [
    `${r.runId} (${r.mode}) on ${r.host}: ${r.builds} builds, ${r.measuredRounds} measured rounds, warm-up ${r.warmup}${r.budgetMinutes === null ? '' : `, budget ${r.budgetMinutes} min`}`,
    p
      ? `wall ${min(wall)}: prepare ${min(p.prepare)}, deterministic ${min(p.deterministic)} (${r.deterministicTasks.run} tasks, ${r.deterministicTasks.reused} reused), ` +
        `warm-up ${min(p.warmup)}, measured rounds ${min(p.measured)}; timed ${pct((p.warmup + p.measured) / wall)} of the night, deterministic ${pct(p.deterministic / wall)}`
      : `wall ${min(wall)} (phases not recorded: the run predates them, its deterministic tasks ran inside the rounds)`,
    '',
    `time per benchmark: ${r.benchmarkSeconds === 'recorded' ? "the tasks' own seconds, from the run file" : 'estimated from the gaps between task end times (the run file predates the record)'}`,
    '| benchmark | warm-up | measured rounds | tasks left out | stopped | comparisons decided | median half-width | median CV |',
    '|---|---|---|---|---|---|---|---|',
    ...r.benchmarks.map(
      (b) =>
        `| ${b.benchmark} | ${min(b.warmupSeconds)} | ${min(b.measuredSeconds)} | ${b.tasksLeftOut} | ${
          Object.entries(b.stopped)
            .map(([k, v]) => `${k} ${v}`)
            .join(', ') || '-'
        } | ${b.decided} of ${b.comparisons} | ${pct(b.medianHalfWidth)} | ${pct(b.medianCv)} |`,
    ),
  ];
  return lines.join('\n');
}

if (import.meta.main) {
  const { values, positionals, fail } = commandLine('night-report', openingComment(import.meta.url), { json: { type: 'boolean' } });
  if (!positionals.length) fail('name at least one run file');
  const runs = positionals.map((p) => ({ run: readRunFile(p), path: p }));
  const reports = runs.map(({ run, path }) => nightReport(run, path));
  const compared = runs.slice(1).map(({ run }) => likeForLike(runs[0]!.run, run));
  console.log(
    values.json ? JSON.stringify({ reports, likeForLike: compared }, null, 2) : [...reports.map(formatReport), ...compared.map(formatLikeForLike)].join('\n\n'),
  );
}
