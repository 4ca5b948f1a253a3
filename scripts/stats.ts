// Descriptive statistics and intervals. Deterministic: the bootstrap uses a fixed-seed generator, so
// the same data always gives the same interval (and aggregation is byte-identical on re-run).
import type { Comparison, Stats } from '../schema/index.ts';

export const BOOTSTRAP_RESAMPLES = 2000;
export const CI_METHOD = `percentile bootstrap of the median (${BOOTSTRAP_RESAMPLES} resamples, fixed seed); none below 3 iterations`;
export const COMPARISON_METHOD =
  'ratio of medians with a percentile bootstrap interval (each side resampled independently); only between series of the same run';
export const MIN_N_FOR_CI = 3;

/** mulberry32: small, fast, good enough for resampling indices. */
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

function resampleMedians(values: readonly number[], rand: () => number): number[] {
  const out = new Array<number>(BOOTSTRAP_RESAMPLES);
  const buf = new Array<number>(values.length);
  for (let b = 0; b < BOOTSTRAP_RESAMPLES; b++) {
    for (let i = 0; i < values.length; i++) buf[i] = values[Math.floor(rand() * values.length)]!;
    out[b] = median(buf);
  }
  return out;
}

export function describe(values: readonly number[]): Stats {
  const n = values.length;
  if (n === 0) throw new Error('no values to describe');
  const mean = values.reduce((a, b) => a + b, 0) / n;
  const stdev = n > 1 ? Math.sqrt(values.reduce((a, v) => a + (v - mean) ** 2, 0) / (n - 1)) : null;
  let ci95: Stats['ci95'] = null;
  if (n >= MIN_N_FOR_CI) {
    const meds = resampleMedians(values, seededRandom(0x5eed)).sort((a, b) => a - b);
    ci95 = { low: quantile(meds, 0.025), high: quantile(meds, 0.975) };
  }
  return {
    n,
    median: median(values),
    mean,
    stdev,
    min: Math.min(...values),
    max: Math.max(...values),
    cv: stdev !== null && mean !== 0 ? stdev / mean : null,
    ci95,
  };
}

/** median(a) / median(b) with a bootstrap interval; the verdict follows the interval, not the medians. */
export function compareMedians(a: readonly number[], b: readonly number[], against: string): Comparison | null {
  // a ratio to zero (or of zeros) says nothing: no comparison rather than Infinity or NaN
  if (median(b) === 0 || median(a) === 0) return null;
  const ratio = median(a) / median(b);
  if (a.length < MIN_N_FOR_CI || b.length < MIN_N_FOR_CI) return { against, ratio, ci95: null, verdict: 'not-enough-data' };
  const rand = seededRandom(0xc0ffee);
  const ma = resampleMedians(a, rand);
  const mb = resampleMedians(b, rand);
  const ratios = ma
    .map((m, i) => m / mb[i]!)
    .filter(Number.isFinite)
    .sort((x, y) => x - y);
  if (ratios.length < BOOTSTRAP_RESAMPLES * 0.99) return { against, ratio, ci95: null, verdict: 'not-enough-data' };
  const ci95 = { low: quantile(ratios, 0.025), high: quantile(ratios, 0.975) };
  const verdict = ci95.low > 1 ? 'higher' : ci95.high < 1 ? 'lower' : 'no-difference-shown';
  return { against, ratio, ci95, verdict };
}

/** Student t quantile (two-sided 95%) for small df; used for paired log-ratio intervals. */
export function t975(df: number): number {
  const table = [12.706, 4.303, 3.182, 2.776, 2.571, 2.447, 2.365, 2.306, 2.262, 2.228, 2.201, 2.179, 2.16, 2.145, 2.131, 2.12, 2.11, 2.101, 2.093, 2.086, 2.08, 2.074, 2.069, 2.064, 2.06, 2.056, 2.052, 2.048, 2.045, 2.042];
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
  const mean = logs.reduce((a, b) => a + b, 0) / n;
  if (n < 3) return { ratio: Math.exp(mean), ci95: null, n };
  const sd = Math.sqrt(logs.reduce((a, v) => a + (v - mean) ** 2, 0) / (n - 1));
  const half = (t975(n - 1) * sd) / Math.sqrt(n);
  return { ratio: Math.exp(mean), ci95: { low: Math.exp(mean - half), high: Math.exp(mean + half) }, n };
}
