// Descriptive statistics, distribution-free intervals of the median and paired comparisons.
// Deterministic: the same values always give the same output (aggregation is byte-identical on re-run).
import type { Comparison, CoverageInterval, Method, Series, Stats } from '../schema/index.ts';

/** Verdicts (higher / lower / no difference) need an interval that covers at least this much. */
export const MIN_COVERAGE_FOR_VERDICT = 0.95;
/** Deterministic metrics count as changed only beyond this relative difference. */
export const DETERMINISTIC_THRESHOLD = 0.005;
export const DETERMINISTIC_METHODS: readonly Method[] = ['instruction-count', 'call-count', 'heap-bytes', 'wire-bytes'];

export const INTERVAL_METHOD =
  'order-statistic interval of the median [x(k), x(n+1-k)] with the widest k whose exact binomial coverage is at least 95%; ' +
  'below n = 6 no pair reaches 95%, so the range [min, max] is shown with its own coverage (n = 5: 93.8%, n = 3: 75%). ' +
  'Deterministic metrics (instruction counts, bytes, heap) carry no interval.';
export const COMPARISON_METHOD =
  'paired by round: both builds ran in the same interleaved rounds, each round gives the ratio of the two values, and the ' +
  'ratio shown is the median of those ratios with its order-statistic interval; a verdict (higher, lower, no difference shown) ' +
  `needs an interval covering at least ${MIN_COVERAGE_FOR_VERDICT * 100}%. Deterministic metrics compare exactly and count as ` +
  `changed only beyond ${DETERMINISTIC_THRESHOLD * 100}%. Values from different runs are never compared.`;

/** mulberry32: a small fixed-seed generator for synthetic test data. */
export function seededRandom(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

export function median(values: readonly number[]): number {
  if (values.length === 0) throw new Error('median of no values');
  const s = [...values].sort((a, b) => a - b);
  const mid = s.length >> 1;
  return s.length % 2 ? s[mid]! : (s[mid - 1]! + s[mid]!) / 2;
}

/** Linear-interpolated quantile of sorted values (type 7, as R's default). */
export function quantile(sorted: readonly number[], q: number): number {
  const pos = (sorted.length - 1) * q;
  const lo = Math.floor(pos);
  const hi = Math.ceil(pos);
  return sorted[lo]! + (sorted[hi]! - sorted[lo]!) * (pos - lo);
}

/** P(B <= k) for B ~ Binomial(n, 1/2), exact for the n a benchmark has (sums of binomial coefficients). */
export function binomialHalfCdf(n: number, k: number): number {
  if (k < 0) return 0;
  if (k >= n) return 1;
  let term = 2 ** -n; // C(n, 0) / 2^n
  let sum = term;
  for (let i = 1; i <= k; i++) {
    term = (term * (n - i + 1)) / i;
    sum += term;
  }
  return Math.min(1, sum);
}

/** Coverage of [x(k), x(n+1-k)] (1-based order statistics) for the median of a continuous distribution. */
export function orderStatisticCoverage(n: number, k: number): number {
  return 1 - 2 * binomialHalfCdf(n, k - 1);
}

/** The distribution-free interval of the median; null below two values. */
export function medianInterval(values: readonly number[]): CoverageInterval | null {
  const n = values.length;
  if (n < 2) return null;
  const s = [...values].sort((a, b) => a - b);
  let k = 0;
  for (let j = 1; j <= n >> 1; j++) if (orderStatisticCoverage(n, j) >= MIN_COVERAGE_FOR_VERDICT) k = j;
  if (k === 0) return { low: s[0]!, high: s[n - 1]!, coverage: orderStatisticCoverage(n, 1), kind: 'range' };
  return { low: s[k - 1]!, high: s[n - k]!, coverage: orderStatisticCoverage(n, k), kind: 'order-statistic' };
}

export const mean = (xs: readonly number[]): number => xs.reduce((s, x) => s + x, 0) / xs.length;
/** The sample variance (n - 1 in the denominator). */
export const variance = (xs: readonly number[], m = mean(xs)): number => xs.reduce((s, x) => s + (x - m) ** 2, 0) / (xs.length - 1);

export function describe(values: readonly number[], deterministic = false): Stats {
  const n = values.length;
  if (n === 0) throw new Error('no values to describe');
  const avg = mean(values);
  const stdev = n > 1 ? Math.sqrt(variance(values, avg)) : null;
  return {
    n,
    median: median(values),
    mean: avg,
    stdev,
    min: Math.min(...values),
    max: Math.max(...values),
    cv: stdev !== null && avg !== 0 ? stdev / avg : null,
    deterministic,
    interval: deterministic ? null : medianInterval(values),
  };
}

/** One value per round (a series measures once per round; should a round hold more, their median). */
export type RoundValues = ReadonlyMap<number, readonly number[]>;

/** significant digits of published statistics (summary.json, and the site's comparisons computed like them) */
export const SUMMARY_DIGITS = 6;

/**
 * The same data with every non-integer number cut to `digits` significant digits (integers, such as
 * counts, stay exact). Monotone: an interval's ends stay on either side of its median.
 */
export function significant<T>(x: T, digits: number): T {
  if (typeof x === 'number') return (Number.isInteger(x) || !Number.isFinite(x) ? x : Number(x.toPrecision(digits))) as T;
  if (Array.isArray(x)) return x.map((v) => significant(v, digits)) as T;
  if (x && typeof x === 'object') return Object.fromEntries(Object.entries(x).map(([k, v]) => [k, significant(v, digits)])) as T;
  return x;
}

/** Measured (non-warm-up) values of a run file's series by round. */
export function measuredRounds(s: Pick<Series, 'iterations'>): Map<number, number[]> {
  const m = new Map<number, number[]>();
  for (const it of s.iterations) if (!it.warmup) m.set(it.round, [...(m.get(it.round) ?? []), it.value]);
  return m;
}

/** Values by round from parallel lists (a row of detailed-iterations.json). */
export function valuesByRound(rounds: readonly number[], values: readonly number[]): Map<number, number[]> {
  const m = new Map<number, number[]>();
  rounds.forEach((r, i) => m.set(r, [...(m.get(r) ?? []), values[i]!]));
  return m;
}

/**
 * Compare two series of the same run round by round. Returns null when there is nothing to say (no
 * common round, or a zero median that would make the ratio meaningless).
 */
export function compareRounds(a: RoundValues, b: RoundValues, against: string, deterministic: boolean): Comparison | null {
  const all = (m: RoundValues) => [...m.values()].flat();
  const va = all(a);
  const vb = all(b);
  if (!va.length || !vb.length || median(va) === 0 || median(vb) === 0) return null;
  const rounds = [...a.keys()].filter((r) => b.has(r) && a.get(r)!.length && b.get(r)!.length).sort((x, y) => x - y);
  if (deterministic) {
    const ratio = median(va) / median(vb);
    const verdict = Math.abs(ratio - 1) <= DETERMINISTIC_THRESHOLD ? 'within-threshold' : ratio > 1 ? 'higher' : 'lower';
    return { against, ratio, pairing: 'deterministic', pairs: rounds.length, interval: null, verdict };
  }
  if (rounds.length === 0) return null;
  const ratios = rounds.map((r) => median(a.get(r)!) / median(b.get(r)!));
  const interval = medianInterval(ratios);
  let verdict: Comparison['verdict'] = 'not-enough-data';
  if (interval && interval.coverage >= MIN_COVERAGE_FOR_VERDICT) verdict = interval.low > 1 ? 'higher' : interval.high < 1 ? 'lower' : 'no-difference-shown';
  return { against, ratio: median(ratios), pairing: 'paired-rounds', pairs: rounds.length, interval, verdict };
}

/** Student t quantile (two-sided 95%) for small df; used for paired log-ratio intervals. */
export function t975(df: number): number {
  const table = [
    12.706, 4.303, 3.182, 2.776, 2.571, 2.447, 2.365, 2.306, 2.262, 2.228, 2.201, 2.179, 2.16, 2.145, 2.131, 2.12, 2.11, 2.101, 2.093, 2.086, 2.08, 2.074,
    2.069, 2.064, 2.06, 2.056, 2.052, 2.048, 2.045, 2.042,
  ];
  if (df < 1) throw new Error('t quantile needs df >= 1');
  if (df <= table.length) return table[df - 1]!;
  if (df <= 60) return 2.042 - ((df - 30) * (2.042 - 2.0)) / 30;
  if (df <= 120) return 2.0 - ((df - 60) * (2.0 - 1.98)) / 60;
  return 1.96;
}

/**
 * Paired ratios (e.g. neighbouring blocks of A and B): geometric mean ratio with a t interval on the
 * log ratios. Pairing cancels machine drift that is slower than one pair.
 */
export function pairedRatio(ratios: readonly number[]): { ratio: number; ci95: { low: number; high: number } | null; n: number } {
  const logs = ratios.map(Math.log);
  const n = logs.length;
  const m = mean(logs);
  if (n < 3) return { ratio: Math.exp(m), ci95: null, n };
  const half = (t975(n - 1) * Math.sqrt(variance(logs, m))) / Math.sqrt(n);
  return { ratio: Math.exp(m), ci95: { low: Math.exp(m - half), high: Math.exp(m + half) }, n };
}
