// `npm run reproduce -- <write-up>`: what the data say about each comparison of a write-up's claims. Values
// come from the run's journal (collect); deterministic comparisons are decided exactly once both sides are
// measured, CPU-time ones only at a look (Reproduction.look: a t interval on the paired log ratios at the
// look's alpha, judged as the site judges intervals); a claim is settled when no verdict its open
// comparisons may still reach (given their last look's interval: reachable) changes it
// (Reproduction.settled). When to look and when to stop: stopping.ts.
import { buildName, type Build, type Claim } from '../../site/src/lib/claims/schema.ts';
import { judgedWords, type TestVerdict } from '../../site/src/lib/claims/verdicts.ts';
import { decide } from '../../site/src/lib/claims/evaluate.ts';
import { band, comparable, exactRatio, judge } from '../../site/src/lib/claims/judge.ts';
import type { Pairing } from '../../site/src/lib/claims/compare.ts';
import type { SeriesSpec } from '../../runner/benchmark.ts';
import { seriesKey } from '../../runner/benchmark.ts';
import type { JournalEntry } from '../../runner/run/journal.ts';
import { ratioInterval, tCritical } from '../../analysis/sequential.ts';
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
  /** the t interval of the look that decided it (or of the last look), with the spread of its paired log ratios */
  interval: { low: number; high: number; confidence: number; alpha: number; sdLog: number } | null;
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
        interval: { low: est.low, high: est.high, confidence: est.confidence, alpha, sdLog: est.sdLog },
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

/**
 * The verdicts a comparison not decided yet may still end with. Once a look has given it an interval, only
 * the verdicts whose region of the ratio line meets that interval: a later look decides only with an
 * interval inside one region, and two intervals that both cover the true ratio meet. So a verdict this
 * leaves out could only come if some look's interval missed the true ratio, the event whose chance the
 * alpha spending already bounds by 5%; leaving it out adds no error, and a claim whose outcome can no longer
 * change lets its tasks go sooner.
 */
export function reachable(s: Pick<ComparisonState, 'pairing' | 'kind' | 'interval' | 'higherIsBetter'>): TestVerdict[] {
  const open: TestVerdict[] = ['not-shown', ...(s.kind === null ? (['not-measured'] as const) : [])];
  if (s.kind === 'cpu-time' && s.interval && s.higherIsBetter !== null) {
    const { low, high } = s.interval;
    const [lo] = band(s.pairing.test, s.higherIsBetter);
    // a point of [low, high] in each region the interval reaches: below the band, inside it, above it
    const points = [low, Math.min(high, Math.max(low, lo)), high];
    return [...new Set(points.map((x) => judge(s.pairing.test, x, x, s.higherIsBetter!).verdict).filter((v) => v !== 'not-shown')), ...open];
  }
  const decided: TestVerdict[] =
    s.pairing.test.expect === 'magnitude' ? ['reproduced', 'smaller-than-reported', 'larger-than-reported'] : ['confirmed', 'contradicted'];
  return [...decided, ...open];
}

/** rounds beyond which a projection says "more than" instead of a number */
export const PROJECTION_LIMIT = 10_000;

/**
 * A projection for a comparison its looks left open: how many paired rounds a t interval at the last look's
 * alpha would need to lie inside one region of the ratio line (inside the claim's band, or wholly on one
 * side of it), if the mean and the spread of the log ratios stayed as measured. null when it has no interval
 * yet; PROJECTION_LIMIT + 1 when even that many would not do (the estimate sits on an edge of the band).
 */
export function roundsToDecide(s: Pick<ComparisonState, 'pairing' | 'interval' | 'higherIsBetter' | 'ratio'>): number | null {
  if (!s.interval || s.ratio === null || s.higherIsBetter === null || !(s.ratio > 0)) return null;
  const mean = Math.log(s.ratio);
  const edges = band(s.pairing.test, s.higherIsBetter).filter((e) => e > 0 && Number.isFinite(e));
  const room = Math.min(...edges.map((e) => Math.abs(mean - Math.log(e))));
  const narrowEnough = (n: number) => (tCritical(s.interval!.alpha, n - 1) * s.interval!.sdLog) / Math.sqrt(n) < room;
  if (!narrowEnough(PROJECTION_LIMIT)) return PROJECTION_LIMIT + 1;
  // the interval's half-width falls as n grows: the smallest n that is narrow enough, by halving
  let [lo, hi] = [3, PROJECTION_LIMIT];
  while (lo < hi) {
    const mid = Math.floor((lo + hi) / 2);
    if (narrowEnough(mid)) hi = mid;
    else lo = mid + 1;
  }
  return lo;
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
