// Which host a default view opens on. In a local build (npm start) the machine that ran it; otherwise a
// project machine (catalogue/hosts.ts) before a contributed host,
// then the host with the newest quiet run: never by host name or by how many entries a host has, so a
// contributed host cannot become the default by a tie-break. Pure (the drift page's script imports it).
import { isReservedHostId } from '../../../catalogue/hosts.ts';

export interface HostRun {
  host: string;
  startedAt: string;
  quiet: boolean;
  /** a run of the machine a local build was made for (summary.json runs[].local; never in the committed summary) */
  local?: boolean;
}

/** Sort order: the project's machines before contributed hosts (the rest of the order is the caller's). */
export const projectFirst = (a: string, b: string): number => Number(isReservedHostId(b)) - Number(isReservedHostId(a));

/**
 * Hosts best first: the local machine of a local build, then project machines, then (where the view gives it) the host whose data cover more of
 * what the view shows (the home chart: more releases), then the newest quiet run (a host without one after
 * those with one).
 */
export function rankHosts(hosts: Iterable<string>, runs: readonly HostRun[], coverage?: ReadonlyMap<string, number>): string[] {
  const newest = new Map<string, number>();
  for (const r of runs) if (r.quiet) newest.set(r.host, Math.max(newest.get(r.host) ?? -Infinity, Date.parse(r.startedAt)));
  const local = new Set(runs.filter((r) => r.local).map((r) => r.host));
  const localFirst = (a: string, b: string) => Number(local.has(b)) - Number(local.has(a));
  const t = (h: string) => newest.get(h) ?? -Infinity;
  const c = (h: string) => coverage?.get(h) ?? 0;
  // the name only orders hosts of the same kind whose newest quiet runs started at the same instant
  return [...new Set(hosts)].sort((a, b) => localFirst(a, b) || projectFirst(a, b) || c(b) - c(a) || t(b) - t(a) || a.localeCompare(b));
}

/** The default host among those that have what a view needs, or null when none has. */
export const defaultHost = (hosts: Iterable<string>, runs: readonly HostRun[], coverage?: ReadonlyMap<string, number>): string | null =>
  rankHosts(hosts, runs, coverage)[0] ?? null;
