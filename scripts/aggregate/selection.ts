// Which run each summary row comes from (SELECTION): only quiet runs (a local build, --local-host, adds the not-quiet runs
// of the machine that ran npm start), and per row the run that outranks the others (measured, then not a reproduction, then full, then newest).
// aggregate() applies the rule to runs (summary.ts); selectRuns applies it to their records, to open only the runs it needs.
import type { RunMode, RunRecord } from '../../schema/index.ts';

/** What decides which run a summary row (host, library, version, variant, key) comes from. */
export interface RowCandidate {
  /** always true but in a local build, which takes the local machine's not-quiet runs after its quiet ones */
  quiet: boolean;
  /** the run's series for this row is measured (not failed or unsupported) */
  measured: boolean;
  mode: RunMode;
  startedAt: string;
  /** a reproduction of one write-up (plan.reproduces): a few series measured until decided */
  reproduction: boolean;
}

/**
 * Whether `a` replaces `b` as the source of a row: a measured series before a failed or unsupported one
 * (a night that could not measure a build must not erase what an earlier night measured), then full
 * mode before quick (more rounds), then the newer run (the tables follow the current state of the host).
 * Equals do not replace each other, so the first in path order stays: within a host and a start time
 * that is the smaller run id.
 */
export function outranks(a: RowCandidate, b: RowCandidate): boolean {
  if (a.quiet !== b.quiet) return a.quiet;
  if (a.measured !== b.measured) return a.measured;
  // a reproduction measures a write-up's few series: the tables keep the rows of the runs that measured the whole matrix
  if (a.reproduction !== b.reproduction) return !a.reproduction;
  if (a.mode !== b.mode) return a.mode === 'full';
  return Date.parse(a.startedAt) > Date.parse(b.startedAt);
}

export const SELECTION =
  'only quiet runs (host lock held, every quiet-host check passed); each row (host, library, version, variant and series) comes from one run: ' +
  'a run that measured it before one where it failed or was unsupported, then an ordinary run before a reproduction of one write-up (npm run reproduce), then a full run before a quick one, then the newest run. ' +
  'So the newest quiet full run of a host decides every row it measured, and the builds it did not measure keep the rows of their own newest run. ' +
  'Comparisons stay within one run. On the site, timing values (CPU time, wall clock) of different runs never share a table or chart: each run gets its own; deterministic counts of one machine may, each row naming its run.';

/**
 * A local build (npm start: --local-host): the machine that just ran is shown beside the committed ones, its
 * not-quiet runs included after its quiet ones (runs[].local marks its runs; the site says "not quiet:
 * indicative" of their values). The committed summary is never made this way.
 */
export interface LocalOptions {
  /** machine id of the computer npm start measured */
  localHost?: string;
}

export const LOCAL_SELECTION =
  ' This is a local build (npm start): the not-quiet runs of the machine that ran it feed it too, after its quiet runs; their values are indicative.';

/** Whether a run may feed the summary: a quiet one, or in a local build any run of the local machine. */
export const admitted = (quiet: boolean, host: string, o: LocalOptions) => quiet || host === o.localHost;

/**
 * The runs aggregate() would take series from, found from their records alone: for each host, library,
 * version, variant and series key the quiet run that outranks the others holding it (the first in path order
 * among equals, as aggregate() does). Records are given in path order.
 */
export function selectRuns(records: readonly RunRecord[], keySets: ReadonlyMap<string, readonly string[]>, local: LocalOptions = {}): RunRecord[] {
  const buildOf = (r: RunRecord, b: RunRecord['builds'][number]) => `${r.host.id}|${b.library ?? 'openssl'}|${b.version}|${b.variant}`;
  // runs with the same keys and the same measured keys for a build dominate each other as a whole (each
  // key has the same status in all of them, so mode and time decide): keep the best of each such group
  const groupBest = new Map<string, RunRecord>();
  for (const r of records) {
    if (!admitted(r.quiet, r.host.id, local)) continue;
    for (const b of r.builds) {
      const g = `${buildOf(r, b)}|${b.keys}|${b.measured}`;
      const prev = groupBest.get(g);
      if (
        !prev ||
        outranks(
          { quiet: r.quiet, measured: true, mode: r.mode, startedAt: r.startedAt, reproduction: !!r.reproduces },
          { quiet: prev.quiet, measured: true, mode: prev.mode, startedAt: prev.startedAt, reproduction: !!prev.reproduces },
        )
      )
        groupBest.set(g, r);
    }
  }
  const order = new Map(records.map((r, i) => [r, i]));
  const candidates = [...new Set(groupBest.values())].sort((a, b) => order.get(a)! - order.get(b)!);
  const chosen = new Map<string, RowCandidate & { record: RunRecord }>();
  for (const r of candidates)
    for (const b of r.builds) {
      const measured = new Set(keySets.get(b.measured) ?? []);
      for (const key of keySets.get(b.keys) ?? []) {
        const id = `${buildOf(r, b)}|${key}`;
        const candidate = { record: r, quiet: r.quiet, mode: r.mode, startedAt: r.startedAt, reproduction: !!r.reproduces, measured: measured.has(key) };
        const prev = chosen.get(id);
        if (!prev || outranks(candidate, prev)) chosen.set(id, candidate);
      }
    }
  return [...new Set([...chosen.values()].map((c) => c.record))].sort((a, b) => order.get(a)! - order.get(b)!);
}
