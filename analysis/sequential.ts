// The stopping rule of the hypothesis test: look at the data after a pre-declared schedule of rounds,
// spend the error rate over those looks, stop when every claim is decided.
//
// Why this design. Looking at a 95% interval after every round and stopping as soon as it "decides"
// makes wrong decisions far more often than 5%: each look is another chance for noise to cross a
// boundary (the test file shows it). Two standard ways keep the error honest: group-sequential alpha
// spending over a fixed schedule of looks, or an anytime-valid confidence sequence. We use the first,
// in its simplest provable form:
//   - before the first measured round the run declares its looks (rounds n1 < n2 < ... < R, growing
//     geometrically, R from the time budget and the measured round time) and how much of the error
//     rate alpha each look may spend: alpha * (n_k - n_(k-1)) / R, a linear spending function;
//   - at look k a claim's interval is a t interval on its paired log ratios at confidence 1 - alpha_k;
//   - by the union bound, the chance that ANY look's interval misses the true ratio is at most the sum
//     of the alpha_k, i.e. alpha, whatever the correlation between looks. Every verdict rule below
//     (verdict.ts) can only go wrong when the interval it used misses the true ratio, so each claim's
//     chance of a wrong decision is at most alpha, however many looks the run takes.
//   - when the time budget ends between two looks, one last look spends all the alpha not yet spent.
//     When to look depends on the clock, never on the data, so the bound still holds.
// The union bound is conservative (real looks are correlated), so intervals are somewhat wider than
// an exact group-sequential boundary would allow; the price is simplicity and a guarantee that does
// not rest on the normal approximation of the looks' joint distribution.
import { EQUIVALENCE_MARGIN, cpuVerdict, type ClaimKind, type CpuLineResult } from './verdict.ts';

/** The error rate each claim is allowed over the whole run. */
export const ALPHA = 0.05;

export interface LookSchedule {
  /** measured rounds after which the data are examined, increasing; the last is the planned maximum */
  looks: number[];
  /** error rate spent at each look; sums to ALPHA */
  alpha: number[];
  method: string;
}

export const SPENDING_METHOD =
  'pre-declared looks, linear alpha spending, union bound: each look k uses a t interval on the paired log ratios at confidence 1 - alpha_k, and the alpha_k sum to 0.05, so the chance that any look misses is at most 5% per claim';

/** The first look's round: fewer paired rounds give t intervals too wide to decide anything but the largest differences. */
export const FIRST_LOOK = 6;
/** How much later each look comes than the one before, in rounds. */
export const LOOK_GROWTH = 1.3;

/** The round of the look after one at round `n`: about LOOK_GROWTH times later, at least one round. */
export const nextLook = (n: number, growth = LOOK_GROWTH): number => Math.max(n + 1, Math.round(n * growth));

/**
 * Looks at rounds first, first*growth, ... up to maxRounds (always included), each spending alpha in
 * proportion to the rounds it adds.
 */
export function lookSchedule(maxRounds: number, first = FIRST_LOOK, growth = LOOK_GROWTH, alpha = ALPHA): LookSchedule {
  if (!Number.isInteger(maxRounds) || maxRounds < 3) throw new Error(`a schedule needs at least 3 rounds, got ${maxRounds}`);
  const looks: number[] = [];
  for (let n = Math.min(first, maxRounds); n < maxRounds; n = nextLook(n, growth)) looks.push(n);
  looks.push(maxRounds);
  const spent = looks.map((n, k) => (alpha * (n - (k ? looks[k - 1]! : 0))) / maxRounds);
  return { looks, alpha: spent, method: SPENDING_METHOD };
}

/** A fixed design: one look at the end, all of alpha there (quick mode). */
export function fixedSchedule(rounds: number, alpha = ALPHA): LookSchedule {
  return {
    looks: [rounds],
    alpha: [alpha],
    method: `one look after ${rounds} rounds (fixed design): a t interval on the paired log ratios at confidence ${1 - alpha}`,
  };
}

/** The alpha a look may spend: its scheduled share, or, for a final look forced by the budget, all that is left. */
export function alphaAt(schedule: LookSchedule, lookIndex: number, final: boolean): number {
  if (!final) return schedule.alpha[lookIndex]!;
  const used = schedule.alpha.slice(0, lookIndex).reduce((a, b) => a + b, 0);
  return schedule.alpha.reduce((a, b) => a + b, 0) - used;
}

// ------------------------------------------------------------------ the sequential test of the CPU line

export interface CpuLine extends CpuLineResult {
  estimate: RatioEstimate | null;
  decidedAtRound: number | null;
  decidedAfterSeconds: number | null;
}

export interface LookRecord {
  round: number;
  alpha: number;
  final: boolean;
  undecided: number;
}

/**
 * The CPU-time line of every claim, examined only at the schedule's looks (the top of this file says
 * why that keeps the error rate). A claim decided at a look keeps that verdict; the run stops when none
 * is left undecided.
 */
export class SequentialTest {
  readonly lines = new Map<string, CpuLine>();
  readonly looks: LookRecord[] = [];
  private next = 0;
  readonly schedule: LookSchedule;
  private readonly kinds: Map<string, ClaimKind>;
  private readonly margin: number;

  constructor(schedule: LookSchedule, kinds: Map<string, ClaimKind>, margin = EQUIVALENCE_MARGIN) {
    this.schedule = schedule;
    this.kinds = kinds;
    this.margin = margin;
    for (const key of kinds.keys())
      this.lines.set(key, {
        verdict: 'undecided',
        why: 'not examined yet',
        needs: `a first look after round ${schedule.looks[0]}`,
        estimate: null,
        decidedAtRound: null,
        decidedAfterSeconds: null,
      });
  }

  undecided(): string[] {
    return [...this.lines].filter(([, l]) => l.verdict === 'undecided').map(([k]) => k);
  }

  /** Every scheduled look has been taken. */
  get exhausted(): boolean {
    return this.next >= this.schedule.looks.length;
  }

  get nextLook(): number | null {
    return this.schedule.looks[this.next] ?? null;
  }

  get spent(): number {
    return this.looks.reduce((a, l) => a + l.alpha, 0);
  }

  /** After measured round `round`: examine the data if the schedule has a look here. */
  afterRound(round: number, ratiosOf: (key: string) => number[], seconds: number): LookRecord | null {
    if (this.schedule.looks[this.next] !== round) return null;
    const alpha = alphaAt(this.schedule, this.next, false);
    this.next++;
    return this.look(round, alpha, false, ratiosOf, seconds);
  }

  /** The budget ended before the last scheduled look: one look at the data so far with all the alpha left. */
  finalLook(round: number, ratiosOf: (key: string) => number[], seconds: number): LookRecord | null {
    const left = alphaAt(this.schedule, this.next, true);
    this.next = this.schedule.looks.length;
    if (left <= 1e-12 || round < 3) return null;
    return this.look(round, left, true, ratiosOf, seconds);
  }

  private look(round: number, alpha: number, final: boolean, ratiosOf: (key: string) => number[], seconds: number): LookRecord {
    for (const [key, line] of this.lines) {
      if (line.verdict !== 'undecided') continue;
      const estimate = ratioInterval(ratiosOf(key), alpha);
      const r = estimate
        ? cpuVerdict(this.kinds.get(key)!, { low: estimate.low, high: estimate.high }, this.margin)
        : { verdict: 'undecided' as const, why: 'fewer than 3 paired blocks', needs: 'at least 3 paired blocks' };
      const decided = r.verdict === 'supported' || r.verdict === 'refuted';
      this.lines.set(key, { ...r, estimate, decidedAtRound: decided ? round : null, decidedAfterSeconds: decided ? seconds : null });
    }
    const rec = { round, alpha, final, undecided: this.undecided().length };
    this.looks.push(rec);
    return rec;
  }
}

// ------------------------------------------------------------------ Student t

function lnGamma(x: number): number {
  // Lanczos approximation (g = 7, 9 terms), accurate to ~1e-15 for x > 0
  const c = [
    0.99999999999980993, 676.5203681218851, -1259.1392167224028, 771.32342877765313, -176.61502916214059, 12.507343278686905, -0.13857109526572012,
    9.9843695780195716e-6, 1.5056327351493116e-7,
  ];
  if (x < 0.5) return Math.log(Math.PI / Math.sin(Math.PI * x)) - lnGamma(1 - x);
  x -= 1;
  let a = c[0]!;
  const t = x + 7.5;
  for (let i = 1; i < 9; i++) a += c[i]! / (x + i);
  return 0.5 * Math.log(2 * Math.PI) + (x + 0.5) * Math.log(t) - t + Math.log(a);
}

/** Continued fraction of the regularized incomplete beta function (modified Lentz). */
function betaFraction(x: number, a: number, b: number): number {
  const tiny = 1e-300;
  let c = 1;
  let d = 1 - ((a + b) * x) / (a + 1);
  d = Math.abs(d) < tiny ? tiny : d;
  d = 1 / d;
  let h = d;
  for (let m = 1; m <= 500; m++) {
    const m2 = 2 * m;
    let aa = (m * (b - m) * x) / ((a + m2 - 1) * (a + m2));
    d = 1 + aa * d;
    d = Math.abs(d) < tiny ? tiny : d;
    c = 1 + aa / c;
    c = Math.abs(c) < tiny ? tiny : c;
    d = 1 / d;
    h *= d * c;
    aa = (-(a + m) * (a + b + m) * x) / ((a + m2) * (a + m2 + 1));
    d = 1 + aa * d;
    d = Math.abs(d) < tiny ? tiny : d;
    c = 1 + aa / c;
    c = Math.abs(c) < tiny ? tiny : c;
    d = 1 / d;
    const del = d * c;
    h *= del;
    if (Math.abs(del - 1) < 1e-14) break;
  }
  return h;
}

/** I_x(a, b), the regularized incomplete beta function. */
export function incompleteBeta(x: number, a: number, b: number): number {
  if (x <= 0) return 0;
  if (x >= 1) return 1;
  const front = Math.exp(lnGamma(a + b) - lnGamma(a) - lnGamma(b) + a * Math.log(x) + b * Math.log(1 - x));
  return x < (a + 1) / (a + b + 2) ? (front * betaFraction(x, a, b)) / a : 1 - (front * betaFraction(1 - x, b, a)) / b;
}

/** P(|T| > t) for Student's t with df degrees of freedom. */
export function tTwoSidedP(t: number, df: number): number {
  return incompleteBeta(df / (df + t * t), df / 2, 0.5);
}

/** The c with P(|T| > c) = alpha: the critical value of a two-sided interval at confidence 1 - alpha. */
const critical = new Map<string, number>();
export function tCritical(alpha: number, df: number): number {
  if (!(alpha > 0 && alpha < 1)) throw new Error(`alpha must be in (0, 1), got ${alpha}`);
  if (!(df >= 1)) throw new Error(`df must be >= 1, got ${df}`);
  const key = `${alpha}/${df}`;
  const known = critical.get(key);
  if (known !== undefined) return known;
  let lo = 0;
  let hi = 1;
  while (tTwoSidedP(hi, df) > alpha) hi *= 2;
  for (let i = 0; i < 200 && hi - lo > 1e-12 * hi; i++) {
    const mid = (lo + hi) / 2;
    if (tTwoSidedP(mid, df) > alpha) lo = mid;
    else hi = mid;
  }
  critical.set(key, (lo + hi) / 2);
  return (lo + hi) / 2;
}

// ------------------------------------------------------------------ intervals

export interface RatioEstimate {
  /** geometric mean of the paired ratios */
  ratio: number;
  low: number;
  high: number;
  pairs: number;
  /** standard deviation of the log ratios: about the coefficient of variation of one paired ratio */
  sdLog: number;
  confidence: number;
}

/** Geometric-mean ratio with a t interval on the log ratios at confidence 1 - alpha; null below 3 pairs. */
export function ratioInterval(ratios: readonly number[], alpha: number): RatioEstimate | null {
  const logs = ratios.filter((r) => Number.isFinite(r) && r > 0).map(Math.log);
  const n = logs.length;
  if (n < 3) return null;
  const mean = logs.reduce((a, b) => a + b, 0) / n;
  const sd = Math.sqrt(logs.reduce((a, v) => a + (v - mean) ** 2, 0) / (n - 1));
  const half = (tCritical(alpha, n - 1) * sd) / Math.sqrt(n);
  return { ratio: Math.exp(mean), low: Math.exp(mean - half), high: Math.exp(mean + half), pairs: n, sdLog: sd, confidence: 1 - alpha };
}

export interface DifferenceEstimate {
  mean: number;
  low: number;
  high: number;
  pairs: number;
  confidence: number;
}

/** Mean of paired differences with a t interval at confidence 1 - alpha; null below 3 pairs. */
export function differenceInterval(diffs: readonly number[], alpha: number): DifferenceEstimate | null {
  const n = diffs.length;
  if (n < 3) return null;
  const mean = diffs.reduce((a, b) => a + b, 0) / n;
  const sd = Math.sqrt(diffs.reduce((a, v) => a + (v - mean) ** 2, 0) / (n - 1));
  const half = (tCritical(alpha, n - 1) * sd) / Math.sqrt(n);
  return { mean, low: mean - half, high: mean + half, pairs: n, confidence: 1 - alpha };
}
