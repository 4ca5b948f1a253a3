// The quiet-host rule, in one place for the runner (which writes the verdict, Run.quiet.quiet) and the
// aggregation (which says why a run stays out of the published views, quietReasons below):
// a run is quiet when it held the host measurement lock throughout, the host was quiet before its first
// round, in every measured round that ran a timed task (and in each window of it whose measurements it
// kept: runner/quiet/round-watch.ts) and in the deterministic phase. A warm-up round's evidence is kept but does not
// decide: its values are thrown away.
import type { QuietEvidence, Run } from '../schema/index.ts';

/**
 * Why the evidence is not quiet, each reason with where it was seen; empty when it is quiet.
 * `measuredRounds`: the rounds that must carry evidence; `deterministicRan`: the run measured deterministic
 * tasks itself (not all reused), so the phase must carry evidence too.
 */
export function notQuietReasons(
  q: Pick<QuietEvidence, 'exclusive' | 'before' | 'rounds' | 'deterministic'>,
  measuredRounds: readonly number[],
  deterministicRan = false,
): string[] {
  const reasons: string[] = [];
  if (!q.exclusive) reasons.push('did not hold the host measurement lock for the whole run');
  for (const r of q.before.reasons) reasons.push(`before the first round: ${r}`);
  if (!q.before.quiet && q.before.reasons.length === 0) reasons.push('before the first round: not quiet');
  for (const n of measuredRounds) {
    const evidence = q.rounds.filter((r) => r.round === n);
    if (!evidence.length) reasons.push(`round ${n}: no quiet-host evidence`);
    for (const round of evidence) {
      // the runner names a round's loud windows in the round's reasons; a file whose round says nothing
      // about a loud window does not pass either
      const said = round.reasons.length
        ? round.reasons.map((r) => `round ${n}: ${r}`)
        : (round.windows ?? []).flatMap((w) => (w.dropped ? [] : w.reasons.map((r) => `round ${n}, window ending ${w.at}: ${r}`)));
      reasons.push(...said, ...(!round.quiet && said.length === 0 ? [`round ${n}: not quiet`] : []));
    }
  }
  const deterministic = q.deterministic ?? [];
  if (deterministicRan && deterministic.length === 0) reasons.push('deterministic phase: no quiet-host evidence');
  for (const d of deterministic) {
    for (const r of d.reasons) reasons.push(`deterministic phase: ${r}`);
    if (!d.quiet && d.reasons.length === 0) reasons.push('deterministic phase: not quiet');
  }
  return reasons;
}

/** Why a run may not feed the published views; empty when it held the host lock and every check was quiet. */
export function quietReasons(run: Run): string[] {
  const q = run.quiet;
  if (!q) return ['recorded before the quiet-host protocol: nothing shows the machine was otherwise idle'];
  // the rule above over the rounds the file holds: a round killed before its evidence was written is
  // known to the runner only, whose verdict (q.quiet) then says not quiet
  const measured = [...new Set(q.rounds.map((r) => r.round).filter((n) => n >= run.plan.warmupRounds))];
  const reasons = notQuietReasons(q, measured);
  if (!q.quiet && reasons.length === 0) reasons.push('the runner marked it not quiet');
  return reasons;
}
