// How long each timed task takes on this machine (issue 32: a full night in under two hours), so that a
// run's warm-up round need not run every task to plan the night (runner/night-plan.ts). At the end of a
// quiet run, every timed task of every build that ran in a measured round gets a record: the median wall
// seconds of its measured (non-warm-up) rounds, with the run it came from, in
// <cache>/task-times/<machine id>/<key>.json, in the build cache beside the reuse cache of
// deterministic results (runner/deterministic.ts). A later run replaces the record of the same key.
//
// The key (all of it must match for a record to stand in for a warm-up):
//   - the machine id (the folder): other hardware takes other times;
//   - the benchmark and the task id;
//   - the build id (a hash of everything that changes the binary: runner/build/options.ts);
//   - the run mode (quick and full run the same task for different lengths);
//   - the window (runner/windows.ts), where it is not the mode's own: a full run with short windows;
//   - the harness revision (catalogue/harness-steps.ts).
// Rounds whose task failed, or failed once and was run again, are not counted (their time is not the
// task's); a task with no such round gets no record. Only a quiet run writes (see executeRun), as only a
// quiet run's deterministic results are offered for reuse: a run that is not data times nothing either.
// runner/run/warmup.ts decides from these records which tasks a warm-up round runs.
import type { RunMode } from '../schema/index.ts';
import { defaultWindow, type WindowLength } from './benchmark.ts';
import { chosenWindow } from './windows.ts';
import { median } from '../analysis/stats.ts';
import { keyedRecords } from './keyed-records.ts';
import type { JournalEntry, RunPlan } from './run/journal.ts';
import { failureOf } from './run/tasks.ts';

export interface TaskTimeKey {
  machine: string;
  benchmark: string;
  task: string;
  buildId: string;
  mode: RunMode;
  harnessRevision: number;
  /** the timed windows' length, when the run chose one other than its mode's (records from before the choice have none) */
  window?: WindowLength;
}

export interface TaskTime {
  key: TaskTimeKey;
  /** sha256 of the key, the file's name */
  keySha256: string;
  /** the median wall seconds of one measured round of the task on the build */
  seconds: number;
  /** the measured rounds the median is of */
  rounds: number;
  /** the quiet run that measured them */
  runId: string;
  recordedAt: string;
}

/** The key of a task of a build in a run of this plan (a plan without a harness revision is revision 1). */
export function taskTimeKey(plan: Pick<RunPlan, 'host' | 'mode' | 'harness' | 'windows'>, benchmark: string, task: string, buildId: string): TaskTimeKey {
  const window = chosenWindow(plan.windows, benchmark);
  return {
    machine: plan.host.id,
    benchmark,
    task,
    buildId,
    mode: plan.mode,
    harnessRevision: plan.harness.revision ?? 1,
    ...(window && window !== defaultWindow(plan.mode) ? { window } : {}),
  };
}

const records = keyedRecords<TaskTimeKey, Omit<TaskTime, 'key' | 'keySha256'>>(
  'task-times',
  // a task timed with its mode's own window keeps the key it had before windows were a choice
  (k) => [k.machine, k.benchmark, k.task, k.buildId, k.mode, k.harnessRevision, ...(k.window ? [k.window] : [])],
  (t) => typeof t.seconds === 'number' && Number.isFinite(t.seconds) && t.seconds >= 0 && typeof t.runId === 'string',
);

export const taskTimesDir = (machine: string): string => records.dir(machine);

/** The time recorded under this key, or undefined (none, unreadable, or recorded under another key). */
export const findTaskTime = (k: TaskTimeKey): TaskTime | undefined => records.find(k) as TaskTime | undefined;

/**
 * The time of each timed task of each build in a finished run: the median seconds of its measured rounds
 * that ran it cleanly (no failure, no second attempt), keyed as above.
 */
export function taskTimesOf(plan: RunPlan, entries: readonly JournalEntry[]): { key: TaskTimeKey; seconds: number; rounds: number }[] {
  const rounds = new Map<string, { benchmark: string; task: string; buildId: string; seconds: number[] }>();
  for (const e of entries) {
    if (e.deterministic || e.round < plan.warmupRounds || e.seconds === undefined) continue;
    if (e.firstAttempt !== undefined || failureOf(e.outcomes, e.error) !== undefined) continue;
    const id = JSON.stringify([e.benchmark, e.task, e.buildId]);
    const t = rounds.get(id) ?? { benchmark: e.benchmark, task: e.task, buildId: e.buildId, seconds: [] };
    t.seconds.push(e.seconds);
    rounds.set(id, t);
  }
  return [...rounds.values()].map((t) => ({ key: taskTimeKey(plan, t.benchmark, t.task, t.buildId), seconds: median(t.seconds), rounds: t.seconds.length }));
}

/** Record the task times of a finished run (a quiet run only: see executeRun); returns how many. */
export function recordTaskTimes(plan: RunPlan, entries: readonly JournalEntry[], now = new Date()): number {
  const times = taskTimesOf(plan, entries);
  if (!times.length) return 0;
  for (const { key, seconds, rounds } of times) records.write(key, { seconds, rounds, runId: plan.runId, recordedAt: now.toISOString() });
  return times.length;
}
