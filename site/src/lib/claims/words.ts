// A claim test's expectation and a comparison's measured result in words, exactly as they are decided, for the
// write-up pages and the reproduce command.
import { coverageText, fractionText } from '../format.ts';
import type { ClaimTest } from './schema.ts';
import { band } from './judge.ts';
import type { ComparisonResult } from './compare.ts';

/** A ratio as a signed change with up to three significant digits: 1.05 -> "+5%", 1/1.05 -> "−4.76%". */
export function changeText(ratio: number): string {
  const d = (ratio - 1) * 100;
  const mag = Number(Math.abs(d).toPrecision(3));
  return `${d < 0 ? '−' : '+'}${mag.toLocaleString('en-US')}%`;
}

/**
 * What a test expects, in words, exactly as it is decided: thresholds are symmetric in ratio, so "lower" with
 * a 5% threshold means below 1/1.05 of the second ("lower by more than 4.76%"). Large thresholds read as
 * factors ("more than 2 times the second", "less than 20% of the second"). `better`/`worse` need the metric's
 * direction; without data they are stated as written.
 */
export function expectationText(test: ClaimTest, higherIsBetter: boolean | null = null): string {
  const pct = fractionText;
  const times = (x: number) => Number(x.toPrecision(3)).toLocaleString('en-US');
  if ((test.expect === 'better' || test.expect === 'worse') && higherIsBetter === null) return `${test.expect}, by a threshold of ${pct(test.threshold!)}`;
  const [lo, hi] = band(test, higherIsBetter ?? true);
  const which = test.expect === 'better' || test.expect === 'worse' ? `${test.expect} (${hi === Infinity ? 'higher' : 'lower'})` : null;
  switch (test.expect === 'better' || test.expect === 'worse' ? (hi === Infinity ? 'higher' : 'lower') : test.expect) {
    case 'higher':
      return `${which ?? 'higher'}: ${lo >= 1.5 ? `more than ${times(lo)} times the second` : `by more than ${pct(lo - 1)}`}`;
    case 'lower':
      return `${which ?? 'lower'}: ${hi <= 2 / 3 ? `less than ${pct(hi)} of the second` : `by more than ${pct(1 - hi)}`}`;
    case 'same':
      return `the same: between ${changeText(lo)} and ${changeText(hi)}`;
    case 'between':
      return `a change between ${changeText(lo)} and ${changeText(hi)}`;
    case 'magnitude': {
      const v = test.value!;
      const size = (x: number) => (x >= 1.5 ? `${times(x)} times the second` : x <= 2 / 3 ? `${pct(x)} of the second` : changeText(x));
      return `as reported, ${size(v)}, within ${pct(test.tolerance!)} either way: from ${size(lo)} to ${size(hi)}`;
    }
    default:
      return `a share between ${pct(lo)} and ${pct(hi)} of the second`;
  }
}

/**
 * The first build's or series' change in words beside its sign (issue 28: never the sign alone): "lower
 * (worse)", "higher (better)"; "" where the data shows no change (the interval spans none) or the metric has
 * no better direction.
 */
export function changeWords(c: Pick<ComparisonResult, 'ratio' | 'interval' | 'pairing' | 'higherIsBetter'>): string {
  if (c.ratio === null || c.ratio === 1) return '';
  const shown = c.pairing === 'deterministic' || (c.interval !== null && (c.interval.low > 1 || c.interval.high < 1));
  if (!shown) return '';
  const dir = c.ratio > 1 ? 'higher' : 'lower';
  return c.higherIsBetter === null ? dir : `${dir} (${c.ratio > 1 === c.higherIsBetter ? 'better' : 'worse'})`;
}

/** A comparison's measured result in words and numbers from the data, e.g. "+84.2% (+80.1% to +88%; covers 96.8%; 8 paired rounds)". */
export function resultText(c: ComparisonResult): string {
  const share = c.test.expect === 'share';
  const value = (r: number) => (share ? `${Number((r * 100).toPrecision(3)).toLocaleString('en-US')}%` : changeText(r));
  if (c.zero === 'both') return 'both zero (exact counts)';
  if (c.zero === 'b') return 'a positive count against zero (exact counts)';
  if (c.zero === 'a') return 'zero against a positive count (exact counts)';
  if (c.ratio === null) return '';
  const of = share ? ' of the second' : ` ${changeWords(c)}`.trimEnd();
  if (c.pairing === 'deterministic') return `${value(c.ratio)}${of} (exact counts)`;
  const iv = c.interval;
  if (!iv) return `${value(c.ratio)}${of}`;
  return `${value(c.ratio)}${of} (${value(iv.low)} to ${value(iv.high)}; ${iv.kind === 'range' ? 'range, ' : ''}covers ${coverageText(iv.coverage)}; ${c.pairs} paired rounds)`;
}
