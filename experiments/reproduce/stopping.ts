// `npm run reproduce -- <write-up>`: when the measuring may stop (plan.ts says what is measured). Pure
// functions and one small state machine.
//
// When to stop: the sequential paired design of the hypothesis test (analysis/sequential.ts): paired
// rounds, t intervals on the paired log ratios, alpha spent over looks and added up (union bound). Every
// build runs every wanted task once per round, in an order that rotates each round (the run loop's
// roundOrder); a comparison's evidence is the ratio of its two values in the same round. Looks come after
// measured rounds 6, 8, 10, 13, ... (isLookRound); a look spends
// alpha in proportion to the measuring time since the previous look, out of the time the budget leaves
// after the warm-up round (linear spending in time), and when the next round would overrun the budget a
// final look spends all the alpha left. Time, not rounds, because rounds get shorter: a task is left out
// of later rounds once every comparison it feeds is decided or belongs to a claim whose verdict no later
// decision can change (settled), and the run stops when every claim with CPU-time comparisons is
// settled. At a look, each undecided CPU-time comparison gets a t interval at confidence 1 - alpha_k
// (ratioInterval), placed against the claim's band exactly as the site judges its intervals
// (claims/judge.ts judge: inside is confirmed, or reproduced for a quoted size; entirely outside is
// contradicted, or smaller/larger than reported); a decision stays decided, and a claim is decided from
// its comparisons as the site decides it (claims/evaluate.ts decide). The alpha_k sum to at most 0.05, so
// by the union bound each comparison's chance of a wrong decision stays at most 0.05 however many looks
// were taken: when a look happens and what it spends depend on the round count and the clock, and the
// clock on which tasks are still measured, never on the comparison's own values. Deterministic series
// (instruction counts, bytes: the run loop measures them once, in its deterministic phase before the
// rounds, or reuses them) compare exactly.
import { buildName, type Build, type Claim } from '../../site/src/lib/claims/schema.ts';
import { judgedWords, type TestVerdict } from '../../site/src/lib/claims/verdicts.ts';
import { decide } from '../../site/src/lib/claims/evaluate.ts';
import { comparable, exactRatio, judge } from '../../site/src/lib/claims/judge.ts';
import type { Pairing } from '../../site/src/lib/claims/compare.ts';
import type { SeriesSpec } from '../../runner/benchmark.ts';
import { seriesKey } from '../../runner/benchmark.ts';
import type { JournalEntry } from '../../runner/run/journal.ts';
import { ALPHA, ratioInterval } from '../../analysis/sequential.ts';
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

export type StopReason = 'all-decided' | 'budget' | 'deterministic-only';

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

  /**
   * Whether a claim's verdict is final: no verdict its undecided comparisons may still reach changes what
   * claims/evaluate.ts decide makes of them (a contradiction decides a claim however the rest ends; a
   * quoted size found smaller on one comparison is not final while another may still come out larger).
   */
  settled(claim: Claim): boolean {
    const states = this.states.filter((s) => s.claim === claim);
    const open = states.filter((s) => !s.decided && s.pairing.test.role !== 'supports');
    if (!open.length) return true;
    if (states.some((s) => s.decided && s.verdict === 'contradicted' && s.pairing.test.role !== 'supports')) return true;
    const options = open.map(reachable);
    if (options.reduce((n, o) => n * o.length, 1) > SETTLED_ENUMERATION_LIMIT) return false;
    const assumed = new Map<ComparisonState, TestVerdict>();
    const verdicts = new Set<TestVerdict>();
    const walk = (k: number): void => {
      if (verdicts.size > 1) return;
      if (k === open.length) {
        verdicts.add(decide(states.map((s) => decideInput(s, assumed.get(s)))).verdict);
        return;
      }
      for (const v of options[k]!) {
        assumed.set(open[k]!, v);
        walk(k + 1);
      }
    };
    walk(0);
    return verdicts.size === 1;
  }

  /** `${build id}\u0000${series key}` of every side a comparison still needs: undecided, of a claim not settled. */
  openSides(): Set<string> {
    const settled = new Map<Claim, boolean>();
    const out = new Set<string>();
    for (const s of this.states) {
      if (s.decided) continue;
      if (!settled.has(s.claim)) settled.set(s.claim, this.settled(s.claim));
      if (settled.get(s.claim)) continue;
      for (const side of [s.pairing.a, s.pairing.b]) {
        const id = this.idOf(side.build);
        if (id !== undefined) out.add(`${id}\u0000${side.key}`);
      }
    }
    return out;
  }
}

/** enumerating more combinations than this to prove a claim settled is not worth it: it stays open */
const SETTLED_ENUMERATION_LIMIT = 20_000;

/** The verdicts a comparison not decided yet may still end with. */
function reachable(s: ComparisonState): TestVerdict[] {
  const decided: TestVerdict[] =
    s.pairing.test.expect === 'magnitude' ? ['reproduced', 'smaller-than-reported', 'larger-than-reported'] : ['confirmed', 'contradicted'];
  return [...decided, 'not-shown', ...(s.kind === null ? (['not-measured'] as const) : [])];
}

/** A comparison as claims/evaluate.ts decide takes it, with its verdict (or an assumed one). */
export function decideInput(c: ComparisonState, verdict: TestVerdict = c.verdict) {
  return {
    test: c.pairing.test,
    verdict,
    reason: c.reason,
    label: c.pairing.label,
    seriesLabel: c.pairing.seriesLabel,
    missing: verdict === 'not-measured' ? [c.pairing.a.build, c.pairing.b.build].map(buildName) : [],
  };
}

// ------------------------------------------------------------------ the stopping rule

export const MAX_ROUNDS = 1000;
export const FIRST_LOOK = 6;

/**
 * The measured rounds after which a look is taken: FIRST_LOOK (as the hypothesis test: fewer paired rounds
 * give t intervals too wide to decide anything but the largest differences, while the alpha a look spends
 * is lost to the later ones), then each about 30% more rounds than the last.
 */
export function isLookRound(m: number): boolean {
  for (let n = FIRST_LOOK; n <= m; n = Math.max(n + 1, Math.round(n * 1.3))) if (n === m) return true;
  return false;
}

export const SPENDING_WORDS =
  'looks after measured rounds 6, 8, 10, 13 and so on (each about 30% more rounds than the last), each spending alpha in proportion to the measuring time since the previous look (linear spending of 0.05 over the time the budget leaves after the warm-up, union bound)';

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
  /** told when the warm-up round has ended: its seconds and the seconds left for measured rounds */
  declared?: (warmupSeconds: number, roundsSeconds: number) => void;
  looked?: (look: LookTaken, r: Reproduction) => void;
}

/**
 * The run loop's afterRound and retired for a reproduction: looks when LOOK_ROUNDS says, spends alpha
 * by the clock, leaves out of later rounds the tasks nothing open needs, and stops when every claim is
 * settled or at the budget.
 */
export class Stopper {
  warmupSeconds: number | null = null;
  stoppedBecause: StopReason | null = null;
  measuredRounds = 0;
  /** on the `now` clock: when the measured rounds began, and how long they may take */
  private roundsStart: number | null = null;
  private roundsSeconds = 0;
  /** what the tasks produced: `${build id}|${benchmark}|${task}` -> the keys of their outcomes */
  private readonly producedBy = new Map<string, Set<string>>();
  /** the sides still needed, after the latest round */
  private open: Set<string> | null = null;
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

  /** The run loop asks before each task of a round: true leaves it out (every comparison it feeds is decided or settled). */
  retired = (buildId: string, benchmark: string, task: string): boolean => {
    const keys = this.producedBy.get(`${buildId}|${benchmark}|${task}`);
    if (!this.open || !keys?.size) return false;
    for (const k of keys) if (this.open.has(`${buildId}\u0000${k}`)) return false;
    return true;
  };

  /** After round `round` (warm-up included) of `seconds`: true to stop after it. */
  afterRound = (round: number, entries: readonly JournalEntry[], seconds: number): boolean => {
    const t = this.o.now();
    for (const e of entries) {
      const id = `${e.buildId}|${e.benchmark}|${e.task}`;
      const keys = this.producedBy.get(id) ?? new Set<string>();
      for (const o of e.outcomes ?? []) keys.add(seriesKey(o.spec));
      this.producedBy.set(id, keys);
    }
    if (round < this.o.warmupRounds) {
      this.warmupSeconds = seconds;
      if (round === this.o.warmupRounds - 1) {
        this.roundsStart = t;
        this.roundsSeconds = Math.max(this.deadline - t, 1e-3);
        if (this.o.timed) this.o.declared?.(seconds, this.roundsSeconds);
      }
      return false;
    }
    const m = round - this.o.warmupRounds + 1;
    this.measuredRounds = m;
    const data = collect(entries, this.o.warmupRounds);
    this.test.update(data, m >= 1);
    if (!this.o.timed || this.roundsStart === null) return this.stop('deterministic-only');
    if (this.allSettled()) return this.stop('all-decided');
    this.open = this.test.openSides();
    if (t + this.nextRoundSeconds(entries, round, seconds) > this.deadline) {
      // the budget ends before the next round: one last look (in place of a scheduled one at this round)
      // with all the alpha not yet spent
      const left = ALPHA - this.alphaSpent;
      if (left > 1e-12 && m >= 3) {
        const look = this.test.look(m, left, true, data);
        this.o.looked?.(look, this.test);
      }
      return this.stop('budget');
    }
    if (isLookRound(m)) {
      const look = this.test.look(m, this.alphaUntil(t), false, data);
      this.o.looked?.(look, this.test);
      if (this.allSettled()) return this.stop('all-decided');
      this.open = this.test.openSides();
    }
    return false;
  };

  /** The next round runs only the tasks still needed: round `round` (of `seconds`) scaled by their share of its task time. */
  private nextRoundSeconds(entries: readonly JournalEntry[], round: number, seconds: number): number {
    const ran = entries.filter((e) => e.round === round && !e.deterministic);
    const all = ran.reduce((a, e) => a + (e.seconds ?? 0), 0);
    const kept = ran.filter((e) => !this.retired(e.buildId, e.benchmark, e.task)).reduce((a, e) => a + (e.seconds ?? 0), 0);
    return all > 0 ? (seconds * kept) / all : seconds;
  }

  /** The alpha a look at time `t` may spend: linear in the measuring time since the previous look (what the time so far allows, less what was spent). */
  private alphaUntil(t: number): number {
    const share = Math.min(1, (t - this.roundsStart!) / this.roundsSeconds);
    return Math.max(0, ALPHA * share - this.alphaSpent);
  }

  /** Every claim with a comparison still undecided is settled (none is when nothing is left open). */
  private allSettled(): boolean {
    const claims = new Set(this.test.undecided().map((s) => s.claim));
    return [...claims].every((c) => this.test.settled(c));
  }

  private stop(why: StopReason): true {
    this.stoppedBecause = why;
    return true;
  }

  /** The stopping record, in words, for the run's notes and the terminal. */
  record(budgetMinutes: number): string {
    const looks = this.test.looks.map(
      (l) => `after round ${l.round} alpha ${l.alpha.toPrecision(3)}${l.final ? ' (final, all alpha left)' : ''}, ${l.undecided} undecided`,
    );
    const why: Record<StopReason, string> = {
      'all-decided': 'every claim was settled (decided, or its verdict beyond change by the comparisons still open)',
      budget: `the ${budgetMinutes}-minute budget would have ended before the next round`,
      'deterministic-only': 'the claims compare deterministic series only (exact counts, measured once)',
    };
    return [
      this.roundsStart !== null && this.o.timed
        ? `${SPENDING_WORDS}; the warm-up round took ${this.warmupSeconds?.toFixed(1)} s and left ${this.roundsSeconds.toFixed(0)} s of the ${budgetMinutes}-minute budget`
        : 'no looks: nothing timed to decide',
      `looks taken: ${looks.length ? looks.join('; ') : 'none'}; alpha spent ${this.alphaSpent.toPrecision(3)}`,
      `stopped after ${this.measuredRounds} measured round(s) because ${this.stoppedBecause ? why[this.stoppedBecause] : 'the run ended'}`,
    ].join('; ');
  }
}
