// The run loop: build what is needed, interleave builds round by round, append every value to a
// journal the moment it exists, and turn the journal into one validated run file at the end.
//
// Journal: <cache>/journals/<machine id>/<runId>.partial.jsonl, in the build cache (OBSERVATORY_CACHE),
// outside any checkout: actions/checkout cleans the workspace before the next job, the cache stays.
// Line 1 is the header (everything but the values), each
// further line one finished task of one build in one round, or a piece of quiet-host evidence
// (runner/quiet.ts: the window before the run, each round with its windows, and whether each session
// held the host lock). A killed run is resumed with --resume <runId>, or by the next `npm run bench` of the
// same request on the same machine (resumableRun): finished (round, build, benchmark, task) entries and
// the evidence already recorded are kept, and finished tasks are skipped, so a kill loses at most the
// task in flight.
//
// Phases: the benchmarks are prepared, then every deterministic task (oncePerRun: instruction and call
// counts) runs once, several at a time and never beside a timed task, or is taken from the reuse cache
// (runner/deterministic.ts); then the timed rounds. The run file records each phase's wall time.
import { execFileSync } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { appendFileSync, existsSync, mkdirSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { bySeriesKeyThenBuild, Run, writeFileDurably, writeRunFile, type Build, type Host, type Iteration, type RunMode, type Series } from '../schema/index.ts';
import { seriesKey, wantedTasks, type Benchmark, type BuildUnderTest, type Outcome, type Task } from './benchmark.ts';
import { summarizeEvidence, type CheckedSnapshot, type EvidenceRecorder, type RoundSnapshot } from './quiet.ts';
import { buildLabel, LIBRARY_NAMES } from '../catalogue/index.ts';
import { HARNESS_REVISION } from '../catalogue/harness-steps.ts';
import { cacheRoot } from './sources.ts';
import type { LookSchedule } from '../scripts/hypothesis/sequential.ts';
import { benchmarkSourcesSha256, findStored, inParallel, keySha256, store, type ReuseKey } from './deterministic.ts';
import { availableParallelism } from 'node:os';
import { DEFAULT_PRECISION, UntilDecided } from './until-decided.ts';
import { planNight, type TaskCost } from './night-plan.ts';
import { isHeadline } from './handshake/handshake.ts';

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
type EvidenceLine =
  | { kind: 'session'; at: string; exclusive: boolean }
  | { kind: 'quiet-before'; thresholds: Record<string, number>; snapshot: CheckedSnapshot }
  | { kind: 'quiet-round'; snapshot: RoundSnapshot }
  | { kind: 'quiet-deterministic'; snapshot: RoundSnapshot }
  /** one session's wall time in one phase (a resumed run has several per phase, summed in the run file) */
  | { kind: 'phase'; phase: 'prepare' | 'timed'; seconds: number }
  | { kind: 'phase'; phase: 'deterministic'; seconds: number; jobs: number }
  /** the tasks a night with a time budget left out after its warm-up round (kept on resume) */
  | { kind: 'night-plan'; leftOut: TaskCost[] };

export interface Journal {
  plan: RunPlan;
  entries: JournalEntry[];
  evidence: EvidenceLine[];
}

export function newRunId(mode: RunMode | 'sequential', now = new Date()): string {
  const stamp = now.toISOString().replace(/[-:]/g, '').replace(/\.\d+Z$/, 'Z');
  return `${stamp}-${mode}-${randomBytes(2).toString('hex')}`;
}

export function harnessInfo(): Run['harness'] {
  const git = (args: string[]) => execFileSync('git', args, { encoding: 'utf8', stdio: ['ignore', 'pipe', 'ignore'] }).trim();
  let gitCommit = 'unknown';
  let gitDirty = true;
  try {
    gitCommit = git(['rev-parse', 'HEAD']);
    gitDirty = git(['status', '--porcelain', '--untracked-files=no']).length > 0;
  } catch {
    // not a git checkout: say so through 'unknown'
  }
  return { gitCommit, gitDirty, node: process.version, revision: HARNESS_REVISION };
}

/** Builds in the order they run in a round: rotated each round so no version always goes first. */
export function roundOrder(buildIds: string[], round: number): string[] {
  const k = buildIds.length ? round % buildIds.length : 0;
  return [...buildIds.slice(k), ...buildIds.slice(0, k)];
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
    if (plan.mode !== want.mode || plan.rounds !== want.rounds || (plan.maxRounds ?? null) !== (want.maxRounds ?? null) || !same(plan.benchmarks, want.benchmarks) || !same(plan.builds.map(buildLabel), want.builds)) continue;
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
    if ('kind' in parsed) evidence.push(parsed);
    else entries.push(parsed);
  });
  return { plan, entries, evidence };
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

/**
 * Why a task failed, or undefined if it did not: it threw, or every series it returned failed (the
 * program crashed or refused to measure). A task that measured some series and failed others (s_time
 * cannot resume TLS 1.3 sessions) did not fail, and is not run again for its deterministic part.
 */
function failureOf(outcomes: Outcome[] | undefined, error: string | undefined): string | undefined {
  if (error !== undefined) return error;
  if (!outcomes?.length || !outcomes.every((o) => 'status' in o && o.status === 'failed')) return undefined;
  const first = outcomes[0]!;
  return 'reason' in first ? first.reason : 'every series failed';
}

export interface RunCallbacks {
  progress(msg: string): void;
}

/** What a run may leave out, and when it may stop early (npm run reproduce); a plain run passes none. */
export interface RunOptions {
  /** only the tasks that may produce a series this accepts run (benchmark.ts wantedTasks); a benchmark left with no task is not prepared */
  wanted?: (key: string) => boolean;
  /**
   * After every round (warm-up included) with the journal so far and the round's seconds: return true to
   * end the run after this round. The run file then records the rounds measured, not the planned maximum.
   */
  afterRound?: (round: number, entries: readonly JournalEntry[], seconds: number) => boolean | Promise<boolean>;
  /** milliseconds, for the round times afterRound is given (default Date.now; tests drive their own) */
  clock?: () => number;
  /** deterministic tasks run at once (default: the machine's CPUs) */
  deterministicJobs?: number;
  /** false: measure every deterministic task, even with a stored result for its key (--no-reuse) */
  reuse?: boolean;
}

/** Run a task; a failed attempt (an exception or a failed series) runs once more, and the entry keeps both. */
async function attempt(task: Task, entry: JournalEntry, cb: RunCallbacks): Promise<void> {
  for (let n = 1; n <= 2; n++) {
    delete entry.outcomes;
    delete entry.error;
    try {
      entry.outcomes = await task.run();
    } catch (e) {
      entry.error = (e as Error).message.slice(0, 2000);
    }
    const failure = failureOf(entry.outcomes, entry.error);
    if (failure === undefined) break;
    cb.progress(`  FAILED${n === 1 ? ', retrying' : ' again'}: ${failure.split('\n')[0]}`);
    if (n === 1) entry.firstAttempt = failure.slice(0, 1000);
  }
}

/** Whether a benchmark measures this build's library (OpenSSL-only unless it says otherwise). */
const runsOn = (bench: Benchmark, build: BuildUnderTest) => (bench.libraries ?? ['openssl']).includes(build.record.library);

/**
 * Run every unfinished task and write the run file. With `evidence`, the host's quietness is recorded
 * before the first task and for every round, in windows closed after tasks and by a timer within long
 * ones (runner/quiet.ts), and journaled like the values.
 */
export async function executeRun(
  plan: RunPlan,
  builds: BuildUnderTest[],
  benchmarks: Benchmark[],
  outDir: string,
  cb: RunCallbacks,
  notes: string[] = [],
  evidence?: EvidenceRecorder,
  options: RunOptions = {},
): Promise<{ path: string; run: Run }> {
  const tasksOf = (bench: Benchmark, build: BuildUnderTest): Task[] => wantedTasks(bench.tasks(build, plan.mode), options.wanted);
  // a benchmark none of whose tasks is wanted on any build is not run (nor prepared, nor noted)
  if (options.wanted) benchmarks = benchmarks.filter((b) => builds.some((x) => runsOn(b, x) && tasksOf(b, x).length > 0));
  const jpath = journalPath(plan);
  mkdirSync(journalDir(plan.host.id), { recursive: true });
  let done: JournalEntry[] = [];
  let recorded: EvidenceLine[] = [];
  if (existsSync(jpath)) {
    ({ entries: done, evidence: recorded } = readJournal(jpath));
    // rewrite without a torn last line so appends stay one JSON object per line; the header takes the
    // plan as resumed (its resume history); atomic, so a kill now cannot lose what was measured
    writeFileDurably(jpath, [{ plan }, ...recorded, ...done].map((e) => JSON.stringify(e) + '\n').join(''));
    cb.progress(`resuming ${plan.runId}: ${done.length} finished task(s) kept`);
  } else {
    writeFileDurably(jpath, JSON.stringify({ plan }) + '\n');
  }
  const journal = (line: JournalEntry | EvidenceLine) => appendFileSync(jpath, JSON.stringify(line) + '\n');
  const record = (line: EvidenceLine) => (journal(line), recorded.push(line));
  if (evidence) {
    record({ kind: 'session', at: new Date().toISOString(), exclusive: evidence.exclusive });
    if (!recorded.some((e) => e.kind === 'quiet-before'))
      record({ kind: 'quiet-before', thresholds: evidence.thresholds, snapshot: await evidence.before(cb.progress) });
  }
  const finished = new Set(done.map((e) => `${e.round}|${e.buildId}|${e.benchmark}|${e.task}`));

  const clock = options.clock ?? Date.now;
  const prepareStarted = clock();
  const deadline = plan.budgetMinutes !== undefined ? prepareStarted + plan.budgetMinutes * 60_000 : undefined;
  const prepared = new Map<string, string | null>(); // build|benchmark -> error or null
  for (const build of builds)
    for (const bench of benchmarks) {
      const id = `${build.record.id}|${bench.id}`;
      if (!runsOn(bench, build)) {
        // said once per run, not silently dropped: the benchmark needs OpenSSL's own tools or internals
        prepared.set(id, `not run on ${build.record.library}`);
        const measures = (bench.libraries ?? ['openssl']).map((l) => LIBRARY_NAMES[l]).join(', ');
        notes.push(`${bench.id} does not run on ${buildLabel(build.record)}: ${bench.id} measures ${measures} only (${bench.description.split(':')[0]})`);
        continue;
      }
      try {
        cb.progress(`preparing ${bench.id} for ${buildLabel(build.record)}`);
        await bench.prepare?.(build, plan.mode);
        prepared.set(id, null);
      } catch (e) {
        prepared.set(id, (e as Error).message);
        notes.push(`${bench.id} could not be prepared for ${buildLabel(build.record)}: ${(e as Error).message.slice(0, 1500)}`);
        cb.progress(`  FAILED: ${(e as Error).message.split('\n')[0]}`);
      }
    }

  record({ kind: 'phase', phase: 'prepare', seconds: (clock() - prepareStarted) / 1000 });

  // the deterministic phase: every oncePerRun task of every build, several at once, before any timed task
  const jobs = Math.max(1, options.deterministicJobs ?? availableParallelism());
  const sources = new Map<string, string | undefined>();
  const sourcesOf = (bench: Benchmark) => {
    if (!sources.has(bench.id)) sources.set(bench.id, bench.source ? benchmarkSourcesSha256(bench.source) : undefined);
    return sources.get(bench.id);
  };
  /** the reuse-cache key of a deterministic task, or undefined when its binary or sources cannot be hashed */
  const keyOf = (build: BuildUnderTest, bench: Benchmark, task: Task): ReuseKey | undefined => {
    const binary = build.binarySha256;
    const sourcesSha256 = sourcesOf(bench);
    return binary && sourcesSha256
      ? { machine: plan.host.id, binarySha256: binary, benchmark: bench.id, task: task.id, mode: plan.mode, harnessRevision: plan.harness.revision ?? 1, sourcesSha256 }
      : undefined;
  };
  const deterministic = builds.flatMap((build) =>
    benchmarks.flatMap((bench) =>
      prepared.get(`${build.record.id}|${bench.id}`) !== null ? [] : tasksOf(bench, build).filter((t) => t.oncePerRun).map((task) => ({ build, bench, task })),
    ),
  );
  const todo = deterministic.filter(({ build, bench, task }) => !finished.has(`${plan.warmupRounds}|${build.record.id}|${bench.id}|${task.id}`));
  if (todo.length) {
    const phaseStarted = clock();
    let n = deterministic.length - todo.length;
    cb.progress(`deterministic phase: ${todo.length} task(s), ${jobs} at a time`);
    // watched like a round: a run of deterministic tasks only has no timed round to carry its evidence
    const watch = evidence?.watchRound();
    let measuredAny = false;
    try {
      await inParallel(todo, jobs, async ({ build, bench, task }) => {
        const label = `${bench.id}/${task.id} ${buildLabel(build.record)}`;
        const entry: JournalEntry = { round: plan.warmupRounds, buildId: build.record.id, benchmark: bench.id, task: task.id, at: '', deterministic: true };
        const key = keyOf(build, bench, task);
        const stored = key && options.reuse !== false ? findStored(key) : undefined;
        if (stored && key) {
          entry.outcomes = stored.outcomes;
          entry.reusedFrom = { runId: stored.runId, measuredAt: stored.measuredAt, key: keySha256(key), binarySha256: key.binarySha256, sourcesSha256: key.sourcesSha256, harnessRevision: key.harnessRevision };
          cb.progress(`[deterministic ${++n}/${deterministic.length}] ${label}: reused from ${stored.runId}`);
        } else {
          cb.progress(`[deterministic ${++n}/${deterministic.length}] ${label}`);
          measuredAny = true;
          await attempt(task, entry, cb);
        }
        entry.at = new Date().toISOString();
        journal(entry);
        done.push(entry);
        watch?.taskEnded();
      });
      // a phase that only reused stored results measured nothing: its quietness says nothing
      if (watch && measuredAny) {
        const snapshot = watch.finish(plan.warmupRounds);
        record({ kind: 'quiet-deterministic', snapshot });
        if (!snapshot.quiet) cb.progress(`  the deterministic phase was NOT quiet: ${snapshot.reasons.join('; ')}`);
      }
    } finally {
      watch?.stop();
    }
    record({ kind: 'phase', phase: 'deterministic', seconds: (clock() - phaseStarted) / 1000, jobs });
  }

  const until = plan.maxRounds
    ? new UntilDecided({ warmupRounds: plan.warmupRounds, minRounds: plan.rounds, maxRounds: plan.maxRounds, precision: plan.precision ?? DEFAULT_PRECISION, builds: plan.builds })
    : undefined;
  const totalRounds = plan.warmupRounds + (plan.maxRounds ?? plan.rounds);
  const byId = new Map(builds.map((b) => [b.record.id, b]));
  const started = Date.now();
  const timedStarted = clock();
  let stepsDone = 0;
  const timedOf = (b: Benchmark, x: BuildUnderTest) => tasksOf(b, x).filter((t) => !t.oncePerRun);
  const planned = recorded.find((e) => e.kind === 'night-plan');
  const leftOut = new Map((planned?.kind === 'night-plan' ? planned.leftOut : []).map((t) => [`${t.benchmark}|${t.task}`, t]));
  /** after the warm-up: keep the tasks whose minimum rounds fit in the time left, headline series first */
  const planTheNight = (now: number) => {
    const costs: TaskCost[] = benchmarks.flatMap((bench) => {
      const tasks = builds.filter((b) => runsOn(bench, b) && prepared.get(`${b.record.id}|${bench.id}`) === null).flatMap((b) => timedOf(bench, b));
      return [...new Set(tasks.map((t) => t.id))].map((id) => ({
        benchmark: bench.id,
        task: id,
        headline: tasks.some((t) => t.id === id && (t.produces ?? []).some(isHeadline)),
        secondsPerRound: done.filter((e) => e.round < plan.warmupRounds && !e.deterministic && e.benchmark === bench.id && e.task === id).reduce((a, e) => a + (e.seconds ?? 0), 0),
      }));
    });
    const night = planNight(costs, plan.rounds, (deadline! - now) / 1000);
    record({ kind: 'night-plan', leftOut: night.leftOut });
    for (const t of night.leftOut) leftOut.set(`${t.benchmark}|${t.task}`, t);
    if (night.leftOut.length) cb.progress(`the ${plan.budgetMinutes}-minute budget leaves out ${night.leftOut.length} task(s) for the next night: ${night.leftOut.map((t) => `${t.benchmark}/${t.task}`).join(', ')}`);
  };
  const tasksPerRound = benchmarks.reduce((n, b) => n + Math.max(...builds.filter((x) => runsOn(b, x)).map((x) => timedOf(b, x).length), 0) * builds.length, 0);
  const totalSteps = tasksPerRound * totalRounds;
  let lastRound = totalRounds - 1;
  for (let round = 0; round < totalRounds; round++) {
    const roundStarted = clock();
    const order = roundOrder(
      builds.map((b) => b.record.id),
      round,
    );
    const warmup = round < plan.warmupRounds;
    const watch = evidence?.watchRound();
    let ranThisRound = false;
    try {
      for (const bench of benchmarks) {
        // interleave at task level: one task runs on every build before the next task starts
        const taskIds = [...new Set(builds.filter((b) => runsOn(bench, b)).flatMap((b) => timedOf(bench, b).map((t) => t.id)))];
        for (const taskId of taskIds)
          for (const buildId of order) {
            stepsDone++;
            const build = byId.get(buildId)!;
            const task = runsOn(bench, build) ? timedOf(bench, build).find((t) => t.id === taskId) : undefined;
            if (!task || prepared.get(`${buildId}|${bench.id}`) !== null) continue;
            if (until?.skip(buildId, bench.id, taskId) || leftOut.has(`${bench.id}|${taskId}`)) continue;
            if (finished.has(`${round}|${buildId}|${bench.id}|${taskId}`)) continue;
            const label = `${warmup ? 'warm-up' : `round ${round - plan.warmupRounds + 1}/${plan.maxRounds ? `${plan.rounds}-${plan.maxRounds}` : plan.rounds}`} ${bench.id}/${taskId} ${buildLabel(build.record)}`;
            const elapsed = (Date.now() - started) / 1000;
            const eta = stepsDone > 1 ? (elapsed / (stepsDone - 1)) * (totalSteps - stepsDone + 1) : 0;
            cb.progress(`[${stepsDone}/${totalSteps} ${elapsed.toFixed(0)}s${eta ? `, ~${Math.ceil(eta / 60)} min left` : ''}] ${label}`);
            ranThisRound = true;
            const entry: JournalEntry = { round, buildId, benchmark: bench.id, task: taskId, at: '' };
            const taskStarted = clock();
            await attempt(task, entry, cb);
            entry.seconds = (clock() - taskStarted) / 1000;
            entry.at = new Date().toISOString();
            journal(entry);
            done.push(entry);
            watch?.taskEnded();
          }
      }
      if (watch && ranThisRound && !recorded.some((e) => e.kind === 'quiet-round' && e.snapshot.round === round)) {
        const snapshot = watch.finish(round);
        record({ kind: 'quiet-round', snapshot });
        if (!snapshot.quiet) cb.progress(`  round ${round} was NOT quiet: ${snapshot.reasons.join('; ')}`);
      }
    } finally {
      watch?.stop(); // the window timer must not outlive its round
    }
    if (deadline !== undefined && !planned && round === plan.warmupRounds - 1) planTheNight(clock());
    let decided = until?.afterRound(round, done) ?? false;
    const roundSeconds = (clock() - roundStarted) / 1000;
    // the next round runs the tasks still in the rounds: this round's time of those is its estimate
    const nextRound = () =>
      done.filter((e) => e.round === round && !e.deterministic && !until?.skip(e.buildId, e.benchmark, e.task) && !leftOut.has(`${e.benchmark}|${e.task}`)).reduce((a, e) => a + (e.seconds ?? 0), 0);
    if (!decided && until && deadline !== undefined && round >= plan.warmupRounds && clock() + nextRound() * 1000 > deadline) {
      until.finalLook(round, done);
      notes.push(`the ${plan.budgetMinutes}-minute budget ended after measured round ${round - plan.warmupRounds + 1}: one last look spent the alpha left, and the series still open stopped for the budget`);
      decided = true;
    }
    if (decided) cb.progress(`  every timed series is settled, or the budget of ${plan.maxRounds} rounds is reached: stopping after this round`);
    if (decided || (options.afterRound && (await options.afterRound(round, done, roundSeconds)))) {
      lastRound = round;
      break;
    }
  }
  record({ kind: 'phase', phase: 'timed', seconds: (clock() - timedStarted) / 1000 });

  // stopped early: the run file says how many rounds were measured (at least one when any was planned)
  const measured = Math.max(Math.min(plan.rounds, 1), lastRound + 1 - plan.warmupRounds);
  const stopping = until && {
    minRounds: plan.rounds,
    schedule: until.schedule,
    precision: plan.precision ?? DEFAULT_PRECISION,
    stopOf: (buildId: string, key: string) => until.stopOf(buildId, key),
    leftOut: [...leftOut.values()],
  };
  const run = assembleRun(lastRound === totalRounds - 1 && !until ? plan : { ...plan, rounds: measured }, done, notes, recorded, stopping);
  const path = writeRunFile(outDir, run);
  // only a quiet run's measurements are offered for reuse: a run that is not data is never cited by one that is
  if (run.quiet?.quiet)
    for (const { build, bench, task } of deterministic) {
      const entry = done.find((e) => e.deterministic && !e.reusedFrom && e.buildId === build.record.id && e.benchmark === bench.id && e.task === task.id);
      const key = keyOf(build, bench, task);
      if (key && entry?.outcomes && entry.error === undefined) store(key, plan.runId, entry.at, entry.outcomes);
    }
  rmSync(jpath);
  return { path, run };
}

/** Run.quiet from the journaled evidence, or undefined for a run recorded without it. */
function quietOf(plan: RunPlan, entries: JournalEntry[], evidence: EvidenceLine[], notes: string[]): Run['quiet'] {
  const before = evidence.find((e) => e.kind === 'quiet-before');
  if (!before) return undefined;
  const sessions = evidence.filter((e) => e.kind === 'session');
  const rounds = evidence.flatMap((e) => (e.kind === 'quiet-round' ? [e.snapshot] : []));
  const deterministic = evidence.flatMap((e) => (e.kind === 'quiet-deterministic' ? [e.snapshot] : []));
  // the measured rounds that ran a timed task (a run of deterministic tasks only has none; a run measured
  // until decided may run more rounds than its minimum, or skip none): each must carry its evidence
  const measured = [...new Set(entries.filter((e) => !e.deterministic && e.round >= plan.warmupRounds).map((e) => e.round))].sort((a, b) => a - b);
  const missing = measured.filter((r) => !rounds.some((x) => x.round === r));
  if (missing.length) notes.push(`no quiet-host evidence for round(s) ${missing.join(', ')} (the run was killed between a round's last task and its evidence): the run counts as not quiet`);
  const deterministicRan = entries.some((e) => e.deterministic && !e.reusedFrom);
  if (deterministicRan && deterministic.length === 0) notes.push('no quiet-host evidence for the deterministic phase (the run was killed in it): the run counts as not quiet');
  const exclusive = sessions.length > 0 && sessions.every((s) => s.exclusive);
  const evidenceOf = summarizeEvidence(before.thresholds, exclusive, before.snapshot, rounds, measured, [], deterministic);
  return deterministicRan && deterministic.length === 0 ? { ...evidenceOf, quiet: false } : evidenceOf;
}

/** Run.phases from the journal: each phase's seconds summed over the sessions; undefined for a journal without them. */
function phasesOf(entries: JournalEntry[], evidence: EvidenceLine[]): Run['phases'] {
  const lines = evidence.flatMap((e) => (e.kind === 'phase' ? [e] : []));
  if (!lines.length) return undefined;
  const seconds = (phase: string) => lines.filter((l) => l.phase === phase).reduce((a, l) => a + l.seconds, 0);
  const det = entries.filter((e) => e.deterministic);
  const jobs = Math.max(1, ...lines.flatMap((l) => (l.phase === 'deterministic' ? [l.jobs] : [])));
  return {
    prepare: { seconds: seconds('prepare') },
    deterministic: { seconds: seconds('deterministic'), jobs, tasks: det.length, reused: det.filter((e) => e.reusedFrom).length },
    timed: { seconds: seconds('timed'), rounds: new Set(entries.filter((e) => !e.deterministic).map((e) => e.round)).size },
  };
}

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
  const totalRounds = plan.warmupRounds + plan.rounds;
  const quiet = quietOf(plan, entries, evidence, notes);
  const phases = phasesOf(entries, evidence);
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
      ...(stopping?.leftOut.length ? { leftOut: stopping.leftOut.map((t) => ({ benchmark: t.benchmark, task: t.task, headline: t.headline, secondsPerRound: t.secondsPerRound })) } : {}),
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
