// Journal -> run file: the series of every journaled task (values, failures and their notes), the plan
// as run, how a run measured until decided stopped, the warm-up it chose, the quiet-host evidence and
// the phase times.
import { bySeriesKeyThenBuild, Run, type Iteration, type Series } from '../../schema/index.ts';
import { seriesKey } from '../benchmark.ts';
import type { LookSchedule } from '../../analysis/sequential.ts';
import type { TaskCost } from '../night-plan.ts';
import { phasesOf, quietOf } from './evidence.ts';
import type { EvidenceLine, JournalEntry, RunPlan } from './journal.ts';
import { failureOf, roundOrder } from './tasks.ts';
import { timesFrom, warmupNote } from './warmup.ts';

/** How a run measured until decided stopped, for its run file. */
export interface Stopping {
  minRounds: number;
  schedule: LookSchedule;
  precision: number;
  stopOf(buildId: string, key: string): NonNullable<Series['stopped']> | undefined;
  /** the timed tasks a time budget left out after the warm-up (their warm-up values are not kept) */
  leftOut: TaskCost[];
}

/** Journal -> run file. Throws with the zod path if the result does not validate (the journal is kept). */
export function assembleRun(plan: RunPlan, entries: JournalEntry[], notes: string[] = [], evidence: EvidenceLine[] = [], stopping?: Stopping): Run {
  const series = new Map<string, Series>();
  const left = new Set(stopping?.leftOut.map((t) => `${t.benchmark}|${t.task}`));
  for (const e of entries) {
    if (!e.deterministic && left.has(`${e.benchmark}|${e.task}`)) continue;
    if (e.firstAttempt !== undefined) {
      const second = failureOf(e.outcomes, e.error);
      notes.push(
        `round ${e.round}: ${e.benchmark}/${e.task} on build ${e.buildId} failed on the first attempt (${e.firstAttempt.slice(0, 600)}); ` +
          (second === undefined ? 'the second attempt succeeded and is the one recorded' : `the second attempt failed too (${second.slice(0, 600)})`),
      );
    }
    if (e.error) {
      if (e.firstAttempt === undefined) notes.push(`round ${e.round}: ${e.benchmark}/${e.task} on build ${e.buildId} failed: ${e.error}`);
      continue;
    }
    for (const o of e.outcomes ?? []) {
      const key = seriesKey(o.spec);
      const id = `${e.buildId}|${key}`;
      let s = series.get(id);
      if (!s) {
        s = { key, ...o.spec, buildId: e.buildId, status: 'measured', iterations: [] };
        series.set(id, s);
      }
      if (e.reusedFrom) s.reusedFrom = e.reusedFrom;
      if ('value' in o) {
        const it: Iteration = { round: e.round, value: o.value, at: e.at, warmup: e.round < plan.warmupRounds };
        s.iterations.push(it);
        if (o.observed) s.observed = { ...s.observed, ...o.observed };
      } else if (s.iterations.length === 0) {
        s.status = o.status;
        s.reason = o.reason;
        if (o.observed) s.observed = o.observed;
      } else {
        notes.push(`round ${e.round}: ${key} on build ${e.buildId} was ${o.status} after earlier success: ${o.reason}`);
      }
    }
  }
  // a series that measured something in some rounds and failed in others keeps its values; the
  // failures are in the notes. One that never measured stays unsupported/failed with its reason.
  for (const s of series.values())
    if (s.status === 'measured' && !s.iterations.some((i) => !i.warmup)) {
      s.status = 'failed';
      s.reason = 'measured only in warm-up rounds: every measured round failed (see the run notes)';
    }
  if (stopping)
    for (const s of series.values()) {
      const stopped = s.status === 'measured' ? stopping.stopOf(s.buildId, s.key) : undefined;
      if (stopped) s.stopped = stopped;
    }
  const ordered = [...series.values()].sort(bySeriesKeyThenBuild);
  const warmup = evidence.find((e) => e.kind === 'warmup');
  if (warmup?.kind === 'warmup') notes.push(warmupNote(warmup, stopping?.leftOut));
  const totalRounds = plan.warmupRounds + plan.rounds;
  const quiet = quietOf(plan, entries, evidence, notes);
  const phases = phasesOf(entries, evidence, plan.warmupRounds);
  const run = {
    schemaVersion: 1 as const,
    kind: 'run' as const,
    runId: plan.runId,
    mode: plan.mode,
    startedAt: plan.startedAt,
    finishedAt: new Date().toISOString(),
    host: plan.host,
    harness: plan.harness,
    plan: {
      ...(plan.reproduces ? { reproduces: plan.reproduces } : {}),
      benchmarks: plan.benchmarks,
      rounds: plan.rounds,
      ...(plan.maxRounds ? { maxRounds: plan.maxRounds } : {}),
      ...(plan.budgetMinutes !== undefined ? { budgetMinutes: plan.budgetMinutes } : {}),
      ...(stopping?.leftOut.length
        ? { leftOut: stopping.leftOut.map((t) => ({ benchmark: t.benchmark, task: t.task, headline: t.headline, secondsPerRound: t.secondsPerRound })) }
        : {}),
      ...(stopping
        ? {
            stopping: {
              minRounds: stopping.minRounds,
              looks: stopping.schedule.looks,
              alpha: stopping.schedule.alpha,
              precisionTarget: stopping.precision,
              method: `${stopping.schedule.method}; a timed series stops when its comparisons with the previous release and 1.1.1w in this run are decided (the interval lies above or below 1, or inside 1 ± 5%), when its own interval's relative half-width is below the precision target, or at the last look (runner/until-decided.ts)`,
            },
          }
        : {}),
      warmupRounds: plan.warmupRounds,
      ...(plan.windows?.length ? { windows: plan.windows } : {}),
      ...(warmup?.kind === 'warmup' ? { warmup: warmup.warmup, ...(warmup.warmup === 'short' ? { warmupTimesFrom: timesFrom(warmup) } : {}) } : {}),
      order: Array.from({ length: totalRounds }, (_, r) =>
        roundOrder(
          plan.builds.map((b) => b.id),
          r,
        ),
      ),
    },
    builds: plan.builds,
    series: ordered,
    notes: notes.length > 100 ? [...notes.slice(0, 99), `... and ${notes.length - 99} more notes`] : notes,
    ...(quiet ? { quiet } : {}),
    ...(phases ? { phases } : {}),
  };
  const parsed = Run.safeParse(run);
  if (!parsed.success) {
    const first = parsed.error.issues.slice(0, 5).map((i) => `${i.path.join('.')}: ${i.message}`);
    throw new Error(`the assembled run does not validate:\n  ${first.join('\n  ')}`);
  }
  return parsed.data;
}
