// One run per comparison. The same build measured on the same machine hours apart differs by far more than
// a run's own intervals (a median of +19% CPU time seven hours apart), so timing values of two runs are never
// rows of one table or points of one chart: a table holds the timing rows of one run, and the rows another
// run measured get a table of their own. Deterministic counts (DETERMINISTIC_METHODS) are the same in every
// run of a host, so their rows may come from several runs of it, each row naming its run. No table or chart
// ever holds two hosts. Pure: the home page's script uses it too.
import { DETERMINISTIC_METHODS } from '../../../analysis/stats.ts';
// the words for a run live with the other words (format.ts, which the browser scripts can load); re-exported for the pages
export { runDate, runWords } from './format.ts';

/** CPU time, wall clock and every tool's own timing: values that move between runs. */
export const isTiming = (method: string) => !(DETERMINISTIC_METHODS as readonly string[]).includes(method);

export interface RunOf {
  host: string;
  runId: string;
  method: string;
}

/** Rows that may stand together: one host, the timing rows of one run at most. */
export interface RunPart<T> {
  host: string;
  /** the run of its timing rows, null when it has none */
  timingRun: string | null;
  /** the first part of its host: the run that measured most of the host's timing rows */
  main: boolean;
  rows: T[];
}

/**
 * Splits rows (in their order) into parts per host: the main part holds the deterministic rows and the
 * timing rows of the run that measured most of them (ties: the newest; a run id starts with its UTC start
 * time), then one part per other run with its timing rows, most rows first. Hosts in order of appearance.
 */
export function splitByRun<T>(rows: readonly T[], of: (t: T) => RunOf): RunPart<T>[] {
  const hosts = new Map<string, T[]>();
  for (const r of rows) {
    const h = of(r).host;
    hosts.set(h, [...(hosts.get(h) ?? []), r]);
  }
  return [...hosts].flatMap(([host, list]) => {
    const count = new Map<string, number>();
    for (const r of list) if (isTiming(of(r).method)) count.set(of(r).runId, (count.get(of(r).runId) ?? 0) + 1);
    const runs = [...count].sort((a, b) => b[1] - a[1] || b[0].localeCompare(a[0])).map(([run]) => run);
    const main = runs[0] ?? null;
    const inMain = (r: T) => !isTiming(of(r).method) || of(r).runId === main;
    return [
      { host, timingRun: main, main: true, rows: list.filter(inMain) },
      ...runs.slice(1).map((run) => ({ host, timingRun: run, main: false, rows: list.filter((r) => isTiming(of(r).method) && of(r).runId === run) })),
    ];
  });
}

/**
 * What every table or chart of measured values declares, for readers' tools and the browser test that fails
 * on one holding timing rows of two runs or rows of two hosts: data-runs (every row's run), data-hosts, and
 * where it holds timing rows data-timing="true" with data-timing-runs (the runs of those rows).
 */
export function runAttrs(rows: readonly RunOf[]): Record<string, string | undefined> {
  const sorted = (xs: string[]) => [...new Set(xs)].sort().join(' ');
  const timing = rows.filter((r) => isTiming(r.method));
  return {
    'data-runs': sorted(rows.map((r) => r.runId)),
    'data-hosts': sorted(rows.map((r) => r.host)),
    'data-timing': timing.length ? 'true' : undefined,
    'data-timing-runs': timing.length ? sorted(timing.map((r) => r.runId)) : undefined,
  };
}
