// The verdict vocabulary: what a comparison and a claim can be found to be, the labels and meanings the pages
// show, the direction of a quoted size, and a judged interval in words.
import type { ClaimTest } from './schema.ts';

/**
 * What one comparison can say. Directions, ranges and equivalences (our claims, and a study's claims that state
 * no size) are confirmed or contradicted; a study's quoted size (`magnitude`) is reproduced, or smaller or
 * larger than reported, and its direction is stated apart (Direction).
 */
export type TestVerdict = 'confirmed' | 'reproduced' | 'smaller-than-reported' | 'larger-than-reported' | 'contradicted' | 'not-shown' | 'not-measured';
export type Verdict = TestVerdict | 'host-specific' | 'cannot-test' | 'unverified';
/** the verdicts that decide a claim one way or the other */
export const DECIDED: readonly TestVerdict[] = ['confirmed', 'reproduced', 'smaller-than-reported', 'larger-than-reported', 'contradicted'];

export const VERDICT_LABEL: Record<Verdict, string> = {
  confirmed: 'confirmed',
  reproduced: 'reproduced',
  'smaller-than-reported': 'smaller than reported',
  'larger-than-reported': 'larger than reported',
  contradicted: 'contradicted',
  'not-shown': 'not shown',
  'host-specific': 'host-specific',
  'cannot-test': 'cannot be tested on this machine',
  'not-measured': 'not measured yet',
  unverified: 'unverified',
};

export const VERDICT_MEANING: Record<Verdict, string> = {
  confirmed: 'every measured comparison that decides the claim lies entirely on the claimed side of its practical threshold',
  reproduced: 'every measured comparison that decides the claim lies inside the tolerance around the size the study reports (the same tolerance either way)',
  'smaller-than-reported':
    'a measured comparison lies entirely short of the tolerance around the size the study reports, towards no change or beyond it; whether the change goes the reported way is stated apart',
  'larger-than-reported': 'a measured comparison lies entirely beyond the tolerance around the size the study reports, away from no change',
  contradicted:
    "a measured comparison lies entirely on the other side of its threshold: the data show the claim does not hold as stated (a study's quoted size that differs is smaller or larger than reported instead)",
  'not-shown': 'the data do not decide: an interval reaches both sides of the threshold, covers too little, or the figures come from different runs',
  'host-specific': 'the result depends on a CPU feature of the host that measured it (or the hosts disagree): it may not hold elsewhere',
  'cannot-test':
    'the machine lacks a CPU feature the experiment needs to test the claim (named in the reason): its figures are shown, but they cannot decide it',
  'not-measured': 'none of the comparisons that decide the claim has been measured yet (a claim decided on some of them names those not measured yet)',
  unverified: 'our harness has no experiment that can test this claim; the reason is given',
};

/** Whether a comparison of a quoted size goes the way the study reports: a rise or a fall, or no change shown either way. */
export type Direction = 'as-reported' | 'opposite' | 'unclear';
export const DIRECTION_TEXT: Record<Direction, string> = {
  'as-reported': 'in the direction reported',
  opposite: 'in the opposite direction',
  unclear: 'no direction shown (the interval includes no change)',
};

const PLACE_WORDS: Record<Exclude<TestVerdict, 'not-measured'>, string> = {
  confirmed: 'inside the expected range',
  contradicted: 'entirely outside the expected range',
  'not-shown': 'both inside and outside the expected range',
  reproduced: 'inside the tolerance around the reported size',
  'smaller-than-reported': 'entirely short of the tolerance around the reported size',
  'larger-than-reported': 'entirely beyond the tolerance around the reported size',
};

/** A judged interval (or exact count, low = high) in the words the page and the reproduce command use. */
export function judgedWords(test: ClaimTest, verdict: Exclude<TestVerdict, 'not-measured'>, direction: Direction | null, exact: boolean): string {
  const where = exact
    ? verdict === 'confirmed'
      ? 'inside the expected range'
      : verdict === 'contradicted'
        ? 'outside the expected range'
        : PLACE_WORDS[verdict].replace('entirely ', '')
    : verdict === 'not-shown' && test.expect === 'magnitude'
      ? 'both inside and outside the tolerance around the reported size'
      : PLACE_WORDS[verdict];
  const words = exact ? `exact counts, ${where}` : `the interval ${verdict === 'not-shown' ? 'reaches' : 'lies'} ${where}`;
  return direction ? `${words}, ${DIRECTION_TEXT[direction]}` : words;
}
