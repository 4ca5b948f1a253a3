// A night's plan with a time budget (issue 32, item 4; --budget-minutes). The warm-up round times every
// timed task (summed over the builds), or, where it is short, the tasks it does not run take the times
// earlier quiet runs of this machine recorded (runner/run/warmup.ts, runner/task-times.ts); then, before the
// first measured round, the run keeps the tasks whose minimum rounds fit in the time left less a reserve
// (reserveSeconds): the tasks of headline series first
// (isNightHeadline: what the version pages open with, and what the tracker follows night by night), then
// the tasks this machine's previous budgeted night of the same mode left out (so that two short nights
// measure what one long one would), then the others; within each, the cheapest first, each kept when it
// still fits. The tasks left out are not run again; the run
// file lists them with their time per round, for the next night. The tasks' seconds are counted with the
// harness's own time between them (harnessFactor). Once the minimum rounds are measured, a round that would
// end after the budget runs only the open tasks that still fit, cheapest first (run/rounds.ts fitting); the
// others stop for the budget (until-decided.ts stopTasks), and when none fits the night ends (finalLook).
// Below the minimum rounds the rounds run past the
// budget by up to MINIMUM_ROUNDS_OVERRUN of it, since a night stopped short of its minimum rounds decides no
// comparison at all.
import type { Run, RunMode } from '../schema/index.ts';
import { HEADLINE_METRICS } from '../analysis/headline-metrics.ts';
import { seriesKey, type SeriesSpec } from './benchmark.ts';
import { isHeadline } from './handshake/series.ts';
import { MAX_TASK_DROPS } from './quiet/evidence.ts';

/**
 * Time kept free beyond the minimum rounds, for what the host disturbs. A loud window drops only the
 * tasks it overlapped, and they are measured again in the same round (run.ts; a task dropped
 * MAX_TASK_DROPS times is given up for the round), so the room a night needs is that many measurements
 * again of its costliest task, or a round where that is less (a round that breaks a limit as a whole is
 * measured again). A whole round in reserve, about 21 minutes on a 2-core machine, left a fifth of a
 * full night's tasks out (issue 32). A round repeated when the reserve is spent does not start if it would
 * end after the budget: the tasks of the last round then stop for the budget a round short, and their
 * series say so (stopped: budget). Unused, the room goes to rounds measured until decided.
 */
export const RESERVE_TASK_REMEASURES = MAX_TASK_DROPS;

/** How far past its budget a night may run to measure its minimum rounds, as a share of the budget (a full night here ended its fifth round 14 min before a 115-min budget, a sixth needed 17). */
export const MINIMUM_ROUNDS_OVERRUN = 0.1;

/** The reserve of a night that keeps these tasks: RESERVE_TASK_REMEASURES rounds of the costliest one, or one round of all if less. */
export const reserveSeconds = (kept: readonly TaskCost[], remeasures = RESERVE_TASK_REMEASURES): number =>
  Math.min(
    remeasures * Math.max(0, ...kept.map((t) => t.secondsPerRound)),
    kept.reduce((a, t) => a + t.secondsPerRound, 0),
  );

const TRACKED = new Set(HEADLINE_METRICS.map((m) => m.key));
/** What the site needs first: a version page's opening handshake figures (handshake/series.ts isHeadline) or a series the tracker follows night by night (analysis/headline-metrics.ts). */
export const isNightHeadline = (spec: SeriesSpec): boolean => isHeadline(spec) || TRACKED.has(seriesKey(spec));

export interface TaskCost {
  benchmark: string;
  task: string;
  headline: boolean;
  /** left out by this machine's previous budgeted night of the same mode: planned right after the headline tasks */
  carried?: boolean;
  /** seconds one round of it takes, over every build (from the warm-up round, or the recorded time on a build it did not warm) */
  secondsPerRound: number;
}

/**
 * How much longer a round takes than its tasks' own seconds: the harness's work between tasks (quiet
 * windows, steal probes, waits for a calm host) as a factor, from the timed entries of a round in the order
 * they ended. A full night here spent 16% on top of its tasks in the short warm-up and 9% in the measured
 * rounds; a plan of task seconds alone left it a round short of its minimum, which decides nothing.
 * Gaps of more than MAX_HARNESS_GAP seconds are a session's end, not the harness.
 */
export function harnessFactor(entries: readonly { at: string; seconds?: number }[]): number {
  const ordered = [...entries].filter((e) => e.seconds !== undefined).sort((a, b) => a.at.localeCompare(b.at));
  let tasks = 0;
  let harness = 0;
  ordered.forEach((e, i) => {
    tasks += e.seconds!;
    if (i === 0) return;
    const gap = (Date.parse(e.at) - Date.parse(ordered[i - 1]!.at)) / 1000;
    if (gap <= MAX_HARNESS_GAP) harness += Math.max(0, gap - e.seconds!);
  });
  return tasks > 0 ? 1 + harness / tasks : 1;
}
const MAX_HARNESS_GAP = 600;

export function planNight(
  tasks: readonly TaskCost[],
  minRounds: number,
  secondsLeft: number,
  reserve: (kept: readonly TaskCost[]) => number = reserveSeconds,
  /** harnessFactor of the warm-up round: each task's rounds cost this much more than its own seconds */
  harness = 1,
): { kept: TaskCost[]; leftOut: TaskCost[] } {
  // within each class the cheapest first: the most tasks (and series) per night, so that one expensive
  // benchmark (openssl speed's 1-s windows) cannot crowd out every task of the cheap ones
  const cheapest = (ts: TaskCost[]) => ts.sort((a, b) => a.secondsPerRound - b.secondsPerRound);
  const order = [
    ...cheapest(tasks.filter((t) => t.headline)),
    ...cheapest(tasks.filter((t) => !t.headline && t.carried)),
    ...cheapest(tasks.filter((t) => !t.headline && !t.carried)),
  ];
  const kept: TaskCost[] = [];
  const leftOut: TaskCost[] = [];
  let used = 0;
  for (const t of order) {
    const cost = t.secondsPerRound * minRounds * harness;
    if (used + cost + reserve([...kept, t]) <= secondsLeft) {
      kept.push(t);
      used += cost;
    } else leftOut.push(t);
  }
  return { kept, leftOut };
}

/** The timed tasks this machine's newest budgeted run of `mode` left out (none when it left out nothing). */
export function leftOutBefore(
  mode: RunMode,
  runs: readonly Pick<Run, 'runId' | 'mode' | 'startedAt' | 'plan'>[],
): { leftOutBefore?: { runId: string; tasks: string[] } } {
  const last = runs
    .filter((r) => r.mode === mode && r.plan.budgetMinutes !== undefined)
    .sort((a, b) => a.startedAt.localeCompare(b.startedAt))
    .at(-1);
  const tasks = last?.plan.leftOut?.map((t) => `${t.benchmark}|${t.task}`) ?? [];
  return last && tasks.length ? { leftOutBefore: { runId: last.runId, tasks } } : {};
}
