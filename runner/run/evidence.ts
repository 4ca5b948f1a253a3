// What a run's journal says about the host and the time: the run file's quiet-host verdict (Run.quiet,
// decided by runner/quiet/evidence.ts summarizeEvidence) and each phase's wall time (Run.phases).
import type { Run } from '../../schema/index.ts';
import { MAX_TASK_DROPS, summarizeEvidence } from '../quiet/evidence.ts';
import type { EvidenceLine, JournalEntry, RunPlan } from './journal.ts';

/** Run.quiet from the journaled evidence, or undefined for a run recorded without it. */
export function quietOf(plan: RunPlan, entries: JournalEntry[], evidence: EvidenceLine[], notes: string[]): Run['quiet'] {
  const before = evidence.find((e) => e.kind === 'quiet-before');
  if (!before) return undefined;
  const sessions = evidence.filter((e) => e.kind === 'session');
  const rounds = evidence.flatMap((e) => (e.kind === 'quiet-round' ? [e.snapshot] : []));
  const repeated = evidence.flatMap((e) => (e.kind === 'round-repeated' ? [e.snapshot] : []));
  const deterministic = evidence.flatMap((e) => (e.kind === 'quiet-deterministic' ? [e.snapshot] : []));
  // the measured rounds that ran a timed task (a run of deterministic tasks only has none; a run measured
  // until decided may run more rounds than its minimum, or skip none): each must carry its evidence. A
  // round whose every task was given up kept no entry but has evidence, which decides too
  const ran = [...entries.filter((e) => !e.deterministic).map((e) => e.round), ...rounds.map((r) => r.round)];
  const measured = [...new Set(ran.filter((r) => r >= plan.warmupRounds))].sort((a, b) => a - b);
  const missing = measured.filter((r) => !rounds.some((x) => x.round === r));
  if (missing.length)
    notes.push(
      `no quiet-host evidence for round(s) ${missing.join(', ')} (the run was killed between a round's last task and its evidence): the run counts as not quiet`,
    );
  const deterministicRan = entries.some((e) => e.deterministic && !e.reusedFrom);
  if (deterministicRan && deterministic.length === 0)
    notes.push('no quiet-host evidence for the deterministic phase (the run was killed in it): the run counts as not quiet');
  for (const r of repeated)
    notes.push(
      `measured round ${r.round - plan.warmupRounds + 1} was disturbed by the host (${r.reasons.join('; ')}): what it measured was dropped before anything used it and the round measured again`,
    );
  // one note per round (a stormy night drops many times, and a run file keeps at most 100 notes)
  const drops = evidence.flatMap((e) => (e.kind === 'tasks-dropped' ? [e] : []));
  for (const round of [...new Set(drops.map((d) => d.round))]) {
    const these = drops.filter((d) => d.round === round);
    const tasks = [...new Set(these.flatMap((d) => d.tasks))];
    const givenUp = [...new Set(these.flatMap((d) => d.givenUp ?? []))];
    const gaveUp = givenUp.length
      ? `; ${givenUp.length} of them dropped ${MAX_TASK_DROPS} times and not measured again in this round, which has no value of them on any build: ${givenUp.join(', ')}`
      : '';
    notes.push(
      `measured round ${round - plan.warmupRounds + 1}: ${these.length} time(s) a window broke a limit (first: ${these[0]!.reasons.join('; ')}): what the tasks that overlapped it had measured in the round was dropped on every build and measured again at the end of the round (${tasks.length} task(s): ${tasks.join(', ')})${gaveUp}`.slice(
        0,
        2000,
      ),
    );
  }
  const exclusive = sessions.length > 0 && sessions.every((s) => s.exclusive);
  return summarizeEvidence(before.thresholds, exclusive, before.snapshot, rounds, measured, repeated, deterministic, deterministicRan);
}

/**
 * Run.phases from the journal: each phase's seconds summed over the sessions, and the timed phase's seconds
 * per benchmark, warm-up and measured rounds apart (the kept tasks' own seconds: a round measured again
 * counts once); undefined for a journal without them.
 */
export function phasesOf(entries: JournalEntry[], evidence: EvidenceLine[], warmupRounds: number): Run['phases'] {
  const lines = evidence.flatMap((e) => (e.kind === 'phase' ? [e] : []));
  if (!lines.length) return undefined;
  const seconds = (phase: string) => lines.filter((l) => l.phase === phase).reduce((a, l) => a + l.seconds, 0);
  const det = entries.filter((e) => e.deterministic);
  const jobs = Math.max(1, ...lines.flatMap((l) => (l.phase === 'deterministic' ? [l.jobs] : [])));
  return {
    prepare: { seconds: seconds('prepare') },
    deterministic: { seconds: seconds('deterministic'), jobs, tasks: det.length, reused: det.filter((e) => e.reusedFrom).length },
    timed: {
      seconds: seconds('timed'),
      rounds: new Set(entries.filter((e) => !e.deterministic).map((e) => e.round)).size,
      benchmarks: timedByBenchmark(entries, warmupRounds),
    },
  };
}

function timedByBenchmark(entries: JournalEntry[], warmupRounds: number): NonNullable<Run['phases']>['timed']['benchmarks'] {
  const out: Record<string, { warmupSeconds: number; measuredSeconds: number }> = {};
  for (const e of entries) {
    if (e.deterministic || e.seconds === undefined) continue;
    const b = (out[e.benchmark] ??= { warmupSeconds: 0, measuredSeconds: 0 });
    if (e.round < warmupRounds) b.warmupSeconds += e.seconds;
    else b.measuredSeconds += e.seconds;
  }
  for (const b of Object.values(out)) {
    b.warmupSeconds = Math.round(b.warmupSeconds * 1000) / 1000;
    b.measuredSeconds = Math.round(b.measuredSeconds * 1000) / 1000;
  }
  return out;
}
