// What each page needs, precomputed from summary.json at build time (pure functions, unit-tested).
import type { Params, Summary, SummaryEntry } from '../../../schema/index.ts';
import { compareVersions } from '../../../runner/catalogue.ts';
import { GROUP_MODES, type GroupMode, type Journey, type JourneyIndex } from './journey-view.ts';

export { lineRuns, GROUP_MODES, type GroupMode, type Journey, type JourneyPoint } from './journey-view.ts';

export type Entry = SummaryEntry;

/** URL slug of a build: "3.5.7", or "3.5.7-no-ml-kem" for a variant. */
export function versionSlug(version: string, variant: string): string {
  return variant === 'default' ? version : `${version}-${variant}`;
}

export function byVersion(a: { version: string; variant: string }, b: { version: string; variant: string }): number {
  return compareVersions(a.version, b.version) || (a.variant === 'default' ? -1 : b.variant === 'default' ? 1 : a.variant.localeCompare(b.variant));
}

export function paramsText(params: Params, omit: readonly string[] = []): string {
  const keys = Object.keys(params).filter((k) => !omit.includes(k)).sort();
  return keys.length ? keys.map((k) => `${k}=${String(params[k])}`).join(', ') : '(no parameters)';
}

// ------------------------------------------------------------------ home: the performance journey

export const JOURNEY_BENCHMARK = 'handshake';
const GROUP_PARAMS = ['clientGroups', 'serverGroups'];

export interface JourneyPayload {
  benchmark: string;
  hosts: string[];
  /** x axis: every default-variant version measured on a host, oldest first */
  versions: Record<string, string[]>;
  journeys: Journey[];
  defaults: { host: string; metric: string; config: string } | null;
}

function groupMode(params: Params): GroupMode | null {
  const c = params.clientGroups;
  const s = params.serverGroups;
  return c === s && (GROUP_MODES as readonly unknown[]).includes(c) ? (c as GroupMode) : null;
}

function segmentOf(e: SummaryEntry): string | null {
  if (e.comparability.acrossVersions) return 'all';
  return e.comparability.group ?? null;
}

function observedGroup(e: SummaryEntry): string | null {
  const o = e.observed ?? {};
  const g = o.negotiatedGroup ?? o.group ?? o.negotiated;
  return g === undefined ? null : String(g);
}

/** Where an entry sits on the home chart: metric (with the side it counts), configuration, groups mode. */
export function journeyKey(e: SummaryEntry): { metric: string; config: string; groups: GroupMode } | null {
  const groups = groupMode(e.params);
  if (e.benchmark !== JOURNEY_BENCHMARK || e.variant !== 'default' || !groups) return null;
  const side = e.params.side;
  return { metric: side === undefined ? e.metric : `${e.metric}:${String(side)}`, config: paramsText(e.params, [...GROUP_PARAMS, 'side']), groups };
}

export function journeyPayload(summary: Summary): JourneyPayload {
  const map = new Map<string, Journey>();
  const versions: Record<string, Set<string>> = {};
  for (const e of summary.entries) {
    const k = journeyKey(e);
    if (!k) continue;
    const { metric, config, groups } = k;
    const id = [e.host, metric, config, groups].join('\u0000');
    let j = map.get(id);
    if (!j) {
      // the label's first clause names the metric; the configuration is shown separately
      const label = e.label.split(';')[0]!.trim();
      j = { host: e.host, metric, label, unit: e.unit, method: e.method, higherIsBetter: e.higherIsBetter, config, groups, points: [] };
      map.set(id, j);
    }
    (versions[e.host] ??= new Set()).add(e.version);
    const s = e.status === 'measured' ? e.stats : null;
    j.points.push({
      version: e.version,
      key: e.key,
      status: e.status,
      median: s ? s.median : null,
      low: s?.interval ? s.interval.low : null,
      high: s?.interval ? s.interval.high : null,
      n: s ? s.n : 0,
      segment: segmentOf(e),
      reason: e.reason ?? null,
      negotiated: observedGroup(e),
      run: e.runId,
    });
  }
  const journeys = [...map.values()];
  for (const j of journeys) j.points.sort((a, b) => compareVersions(a.version, b.version));
  const hosts = Object.keys(versions).sort();
  const sortedVersions = Object.fromEntries(hosts.map((h) => [h, [...versions[h]!].sort(compareVersions)]));
  return { benchmark: JOURNEY_BENCHMARK, hosts, versions: sortedVersions, journeys, defaults: pickDefault(journeys) };
}

/** The plainest configuration: one thread, new handshakes, shared context, TLS 1.3. */
const PLAIN = [/\bthreads=1\b/, /\bresume=none\b/, /\bclientCtx=shared\b/, /\bproto=1\.3\b/];
const plainness = (j: Journey) => PLAIN.filter((re) => re.test(j.config)).length;

/** Start with handshakes per CPU second of both sides, in the plainest configuration measured on most versions. */
function pickDefault(journeys: Journey[]): JourneyPayload['defaults'] {
  const measured = (j: Journey) => j.points.filter((p) => p.median !== null).length;
  // the page opens on a configuration where the defaults / pinned X25519 toggle has both sides
  const modes = new Map<string, number>();
  for (const j of journeys) modes.set([j.host, j.metric, j.config].join('\u0000'), (modes.get([j.host, j.metric, j.config].join('\u0000')) ?? 0) + 1);
  const both = (j: Journey) => Number((modes.get([j.host, j.metric, j.config].join('\u0000')) ?? 0) > 1);
  const ranked = [...journeys].sort(
    (a, b) =>
      Number(b.unit === 'handshakes/s') - Number(a.unit === 'handshakes/s') ||
      Number(b.method === 'cpu-time-both') - Number(a.method === 'cpu-time-both') ||
      both(b) - both(a) ||
      measured(b) - measured(a) ||
      plainness(b) - plainness(a) ||
      a.host.localeCompare(b.host) ||
      a.metric.localeCompare(b.metric) ||
      a.config.localeCompare(b.config),
  );
  const j = ranked.find((x) => x.groups === 'default' || !both(x)) ?? ranked[0];
  return j ? { host: j.host, metric: j.metric, config: j.config } : null;
}

/**
 * The home page loads the index (every journey without its points) and then only the file of the journey it
 * shows; each file holds one host, metric and configuration with both group modes, so the toggle needs no fetch.
 */
export function splitJourneys(payload: JourneyPayload): { index: JourneyIndex; files: Record<string, Journey[]> } {
  const table = <T,>(key: (t: T) => string) => {
    const ids = new Map<string, number>();
    const items: T[] = [];
    return {
      items,
      id(t: T): number {
        const k = key(t);
        if (!ids.has(k)) ids.set(k, items.push(t) - 1);
        return ids.get(k)!;
      },
    };
  };
  const metrics = table<JourneyIndex['metrics'][number]>((m) => JSON.stringify(m));
  const labels = table<string>((l) => l);
  const configs = table<string>((c) => c);
  const fileIds = table<string>((k) => k);
  const files: Record<string, Journey[]> = {};
  const journeys = [...payload.journeys].sort(
    (a, b) => a.host.localeCompare(b.host) || a.metric.localeCompare(b.metric) || a.config.localeCompare(b.config) || a.groups.localeCompare(b.groups),
  );
  const rows = journeys.map((j): JourneyIndex['rows'][number] => {
    const f = fileIds.id([j.host, j.metric, j.config].join('\u0000'));
    (files[`j${f}`] ??= []).push(j);
    return [
      payload.hosts.indexOf(j.host),
      metrics.id({ id: j.metric, unit: j.unit, method: j.method, higherIsBetter: j.higherIsBetter }),
      configs.id(j.config),
      labels.id(j.label),
      GROUP_MODES.indexOf(j.groups),
      f,
    ];
  });
  const index: JourneyIndex = {
    benchmark: payload.benchmark,
    hosts: payload.hosts,
    versions: payload.versions,
    defaults: payload.defaults,
    metrics: metrics.items,
    labels: labels.items,
    configs: configs.items,
    rows,
  };
  return { index, files };
}

// ------------------------------------------------------------------ per-version pages

export interface VersionPage {
  slug: string;
  version: string;
  series: string;
  variant: string;
  hosts: string[];
}

export function versionPages(summary: Summary): VersionPage[] {
  const map = new Map<string, VersionPage>();
  for (const e of summary.entries) {
    const slug = versionSlug(e.version, e.variant);
    const p = map.get(slug) ?? { slug, version: e.version, series: e.series, variant: e.variant, hosts: [] };
    if (!p.hosts.includes(e.host)) p.hosts.push(e.host);
    map.set(slug, p);
  }
  for (const b of summary.builds) {
    const slug = versionSlug(b.version, b.variant);
    if (!map.has(slug)) map.set(slug, { slug, version: b.version, series: b.series, variant: b.variant, hosts: [b.host] });
  }
  return [...map.values()].map((p) => ({ ...p, hosts: p.hosts.sort() })).sort(byVersion);
}

export function entriesOf(summary: Summary, host: string, version: string, variant: string): Entry[] {
  return summary.entries
    .filter((e) => e.host === host && e.version === version && e.variant === variant)
    .sort((a, b) => a.benchmark.localeCompare(b.benchmark) || a.key.localeCompare(b.key));
}

export function groupBy<T>(items: readonly T[], key: (t: T) => string): Map<string, T[]> {
  const m = new Map<string, T[]>();
  for (const it of items) {
    const k = key(it);
    const list = m.get(k);
    if (list) list.push(it);
    else m.set(k, [it]);
  }
  return m;
}

// ------------------------------------------------------------------ compare page

/** One series of one build, as the compare page needs it. */
export interface CompareRow {
  key: string;
  label: string;
  params: string;
  unit: string;
  method: string;
  status: string;
  median: number | null;
  low: number | null;
  high: number | null;
  n: number;
  /** comparability segment: values are comparable only when equal and not null */
  segment: string | null;
  /** comparisons measured in the same run: [against, ratio, low, high, verdict] */
  cmp: [string, number, number | null, number | null, string][];
}

export interface ComparePayload {
  builds: { id: string; host: string; version: string; variant: string; slug: string }[];
  rows: Record<string, CompareRow[]>;
}

export function compareId(host: string, version: string, variant: string): string {
  return `${host}/${versionSlug(version, variant)}`;
}

export function comparePayload(summary: Summary): ComparePayload {
  const builds = new Map<string, ComparePayload['builds'][number]>();
  const rows: Record<string, CompareRow[]> = {};
  for (const e of summary.entries) {
    const id = compareId(e.host, e.version, e.variant);
    if (!builds.has(id)) builds.set(id, { id, host: e.host, version: e.version, variant: e.variant, slug: versionSlug(e.version, e.variant) });
    const s = e.status === 'measured' ? e.stats : null;
    const cmp = [e.vsPreviousSeries, e.vsBaseline]
      .filter((c) => c !== null)
      .map((c): CompareRow['cmp'][number] => [c.against, c.ratio, c.interval?.low ?? null, c.interval?.high ?? null, c.verdict]);
    (rows[id] ??= []).push({
      key: e.key, label: e.label, params: paramsText(e.params), unit: e.unit, method: e.method, status: e.status,
      median: s?.median ?? null, low: s?.interval?.low ?? null, high: s?.interval?.high ?? null, n: s?.n ?? 0, segment: segmentOf(e), cmp,
    });
  }
  const list = [...builds.values()].sort((a, b) => a.host.localeCompare(b.host) || byVersion(a, b));
  return { builds: list, rows };
}

// ------------------------------------------------------------------ write-ups

/** Every summary entry of one series key (optionally limited to versions), oldest version first. */
export function seriesEntries(summary: Summary, key: string, versions?: readonly string[]): Entry[] {
  return summary.entries
    .filter((e) => e.key === key && (!versions || versions.length === 0 || versions.includes(e.version)))
    .sort((a, b) => a.host.localeCompare(b.host) || byVersion(a, b));
}
