// The statistics of judging one comparison: a test's acceptance band in ratio space, where an interval (or an
// exact ratio) lies against it, and whether two figures may be compared at all. Pure functions.
import type { SummaryEntry } from '../../../../schema/index.ts';
import type { ClaimTest } from './schema.ts';
import type { Direction, TestVerdict } from './verdicts.ts';

/** The acceptance band of a test, in ratio space, given whether higher values are better. */
export function band(test: ClaimTest, higherIsBetter: boolean): [number, number] {
  const t = test.threshold ?? 0;
  const up: [number, number] = [1 + t, Infinity];
  const down: [number, number] = [0, 1 / (1 + t)];
  switch (test.expect) {
    case 'higher':
      return up;
    case 'lower':
      return down;
    case 'better':
      return higherIsBetter ? up : down;
    case 'worse':
      return higherIsBetter ? down : up;
    case 'same':
      return [1 / (1 + t), 1 + t];
    case 'between':
      return [1 + test.range![0], 1 + test.range![1]];
    case 'share':
      return [test.range![0], test.range![1]];
    case 'magnitude':
      return [test.value! / (1 + test.tolerance!), test.value! * (1 + test.tolerance!)];
  }
}

/** Where an interval [low, high] lies against a band: inside it, entirely outside it, or across its edge. */
export function placeInterval(low: number, high: number, [lo, hi]: [number, number]): 'confirmed' | 'contradicted' | 'not-shown' {
  if (low >= lo && high <= hi) return 'confirmed';
  if (high < lo || low > hi) return 'contradicted';
  return 'not-shown';
}

/**
 * A placement outside a quoted size's band in the study's terms: short of it (towards no change, or past it)
 * is smaller than reported, beyond it larger; inside it, reproduced.
 */
export function magnitudeVerdict(place: 'confirmed' | 'contradicted' | 'not-shown', high: number, [lo]: [number, number], value: number): TestVerdict {
  if (place === 'confirmed') return 'reproduced';
  if (place === 'not-shown') return 'not-shown';
  const below = high < lo;
  // for a reported rise (value > 1) below the band is smaller; for a reported fall, above it (nearer 1) is
  return below === value > 1 ? 'smaller-than-reported' : 'larger-than-reported';
}

/** The verdict of a test's interval [low, high] (low = high for exact counts): a quoted size's in the study's terms, with its direction. */
export function judge(
  test: ClaimTest,
  low: number,
  high: number,
  higherIsBetter: boolean,
): { verdict: Exclude<TestVerdict, 'not-measured'>; direction: Direction | null } {
  const bandOf = band(test, higherIsBetter);
  const at = placeInterval(low, high, bandOf);
  if (test.expect !== 'magnitude') return { verdict: at, direction: null };
  return { verdict: magnitudeVerdict(at, high, bandOf, test.value!) as Exclude<TestVerdict, 'not-measured'>, direction: directionOf(low, high, test.value!) };
}

/** The direction of a measured change [low, high] against a reported ratio: both above 1, both below, or unclear. */
export function directionOf(low: number, high: number, value: number): Direction {
  if (low > 1) return value > 1 ? 'as-reported' : 'opposite';
  if (high < 1) return value < 1 ? 'as-reported' : 'opposite';
  return 'unclear';
}

/**
 * Whether two figures may be compared: both comparable across versions, in one comparability group, or
 * the same series of the same build (a figure with itself over time).
 */
export function comparable(a: SummaryEntry['comparability'], b: SummaryEntry['comparability'], sameSeriesOfSameBuild: boolean): boolean {
  return (a.acrossVersions && b.acrossVersions) || (a.group !== undefined && a.group === b.group) || sameSeriesOfSameBuild;
}

/** The ratio of two exact counts (a zero side named, both zero = 1). */
export function exactRatio(a: number, b: number): { ratio: number; zero: 'a' | 'b' | 'both' | null } {
  const zero = a === 0 && b === 0 ? 'both' : b === 0 ? 'b' : a === 0 ? 'a' : null;
  return { ratio: zero === 'both' ? 1 : zero === 'b' ? Infinity : a / b, zero };
}
