// Turning paired measurements into verdicts. A ratio is cost(numerator)/cost(denominator) in CPU time
// per handshake, so > 1 means the numerator is slower. Every verdict follows the 95% interval of the
// paired ratio, never the point estimate.
import type { HypothesisOutcome, Verdict } from '../../schema/index.ts';
import { pairedRatio } from '../stats.ts';

/** H2/H3 call two configurations equivalent when the whole interval lies within 1 ± this. */
export const EQUIVALENCE_MARGIN = 0.05;

export interface Interval {
  low: number;
  high: number;
}

const within = (ci: Interval, m: number) => ci.low >= 1 - m && ci.high <= 1 + m;
const outside = (ci: Interval, m: number) => ci.low > 1 + m || ci.high < 1 - m;

/** "The numerator is slower": shown when the interval is above 1; refuted when it is below 1 or so
 * close to 1 that any slowdown is smaller than the margin. */
export function slowerVerdict(ci: Interval | null, margin = EQUIVALENCE_MARGIN): { verdict: Verdict; why: string } {
  if (!ci) return { verdict: 'not-measured', why: 'too few paired blocks for an interval' };
  const pct = (x: number) => `${((x - 1) * 100).toFixed(1)}%`;
  if (ci.low > 1) return { verdict: 'supported', why: `slower by ${pct(ci.low)} to ${pct(ci.high)} (95% CI excludes no difference)` };
  if (ci.high < 1) return { verdict: 'refuted', why: `faster, not slower: ${pct(ci.low)} to ${pct(ci.high)}` };
  if (within(ci, margin)) return { verdict: 'refuted', why: `any difference is within ±${margin * 100}%: ${pct(ci.low)} to ${pct(ci.high)}` };
  return { verdict: 'not-shown', why: `interval ${pct(ci.low)} to ${pct(ci.high)} contains no difference but is too wide to rule one out` };
}

/** "The two cost the same": shown when the whole interval lies within the margin. */
export function equivalentVerdict(ci: Interval | null, margin = EQUIVALENCE_MARGIN): { verdict: Verdict; why: string } {
  if (!ci) return { verdict: 'not-measured', why: 'too few paired blocks for an interval' };
  const pct = (x: number) => `${((x - 1) * 100).toFixed(1)}%`;
  if (within(ci, margin)) return { verdict: 'supported', why: `difference ${pct(ci.low)} to ${pct(ci.high)}, inside ±${margin * 100}%` };
  if (outside(ci, margin)) return { verdict: 'refuted', why: `difference ${pct(ci.low)} to ${pct(ci.high)}, entirely outside ±${margin * 100}%` };
  return { verdict: 'not-shown', why: `interval ${pct(ci.low)} to ${pct(ci.high)} is not inside ±${margin * 100}%, nor outside it` };
}

/** H4: the client pays more, the server does not. */
export function clientOnlyVerdict(client: Interval | null, server: Interval | null, margin = EQUIVALENCE_MARGIN): { verdict: Verdict; why: string } {
  const c = slowerVerdict(client, margin);
  const s = equivalentVerdict(server, margin);
  if (c.verdict === 'not-measured' || s.verdict === 'not-measured') return { verdict: 'not-measured', why: `client: ${c.why}; server: ${s.why}` };
  if (c.verdict === 'supported' && s.verdict === 'supported') return { verdict: 'supported', why: `client ${c.why}; server ${s.why}` };
  if (c.verdict === 'refuted' || s.verdict === 'refuted') return { verdict: 'refuted', why: `client: ${c.why}; server: ${s.why}` };
  return { verdict: 'not-shown', why: `client: ${c.why}; server: ${s.why}` };
}

export interface PairedBlocks {
  /** per round: cost per handshake of the numerator and the denominator, measured next to each other */
  numerator: number[];
  denominator: number[];
}

export function sideRatio(p: PairedBlocks): { ratio: number | null; ci95: Interval | null; pairs: number } {
  const ratios = p.numerator.map((n, i) => n / p.denominator[i]!).filter((r) => Number.isFinite(r) && r > 0);
  if (ratios.length === 0) return { ratio: null, ci95: null, pairs: 0 };
  const r = pairedRatio(ratios);
  return { ratio: r.ratio, ci95: r.ci95, pairs: r.n };
}

export function decide(kind: HypothesisOutcome['kind'], sides: HypothesisOutcome['sides']): { verdict: Verdict; why: string } {
  const ci = (side: string) => sides.find((s) => s.side === side)?.ci95 ?? null;
  if (kind === 'client-only') return clientOnlyVerdict(ci('client'), ci('server'));
  if (kind === 'slower') return slowerVerdict(ci('both'));
  return equivalentVerdict(ci('both'));
}
