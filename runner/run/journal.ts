// A run's plan and its journal (the plan is the journal's header), and resuming a killed run.
//
// Journal: <cache>/journals/<machine id>/<runId>.partial.jsonl, in the build cache (OBSERVATORY_CACHE),
// outside any checkout: actions/checkout cleans the workspace before the next job, the cache stays.
// Line 1 is the header (everything but the values), each
// further line one finished task of one build in one round, or a piece of quiet-host evidence
// (runner/quiet/: the window before the run, each round with its windows, and whether each session
// held the host lock), the warm-up chosen before round 0, or the night's plan. A killed run is resumed
// with --resume <runId>, or by the next `npm run bench` of the same request on the same machine
// (resumableRun): finished (round, build, benchmark, task) entries and
// the evidence already recorded are kept, and finished tasks are skipped, so a kill loses at most the
// task in flight. A `round-repeated` line drops the timed entries of its round written before it (the
// attempt the host disturbed, runner/run/rounds.ts), a `tasks-dropped` line those of its tasks in its round, so
// a resumed run never sees them.
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Build, Host, Run, RunMode, Series } from '../../schema/index.ts';
import type { Outcome } from '../benchmark.ts';
import type { CheckedSnapshot } from '../quiet/evidence.ts';
import type { RoundSnapshot } from '../quiet/round-watch.ts';
import { buildLabel } from '../../catalogue/index.ts';
import { cacheRoot } from '../sources.ts';
import type { TaskCost } from '../night-plan.ts';
import type { WarmupChoice } from './warmup.ts';
import type { WindowChoice } from '../windows.ts';

export interface RunPlan {
  runId: string;
  mode: RunMode;
  host: Host;
  benchmarks: string[];
  /** measured rounds; with maxRounds, the fewest (the first look) */
  rounds: number;
  /** measure until decided (runner/until-decided.ts), at most this many measured rounds; absent: exactly `rounds` */
  maxRounds?: number;
  /** with maxRounds: the relative half-width below which a series is precise enough (default DEFAULT_PRECISION) */
  precision?: number;
  /** with maxRounds: minutes a session may take; the warm-up round plans what fits (runner/night-plan.ts) */
  budgetMinutes?: number;
  warmupRounds: number;
  /** with a budget: the timed tasks (benchmark|task) the machine's previous budgeted night of this mode left out, planned first after the headline ones */
  leftOutBefore?: { runId: string; tasks: string[] };
  /** the timed windows' length per benchmark that has a choice (runner/windows.ts); absent: the mode's */
  windows?: WindowChoice[];
  builds: Build[];
  startedAt: string;
  harness: Run['harness'];
  /** npm run reproduce: the write-up this run reproduces */
  reproduces?: string;
}

export interface JournalEntry {
  round: number;
  buildId: string;
  benchmark: string;
  task: string;
  at: string;
  outcomes?: Outcome[];
  error?: string;
  /** why the first attempt failed, when the task was run a second time */
  firstAttempt?: string;
  /** wall seconds the task took (timed tasks) */
  seconds?: number;
  /** a deterministic task (the deterministic phase; its round is the first measured one) */
  deterministic?: true;
  /** its outcomes came from the reuse cache, not from running it */
  reusedFrom?: NonNullable<Series['reusedFrom']>;
}

/** Quiet-host evidence lines (they carry a `kind`; task entries have none, as in journals written before). */
export type EvidenceLine =
  | { kind: 'session'; at: string; exclusive: boolean }
  | { kind: 'quiet-before'; thresholds: Record<string, number>; snapshot: CheckedSnapshot }
  | { kind: 'quiet-round'; snapshot: RoundSnapshot }
  /** an attempt at a measured round that the host disturbed: the round's timed entries journaled before this line are dropped and the round is measured again */
  | { kind: 'round-repeated'; snapshot: RoundSnapshot }
  /** windows of a measured round broke a limit: these tasks' (benchmark|task) entries of the round journaled before this line are dropped, on every build, and measured again later in the round */
  | { kind: 'tasks-dropped'; round: number; tasks: string[]; reasons: string[]; givenUp?: string[] }
  | { kind: 'quiet-deterministic'; snapshot: RoundSnapshot }
  /** one session's wall time in one phase (a resumed run has several per phase, summed in the run file) */
  | { kind: 'phase'; phase: 'prepare' | 'timed'; seconds: number }
  | { kind: 'phase'; phase: 'deterministic'; seconds: number; jobs: number }
  /** the tasks a night with a time budget left out after its warm-up round (kept on resume) */
  | { kind: 'night-plan'; leftOut: TaskCost[] }
  /** after measured round `round` (0-based, warm-up included) the budget had room for only some open tasks: these (benchmark|task) stopped there (kept on resume) */
  | { kind: 'budget-narrowed'; round: number; stopped: string[]; kept: string[] }
  /** which timed tasks the warm-up round runs, chosen before it (runner/run/warmup.ts; kept on resume) */
  | ({ kind: 'warmup' } & WarmupChoice);

export interface Journal {
  plan: RunPlan;
  entries: JournalEntry[];
  evidence: EvidenceLine[];
}

/** Where a machine's unfinished runs are journaled: the build cache, which outlives the checkout. */
export const journalDir = (machineId: string): string => join(cacheRoot(), 'journals', machineId);

export function journalPath(plan: Pick<RunPlan, 'host' | 'runId'>): string {
  return join(journalDir(plan.host.id), `${plan.runId}.partial.jsonl`);
}

/** A killed run older than this is not resumed by itself (it would span days); --resume still can. */
export const AUTO_RESUME_HOURS = 72;

/** What a new `npm run bench` asks for, to find a killed run that asked for the same. */
export interface RunRequest {
  mode: RunMode;
  benchmarks: string[];
  rounds: number;
  maxRounds?: number;
  /** buildLabel of each requested build */
  builds: string[];
}

/**
 * The newest unfinished run of this machine that asked for what `want` asks (same mode, benchmarks,
 * rounds and builds), started less than AUTO_RESUME_HOURS ago: the run a new bench job continues
 * instead of starting over. Unreadable journals are skipped.
 */
export function resumableRun(machineId: string, want: RunRequest, now = new Date()): { runId: string; plan: RunPlan } | undefined {
  const dir = journalDir(machineId);
  if (!existsSync(dir)) return undefined;
  const same = (a: string[], b: string[]) => JSON.stringify([...a].sort()) === JSON.stringify([...b].sort());
  const found: RunPlan[] = [];
  for (const name of readdirSync(dir).filter((n) => n.endsWith('.partial.jsonl'))) {
    let plan: RunPlan;
    try {
      plan = readJournal(join(dir, name)).plan;
    } catch {
      continue;
    }
    const age = (now.getTime() - Date.parse(plan.startedAt)) / 3600_000;
    if (
      plan.mode !== want.mode ||
      plan.rounds !== want.rounds ||
      (plan.maxRounds ?? null) !== (want.maxRounds ?? null) ||
      !same(plan.benchmarks, want.benchmarks) ||
      !same(plan.builds.map(buildLabel), want.builds)
    )
      continue;
    if (age >= 0 && age < AUTO_RESUME_HOURS) found.push(plan);
  }
  const newest = found.sort((a, b) => b.startedAt.localeCompare(a.startedAt))[0];
  return newest ? { runId: newest.runId, plan: newest } : undefined;
}

export function readJournal(path: string): Journal {
  const lines = readFileSync(path, 'utf8').split('\n');
  const header = lines.shift();
  if (!header) throw new Error(`${path}: empty journal`);
  const plan = JSON.parse(header).plan as RunPlan;
  const entries: JournalEntry[] = [];
  const evidence: EvidenceLine[] = [];
  lines.forEach((line, i) => {
    if (!line.trim()) return;
    let parsed: JournalEntry | EvidenceLine;
    try {
      parsed = JSON.parse(line) as JournalEntry | EvidenceLine;
    } catch {
      // only the last line can be torn by a kill; anything else is corruption worth stopping for
      if (i !== lines.length - 1 && lines.slice(i + 1).some((l) => l.trim())) throw new Error(`${path}:${i + 2}: unreadable journal line`);
      return;
    }
    if (!('kind' in parsed)) return void entries.push(parsed);
    evidence.push(parsed);
    if (parsed.kind === 'round-repeated') dropRound(entries, parsed.snapshot.round);
    if (parsed.kind === 'tasks-dropped') dropRound(entries, parsed.round, parsed.tasks);
  });
  return { plan, entries, evidence };
}

/**
 * Drop, in place, a round's timed entries (deterministic ones stay): all of them (a `round-repeated` line,
 * the attempt the host disturbed) or those of `tasks` (benchmark|task) on every build (a `tasks-dropped`
 * line). Returns the entries dropped.
 */
export function dropRound(entries: JournalEntry[], round: number, tasks?: readonly string[]): JournalEntry[] {
  const only = tasks && new Set(tasks);
  const dropped: JournalEntry[] = [];
  for (let j = entries.length - 1; j >= 0; j--) {
    const e = entries[j]!;
    if (e.round === round && !e.deterministic && (!only || only.has(`${e.benchmark}|${e.task}`))) dropped.push(...entries.splice(j, 1));
  }
  return dropped;
}

/**
 * The plan to resume with: refused when the checkout moved since the run started (another commit, or
 * uncommitted changes where there were none), because one run must not mix two harness versions,
 * unless `allowMoved`. Every resume is recorded with the checkout it resumed from.
 */
export function resumePlan(plan: RunPlan, now: Run['harness'], allowMoved: boolean, at = new Date()): RunPlan {
  const started = plan.harness;
  const moved = now.gitCommit !== started.gitCommit || (now.gitDirty && !started.gitDirty);
  if (moved && !allowMoved) {
    const what = (h: Run['harness']) => `${h.gitCommit}${h.gitDirty ? ' with uncommitted changes' : ''}`;
    throw new Error(
      `cannot resume ${plan.runId}: it started from commit ${what(started)}, the checkout is now at ${what(now)}. ` +
        `One run must not mix two versions of the harness: check out ${started.gitCommit} to resume, ` +
        'or pass --allow-moved-checkout to resume anyway (the run file then records both commits).',
    );
  }
  const resumedAt = [...(started.resumedAt ?? []), { at: at.toISOString(), gitCommit: now.gitCommit, gitDirty: now.gitDirty }];
  return { ...plan, harness: { ...started, resumedAt } };
}
