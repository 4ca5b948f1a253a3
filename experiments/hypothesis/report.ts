// What the hypothesis test prints: progress while it runs, the table and the conclusion at the end.
import type { ClaimOutcome, HypothesisResult } from '../../schema/index.ts';
import { certName, claimKey, fmtUs } from './analysis.ts';
import type { CpuLine, LookRecord } from '../../analysis/sequential.ts';
import { GAP_PARTS, type Claim } from './claims.ts';
import { signedPct } from '../../analysis/verdict.ts';

export const minutes = (s: number) => `${Math.floor(s / 60)}m${String(Math.round(s % 60)).padStart(2, '0')}s`;
const ci = (l: { low: number; high: number } | null) => (l ? `[${signedPct(l.low)}, ${signedPct(l.high)}]` : '[no interval]');

/** After a look: every claim's current CPU interval, instruction verdict, and what it still needs. */
export function lookTable(
  look: LookRecord,
  claims: { claim: Claim; cert: string }[],
  lines: Map<string, CpuLine>,
  instr: Map<string, ClaimOutcome['instructions']>,
): string[] {
  const out = [
    `  look after round ${look.round}${look.final ? ' (final: the budget ends here, all remaining alpha)' : ''}: intervals at ${(100 * (1 - look.alpha)).toFixed(2)}% confidence, ${look.undecided} claim(s) still undecided by CPU time`,
    `    claim cert         side    CPU ratio  interval            CPU time      instructions          still needs`,
  ];
  for (const { claim, cert } of claims) {
    const l = lines.get(claimKey(claim.id, cert));
    if (!l) continue;
    const i = instr.get(claimKey(claim.id, cert));
    const cpu = l.decidedAtRound ? `${l.verdict}@${l.decidedAtRound}` : l.verdict;
    const ins = i ? `${i.ratio === null ? '-' : signedPct(i.ratio)} ${i.verdict}` : '-';
    out.push(
      `    ${claim.id.padEnd(5)} ${certName(cert).padEnd(12)} ${claim.side.padEnd(7)} ${(l.estimate ? signedPct(l.estimate.ratio) : '-').padStart(9)}  ${ci(l.estimate).padEnd(19)} ${cpu.padEnd(13)} ${ins.padEnd(21)} ${l.needs || '-'}`,
    );
  }
  return out;
}

export function finalReport(r: HypothesisResult): string[] {
  const out: string[] = ['', 'configuration                    cert          negotiated        client key shares'];
  for (const c of r.configurations)
    for (const [cert, o] of Object.entries(c.observed))
      out.push(`${c.id.padEnd(32)} ${certName(cert).padEnd(13)} ${String(o.negotiatedGroup).padEnd(17)} ${o.clientKeyShares}`);
  for (const c of r.configurations.filter((x) => x.status !== 'measured')) out.push(`${c.id.padEnd(32)} ${c.status}: ${c.reason}`);
  out.push(
    '',
    `claims (CPU time: paired blocks, ${r.design.ciMethod}; instructions: valgrind, per side)`,
    'claim cert         side    CPU ratio  interval            CPU time      rounds  instructions  instr. line   VERDICT (deciding line)',
  );
  for (const c of r.claims) {
    const by = c.decidedBy ? ` (${c.decidedBy === 'both' ? 'both lines' : c.decidedBy === 'cpu-time' ? 'by CPU time' : 'by instructions'})` : '';
    out.push(
      `${c.id.padEnd(5)} ${certName(c.cert).padEnd(12)} ${c.side.padEnd(7)} ${(c.cpu.ratio === null ? '-' : signedPct(c.cpu.ratio)).padStart(9)}  ${ci(c.cpu.interval).padEnd(19)} ${c.cpu.verdict.padEnd(13)} ${String(c.cpu.decidedAtRound ?? '-').padStart(6)}  ${(c.instructions.ratio === null ? '-' : signedPct(c.instructions.ratio)).padStart(12)}  ${c.instructions.verdict.padEnd(12)}  ${c.verdict.toUpperCase()}${by}`,
    );
    out.push(`      ${c.statement}. ${c.sentence}`);
  }
  out.push('', 'gap: 3.5 defaults minus 3.4, client + server CPU per handshake (per-round paired differences)');
  for (const d of r.decomposition) {
    const part = (name: string, p: HypothesisResult['decomposition'][number]['total'] | null) =>
      !p
        ? `${name} not measured`
        : p.separable
          ? `${name} ${fmtUs(p.us)} [${fmtUs(p.interval.low)}, ${fmtUs(p.interval.high)}]`
          : `${name} not separable at this precision [${fmtUs(p.interval.low)}, ${fmtUs(p.interval.high)}]`;
    out.push(`  ${certName(d.cert)} (${d.pairs} rounds, ${(d.confidence * 100).toFixed(2)}% intervals): ${part('total', d.total)}`);
    GAP_PARTS.forEach((g, i) => out.push(`      ${i ? '+' : '='} ${part(`${g.name} (${g.minuend} minus ${g.subtrahend})`, d[g.key])}`));
  }
  const p = r.progress;
  out.push(
    '',
    `stopped: ${p.stoppedBecause} after ${p.rounds} measured rounds (${minutes(p.seconds)} of rounds, ${minutes(p.totalSeconds)} in all); noise of one paired ratio (median CV) ${p.noiseCv === null ? 'not measured' : `${(p.noiseCv * 100).toFixed(1)}%`}`,
  );
  if (r.quiet) {
    const loud = [r.quiet.before, ...r.quiet.rounds].filter((x) => !x.quiet).flatMap((x) => x.reasons);
    out.push(r.quiet.quiet ? 'host: quiet before the test and in every round' : `host: NOT quiet (${loud.slice(0, 3).join('; ')}): do not publish this result`);
    const again = r.quiet.repeated ?? [];
    if (again.length)
      out.push(
        `host: ${again.length} disturbed round(s) measured again, their blocks dropped (${again
          .map((x) => `round ${x.round}: ${x.reasons.join('; ')}`)
          .slice(0, 3)
          .join('; ')})`,
      );
  }
  for (const n of r.notes) out.push(`note: ${n}`);
  out.push('', `CONCLUSION: ${r.conclusion}`);
  return out;
}
