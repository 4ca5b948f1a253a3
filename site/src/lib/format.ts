// Formatting shared by pages and the client scripts. No numbers are invented here: a missing value
// is always the words "not measured", never 0.
import type { Comparison, Stats } from '../../../schema/index.ts';

export const NOT_MEASURED = 'not measured';

/** Up to 4 significant digits, grouped thousands; exact enough to read, short enough to scan. */
export function num(v: number | null | undefined): string {
  if (v === null || v === undefined || !Number.isFinite(v)) return NOT_MEASURED;
  const abs = Math.abs(v);
  if (abs >= 1000) return Math.round(v).toLocaleString('en-US');
  if (abs === 0) return '0';
  return Number(v.toPrecision(4)).toLocaleString('en-US', { maximumFractionDigits: 6 });
}

export function withUnit(v: number | null | undefined, unit: string): string {
  const s = num(v);
  return s === NOT_MEASURED ? s : `${s} ${unit}`;
}

/** Coverage as a reader sees it: 0.96875 -> "96.9%". */
export function coverageText(coverage: number): string {
  return `${(Math.floor(coverage * 1000) / 10).toFixed(1)}%`;
}

/** The interval of a median with what it is: "12 – 15 (96.9% interval)" or "12 – 15 (range, covers 75.0%)". */
export function ciText(stats: Stats | null): string {
  if (!stats) return NOT_MEASURED;
  if (stats.deterministic) return 'deterministic';
  const iv = stats.interval;
  if (!iv) return `no interval (n=${stats.n})`;
  const what = iv.kind === 'range' ? `range, covers ${coverageText(iv.coverage)}` : `${coverageText(iv.coverage)} interval`;
  return `${num(iv.low)} – ${num(iv.high)} (${what})`;
}

/** A ratio as a signed percentage change: 0.93 -> "−7.0%". */
export function pct(ratio: number): string {
  const d = (ratio - 1) * 100;
  const s = Math.abs(d) < 0.05 ? '0.0' : Math.abs(d).toFixed(1);
  return `${d < 0 && s !== '0.0' ? '−' : d > 0 && s !== '0.0' ? '+' : '±'}${s}%`;
}

export const VERDICT_TEXT: Record<Comparison['verdict'], string> = {
  higher: 'higher',
  lower: 'lower',
  'no-difference-shown': 'no difference shown',
  'not-enough-data': 'not enough data',
  'within-threshold': 'unchanged (within threshold)',
};

/** Whether "higher"/"lower" is good news depends on the metric. */
export function verdictTone(c: Comparison, higherIsBetter: boolean): 'better' | 'worse' | 'neutral' {
  if (c.verdict === 'higher') return higherIsBetter ? 'better' : 'worse';
  if (c.verdict === 'lower') return higherIsBetter ? 'worse' : 'better';
  return 'neutral';
}

export function comparisonText(c: Comparison | null): { change: string; interval: string; verdict: string } {
  if (!c) return { change: '—', interval: '—', verdict: 'no comparison' };
  return {
    change: pct(c.ratio),
    interval: c.interval
      ? `${pct(c.interval.low)} … ${pct(c.interval.high)} (${c.interval.kind === 'range' ? 'range, ' : ''}${coverageText(c.interval.coverage)}, paired)`
      : c.pairing === 'deterministic'
        ? 'exact (deterministic)'
        : 'no interval',
    verdict: VERDICT_TEXT[c.verdict],
  };
}

export function bytes(n: number): string {
  if (n >= 1024 * 1024 * 1024) return `${(n / 1024 ** 3).toFixed(1)} GiB`;
  if (n >= 1024 * 1024) return `${(n / 1024 ** 2).toFixed(1)} MiB`;
  if (n >= 1024) return `${(n / 1024).toFixed(1)} KiB`;
  return `${n} B`;
}

export function date(iso: string): string {
  const d = new Date(iso);
  return Number.isNaN(d.getTime()) ? iso : `${d.toISOString().slice(0, 16).replace('T', ' ')} UTC`;
}

/** Intervals carry their own coverage (below 95% when n is small): the label does not claim 95%. */
export const CI_LABEL = 'interval of the median';
export const CI_LONG = 'distribution-free interval of the median, with its exact coverage';
