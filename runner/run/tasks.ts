// Running the tasks of a round: the order of the builds, which library a benchmark runs on, and a task's
// two attempts (a failed attempt runs once more, and the journal entry keeps why the first one failed).
import type { Benchmark, BuildUnderTest, Outcome, Task } from '../benchmark.ts';
import type { JournalEntry } from './journal.ts';
import type { RunCallbacks } from '../run.ts';

/** Builds in the order they run in a round: rotated each round so no version always goes first. */
export function roundOrder(buildIds: string[], round: number): string[] {
  const k = buildIds.length ? round % buildIds.length : 0;
  return [...buildIds.slice(k), ...buildIds.slice(0, k)];
}

/**
 * Why a task failed, or undefined if it did not: it threw, or every series it returned failed (the
 * program crashed or refused to measure). A task that measured some series and failed others (s_time
 * cannot resume TLS 1.3 sessions) did not fail, and is not run again for its deterministic part.
 */
export function failureOf(outcomes: Outcome[] | undefined, error: string | undefined): string | undefined {
  if (error !== undefined) return error;
  if (!outcomes?.length || !outcomes.every((o) => 'status' in o && o.status === 'failed')) return undefined;
  const first = outcomes[0]!;
  return 'reason' in first ? first.reason : 'every series failed';
}

/** Run a task; a failed attempt (an exception or a failed series) runs once more, and the entry keeps both. */
export async function attempt(task: Task, entry: JournalEntry, cb: RunCallbacks): Promise<void> {
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
export const runsOn = (bench: Benchmark, build: BuildUnderTest) => (bench.libraries ?? ['openssl']).includes(build.record.library);
