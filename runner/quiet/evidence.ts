// Quiet-host evidence: what the machine was doing while a run measured, read from /proc and /sys.
//
// A snapshot covers a window between two samples: before the run (a short window, repeated until the
// host is quiet or a time limit passes), each round as a whole, and each round in windows. The readings
// are in sample.ts, the limits in limits.ts, the windows and steal probes in round-watch.ts; here, the
// recorder a run uses, the repeat of a disturbed round and the run file's evidence.
import { cpus } from 'node:os';
import { Worker } from 'node:worker_threads';
import type { QuietEvidence, StealProbe } from '../../schema/index.ts';
import { notQuietReasons } from '../../analysis/quiet-rule.ts';
import { checkSnapshot, QUIET_THRESHOLDS } from './limits.ts';
import { every, MAX_WINDOW_SECONDS, MIN_WINDOW_SECONDS, watchRound, windowBetween, type Every, type RoundSnapshot, type RoundWatch } from './round-watch.ts';
import { round2, snapshotBetween, systemProc, takeSample, type ProcSource, type Sample } from './sample.ts';

export type CheckedSnapshot = QuietEvidence['before'];

/** Records evidence: a settled window before the run, and each round (as a whole, or in windows). */
export interface EvidenceRecorder {
  exclusive: boolean;
  thresholds: Record<string, number>;
  before(log: (m: string) => void): Promise<CheckedSnapshot>;
  sample(): Sample;
  /** the round since `since` as one window */
  round(since: Sample, round: number): RoundSnapshot;
  /** starts watching a round in windows of at most MAX_WINDOW_SECONDS */
  watchRound(): RoundWatch;
  /**
   * Before a disturbed round is measured again: keeps one CPU busy in windows of CALM_PROBE_SECONDS until
   * CALM_QUIET_WINDOWS of them in a row are quiet or `maxSeconds` have passed (steal shows only while a CPU
   * wants to run, so an idle wait cannot see a storm end; a storm has quiet windows inside it, so one is
   * not enough). Says how long it waited and whether the host calmed down; measures nothing.
   */
  calm(log: (m: string) => void, maxSeconds?: number): Promise<{ waitedSeconds: number; calm: boolean }>;
  /** keeps every CPU busy for STEAL_PROBE_SECONDS and says how much steal the host showed (round-watch.ts, STEAL PROBES) */
  stealProbe(): Promise<StealProbe>;
}

/** Length of a steal probe (round-watch.ts, STEAL PROBES): 200 ticks on 2 CPUs at 100 Hz, so the 2% limit is 4 ticks. */
export const STEAL_PROBE_SECONDS = 1;

/** One window of the calm probe (EvidenceRecorder.calm): as long as the windows of a round, so it judges the same way. */
export const CALM_PROBE_SECONDS = 8;
/** Quiet probe windows in a row that end the wait (on the Intel Xeon VM, storms of steal left single quiet 8-s windows inside them). */
export const CALM_QUIET_WINDOWS = 4;
/** How long a run waits at most for a host storm to pass before measuring a disturbed round again. */
export const MAX_CALM_WAIT_SECONDS = 300;

/** Keeps this thread busy for `ms`, in slices that let timers and signals through. */
async function spinFor(ms: number): Promise<void> {
  const end = Date.now() + ms;
  while (Date.now() < end) {
    const slice = Math.min(end, Date.now() + 50);
    while (Date.now() < slice);
    await new Promise((r) => setImmediate(r));
  }
}

/** Keeps `n` CPUs busy for `ms`, each in a thread of its own (this thread waits). */
async function spinAllFor(ms: number, n: number): Promise<void> {
  const code = 'const end = Date.now() + require("node:worker_threads").workerData; while (Date.now() < end);';
  await Promise.all(
    Array.from(
      { length: n },
      () => new Promise<void>((resolve, reject) => new Worker(code, { eval: true, workerData: ms }).on('exit', () => resolve()).on('error', reject)),
    ),
  );
}

export interface RecorderOptions {
  exclusive: boolean;
  /** length of one window before the run */
  windowSeconds?: number;
  /** how long to wait for the host to settle before starting anyway (recorded as not quiet) */
  settleSeconds?: number;
  logicalCpus?: number;
  source?: ProcSource;
  root?: number;
  sleep?: (ms: number) => Promise<void>;
  /** the timer that closes windows within a long task (tests drive it by hand) */
  every?: Every;
  /** the calm probe's busy wait (tests pass a stand-in) */
  spin?: (ms: number) => Promise<void>;
  /** the steal probe's busy wait of every CPU (tests pass a stand-in) */
  spinAll?: (ms: number) => Promise<void>;
}

export function hostEvidence(opts: RecorderOptions): EvidenceRecorder {
  const { exclusive, windowSeconds = 5, settleSeconds = 120, source = systemProc, root = process.pid } = opts;
  const logicalCpus = opts.logicalCpus ?? cpus().length;
  const sleep = opts.sleep ?? ((ms: number) => new Promise<void>((r) => setTimeout(r, ms)));
  const timer = opts.every ?? every;
  const spin = opts.spin ?? spinFor;
  const spinAll = opts.spinAll ?? ((ms: number) => spinAllFor(ms, logicalCpus));
  return {
    exclusive,
    thresholds: {
      ...QUIET_THRESHOLDS,
      beforeWindowSeconds: windowSeconds,
      settleSeconds,
      maxWindowSeconds: MAX_WINDOW_SECONDS,
      minWindowSeconds: MIN_WINDOW_SECONDS,
      calmProbeSeconds: CALM_PROBE_SECONDS,
      calmQuietWindows: CALM_QUIET_WINDOWS,
      maxCalmWaitSeconds: MAX_CALM_WAIT_SECONDS,
      stealProbeSeconds: STEAL_PROBE_SECONDS,
    },
    async before(log) {
      const deadline = source.now() + settleSeconds * 1000;
      for (;;) {
        const a = takeSample(source);
        await sleep(windowSeconds * 1000);
        const s = snapshotBetween(a, takeSample(source), root);
        const check = checkSnapshot(s, 'before', logicalCpus);
        if (check.quiet || source.now() >= deadline) {
          log(check.quiet ? 'host is quiet' : `host is NOT quiet; starting anyway, the run will say so: ${check.reasons.join('; ')}`);
          return { ...s, ...check };
        }
        log(`waiting for the host to settle: ${check.reasons.join('; ')}`);
      }
    },
    sample: () => takeSample(source),
    round(since, round) {
      const s = snapshotBetween(since, takeSample(source), root);
      return { ...s, ...checkSnapshot(s, 'round', logicalCpus), round };
    },
    async calm(log, maxSeconds = MAX_CALM_WAIT_SECONDS) {
      const started = source.now();
      let quietInARow = 0;
      for (;;) {
        const a = takeSample(source);
        await spin(CALM_PROBE_SECONDS * 1000);
        const w = windowBetween(a, takeSample(source), root, logicalCpus);
        quietInARow = w.quiet ? quietInARow + 1 : 0;
        const waitedSeconds = round2((source.now() - started) / 1000);
        const calm = quietInARow >= CALM_QUIET_WINDOWS;
        if (calm || waitedSeconds >= maxSeconds) return { waitedSeconds, calm };
        if (!w.quiet) log(`  waiting for the host to calm down before measuring again: ${w.reasons.join('; ')}`);
      }
    },
    async stealProbe() {
      const a = takeSample(source);
      await spinAll(STEAL_PROBE_SECONDS * 1000);
      const s = snapshotBetween(a, takeSample(source), root);
      return { seconds: s.windowSeconds, stealPercent: s.stealPercent };
    },
    watchRound: () => watchRound(source, root, logicalCpus, timer),
  };
}
/**
 * Attempts at measured rounds the host disturbed that a run drops and measures again (measureUndisturbed
 * here, the bench run loop's rounds in runner/run/rounds.ts); past it a disturbed round is kept and the run is not quiet.
 * A limit per run, so that a host that stays loud ends the run instead of repeating rounds for ever.
 */
export const MAX_REPEATED_ROUNDS = 10;

/**
 * Times one task may be dropped from one attempt at a measured round because it overlapped a window that
 * broke a limit (runner/run/rounds.ts measures it again at the round's end, on every build); at the last of them
 * it is given up for the attempt, which then has no value of it on any build.
 */
export const MAX_TASK_DROPS = 3;

/**
 * Measures round `round` until the host leaves it undisturbed. A disturbed attempt is handed to `drop`
 * (which discards what it measured) and added to `repeated`; once `repeated` holds `maxRepeated`
 * attempts (a limit for the whole run), a disturbed round is kept as it is. Before each new attempt the
 * host is given time to calm down (EvidenceRecorder.calm: a busy probe, since steal shows only while a
 * CPU wants to run). Returns the kept snapshot. The decision reads /proc only, never the measured values.
 */
export async function measureUndisturbed(
  recorder: Pick<EvidenceRecorder, 'sample' | 'round' | 'calm'>,
  round: number,
  measure: () => Promise<void>,
  o: { drop: (disturbed: RoundSnapshot) => void; repeated: RoundSnapshot[]; maxRepeated: number; log?: (m: string) => void },
): Promise<RoundSnapshot> {
  for (;;) {
    const since = recorder.sample();
    await measure();
    const snapshot = recorder.round(since, round);
    if (snapshot.quiet || o.repeated.length >= o.maxRepeated) return snapshot;
    o.repeated.push(snapshot);
    o.drop(snapshot);
    await recorder.calm(o.log ?? (() => {}));
  }
}

/**
 * The run file's evidence and its verdict by the quiet rule (analysis/quiet-rule.ts). `deterministicMeasured`:
 * that phase measured something (it did not only reuse stored results), so it must have left evidence; a
 * run killed in it has none and is not quiet.
 */
export function summarizeEvidence(
  thresholds: Record<string, number>,
  exclusive: boolean,
  before: CheckedSnapshot,
  rounds: RoundSnapshot[],
  measuredRounds: number[],
  repeated: RoundSnapshot[] = [],
  deterministic: RoundSnapshot[] = [],
  deterministicMeasured = false,
): QuietEvidence {
  const quiet = notQuietReasons({ exclusive, before, rounds, deterministic }, measuredRounds, deterministicMeasured).length === 0;
  const order = (x: RoundSnapshot, y: RoundSnapshot) => x.round - y.round;
  return {
    thresholds,
    exclusive,
    before,
    rounds: [...rounds].sort(order),
    ...(repeated.length ? { repeated: [...repeated].sort(order) } : {}),
    ...(deterministic.length ? { deterministic } : {}),
    quiet,
  };
}
