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

export function ciText(stats: Stats | null): string {
  if (!stats) return NOT_MEASURED;
  if (!stats.ci95) return `no interval (n=${stats.n})`;
  return `${num(stats.ci95.low)} – ${num(stats.ci95.high)}`;
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
    interval: c.ci95 ? `${pct(c.ci95.low)} … ${pct(c.ci95.high)}` : 'no interval',
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

/** The schema's interval field is `ci95`: the label names that definition, it is not a measurement. */
export const CI_LABEL = '95% CI';
export const CI_LONG = '95% confidence interval';
