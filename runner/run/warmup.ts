// The warm-up round (round 0, never aggregated) has two jobs: to warm (the binary paged in, caches,
// the CPU's frequency) and, for a night with a time budget, to time every timed task for the plan
// (runner/night-plan.ts). A whole warm-up round runs every timed task on every build, which on a full
// night of 9 builds is about a seventh of the night. A short one (npm run bench unless --full-warmup, and npm run reproduce)
// uses the times earlier quiet runs of this machine recorded (runner/task-times.ts): for each benchmark
// and build,
//   - every timed task has a recorded time: round 0 runs only the first of them in run order (enough to
//     page the binary in and warm it), and the plan takes the others' seconds per round from the record;
//   - some have none: round 0 runs those, warmed and timed as in a whole round (they warm the binary),
//     and the plan takes the others' seconds from the record;
//   - none has: round 0 runs them all, as in a whole round.
// The choice is journaled before round 0 (a `warmup` line) and a resumed run keeps it, whatever the
// records say by then; a journal from before the choice, with timed tasks in it, ran a whole round. The
// run file says which warm-up happened (plan.warmup, plan.warmupTimesFrom) and a note says it in words.
import type { TaskCost } from '../night-plan.ts';
import { findTaskTime, taskTimeKey } from '../task-times.ts';
import type { RunPlan } from './journal.ts';

/** A timed task of a build that the warm-up round does not run: the time recorded for it, and by which run. */
export interface NotWarmed {
  benchmark: string;
  task: string;
  buildId: string;
  /** the recorded median seconds of one measured round */
  seconds: number;
  runId: string;
}

/** The warm-up a run chose (the journal's `warmup` line). */
export interface WarmupChoice {
  warmup: 'whole-round' | 'short';
  /**
   * whole-round: why. asked: the caller asked for a whole round (--full-warmup); no-record: no timed
   * task had a recorded time;
   * journal: resumed from a journal written before the choice was journaled, with timed tasks in it
   */
  reason?: 'asked' | 'no-record' | 'journal';
  /** the (task, build) pairs round 0 runs */
  warmed: number;
  /** the ones it does not run (empty for a whole round) */
  notWarmed: NotWarmed[];
}

/** The timed tasks of one benchmark on one build, in run order. */
export interface WarmupPair {
  benchmark: string;
  buildId: string;
  tasks: string[];
}

/** Which timed tasks the warm-up round runs (see the top of this file). */
export function chooseWarmup(plan: Pick<RunPlan, 'host' | 'mode' | 'harness'>, pairs: readonly WarmupPair[], short: boolean): WarmupChoice {
  const total = pairs.reduce((n, p) => n + p.tasks.length, 0);
  if (!short) return { warmup: 'whole-round', reason: 'asked', warmed: total, notWarmed: [] };
  const notWarmed: NotWarmed[] = [];
  for (const { benchmark, buildId, tasks } of pairs) {
    const times = tasks.map((task) => ({ task, time: findTaskTime(taskTimeKey(plan, benchmark, task, buildId)) }));
    const recorded = times.filter((t) => t.time);
    // every task recorded: the first in run order still runs, to warm the binary
    const skip = recorded.length === tasks.length ? recorded.slice(1) : recorded;
    for (const { task, time } of skip) notWarmed.push({ benchmark, task, buildId, seconds: time!.seconds, runId: time!.runId });
  }
  return notWarmed.length
    ? { warmup: 'short', warmed: total - notWarmed.length, notWarmed }
    : { warmup: 'whole-round', reason: 'no-record', warmed: total, notWarmed: [] };
}

/** The runs a short warm-up took its times from, in order of first use. */
export const timesFrom = (c: Pick<WarmupChoice, 'notWarmed'>): string[] => [...new Set(c.notWarmed.map((n) => n.runId))];

/** The run note that says which warm-up happened, in words. */
export function warmupNote(c: WarmupChoice, leftOut: readonly Pick<TaskCost, 'benchmark' | 'task'>[] = []): string {
  const all = c.warmed + c.notWarmed.length;
  if (c.warmup === 'whole-round') {
    const why =
      c.reason === 'no-record'
        ? 'because no quiet run of this machine had recorded the time of any of them for these builds, this mode and harness revision (runner/task-times.ts)'
        : c.reason === 'journal'
          ? 'because the run was resumed from a journal written before the warm-up was chosen'
          : 'as asked (--full-warmup)';
    return `a whole warm-up round: round 0 ran every timed task on every build (${all} in all), ${why}`;
  }
  const runs = timesFrom(c);
  const left = new Set(leftOut.map((t) => `${t.benchmark}|${t.task}`));
  const planned = c.notWarmed.filter((n) => !left.has(`${n.benchmark}|${n.task}`)).length;
  return (
    `a short warm-up round: round 0 ran ${c.warmed} of the ${all} timed tasks of the builds, counting each task once per build (for each benchmark and build, the first task in run order when every one ` +
    `had a recorded time, else the ones without), and took the seconds per round of the other ${c.notWarmed.length} from the medians this machine recorded in ` +
    `${runs.length === 1 ? 'the quiet run' : `${runs.length} quiet runs`} ${runs.slice(0, 5).join(', ')}${runs.length > 5 ? ', ...' : ''} for the same builds, mode and harness revision ` +
    `(runner/task-times.ts; --full-warmup runs a whole round)${planned < c.notWarmed.length ? `; ${c.notWarmed.length - planned} of them were left out by the budget` : ''}`
  );
}
