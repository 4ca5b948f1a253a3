// The timed phase of a run (runner/run.ts): the warm-up round, whole or short (runner/run/warmup.ts), then
// the measured rounds, builds interleaved task by task. A disturbed window drops the tasks it overlapped on
// every build and measures them again at the round's end; a disturbed round is measured again; with a time
// budget the night is planned after the warm-up, and once the minimum rounds are measured a round the
// budget has no room for runs only the open tasks that fit (fitting); the rounds stop when every series
// is decided (runner/until-decided.ts), the budget ends or the caller's afterRound says so.
import { buildLabel } from '../../catalogue/index.ts';
import type { Benchmark, BuildUnderTest, Task } from '../benchmark.ts';
import { harnessFactor, isNightHeadline, MINIMUM_ROUNDS_OVERRUN, planNight, reserveSeconds, type TaskCost } from '../night-plan.ts';
import { MAX_TASK_DROPS, type EvidenceRecorder } from '../quiet/evidence.ts';
import type { RunCallbacks, RunOptions } from '../run.ts';
import { DEFAULT_PRECISION, UntilDecided } from '../until-decided.ts';
import { dropRound, type EvidenceLine, type JournalEntry, type RunPlan } from './journal.ts';
import { attempt, roundOrder, runsOn } from './tasks.ts';
import { chooseWarmup, timesFrom, type WarmupChoice, type WarmupPair } from './warmup.ts';

/** What the timed rounds need of the run: its plan, builds and tasks, the journal so far, and where to write to. */
export interface TimedRounds {
  plan: RunPlan;
  builds: BuildUnderTest[];
  benchmarks: Benchmark[];
  /** a benchmark's wanted tasks on a build */
  tasksOf: (bench: Benchmark, build: BuildUnderTest) => Task[];
  /** build|benchmark -> the error that kept it from being prepared, or null */
  prepared: Map<string, string | null>;
  /** round|build|benchmark|task of every task the journal has finished */
  finished: Set<string>;
  finishedKey: (e: Pick<JournalEntry, 'round' | 'buildId' | 'benchmark' | 'task'>) => string;
  /** the run's finished tasks: each one measured here is added, a dropped one taken out */
  done: JournalEntry[];
  /** the evidence journaled so far (this session's and earlier ones') */
  recorded: EvidenceLine[];
  /** appends a finished task to the journal */
  journal: (entry: JournalEntry) => void;
  /** appends evidence to the journal and to what the run file is assembled from */
  record: (line: EvidenceLine) => void;
  /** the run file's notes: the budget's and the night plan's are added */
  notes: string[];
  evidence?: EvidenceRecorder;
  cb: RunCallbacks;
  options: RunOptions;
  clock: () => number;
  /** the budget's end (clock milliseconds), or undefined without a budget */
  deadline: number | undefined;
  /** disturbed rounds measured again at most, in the whole run */
  maxRepeated: number;
}

/**
 * Run the warm-up and measured rounds, journaling every task as it ends and the phase's wall time. Returns what
 * the run file is assembled with: the rounds' stopping rule, the tasks the budget left out, and the last round run.
 */
export async function runTimedRounds(r: TimedRounds) {
  const {
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
  } = r;
  const until = plan.maxRounds
    ? new UntilDecided({
        warmupRounds: plan.warmupRounds,
        minRounds: plan.rounds,
        maxRounds: plan.maxRounds,
        precision: plan.precision ?? DEFAULT_PRECISION,
        builds: plan.builds,
      })
    : undefined;
  const totalRounds = plan.warmupRounds + (plan.maxRounds ?? plan.rounds);
  const byId = new Map(builds.map((b) => [b.record.id, b]));
  const started = Date.now();
  const timedStarted = clock();
  let stepsDone = 0;
  const timedOf = (b: Benchmark, x: BuildUnderTest) => tasksOf(b, x).filter((t) => !t.oncePerRun);
  const planned = recorded.find((e) => e.kind === 'night-plan');
  const leftOut = new Map((planned?.kind === 'night-plan' ? planned.leftOut : []).map((t) => [`${t.benchmark}|${t.task}`, t]));
  // the warm-up: chosen once, before round 0, and journaled so that a resumed run keeps the choice
  const journaledWarmup = recorded.find((e) => e.kind === 'warmup');
  let warmupChoice: WarmupChoice | undefined = journaledWarmup?.kind === 'warmup' ? journaledWarmup : undefined;
  if (!warmupChoice && plan.warmupRounds > 0) {
    const pairs: WarmupPair[] = benchmarks.flatMap((bench) => {
      const ids = [...new Set(builds.filter((b) => runsOn(bench, b)).flatMap((b) => timedOf(bench, b).map((t) => t.id)))];
      return builds
        .filter((b) => runsOn(bench, b) && prepared.get(`${b.record.id}|${bench.id}`) === null)
        .map((b) => ({ benchmark: bench.id, buildId: b.record.id, tasks: ids.filter((id) => timedOf(bench, b).some((t) => t.id === id)) }))
        .filter((p) => p.tasks.length > 0);
    });
    if (pairs.length) {
      // a journal from before the choice was journaled that ran timed tasks ran a whole round
      const total = pairs.reduce((n, p) => n + p.tasks.length, 0);
      warmupChoice = done.some((e) => !e.deterministic)
        ? { warmup: 'whole-round', reason: 'journal', warmed: total, notWarmed: [] }
        : chooseWarmup(plan, pairs, options.shortWarmup === true);
      record({ kind: 'warmup', ...warmupChoice });
    }
  }
  const notWarmed = new Map((warmupChoice?.notWarmed ?? []).map((n) => [`${n.benchmark}|${n.task}|${n.buildId}`, n]));
  if (warmupChoice?.warmup === 'short')
    cb.progress(
      `short warm-up: round 0 runs ${warmupChoice.warmed} of ${warmupChoice.warmed + notWarmed.size} timed task(s); the others' times come from ${timesFrom(warmupChoice).join(', ')} (--full-warmup runs them all)`,
    );
  /** the warm-up round's harnessFactor (from the journal, so a resumed run has it too): the plan and the budget's end of the rounds use it */
  const harness = () => harnessFactor(done.filter((e) => e.round < plan.warmupRounds && !e.deterministic));
  /** after the warm-up: keep the tasks whose minimum rounds fit in the time left, headline series first */
  const planTheNight = (now: number) => {
    const costs: TaskCost[] = benchmarks.flatMap((bench) => {
      const tasks = builds.filter((b) => runsOn(bench, b) && prepared.get(`${b.record.id}|${bench.id}`) === null).flatMap((b) => timedOf(bench, b));
      return [...new Set(tasks.map((t) => t.id))].map((id) => ({
        benchmark: bench.id,
        task: id,
        headline: tasks.some((t) => t.id === id && (t.produces ?? []).some(isNightHeadline)),
        carried: plan.leftOutBefore?.tasks.includes(`${bench.id}|${id}`) === true,
        // the warm-up's time of the task on the builds that ran it, the recorded time on those that did not
        secondsPerRound:
          done
            .filter((e) => e.round < plan.warmupRounds && !e.deterministic && e.benchmark === bench.id && e.task === id)
            .reduce((a, e) => a + (e.seconds ?? 0), 0) +
          [...notWarmed.values()].filter((n) => n.benchmark === bench.id && n.task === id).reduce((a, n) => a + n.seconds, 0),
      }));
    });
    const factor = harness();
    const night = planNight(costs, plan.rounds, (deadline! - now) / 1000, reserveSeconds, factor);
    record({ kind: 'night-plan', leftOut: night.leftOut });
    const share = Math.round((factor - 1) * 100);
    if (share > 0)
      notes.push(
        `the night's plan counted the harness's own time between tasks (quiet windows, steal probes, waits): ${share}% on top of the tasks' seconds, as in the warm-up round`,
      );
    for (const t of night.leftOut) leftOut.set(`${t.benchmark}|${t.task}`, t);
    const carried = costs.filter((t) => t.carried && !t.headline);
    if (carried.length)
      notes.push(
        `${carried.length} timed task(s) that ${plan.leftOutBefore!.runId} left out were planned first after the headline ones; ${carried.filter((t) => !leftOut.has(`${t.benchmark}|${t.task}`)).length} of them fit`,
      );
    if (night.leftOut.length)
      cb.progress(
        `the ${plan.budgetMinutes}-minute budget leaves out ${night.leftOut.length} task(s) for the next night: ${night.leftOut.map((t) => `${t.benchmark}/${t.task}`).join(', ')}`,
      );
  };
  /**
   * A disturbed measured round is measured again (never the warm-up, which decides nothing) while the
   * run has repeated fewer than maxRepeated rounds and, with a time budget, the round fits again.
   */
  const mayRepeat = (round: number, seconds: number) =>
    round >= plan.warmupRounds &&
    recorded.filter((e) => e.kind === 'round-repeated').length < maxRepeated &&
    (deadline === undefined || clock() + seconds * 1000 <= deadline);
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
    // a measured round's tasks that overlapped a window that broke a limit: dropped on every build and
    // measured again at the round's end; one dropped MAX_TASK_DROPS times in an attempt is given up for
    // it (the round then has no value of it on any build, and the other tasks keep theirs)
    const dropsOf = new Map<string, number>();
    const again = new Map<string, { bench: Benchmark; taskId: string }>();
    /** one task on every build (`repeat`: again, after a drop) */
    const measureTask = async (bench: Benchmark, taskId: string, repeat: boolean): Promise<void> => {
      const key = `${bench.id}|${taskId}`;
      for (const buildId of order) {
        if (!repeat) stepsDone++;
        const build = byId.get(buildId)!;
        const task = runsOn(bench, build) ? timedOf(bench, build).find((t) => t.id === taskId) : undefined;
        if (!task || prepared.get(`${buildId}|${bench.id}`) !== null) continue;
        if (until?.skip(buildId, bench.id, taskId) || leftOut.has(key) || (!warmup && options.retired?.(buildId, bench.id, taskId))) continue;
        if (warmup && notWarmed.has(`${key}|${buildId}`)) continue;
        if (finished.has(finishedKey({ round, buildId, benchmark: bench.id, task: taskId }))) continue;
        const label = `${warmup ? 'warm-up' : `round ${round - plan.warmupRounds + 1}/${plan.maxRounds ? `${plan.rounds}-${plan.maxRounds}` : plan.rounds}`} ${bench.id}/${taskId} ${buildLabel(build.record)}${repeat ? ' (again)' : ''}`;
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
        watch?.taskEnded(key, bench.wakesOtherCpus ? await evidence!.stealProbe() : undefined);
        const loud = watch?.loud() ?? [];
        if (!loud.length) continue;
        const tasks = [...new Set(loud.flatMap((w) => w.tasks))];
        if (warmup) continue; // its values are thrown away
        // drop what overlapped the loud windows (on every build, so the round stays like for like) and go on
        for (const w of loud) watch!.excuse(w.index, w.tasks);
        if (!tasks.length) continue;
        for (const t of tasks) dropsOf.set(t, (dropsOf.get(t) ?? 0) + 1);
        const givenUp = tasks.filter((t) => dropsOf.get(t)! >= MAX_TASK_DROPS);
        record({ kind: 'tasks-dropped', round, tasks, reasons: loud[0]!.reasons, ...(givenUp.length ? { givenUp } : {}) });
        for (const e of dropRound(done, round, tasks)) finished.delete(finishedKey(e));
        for (const t of tasks) {
          const [b, ...rest] = t.split('|');
          if (givenUp.includes(t)) again.delete(t);
          else again.set(t, { bench: benchmarks.find((x) => x.id === b)!, taskId: rest.join('|') });
        }
        cb.progress(
          `  a window broke a limit (${loud[0]!.reasons.join('; ')}): ${tasks.join(', ')} dropped on every build, ${
            givenUp.length ? `${givenUp.join(', ')} given up for this round (dropped ${MAX_TASK_DROPS} times), the rest ` : ''
          }measured again at the end of the round`,
        );
        const waited = await evidence!.calm(cb.progress);
        if (waited.waitedSeconds > 0)
          cb.progress(`  waited ${Math.round(waited.waitedSeconds)} s for the host to calm down${waited.calm ? '' : ' (it did not: measuring on)'}`);
        watch!.closeWindow(); // the wait is a window of its own
        if (tasks.includes(key)) return; // this task's other builds run with it at the end of the round, or not at all
      }
    };
    try {
      for (const bench of benchmarks) {
        // interleave at task level: one task runs on every build before the next task starts
        const taskIds = [...new Set(builds.filter((b) => runsOn(bench, b)).flatMap((b) => timedOf(bench, b).map((t) => t.id)))];
        for (const taskId of taskIds) await measureTask(bench, taskId, false);
      }
      for (const [t, { bench, taskId }] of again) {
        again.delete(t);
        await measureTask(bench, taskId, true);
      }
      if (watch && ranThisRound && !recorded.some((e) => e.kind === 'quiet-round' && e.snapshot.round === round)) {
        const watched = watch.finish(round);
        // a measured round whose every task was given up kept nothing: it was disturbed throughout
        const keptNothing = !warmup && !done.some((e) => e.round === round && !e.deterministic);
        const snapshot = keptNothing
          ? { ...watched, quiet: false, reasons: ['every task it ran was dropped until given up: nothing of the round was kept', ...watched.reasons] }
          : watched;
        if (!snapshot.quiet && mayRepeat(round, (clock() - roundStarted) / 1000)) {
          // the host disturbed a measured round: drop what it measured before anything (a look, the run
          // file) uses it, and measure the round again; the decision reads /proc only, never the values
          record({ kind: 'round-repeated', snapshot });
          for (const e of dropRound(done, round)) finished.delete(finishedKey(e));
          cb.progress(`  round ${round} was disturbed by the host (${snapshot.reasons.join('; ')}): its measurements are dropped and the round measured again`);
          // a storm lasts minutes: measuring again at once would spend the run's repeats inside it
          const waited = await evidence!.calm(cb.progress);
          if (waited.waitedSeconds > 0)
            cb.progress(
              `  waited ${Math.round(waited.waitedSeconds)} s for the host to calm down${waited.calm ? '' : ' (it did not: measuring again anyway)'}`,
            );
          round--;
          continue;
        }
        record({ kind: 'quiet-round', snapshot });
        if (!snapshot.quiet) cb.progress(`  round ${round} was NOT quiet: ${snapshot.reasons.join('; ')}`);
      }
    } finally {
      watch?.stop(); // the window timer must not outlive its round
    }
    if (deadline !== undefined && !planned && round === plan.warmupRounds - 1) planTheNight(clock());
    let decided = until?.afterRound(round, done) ?? false;
    // a round an earlier session of this run narrowed: the same tasks stop there again
    for (const e of recorded) if (e.kind === 'budget-narrowed' && e.round === round) until?.stopTasks(round, done, new Set(e.stopped));
    const roundSeconds = (clock() - roundStarted) / 1000;
    // the next round runs the tasks still in the rounds: this round's time of each is its estimate
    const nextTasks = () => {
      const seconds = new Map<string, number>();
      for (const e of done)
        if (e.round === round && !e.deterministic && !until?.skip(e.buildId, e.benchmark, e.task) && !leftOut.has(`${e.benchmark}|${e.task}`))
          seconds.set(`${e.benchmark}|${e.task}`, (seconds.get(`${e.benchmark}|${e.task}`) ?? 0) + (e.seconds ?? 0) * harness());
      return seconds;
    };
    const nextRound = () => [...nextTasks().values()].reduce((a, b) => a + b, 0);
    // (only after a round this session measured in: the rounds a resumed run replays from its journal are not ended again)
    // below the minimum rounds no comparison can be decided (stats.ts MIN_COVERAGE_FOR_VERDICT): those rounds
    // run past the budget, by at most a tenth of it (a night already far over it stops as before)
    const minimumMeasured = round - plan.warmupRounds + 1 >= plan.rounds;
    const end = deadline === undefined ? undefined : minimumMeasured ? deadline : deadline + MINIMUM_ROUNDS_OVERRUN * plan.budgetMinutes! * 60_000;
    if (!decided && until && end !== undefined && ranThisRound && round >= plan.warmupRounds && clock() + nextRound() * 1000 > end) {
      // once the minimum rounds are measured, the open tasks that still fit in the time left go on,
      // cheapest first (as the night's plan keeps them), and only the others stop for the budget
      const fit = minimumMeasured ? fitting(nextTasks(), (end - clock()) / 1000) : { kept: [], stopped: [] };
      if (fit.kept.length) {
        record({ kind: 'budget-narrowed', round, ...fit });
        until.stopTasks(round, done, new Set(fit.stopped));
        cb.progress(
          `  the budget has room for ${fit.kept.length} of the ${fit.kept.length + fit.stopped.length} open task(s) in the next round: the others stop for the budget after this one`,
        );
      } else {
        until.finalLook(round, done);
        notes.push(
          `the ${plan.budgetMinutes}-minute budget ended after measured round ${round - plan.warmupRounds + 1}: one last look spent the alpha left, and the series still open stopped for the budget`,
        );
        decided = true;
      }
    }
    if (decided) cb.progress(`  every timed series is settled, or the budget of ${plan.maxRounds} rounds is reached: stopping after this round`);
    if (decided || (options.afterRound && (await options.afterRound(round, done, roundSeconds)))) {
      lastRound = round;
      break;
    }
  }
  const narrowed = recorded.flatMap((e) => (e.kind === 'budget-narrowed' ? [e] : []));
  if (narrowed.length) notes.push(narrowedNote(narrowed, plan.warmupRounds, plan.budgetMinutes!));
  record({ kind: 'phase', phase: 'timed', seconds: (clock() - timedStarted) / 1000 });
  return { until, leftOut, lastRound, totalRounds };
}

/** The open tasks (benchmark|task -> seconds of a round) that fit in `secondsLeft`, cheapest first, and the others. */
function fitting(tasks: ReadonlyMap<string, number>, secondsLeft: number): { kept: string[]; stopped: string[] } {
  const kept: string[] = [];
  const stopped: string[] = [];
  let used = 0;
  for (const [task, seconds] of [...tasks].sort((a, b) => a[1] - b[1] || a[0].localeCompare(b[0]))) {
    if (used + seconds <= secondsLeft) {
      kept.push(task);
      used += seconds;
    } else stopped.push(task);
  }
  return { kept, stopped };
}

/** The run file's note on the rounds the budget narrowed to the open tasks that still fit. */
function narrowedNote(narrowed: readonly { round: number; stopped: string[]; kept: string[] }[], warmupRounds: number, budgetMinutes: number): string {
  const steps = narrowed.map(
    (n) =>
      `after round ${n.round - warmupRounds + 1}, ${n.kept.length} of ${n.kept.length + n.stopped.length} open tasks went on (${n.stopped.length} stopped)`,
  );
  return `the ${budgetMinutes}-minute budget had no room for a whole round once the minimum rounds were measured, so the rounds went on with the open tasks that fit in the time left, cheapest first: ${steps.join('; ')}. A task left out stopped there for the budget, after one last look spending the alpha its comparisons had left`;
}
