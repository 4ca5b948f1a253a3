// The deterministic phase of a run: every oncePerRun task (instruction and call counts) of every build
// runs once, several at a time and before any timed task, or is taken from the reuse cache
// (runner/deterministic.ts); a quiet run's measurements are offered to that cache at the end.
import type { Benchmark, BuildUnderTest, Task } from '../benchmark.ts';
import { benchmarkSourcesSha256, findStored, inParallel, keySha256, store, type ReuseKey } from '../deterministic.ts';
import { buildLabel } from '../../catalogue/index.ts';
import type { EvidenceRecorder } from '../quiet/evidence.ts';
import type { RunCallbacks } from '../run.ts';
import type { EvidenceLine, JournalEntry, RunPlan } from './journal.ts';
import { attempt } from './tasks.ts';

/** One deterministic task of one build. */
export interface DeterministicTask {
  build: BuildUnderTest;
  bench: Benchmark;
  task: Task;
}

/** The reuse-cache key of a deterministic task, or undefined when its binary or sources cannot be hashed. */
export type KeyOf = (build: BuildUnderTest, bench: Benchmark, task: Task) => ReuseKey | undefined;

/** The reuse-cache keys of a run's deterministic tasks (each benchmark's sources are hashed once per run). */
export function reuseKeys(plan: RunPlan): KeyOf {
  const sources = new Map<string, string | undefined>();
  const sourcesOf = (bench: Benchmark) => {
    if (!sources.has(bench.id)) sources.set(bench.id, bench.source ? benchmarkSourcesSha256(bench.source) : undefined);
    return sources.get(bench.id);
  };
  return (build, bench, task) => {
    const binary = build.binarySha256;
    const sourcesSha256 = sourcesOf(bench);
    return binary && sourcesSha256
      ? {
          machine: plan.host.id,
          binarySha256: binary,
          benchmark: bench.id,
          task: task.id,
          mode: plan.mode,
          harnessRevision: plan.harness.revision ?? 1,
          sourcesSha256,
        }
      : undefined;
  };
}

/** What the phase needs of the run: its plan and tasks, the journal so far, and where to write to. */
export interface DeterministicPhase {
  plan: RunPlan;
  /** every deterministic task of the run, finished ones included */
  deterministic: DeterministicTask[];
  /** round|build|benchmark|task of every task the journal has finished */
  finished: Set<string>;
  /** deterministic tasks run at once */
  jobs: number;
  /** false: measure every task, even with a stored result for its key (--no-reuse) */
  reuse: boolean;
  keyOf: KeyOf;
  clock: () => number;
  cb: RunCallbacks;
  evidence?: EvidenceRecorder;
  /** appends a finished task to the journal */
  journal: (entry: JournalEntry) => void;
  /** appends evidence to the journal and to what the run file is assembled from */
  record: (line: EvidenceLine) => void;
  /** the run's finished tasks: each one of this phase is added */
  done: JournalEntry[];
}

/**
 * Run (or reuse) every deterministic task the journal has not finished, journaling each as it ends, with
 * the phase's quiet-host evidence and wall time. Nothing is recorded when every task was finished before.
 */
export async function runDeterministicPhase(p: DeterministicPhase): Promise<void> {
  const { plan, deterministic, jobs, keyOf, clock, cb, evidence, journal, record, done } = p;
  const todo = deterministic.filter(({ build, bench, task }) => !p.finished.has(`${plan.warmupRounds}|${build.record.id}|${bench.id}|${task.id}`));
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
        const stored = key && p.reuse ? findStored(key) : undefined;
        if (stored && key) {
          entry.outcomes = stored.outcomes;
          entry.reusedFrom = {
            runId: stored.runId,
            measuredAt: stored.measuredAt,
            key: keySha256(key),
            binarySha256: key.binarySha256,
            sourcesSha256: key.sourcesSha256,
            harnessRevision: key.harnessRevision,
          };
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
}

/** Offer the deterministic tasks this run measured (not reused, not failed) to the reuse cache (a quiet run only: see executeRun). */
export function offerForReuse(plan: RunPlan, deterministic: DeterministicTask[], done: JournalEntry[], keyOf: KeyOf): void {
  for (const { build, bench, task } of deterministic) {
    const entry = done.find((e) => e.deterministic && !e.reusedFrom && e.buildId === build.record.id && e.benchmark === bench.id && e.task === task.id);
    const key = keyOf(build, bench, task);
    if (key && entry?.outcomes && entry.error === undefined) store(key, plan.runId, entry.at, entry.outcomes);
  }
}
