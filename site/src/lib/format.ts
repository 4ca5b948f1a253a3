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

// ------------------------------------------------------------------ human units (home and compare)

/** Units as a reader writes them. */
export const UNIT_TEXT: Record<string, string> = {
  'bytes/s': 'bytes/s',
  'ops/s': 'operations/s',
  'handshakes/s': 'handshakes/s',
  'connections/s': 'connections/s',
  'us/op': 'µs per operation',
  'us/handshake': 'µs per handshake',
  instructions: 'instructions',
  bytes: 'bytes',
  count: 'count',
};

/** One scale for a unit at a magnitude: value / factor, then the suffix ("1.55 GB/s", "812 µs", "59.8 KiB"). */
export interface UnitScale {
  factor: number;
  suffix: string;
}

/** The scale a value of this magnitude reads best in; axes pass their largest value so every tick shares one scale. */
export function unitScale(unit: string, magnitude: number): UnitScale {
  const m = Math.abs(magnitude);
  switch (unit) {
    case 'bytes/s':
      return m >= 1e9 ? { factor: 1e9, suffix: 'GB/s' } : m >= 1e6 ? { factor: 1e6, suffix: 'MB/s' } : m >= 1e3 ? { factor: 1e3, suffix: 'kB/s' } : { factor: 1, suffix: 'B/s' };
    case 'bytes':
      // exact bytes while they are few enough to read (a ClientHello's 1,216 bytes matter to the byte)
      return m >= 1024 ** 2 * 10 ? { factor: 1024 ** 2, suffix: 'MiB' } : m >= 10_000 ? { factor: 1024, suffix: 'KiB' } : { factor: 1, suffix: 'B' };
    case 'us/op':
    case 'us/handshake':
      return m >= 10_000 ? { factor: 1000, suffix: 'ms' } : m > 0 && m < 1 ? { factor: 0.001, suffix: 'ns' } : { factor: 1, suffix: 'µs' };
    case 'instructions':
      return m >= 1e9 ? { factor: 1e9, suffix: 'billion instructions' } : m >= 1e6 ? { factor: 1e6, suffix: 'million instructions' } : { factor: 1, suffix: 'instructions' };
    case 'ops/s':
      return m >= 1e6 ? { factor: 1e6, suffix: 'million ops/s' } : { factor: 1, suffix: 'ops/s' };
    case 'handshakes/s':
    case 'connections/s':
      return { factor: 1, suffix: `${unit.split('/')[0]}/s` };
    default:
      return { factor: 1, suffix: UNIT_TEXT[unit] ?? unit };
  }
}

/** Three significant figures, thousands grouped, no exponent: 1553.6 -> "1,554", 0.012345 -> "0.0123". */
export function sig(v: number, digits = 3): string {
  if (!Number.isFinite(v)) return NOT_MEASURED;
  if (v === 0) return '0';
  const abs = Math.abs(v);
  // integers of more digits than asked are shown whole: rounding 2,345 to 2,350 would hide a measured digit
  const rounded = abs >= 10 ** digits ? Math.round(v) : Number(v.toPrecision(digits));
  return rounded.toLocaleString('en-US', { maximumFractionDigits: 20 });
}

/** A measured value with its unit in human form ("1.55 GB/s", "812 µs", "59.8 KiB"); missing values are words. */
export function valueText(v: number | null | undefined, unit: string, scale?: UnitScale): string {
  if (v === null || v === undefined || !Number.isFinite(v)) return NOT_MEASURED;
  const s = scale ?? unitScale(unit, v);
  return `${sig(v / s.factor)} ${s.suffix}`;
}

/** An interval in the value's own scale: "1.52 – 1.58 GB/s". */
export function rangeText(low: number, high: number, unit: string): string {
  const s = unitScale(unit, Math.max(Math.abs(low), Math.abs(high)));
  return `${sig(low / s.factor)} – ${sig(high / s.factor)} ${s.suffix}`;
}

/**
 * A series label in two parts: what is measured, and the configuration ("...; TLS 1.3 ecdsa-p256 groups
 * X25519, new"). Splits at the first semicolon outside parentheses, so "(valgrind callgrind, fixed-seed
 * RNG; valgrind hides ...)" stays whole.
 */
export function labelParts(label: string): { what: string; config: string } {
  let depth = 0;
  for (let i = 0; i < label.length; i++) {
    const c = label[i];
    if (c === '(') depth++;
    else if (c === ')') depth = Math.max(0, depth - 1);
    else if (c === ';' && depth === 0) return { what: label.slice(0, i).trim(), config: label.slice(i + 1).trim() };
  }
  return { what: label.trim(), config: '' };
}

/** A change as a tick label: whole percents where they are whole ("−30%"), else one decimal. */
export function pctTick(t: number): string {
  const d = (t - 1) * 100;
  if (Math.abs(d) < 1e-9) return '0%';
  const whole = Math.abs(d - Math.round(d)) < 1e-6;
  return `${d < 0 ? '−' : '+'}${whole ? Math.abs(Math.round(d)) : Math.abs(d).toFixed(1)}%`;
}
