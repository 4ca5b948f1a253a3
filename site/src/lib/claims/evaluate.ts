// A claim's verdict from the data: its comparisons decided per host, the hosts' outcomes combined, and the tally
// of a write-up's verdicts. Pure functions: no file access here.
import { flagName, type Claim, type WriteupSeries } from './schema.ts';
import { DECIDED, type TestVerdict, type Verdict } from './verdicts.ts';
import { compare, pairings, type ClaimData, type ComparisonResult, type Pairing } from './compare.ts';

// Claims of the write-ups and their verdicts, computed from the data at build time.
//
// A claim is one sentence (ours, or a named study's, quoted as theirs) with the comparisons that test it:
// a series of summary.json on two builds, or two series on the same build, an expected direction (or
// equivalence, or a range) and a practical threshold; or, for a study's claim, the magnitude the study
// quotes with a tolerance the same in both directions. Every comparison stays inside one run: the two
// entries must come from the same run (where summary.json took them from two, or has no entry for one
// side, a run behind it that measured both is used instead), their rounds are paired as analysis/stats.ts
// pairs them, and a verdict needs an interval covering at least summary.statistics.minCoverageForVerdict.
// Deterministic metrics (instruction counts, bytes) compare exactly. A claim is decided by its deciding
// tests (role: decides) on the comparisons that were measured; supporting tests are shown beside it.

export interface HostOutcome {
  host: string;
  verdict: Exclude<Verdict, 'unverified'>;
  /** for host-specific: what the data say on this host */
  underlying: TestVerdict | null;
  reason: string;
  /** every comparison, deciding and supporting (c.test.role) */
  comparisons: ComparisonResult[];
}

export interface ClaimResult {
  claim: Claim;
  verdict: Verdict;
  reason: string;
  hosts: HostOutcome[];
  /** every comparison, for hosts without data too (verdict not-measured) */
  pairings: Pairing[];
}

/**
 * One host's verdict from its comparisons. Only deciding tests count (role: decides); supporting ones are
 * shown beside the verdict. A contradiction, or a size smaller or larger than reported, on any measured
 * comparison decides. A test over several builds is decided on the builds measured, naming the others; a
 * test with no measured comparison at all leaves the claim "not measured" (a claim of several parts is not
 * confirmed on some of them). Then indecision, then confirmation (reproduction where a size was quoted).
 */
export function decide(comparisons: readonly Pick<ComparisonResult, 'test' | 'verdict' | 'reason' | 'missing' | 'seriesLabel' | 'label'>[]): {
  verdict: TestVerdict;
  reason: string;
} {
  const deciding = comparisons.filter((c) => c.test.role !== 'supports');
  const measured = deciding.filter((c) => c.verdict !== 'not-measured');
  const pending = deciding.filter((c) => c.verdict === 'not-measured');
  if (measured.length === 0) return { verdict: 'not-measured', reason: pending[0]?.reason ?? 'nothing that decides this claim has been measured yet' };
  // name what is missing rather than let it hide what was decided: a build where the test is per build, else the series and builds
  const missingText = (cs: typeof comparisons) => {
    const perBuild = cs.every((c) => Array.isArray(c.test.series));
    const what = [...new Set(cs.map((c) => (perBuild ? c.missing.join(' and ') : `${c.seriesLabel} on ${c.missing.join(' and ')}`)))];
    return perBuild ? `${what.join(', ')} not measured yet` : `not measured yet: ${what.join(', ')}`;
  };
  const some = (v: TestVerdict) => measured.filter((c) => c.verdict === v);
  const smaller = some('smaller-than-reported');
  const larger = some('larger-than-reported');
  const unmeasuredTests = [...new Set(pending.map((c) => c.test))].filter((t) => measured.every((c) => c.test !== t));
  let verdict: TestVerdict;
  let reason: string | undefined;
  if (some('contradicted').length) verdict = 'contradicted';
  else if (smaller.length && larger.length) {
    // the reported size is missed both ways: no single verdict says that, the comparisons do
    const name = (c: (typeof comparisons)[number]) => (Array.isArray(c.test.series) ? c.label : `${c.seriesLabel}, ${c.label}`);
    verdict = 'not-shown';
    reason = `the size differs from the report both ways: smaller than reported on ${smaller.map(name).join('; ')}, larger on ${larger.map(name).join('; ')}`;
  } else if (smaller.length) verdict = 'smaller-than-reported';
  else if (larger.length) verdict = 'larger-than-reported';
  else if (unmeasuredTests.length) {
    const part = pending.filter((c) => unmeasuredTests.includes(c.test));
    return {
      verdict: 'not-measured',
      reason: `${missingText(part)}; the other comparisons are shown, but a part of the claim without any measured comparison leaves it open`,
    };
  } else if (some('not-shown').length) verdict = 'not-shown';
  else if (some('reproduced').length) verdict = 'reproduced';
  else verdict = 'confirmed';
  reason ??= measured.find((c) => c.verdict === verdict)!.reason;
  if (pending.length) reason += `; decided on ${measured.length} of ${deciding.length} comparisons; ${missingText(pending)}`;
  return { verdict, reason };
}

const isDecided = (v: Verdict | null): boolean => v !== null && (DECIDED as readonly Verdict[]).includes(v);

/** The verdict of one claim from the data: per host, then overall. */
export function evaluateClaim(claim: Claim, series: readonly WriteupSeries[], data: ClaimData): ClaimResult {
  if (claim.unverified) return { claim, verdict: 'unverified', reason: claim.unverified, hosts: [], pairings: [] };
  const all = claim.tests.flatMap((t) => pairings(t, series));
  const summary = data.summary;
  const keys = new Set(all.filter((p) => p.test.role !== 'supports').flatMap((p) => [p.a.key, p.b.key]));
  const hosts = summary ? [...new Set(summary.entries.filter((e) => keys.has(e.key)).map((e) => e.host))].sort() : [];
  if (!summary || hosts.length === 0)
    return { claim, verdict: 'not-measured', reason: 'none of the series this claim is decided on has been measured yet', hosts: [], pairings: all };
  const minCoverage = summary.statistics.minCoverageForVerdict;
  const outcomes = hosts.map((host): HostOutcome => {
    const comparisons = all.map((p) => compare(p, host, data, minCoverage));
    const { verdict: v, reason } = decide(comparisons);
    const lacking = claim.requires?.flags.filter((f) => summary.hosts.find((h) => h.id === host)?.cpuFlags[f] === false) ?? [];
    if (lacking.length && v !== 'not-measured')
      return {
        host,
        verdict: 'cannot-test',
        underlying: null,
        reason: `this machine lacks ${lacking.map(flagName).join(', ')}: ${claim.requires!.why}`,
        comparisons,
      };
    const hs = claim.hostSpecific;
    if (hs && isDecided(v)) {
      const flags = summary.hosts.find((h) => h.id === host)?.cpuFlags ?? {};
      const present = hs.flags.filter((f) => flags[f] === true);
      const unknown = hs.flags.filter((f) => flags[f] === undefined);
      if (present.length || unknown.length) {
        const why = present.length
          ? `this host has ${present.map(flagName).join(', ')}`
          : `the host record does not say whether the CPU has ${unknown.map(flagName).join(', ')}`;
        return { host, verdict: 'host-specific', underlying: v, reason: why, comparisons };
      }
      return {
        host,
        verdict: v,
        underlying: null,
        reason: `this host lacks ${hs.flags.map(flagName).join(', ')}, so the result is for the generic code path`,
        comparisons,
      };
    }
    return { host, verdict: v, underlying: null, reason, comparisons };
  });
  if (outcomes.length === 1) return { claim, verdict: outcomes[0]!.verdict, reason: outcomes[0]!.reason, hosts: outcomes, pairings: all };
  // several hosts: those with a decision must agree, else the result depends on the host
  const decided = outcomes.filter((o) => isDecided(o.verdict) || o.verdict === 'host-specific');
  const kinds = new Set(decided.map((o) => (o.verdict === 'host-specific' ? `h:${o.underlying}` : o.verdict)));
  if (decided.length && kinds.size === 1) {
    const first = decided[0]!;
    return { claim, verdict: first.verdict, reason: first.reason, hosts: outcomes, pairings: all };
  }
  if (kinds.size > 1) return { claim, verdict: 'host-specific', reason: 'the hosts that measured it disagree', hosts: outcomes, pairings: all };
  const verdict = outcomes.some((o) => o.verdict === 'not-shown')
    ? 'not-shown'
    : outcomes.some((o) => o.verdict === 'cannot-test')
      ? 'cannot-test'
      : 'not-measured';
  return { claim, verdict, reason: outcomes.find((o) => o.verdict === verdict)!.reason, hosts: outcomes, pairings: all };
}

export function evaluateClaims(w: { claims: Claim[]; series: WriteupSeries[] }, data: ClaimData): ClaimResult[] {
  return w.claims.map((c) => evaluateClaim(c, w.series, data));
}

/** How many claims got each verdict, in a fixed order, zero counts left out. */
export function tally(results: readonly { verdict: Verdict }[]): { verdict: Verdict; count: number }[] {
  const order: Verdict[] = [
    'confirmed',
    'reproduced',
    'smaller-than-reported',
    'larger-than-reported',
    'contradicted',
    'host-specific',
    'not-shown',
    'cannot-test',
    'not-measured',
    'unverified',
  ];
  return order.map((verdict) => ({ verdict, count: results.filter((r) => r.verdict === verdict).length })).filter((t) => t.count > 0);
}
