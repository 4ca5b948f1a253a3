// Which host a default view opens on: only ever one of the project's own machines, or, in a local build
// (npm start, aggregate --local-host), the computer that just ran. A contributed host never opens a view,
// whatever its data cover or however new its runs are: where no project machine measured what a view shows,
// the view says so and offers the contributed machines by choice, labelled as contributed (machines.ts
// machineLabel). Pure (the drift page's script imports it).
import { isReservedHostId } from '../../../catalogue/hosts.ts';

export interface HostRun {
  host: string;
  startedAt: string;
  quiet: boolean;
  /** a run of the machine a local build was made for (summary.json runs[].local; never in the committed summary) */
  local?: boolean;
}

/**
 * The one test of "a project machine": its id has the prefix reserved for the project's self-hosted runners
 * (catalogue/hosts.ts), which the submission check refuses in any letter case (and in lookalike spellings).
 */
export const isProjectHost = (id: string): boolean => isReservedHostId(id);

/** The contributed hosts among `hosts`, each once, by id (for "measured on contributed machines only" lists). */
export const contributedHosts = (hosts: Iterable<string>): string[] => [...new Set(hosts)].filter((h) => !isProjectHost(h)).sort();

/** Sort order: the project's machines before contributed hosts (the rest of the order is the caller's). */
export const projectFirst = (a: string, b: string): number => Number(isProjectHost(b)) - Number(isProjectHost(a));

/**
 * The project machines among `hosts` (and in a local build the local machine, first), best first. The rule:
 * the machine whose data cover more of what the view shows (where the view gives `coverage`: the home chart
 * counts releases), then the newest quiet run (a machine without one after those with one), then the machine
 * id; the id decides only between project machines, whose names the project chooses (BENCH_HOSTS), so no
 * submission can take part in the order.
 */
export function rankHosts(hosts: Iterable<string>, runs: readonly HostRun[], coverage?: ReadonlyMap<string, number>): string[] {
  const newest = new Map<string, number>();
  for (const r of runs) if (r.quiet) newest.set(r.host, Math.max(newest.get(r.host) ?? -Infinity, Date.parse(r.startedAt)));
  const t = (h: string) => newest.get(h) ?? -Infinity;
  const c = (h: string) => coverage?.get(h) ?? 0;
  const local = new Set(runs.filter((r) => r.local).map((r) => r.host));
  const localFirst = (a: string, b: string) => Number(local.has(b)) - Number(local.has(a));
  return [...new Set(hosts)]
    .filter((h) => isProjectHost(h) || local.has(h))
    .sort((a, b) => localFirst(a, b) || c(b) - c(a) || t(b) - t(a) || (a < b ? -1 : a > b ? 1 : 0));
}

/** The machine a view opens on among those that have what it needs (a project machine, or a local build's own); null when none has (never a contributed host). */
export const defaultHost = (hosts: Iterable<string>, runs: readonly HostRun[], coverage?: ReadonlyMap<string, number>): string | null =>
  rankHosts(hosts, runs, coverage)[0] ?? null;
