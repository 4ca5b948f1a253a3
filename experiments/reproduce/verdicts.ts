// `npm run reproduce -- <write-up>`: each claim's verdict from what was measured, in words.
import { flagName, type Claim } from '../../site/src/lib/claims/schema.ts';
import { VERDICT_LABEL, type Verdict } from '../../site/src/lib/claims/verdicts.ts';
import { decide } from '../../site/src/lib/claims/evaluate.ts';
import { changeText, expectationText } from '../../site/src/lib/claims/words.ts';
import type { CpuFlags } from '../../schema/index.ts';
import { decideInput, PROJECTION_LIMIT, roundsToDecide, type ComparisonState, type Reproduction } from './comparisons.ts';

// ------------------------------------------------------------------ verdicts, in words

export interface ClaimOutcome {
  claim: Claim;
  verdict: Verdict;
  reason: string;
  comparisons: ComparisonState[];
}

/** A claim's verdict on this machine: its comparisons decided as the site decides them (claims/evaluate.ts decide), then its CPU-feature conditions. */
export function claimOutcomes(claims: readonly Claim[], r: Reproduction, cpuFlags: Partial<CpuFlags>): ClaimOutcome[] {
  return claims.map((claim): ClaimOutcome => {
    if (claim.unverified) return { claim, verdict: 'unverified', reason: claim.unverified, comparisons: [] };
    const comparisons = r.states.filter((s) => s.claim === claim);
    const { verdict: v, reason } = decide(comparisons.map((c) => decideInput(c)));
    const lacking = claim.requires?.flags.filter((f) => cpuFlags[f] === false) ?? [];
    if (lacking.length && v !== 'not-measured')
      return { claim, verdict: 'cannot-test', reason: `this machine lacks ${lacking.map(flagName).join(', ')}: ${claim.requires!.why}`, comparisons };
    const hs = claim.hostSpecific;
    if (hs && (v === 'confirmed' || v === 'contradicted')) {
      const present = hs.flags.filter((f) => cpuFlags[f] !== false);
      if (present.length)
        return {
          claim,
          verdict: 'host-specific',
          reason: `${VERDICT_LABEL[v]} here, and this machine has (or may have) ${present.map(flagName).join(', ')}: ${hs.why}`,
          comparisons,
        };
    }
    return { claim, verdict: v, reason, comparisons };
  });
}

const pct = (x: number) => `${Number((x * 100).toPrecision(3))}%`;

/** One comparison in a line: what was expected, what was measured, how sure, and the verdict. */
export function comparisonLine(c: ComparisonState): string {
  const expected = expectationText(c.pairing.test, c.higherIsBetter);
  const share = c.pairing.test.expect === 'share';
  const value = (x: number) => (share ? `${pct(x)} of the second` : changeText(x));
  let measured = 'no value';
  if (c.kind === 'deterministic' && c.ratio !== null) measured = `${Number.isFinite(c.ratio) ? value(c.ratio) : 'against zero'} (exact counts)`;
  else if (c.ratio !== null && c.interval)
    measured = `${value(c.ratio)} (${value(c.interval.low)} to ${value(c.interval.high)}; ${pct(c.interval.confidence)} t interval, alpha ${c.interval.alpha.toPrecision(3)}; ${c.pairs} paired rounds${c.decided ? `, decided at round ${c.round}` : `, undecided at round ${c.round}`})`;
  else if (c.pairs) measured = `${c.pairs} paired rounds`;
  return `${c.pairing.label}: expected ${expected}; measured ${measured} -> ${VERDICT_LABEL[c.verdict]} (${c.reason})${projection(c)}`;
}

/** For a CPU-time comparison left open: how far from deciding it was, in paired rounds at the spread this machine showed. */
function projection(c: ComparisonState): string {
  if (c.decided || c.kind !== 'cpu-time' || !c.interval) return '';
  const n = roundsToDecide(c);
  if (n === null) return '';
  const spread = `the paired log ratios spread by ${pct(c.interval.sdLog)} per round here`;
  return n > PROJECTION_LIMIT
    ? `; ${spread}, and the estimate sits so close to an edge of the expected range that no number of rounds up to ${PROJECTION_LIMIT.toLocaleString('en-US')} would decide it`
    : `; ${spread}: at that spread and mean, an interval at this alpha would decide it after about ${n} paired rounds`;
}

/** The report a reader sees: one block per claim, one line per comparison. */
export function verdictReport(slug: string, host: string, outcomes: readonly ClaimOutcome[]): string[] {
  const lines = [`verdicts of write-up ${slug} on ${host}:`];
  for (const o of outcomes) {
    lines.push(
      `  ${o.claim.id}${o.claim.by === 'ours' ? '' : ` (${o.claim.by})`}: ${VERDICT_LABEL[o.verdict].toUpperCase()}${o.reason ? ` (${o.reason.slice(0, 300)})` : ''}`,
    );
    for (const c of o.comparisons) lines.push(`    - ${comparisonLine(c)}`);
  }
  const counts = new Map<Verdict, number>();
  for (const o of outcomes) counts.set(o.verdict, (counts.get(o.verdict) ?? 0) + 1);
  lines.push(`  ${[...counts].map(([v, n]) => `${n} ${VERDICT_LABEL[v]}`).join(', ')}`);
  return lines;
}
