// What the drift page shows: a valid selection (host, metric, build, range) from the page's query, and
// which shards it needs. Shared by the build and the browser script.
import { defaultHost } from '../hosts.ts';
import type { DriftBuild, DriftHost, DriftIndex, DriftMetric } from './shards.ts';

/** How far back a view reaches, in days before the host's newest run; null: everything. */
export const RANGES: { id: string; label: string; days: number | null }[] = [
  { id: '90', label: 'last 90 days', days: 90 },
  { id: '365', label: 'last 12 months', days: 365 },
  { id: 'all', label: 'everything', days: null },
];

/** The first time shown and the years whose shards hold it. */
export function rangeOf(host: DriftHost, range: string): { since: number; years: number[] } {
  const days = RANGES.find((r) => r.id === range)?.days ?? null;
  const since = days === null ? -Infinity : Date.parse(host.last) - days * 86_400_000;
  const first = days === null ? -Infinity : new Date(since).getUTCFullYear();
  return { since, years: host.years.filter((y) => y >= first) };
}

export interface DriftSelection {
  host: string;
  metric: string;
  build: string;
  range: string;
}

/**
 * A valid selection from what was asked (the page's query), falling back to: the default host
 * (lib/hosts.ts), the first headline metric it has, the newest default build with values, the last 12 months.
 */
export function resolveSelection(index: DriftIndex, asked: Partial<DriftSelection> = {}): DriftSelection | null {
  // a project machine with the longest history first (a drift chart of one night says nothing), then the newest
  const preferred = defaultHost(
    index.hosts.map((h) => h.id),
    index.hosts.map((h) => ({ host: h.id, startedAt: h.lastQuiet, quiet: h.lastQuiet !== '' })),
    new Map(index.hosts.map((h) => [h.id, h.runs])),
  );
  const host = index.hosts.find((h) => h.id === asked.host) ?? index.hosts.find((h) => h.id === preferred);
  if (!host || !host.series.length) return null;
  const series = host.series.find(([m]) => index.metrics[m]?.id === asked.metric) ?? host.series[0]!;
  const builds = series[1].map(([b]) => host.builds[b]!);
  const build = builds.find((b) => b.slug === asked.build) ?? [...builds].reverse().find((b) => !b.name.includes(' ')) ?? builds[builds.length - 1]!;
  const range = RANGES.some((r) => r.id === asked.range) ? asked.range! : '365';
  return { host: host.id, metric: index.metrics[series[0]]!.id, build: build.slug, range };
}

/** Which shards a selection needs: the host's runs for each year shown, and the values of the years that have any. */
export function shardsFor(
  index: DriftIndex,
  sel: DriftSelection,
): { host: DriftHost; metric: DriftMetric; build: DriftBuild; since: number; runYears: number[]; valueYears: number[] } {
  const host = index.hosts.find((h) => h.id === sel.host)!;
  const m = index.metrics.findIndex((x) => x.id === sel.metric);
  const avail = host.series.find(([i]) => i === m)![1].find(([b]) => host.builds[b]!.slug === sel.build)!;
  const { since, years } = rangeOf(host, sel.range);
  return { host, metric: index.metrics[m]!, build: host.builds[avail[0]]!, since, runYears: years, valueYears: years.filter((y) => avail[1].includes(y)) };
}
