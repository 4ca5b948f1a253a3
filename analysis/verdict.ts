// Turning the two lines of evidence into verdicts. A ratio is cost(numerator) / cost(denominator) on
// one side (client, server, or both), so > 1 means the numerator costs more.
//
// A claim is one of two kinds:
//   'more': the numerator costs more than the denominator (e.g. "the client pays for the unused share");
//   'same': the two cost the same within ±EQUIVALENCE_MARGIN (e.g. "the server does not pay").
// Line 1, CPU time: an interval of the paired ratio (sequential.ts says at which confidence).
//   more: supported when the interval lies above 1; refuted when it lies at or below 1 + margin
//         (the numerator costs less, or at most a negligible margin more); undecided otherwise.
//   same: supported when the interval lies inside 1 ± margin; refuted when it lies wholly outside;
//         undecided otherwise.
//   A wrong verdict needs an interval that misses the true ratio, so the error rate is the interval's.
// Line 2, instruction counts: deterministic for a build, so no interval; a stated threshold decides.
//   more: supported when the ratio exceeds 1 + INSTRUCTION_THRESHOLD, refuted otherwise;
//   same: supported when the ratio lies inside 1 ± margin, refuted otherwise.
// The overall verdict names the line that decided it; two decided lines that disagree make the claim
// "conflicting" (e.g. a native code path valgrind cannot take), never a silent pick of one.

export type ClaimKind = 'more' | 'same';
export type LineVerdict = 'supported' | 'refuted' | 'undecided' | 'not-measured';
export type Verdict = 'supported' | 'refuted' | 'undecided' | 'conflicting' | 'not-measured';
export type DecidedBy = 'cpu-time' | 'instructions' | 'both' | null;

/** Same-cost claims hold when the whole interval lies within 1 ± this. */
export const EQUIVALENCE_MARGIN = 0.05;
/** An instruction-count difference below this is no difference: deterministic counts still vary by a few
 * hundred instructions with ECDSA nonce and key lengths (far below 0.5% of a handshake). */
export const INSTRUCTION_THRESHOLD = 0.005;

export interface Interval {
  low: number;
  high: number;
}

/** A ratio as a signed percentage, never "-0.0%". */
export function signedPct(ratio: number, digits = 1): string {
  const d = (ratio - 1) * 100;
  const s = Math.abs(d).toFixed(digits);
  if (Number(s) === 0) return `${(0).toFixed(digits)}%`;
  return `${d < 0 ? '-' : '+'}${s}%`;
}
const range = (ci: Interval) => `${signedPct(ci.low)} to ${signedPct(ci.high)}`;

export interface LineResult {
  verdict: LineVerdict;
  /** why, in words, with the numbers */
  why: string;
}

export interface CpuLineResult extends LineResult {
  /** what the interval still needs to reach a verdict (empty once decided) */
  needs: string;
}

export function cpuVerdict(kind: ClaimKind, ci: Interval | null, margin = EQUIVALENCE_MARGIN): CpuLineResult {
  const m = `${(margin * 100).toFixed(0)}%`;
  if (!ci) return { verdict: 'not-measured', why: 'too few paired blocks for an interval', needs: 'at least 3 paired blocks' };
  if (kind === 'more') {
    if (ci.low > 1) return { verdict: 'supported', why: `costs more: ${range(ci)}`, needs: '' };
    if (ci.high <= 1 + margin)
      return { verdict: 'refuted', why: ci.high < 1 ? `costs less: ${range(ci)}` : `any extra cost is below the ${m} margin: ${range(ci)}`, needs: '' };
    return {
      verdict: 'undecided',
      why: `${range(ci)} includes both no difference and more than ${m}`,
      needs: `lower end above 0% (now ${signedPct(ci.low)}) or upper end at most +${m} (now ${signedPct(ci.high)})`,
    };
  }
  if (ci.low >= 1 - margin && ci.high <= 1 + margin) return { verdict: 'supported', why: `${range(ci)}, inside ±${m}`, needs: '' };
  if (ci.low > 1 + margin || ci.high < 1 - margin) return { verdict: 'refuted', why: `${range(ci)}, wholly outside ±${m}`, needs: '' };
  return {
    verdict: 'undecided',
    why: `${range(ci)} straddles the ±${m} margin`,
    needs: `both ends within ±${m} (now ${range(ci)}), or the whole interval outside it`,
  };
}

export function instructionVerdict(kind: ClaimKind, ratio: number | null, margin = EQUIVALENCE_MARGIN, threshold = INSTRUCTION_THRESHOLD): LineResult {
  if (ratio === null) return { verdict: 'not-measured', why: 'no instruction count' };
  const m = `${(margin * 100).toFixed(0)}%`;
  if (kind === 'more') {
    const t = `+${(threshold * 100).toFixed(1)}%`;
    return ratio > 1 + threshold
      ? { verdict: 'supported', why: `${signedPct(ratio)} instructions, above the ${t} threshold` }
      : { verdict: 'refuted', why: `${signedPct(ratio)} instructions, not above the ${t} threshold` };
  }
  return Math.abs(ratio - 1) <= margin
    ? { verdict: 'supported', why: `${signedPct(ratio)} instructions, inside ±${m}` }
    : { verdict: 'refuted', why: `${signedPct(ratio)} instructions, outside ±${m}` };
}

export function combine(cpu: LineResult, instructions: LineResult): { verdict: Verdict; decidedBy: DecidedBy; why: string } {
  const decided = (v: LineVerdict) => v === 'supported' || v === 'refuted';
  const c = decided(cpu.verdict);
  const i = decided(instructions.verdict);
  if (c && i && cpu.verdict !== instructions.verdict)
    return {
      verdict: 'conflicting',
      decidedBy: null,
      why: `the lines disagree: CPU time ${cpu.verdict} (${cpu.why}), instructions ${instructions.verdict} (${instructions.why})`,
    };
  if (c && i) return { verdict: cpu.verdict as Verdict, decidedBy: 'both', why: `CPU time: ${cpu.why}; instructions: ${instructions.why}` };
  if (c) return { verdict: cpu.verdict as Verdict, decidedBy: 'cpu-time', why: `CPU time: ${cpu.why}; instructions: ${instructions.why}` };
  if (i)
    return {
      verdict: instructions.verdict as Verdict,
      decidedBy: 'instructions',
      why: `by instructions: ${instructions.why}; CPU time ${cpu.verdict}: ${cpu.why}`,
    };
  if (cpu.verdict === 'not-measured' && instructions.verdict === 'not-measured')
    return { verdict: 'not-measured', decidedBy: null, why: 'neither line was measured' };
  return { verdict: 'undecided', decidedBy: null, why: `CPU time: ${cpu.why}; instructions: ${instructions.why}` };
}
