// Which rows may share a table: one host and, for timing values, one run (site/README.md, Tables).
import { isTiming, runAttrs, splitByRun, type RunOf } from '../runs.ts';
import type { CompareRow } from './rows.ts';

/** Where each measured value of a row comes from (hosts: A's and B's), as runAttrs reads it. */
export function rowRuns(r: CompareRow, hosts: readonly [string, string]): RunOf[] {
  return ([r.a, r.b] as const).flatMap((s, i) => (s && s.median !== null ? [{ host: hosts[i]!, runId: s.run, method: r.method }] : []));
}

/**
 * A row whose two values may not stand side by side in one table (site/README.md, Tables): values of two
 * hosts, or timing values of two runs. Deterministic counts of two runs of one host may.
 */
export function isApart(r: CompareRow, hosts: readonly [string, string]): boolean {
  const [x, y] = rowRuns(r, hosts);
  return y !== undefined && (x!.host !== y.host || (isTiming(r.method) && x!.runId !== y.runId));
}

export interface ComparePart {
  host: string;
  /** the run of its timing rows, null when it has none */
  run: string | null;
  /** the first table: the other parts are the timing rows of other runs (or of B's host) */
  main: boolean;
  rows: CompareRow[];
  attrs: Record<string, string | undefined>;
}

export interface CompareLayout {
  parts: ComparePart[];
  /** rows of values from different runs or hosts: listed each value with its run, never in a table */
  apart: CompareRow[];
  /** rows neither build measured */
  neither: CompareRow[];
}

/**
 * The rows (in their order) as the page lays them out: tables of one host and, for timing rows, one run
 * (lib/runs.ts splitByRun), the rows whose two values come from different runs or hosts apart, and the rows
 * with no value at all named under the tables.
 */
export function compareLayout(rows: readonly CompareRow[], hosts: readonly [string, string]): CompareLayout {
  const apart = rows.filter((r) => isApart(r, hosts));
  const kept = rows.filter((r) => !isApart(r, hosts) && rowRuns(r, hosts).length > 0);
  const parts = splitByRun(kept, (r) => rowRuns(r, hosts)[0]!).map((p): ComparePart => ({
    host: p.host,
    run: p.timingRun,
    main: p.main,
    rows: p.rows,
    attrs: runAttrs(p.rows.flatMap((r) => rowRuns(r, hosts))),
  }));
  return { parts, apart, neither: rows.filter((r) => rowRuns(r, hosts).length === 0) };
}
