// `npm run reproduce -- <write-up>`: when the measuring may stop (plan.ts says what is measured). Pure
// functions and one small state machine.
//
// When to stop: the sequential paired design of the hypothesis test (analysis/sequential.ts),
// reused, not copied. Every build runs every wanted task once per round, in an order that rotates each
// round (the run loop's roundOrder); a comparison's evidence is the ratio of its two values in the same
// round. The warm-up round times a round; from it and the time budget the run declares, before the first
// measured round, at which measured rounds it will look (lookSchedule) and how much of alpha = 0.05 each
// look spends (linear spending). At a look, each undecided CPU-time comparison gets a t interval on its
// paired log ratios at confidence 1 - alpha_k (ratioInterval), placed against the claim's band exactly
// as the site judges its intervals (claims/judge.ts judge: inside is confirmed, or reproduced for a quoted size;
// entirely outside is contradicted, or smaller/larger than reported); a decision stays decided, and a
// claim is decided from its comparisons as the site decides it (claims/evaluate.ts decide). The run stops when every CPU-time comparison is decided,
// at the last look, or when the next round would overrun the budget (then one final look spends the
// alpha left, as sequential.ts's finalLook does). By the union bound each comparison's chance of a wrong
// decision stays at most alpha however many looks were taken. Deterministic series (instruction counts,
// bytes: the run loop measures them once, in its deterministic phase before the rounds, or reuses them)
// compare exactly.
import { buildName, type Build, type Claim } from '../../site/src/lib/claims/schema.ts';
import { judgedWords, type TestVerdict } from '../../site/src/lib/claims/verdicts.ts';
import { comparable, exactRatio, judge } from '../../site/src/lib/claims/judge.ts';
import type { Pairing } from '../../site/src/lib/claims/compare.ts';
import type { SeriesSpec } from '../../runner/benchmark.ts';
import { seriesKey } from '../../runner/benchmark.ts';
import type { JournalEntry } from '../../runner/run/journal.ts';
import { alphaAt, lookSchedule, ratioInterval, type LookSchedule } from '../../analysis/sequential.ts';
import { DETERMINISTIC_METHODS, median } from '../../analysis/stats.ts';
import { buildIdentity } from './plan.ts';

// ------------------------------------------------------------------ measured values, from the journal

export interface SideData {
  spec: SeriesSpec;
  /** measured (not warm-up) values by round */
  rounds: Map<number, number[]>;
  /** why the series has no value (unsupported or failed), when it has none */
  failure: string | null;
}

/** Values of the journal by build record id and series key; warm-up rounds are left out. */
export function collect(entries: readonly JournalEntry[], warmupRounds: number): Map<string, SideData> {
  const out = new Map<string, SideData>();
  for (const e of entries) {
    if (e.round < warmupRounds) continue;
    for (const o of e.outcomes ?? []) {
      const id = `${e.buildId}\u0000${seriesKey(o.spec)}`;
      const side = out.get(id) ?? { spec: o.spec, rounds: new Map(), failure: null };
      if ('value' in o) side.rounds.set(e.round, [...(side.rounds.get(e.round) ?? []), o.value]);
      else if (side.rounds.size === 0) side.failure = `${o.status}: ${o.reason}`;
      out.set(id, side);
    }
  }
  return out;
}

// ------------------------------------------------------------------ comparisons and their looks

export interface ComparisonState {
  claim: Claim;
  pairing: Pairing;
  /** what the series are, once measured */
  kind: 'cpu-time' | 'deterministic' | null;
  verdict: TestVerdict;
  /** decided for good: a deterministic comparison, or a CPU-time one whose interval fell inside or outside at a look */
  decided: boolean;
  reason: string;
  ratio: number | null;
  /** the t interval of the look that decided it (or of the last look) */
  interval: { low: number; high: number; confidence: number; alpha: number } | null;
  pairs: number;
  /** measured round of the deciding (or last) look */
  round: number | null;
  higherIsBetter: boolean | null;
}

export interface LookTaken {
  round: number;
  alpha: number;
  final: boolean;
  /** CPU-time comparisons still undecided after it */
  undecided: number;
}

export type StopReason = 'all-decided' | 'last-look' | 'budget' | 'deterministic-only';

/** The builds' record ids, found by library, version and variant. */
export type BuildIds = (b: Build) => string | undefined;

/**
 * The comparisons of one reproduction and what the data say about them: deterministic ones at once, the
 * CPU-time ones only at looks.
 */
export class Reproduction {
  readonly states: ComparisonState[];
  readonly looks: LookTaken[] = [];
  private readonly idOf: BuildIds;
  constructor(comparisons: readonly { claim: Claim; pairing: Pairing }[], idOf: BuildIds) {
    this.idOf = idOf;
    this.states = comparisons.map(({ claim, pairing }) => ({
      claim,
      pairing,
      kind: null,
      verdict: 'not-measured',
      decided: false,
      reason: 'not measured yet',
      ratio: null,
      interval: null,
      pairs: 0,
      round: null,
      higherIsBetter: null,
    }));
  }

  private sides(s: ComparisonState, data: ReadonlyMap<string, SideData>): [SideData | undefined, SideData | undefined] {
    const side = (x: { key: string; build: Build }) => {
      const id = this.idOf(x.build);
      return id === undefined ? undefined : data.get(`${id}\u0000${x.key}`);
    };
    return [side(s.pairing.a), side(s.pairing.b)];
  }

  /**
   * After a measured round: settle what needs no look (deterministic comparisons, sides that cannot be
   * measured). `firstMeasured` says the once-per-run tasks have run, so a missing side stays missing.
   */
  update(data: ReadonlyMap<string, SideData>, firstMeasured: boolean): void {
    for (const s of this.states) {
      if (s.decided) continue;
      const [a, b] = this.sides(s, data);
      for (const [side, ref] of [
        [a, s.pairing.a],
        [b, s.pairing.b],
      ] as const) {
        if (side?.rounds.size) continue;
        if (side?.failure) Object.assign(s, { verdict: 'not-shown', decided: true, reason: `${buildName(ref.build)}: ${side.failure.slice(0, 300)}` });
        else if (firstMeasured) Object.assign(s, { verdict: 'not-measured', decided: true, reason: `${buildName(ref.build)} measured no ${ref.key} here` });
      }
      if (s.decided || !a?.rounds.size || !b?.rounds.size) continue;
      if (a.spec.unit !== b.spec.unit || a.spec.higherIsBetter !== b.spec.higherIsBetter) {
        Object.assign(s, { verdict: 'not-shown', decided: true, reason: 'the two series differ in unit or direction' });
        continue;
      }
      const sameSeriesOfSameBuild = seriesKey(a.spec) === seriesKey(b.spec) && buildIdentity(s.pairing.a.build) === buildIdentity(s.pairing.b.build);
      s.higherIsBetter = a.spec.higherIsBetter;
      if (!comparable(a.spec.comparability, b.spec.comparability, sameSeriesOfSameBuild) && !s.pairing.test.acrossMethodChange) {
        Object.assign(s, {
          verdict: 'not-shown',
          decided: true,
          reason: `the two figures are not comparable: ${a.spec.comparability.reason ?? b.spec.comparability.reason ?? 'measured differently'}`,
        });
        continue;
      }
      const deterministic = DETERMINISTIC_METHODS.includes(a.spec.method) && DETERMINISTIC_METHODS.includes(b.spec.method);
      s.kind = deterministic ? 'deterministic' : 'cpu-time';
      if (!deterministic) continue;
      const { ratio } = exactRatio(median([...a.rounds.values()].flat()), median([...b.rounds.values()].flat()));
      const { verdict, direction } = judge(s.pairing.test, ratio, ratio, a.spec.higherIsBetter);
      Object.assign(s, { verdict, decided: true, ratio, pairs: 0, reason: judgedWords(s.pairing.test, verdict, direction, true) });
    }
  }

  /** CPU-time comparisons not decided yet (those whose series are not known yet count as undecided). */
  undecided(): ComparisonState[] {
    return this.states.filter((s) => !s.decided && s.kind !== 'deterministic');
  }

  /** A look after measured round `round` (1-based), spending `alpha`. */
  look(round: number, alpha: number, final: boolean, data: ReadonlyMap<string, SideData>): LookTaken {
    for (const s of this.undecided()) {
      const [a, b] = this.sides(s, data);
      if (!a || !b || s.kind !== 'cpu-time') continue;
      const common = [...a.rounds.keys()].filter((r) => b.rounds.has(r)).sort((x, y) => x - y);
      const ratios = common.map((r) => median(a.rounds.get(r)!) / median(b.rounds.get(r)!));
      const est = ratioInterval(ratios, alpha);
      s.pairs = ratios.length;
      s.round = round;
      if (!est) {
        Object.assign(s, { verdict: 'not-shown', reason: `${ratios.length} paired rounds: an interval needs 3` });
        continue;
      }
      const { verdict, direction } = judge(s.pairing.test, est.low, est.high, a.spec.higherIsBetter);
      const reason = judgedWords(s.pairing.test, verdict, direction, false);
      Object.assign(s, {
        verdict,
        decided: verdict !== 'not-shown',
        ratio: est.ratio,
        interval: { low: est.low, high: est.high, confidence: est.confidence, alpha },
        reason,
      });
    }
    const taken = { round, alpha, final, undecided: this.undecided().length };
    this.looks.push(taken);
    return taken;
  }

  /** Every CPU-time comparison still open is left undecided: say so. */
  close(why: string): void {
    for (const s of this.undecided()) if (s.verdict === 'not-measured' && s.kind === null) s.reason = why;
  }
}

// ------------------------------------------------------------------ the stopping rule

export const FIRST_LOOK = 6;
export const MAX_ROUNDS = 1000;

export interface StopperOptions {
  warmupRounds: number;
  /** seconds from `start` the measuring may take */
  budgetSeconds: number;
  /** seconds since some fixed point (injected so tests can drive the clock), for the deadline */
  now: () => number;
  /** when the budget started, on the same clock */
  start: number;
  /** rounds are needed at all (some wanted task is timed); without, one measured round decides */
  timed: boolean;
  /** told when the schedule is declared (after the warm-up) */
  declared?: (schedule: LookSchedule, roundSeconds: number) => void;
  looked?: (look: LookTaken, r: Reproduction) => void;
}

/**
 * The run loop's afterRound for a reproduction: declares the looks after the warm-up round, looks when
 * the schedule says, and stops when nothing is left to decide, at the last look, or at the budget.
 */
export class Stopper {
  schedule: LookSchedule | null = null;
  warmupSeconds: number | null = null;
  stoppedBecause: StopReason | null = null;
  measuredRounds = 0;
  private next = 0;
  readonly test: Reproduction;
  private readonly o: StopperOptions;
  constructor(test: Reproduction, o: StopperOptions) {
    this.test = test;
    this.o = o;
  }

  get deadline(): number {
    return this.o.start + this.o.budgetSeconds;
  }

  get alphaSpent(): number {
    return this.test.looks.reduce((a, l) => a + l.alpha, 0);
  }

  /** After round `round` (warm-up included) of `seconds`: true to stop after it. */
  afterRound = (round: number, entries: readonly JournalEntry[], seconds: number): boolean => {
    const t = this.o.now();
    if (round < this.o.warmupRounds) {
      this.warmupSeconds = seconds;
      if (round === this.o.warmupRounds - 1 && this.o.timed) {
        const fits = Math.floor((this.deadline - t) / Math.max(seconds, 1e-3));
        const max = Math.min(MAX_ROUNDS, Math.max(3, fits));
        this.schedule = lookSchedule(max, Math.min(FIRST_LOOK, max));
        this.o.declared?.(this.schedule, seconds);
      }
      return false;
    }
    const m = round - this.o.warmupRounds + 1;
    this.measuredRounds = m;
    const data = collect(entries, this.o.warmupRounds);
    this.test.update(data, m >= 1);
    if (!this.o.timed || !this.schedule) return this.stop('deterministic-only');
    if (this.test.undecided().length === 0) return this.stop('all-decided');
    if (this.schedule.looks[this.next] === m) {
      const look = this.test.look(m, alphaAt(this.schedule, this.next, false), false, data);
      this.next++;
      this.o.looked?.(look, this.test);
      if (look.undecided === 0) return this.stop('all-decided');
      if (this.next >= this.schedule.looks.length) return this.stop('last-look');
    }
    if (t + seconds > this.deadline) {
      // the budget ends before the next look: one last look with all the alpha not yet spent (when the
      // clock, never the data, ends the run, the union bound still holds)
      const left = alphaAt(this.schedule, this.next, true);
      this.next = this.schedule.looks.length;
      if (left > 1e-12 && m >= 3) {
        const look = this.test.look(m, left, true, data);
        this.o.looked?.(look, this.test);
      }
      return this.stop('budget');
    }
    return false;
  };

  private stop(why: StopReason): true {
    this.stoppedBecause = why;
    return true;
  }

  /** The stopping record, in words, for the run's notes and the terminal. */
  record(budgetMinutes: number): string {
    const s = this.schedule;
    const looks = this.test.looks.map(
      (l) => `after round ${l.round} alpha ${l.alpha.toPrecision(3)}${l.final ? ' (final, all alpha left)' : ''}, ${l.undecided} undecided`,
    );
    const why: Record<StopReason, string> = {
      'all-decided': 'every CPU-time comparison was decided',
      'last-look': 'the last declared look was taken',
      budget: `the ${budgetMinutes}-minute budget would have ended before the next round`,
      'deterministic-only': 'the claims compare deterministic series only (exact counts, measured once)',
    };
    return [
      s
        ? `looks declared after the warm-up round (${this.warmupSeconds?.toFixed(1)} s) for the ${budgetMinutes}-minute budget: after measured rounds ${s.looks.join(', ')}, alpha ${s.alpha.map((a) => a.toPrecision(3)).join(', ')} (linear spending of 0.05, union bound)`
        : 'no looks: nothing timed to decide',
      `looks taken: ${looks.length ? looks.join('; ') : 'none'}; alpha spent ${this.alphaSpent.toPrecision(3)}`,
      `stopped after ${this.measuredRounds} measured round(s) because ${this.stoppedBecause ? why[this.stoppedBecause] : 'the run ended'}`,
    ].join('; ');
  }
}
