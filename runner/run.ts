// The run loop: build what is needed, interleave builds round by round, append every value to a
// journal the moment it exists (runner/run/journal.ts), and turn the journal into one validated run file
// at the end (runner/run/assemble.ts).
//
// Phases: the benchmarks are prepared, then every deterministic task (oncePerRun: instruction and call
// counts) runs once, several at a time and never beside a timed task, or is taken from the reuse cache
// (runner/deterministic.ts); then the timed rounds (runner/run/rounds.ts), the first of them a warm-up
// round that may run only some of the timed tasks (runner/run/warmup.ts). The run file records each
// phase's wall time. A quiet run records how long each timed task took (runner/task-times.ts) for the
// warm-ups of later runs.
import { appendFileSync, existsSync, mkdirSync, rmSync } from 'node:fs';
import { writeFileDurably, writeRunFile, type Run } from '../schema/index.ts';
import { wantedTasks, type Benchmark, type BuildUnderTest, type Task } from './benchmark.ts';
import { MAX_REPEATED_ROUNDS, MAX_TASK_DROPS, type EvidenceRecorder } from './quiet/evidence.ts';
import { buildLabel, LIBRARY_NAMES } from '../catalogue/index.ts';
import { availableParallelism } from 'node:os';
import { DEFAULT_PRECISION } from './until-decided.ts';
import { journalDir, journalPath, readJournal, type EvidenceLine, type JournalEntry, type RunPlan } from './run/journal.ts';
import { runsOn } from './run/tasks.ts';
import { offerForReuse, reuseKeys, runDeterministicPhase } from './run/deterministic-phase.ts';
import { assembleRun } from './run/assemble.ts';
import { runTimedRounds } from './run/rounds.ts';
import { recordTaskTimes } from './task-times.ts';
import { chosenWindow } from './windows.ts';

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
  /** asked before each timed task of a measured round: true leaves the task out of this round (npm run reproduce: nothing still open needs it) */
  retired?: (buildId: string, benchmark: string, task: string) => boolean;
  /** milliseconds, for the round times afterRound is given (default Date.now; tests drive their own) */
  clock?: () => number;
  /** deterministic tasks run at once (default: the machine's CPUs) */
  deterministicJobs?: number;
  /** false: measure every deterministic task, even with a stored result for its key (--no-reuse) */
  reuse?: boolean;
  /**
   * true (npm run bench unless --full-warmup, npm run reproduce): a short warm-up round where this
   * machine's quiet runs recorded the tasks' times (runner/run/warmup.ts). Default: a whole warm-up round,
   * every timed task on every build.
   */
  shortWarmup?: boolean;
}

/**
 * Run every unfinished task and write the run file. With `evidence`, the host's quietness is recorded
 * before the first task and for every round, in windows closed after tasks and by a timer within long
 * ones (runner/quiet/), and journaled like the values.
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
  const tasksOf = (bench: Benchmark, build: BuildUnderTest): Task[] =>
    wantedTasks(bench.tasks(build, plan.mode, chosenWindow(plan.windows, bench.id)), options.wanted);
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
  // a limit per run, whatever its rounds: a round is measured again only when it breaks a limit as a whole
  // or kept nothing (loud windows drop tasks, not rounds), and a short run on a stormy host needs as many as a long one
  const maxRepeated = MAX_REPEATED_ROUNDS;
  if (evidence) {
    record({ kind: 'session', at: new Date().toISOString(), exclusive: evidence.exclusive });
    if (!recorded.some((e) => e.kind === 'quiet-before'))
      record({
        kind: 'quiet-before',
        thresholds: { ...evidence.thresholds, maxRepeatedRounds: maxRepeated, giveUpAfterTaskDrops: MAX_TASK_DROPS },
        snapshot: await evidence.before(cb.progress),
      });
  }
  const finishedKey = (e: Pick<JournalEntry, 'round' | 'buildId' | 'benchmark' | 'task'>) => `${e.round}|${e.buildId}|${e.benchmark}|${e.task}`;
  const finished = new Set(done.map(finishedKey));

  const clock = options.clock ?? Date.now;
  const prepareStarted = clock();
  // a budget is the night's, not a session's: a resumed run counts the seconds its earlier sessions spent
  // preparing, in the deterministic phase and on timed tasks (a disturbed attempt's dropped tasks aside)
  const spentBefore =
    recorded.reduce((s, e) => s + (e.kind === 'phase' && e.phase !== 'timed' ? e.seconds : 0), 0) +
    done.reduce((s, e) => s + (e.deterministic ? 0 : (e.seconds ?? 0)), 0);
  const deadline = plan.budgetMinutes !== undefined ? prepareStarted + (plan.budgetMinutes * 60 - spentBefore) * 1000 : undefined;
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
  const keyOf = reuseKeys(plan);
  const deterministic = builds.flatMap((build) =>
    benchmarks.flatMap((bench) =>
      prepared.get(`${build.record.id}|${bench.id}`) !== null
        ? []
        : tasksOf(bench, build)
            .filter((t) => t.oncePerRun)
            .map((task) => ({ build, bench, task })),
    ),
  );
  await runDeterministicPhase({
    plan,
    deterministic,
    finished,
    jobs: Math.max(1, options.deterministicJobs ?? availableParallelism()),
    reuse: options.reuse !== false,
    keyOf,
    clock,
    cb,
    evidence,
    journal,
    record,
    done,
  });

  const { until, leftOut, lastRound, totalRounds } = await runTimedRounds({
    plan,
    builds,
    benchmarks,
    tasksOf,
    prepared,
    finished,
    finishedKey,
    done,
    recorded,
    journal,
    record,
    notes,
    evidence,
    cb,
    options,
    clock,
    deadline,
    maxRepeated,
  });

  // stopped early: the run file says how many rounds were measured (at least one when any was planned)
  const measured = Math.max(Math.min(plan.rounds, 1), lastRound + 1 - plan.warmupRounds);
  if (deadline !== undefined && clock() > deadline) {
    const over = `the night ended ${howLate(clock() - deadline)} after its ${plan.budgetMinutes}-minute budget`;
    notes.push(
      measured > plan.rounds
        ? `${over}: its last round, measured round ${measured}, took longer than its estimate (the round before's time of its tasks)`
        : measured === plan.rounds
          ? `${over}: its minimum ${plan.rounds} measured rounds took longer than planned, and fewer would decide no comparison`
          : `${over}, with ${measured} of its minimum ${plan.rounds} measured rounds: too few for a verdict`,
    );
  }
  const stopping = until && {
    minRounds: plan.rounds,
    schedule: until.schedule,
    precision: plan.precision ?? DEFAULT_PRECISION,
    stopOf: (buildId: string, key: string) => until.stopOf(buildId, key),
    leftOut: [...leftOut.values()],
  };
  const run = assembleRun(lastRound === totalRounds - 1 && !until ? plan : { ...plan, rounds: measured }, done, notes, recorded, stopping);
  const path = writeRunFile(outDir, run);
  // only a quiet run's measurements are offered for reuse, and only its task times recorded: a run that is
  // not data is never cited by one that is
  if (run.quiet?.quiet) {
    offerForReuse(plan, deterministic, done, keyOf);
    recordTaskTimes(plan, done);
  }
  rmSync(jpath);
  return { path, run };
}

/** A night's overrun of its budget in words: under a second is not "0 s". */
export function howLate(ms: number): string {
  if (ms < 1000) return 'less than a second';
  return ms < 60_000 ? `${Math.round(ms / 1000)} s` : `${(ms / 60_000).toFixed(1)} min`;
}
