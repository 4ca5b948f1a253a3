// What each page needs, precomputed from summary.json at build time (pure functions, unit-tested).
import type { Comparison, Params, Summary, SummaryEntry } from '../../../schema/index.ts';
import { SERIES, buildSlug, compareSeries, compareVersions, seriesOf } from '../../../catalogue/index.ts';
import { labelParts } from './chart-text.ts';
import { defaultHost, type HostRun } from './hosts.ts';
import { splitByRun } from './runs.ts';
import {
  GROUP_MODES,
  METHOD_FAMILY,
  type GroupMode,
  type Journey,
  type JourneyIndex,
  type JourneyInit,
  type StepComparison,
  type WriteupRef,
} from './journey-view.ts';

export { lineRuns, GROUP_MODES, type GroupMode, type Journey, type JourneyPoint } from './journey-view.ts';

export type Entry = SummaryEntry;

/** What EntryTable (and each of its per-run parts) is given. */
export interface EntryTableProps {
  entries: Entry[];
  caption: string;
  /** first column names the build (write-ups) instead of the metric */
  rowsAreVersions?: boolean;
  /** the row header of each entry (default: its label, or its build when rowsAreVersions) */
  rowLabels?: string[];
  /** sentences under the caption (e.g. what several rows' labels repeated) */
  notes?: string[];
  /** on a phone, show each row as a card of labelled values instead of a table row */
  stack?: boolean;
}

/** URL slug of an OpenSSL build's page: "3.5.7", or "3.5.7-no-ml-kem" for a variant (catalogue buildSlug). */
export function versionSlug(version: string, variant: string): string {
  return buildSlug({ version, variant });
}

export function byVersion(a: { version: string; variant: string }, b: { version: string; variant: string }): number {
  return compareVersions(a.version, b.version) || (a.variant === 'default' ? -1 : b.variant === 'default' ? 1 : a.variant.localeCompare(b.variant));
}

export function paramsText(params: Params, omit: readonly string[] = []): string {
  const keys = Object.keys(params)
    .filter((k) => !omit.includes(k))
    .sort();
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
  /** first release date of each version's series (catalogue), for the time axis */
  released: Record<string, string>;
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

function stepComparison(c: Comparison | null): StepComparison | null {
  if (!c) return null;
  return {
    against: c.against,
    ratio: c.ratio,
    low: c.interval?.low ?? null,
    high: c.interval?.high ?? null,
    coverage: c.interval?.coverage ?? null,
    verdict: c.verdict,
    deterministic: c.pairing === 'deterministic',
  };
}

export function journeyPayload(summary: Summary): JourneyPayload {
  const map = new Map<string, Journey>();
  const versions: Record<string, Set<string>> = {};
  const released: Record<string, string> = {};
  for (const e of summary.entries) {
    const k = journeyKey(e);
    if (!k) continue;
    const { metric, config, groups } = k;
    const id = [e.host, metric, config, groups].join('\u0000');
    let j = map.get(id);
    if (!j) {
      // what is measured, in full; the configuration is shown separately
      const label = labelParts(e.label).what;
      j = { host: e.host, metric, label, unit: e.unit, method: e.method, higherIsBetter: e.higherIsBetter, config, groups, points: [] };
      map.set(id, j);
    }
    (versions[e.host] ??= new Set()).add(e.version);
    const date = SERIES.find((x) => x.series === e.series)?.released;
    if (date) released[e.version] = date;
    const s = e.status === 'measured' ? e.stats : null;
    j.points.push({
      version: e.version,
      series: e.series,
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
      prev: stepComparison(e.vsPreviousSeries),
      base: stepComparison(e.vsBaseline),
    });
  }
  const journeys = [...map.values()];
  for (const j of journeys) j.points.sort((a, b) => compareVersions(a.version, b.version));
  keepOneRun(journeys);
  const hosts = Object.keys(versions).sort();
  const sortedVersions = Object.fromEntries(hosts.map((h) => [h, [...versions[h]!].sort(compareVersions)]));
  return { benchmark: JOURNEY_BENCHMARK, hosts, versions: sortedVersions, released, journeys, defaults: pickDefault(journeys, summary.runs) };
}

/**
 * Both lines of a chart (one host, metric and configuration) show timing points of one run: the run that
 * measured most of them (lib/runs.ts); the points of other runs move to each line's `apart`.
 */
function keepOneRun(journeys: Journey[]): void {
  for (const lines of groupBy(journeys, (j) => [j.host, j.metric, j.config].join('\u0000')).values()) {
    const points = lines.flatMap((j) => j.points.map((p) => ({ j, p })));
    const parts = splitByRun(points, ({ j, p }) => ({ host: j.host, runId: p.run ?? '', method: j.method }));
    if (parts.length < 2) continue;
    for (const j of lines) {
      j.points = parts[0]!.rows.filter((x) => x.j === j).map((x) => x.p);
      j.apart = parts
        .slice(1)
        .map((part) => ({ run: part.timingRun!, points: part.rows.filter((x) => x.j === j).map((x) => x.p) }))
        .filter((a) => a.points.length > 0);
    }
  }
}

/** The plainest configuration: one thread, new handshakes, shared context, TLS 1.3. */
const PLAIN = [/\bthreads=1\b/, /\bresume=none\b/, /\bclientCtx=shared\b/, /\bproto=1\.3\b/];
const plainness = (j: Journey) => PLAIN.filter((re) => re.test(j.config)).length;

/**
 * Start on the default host (lib/hosts.ts), with handshakes per CPU second of both sides, in the plainest
 * configuration measured on most versions.
 */
export function pickDefault(all: Journey[], runs: readonly HostRun[]): JourneyPayload['defaults'] {
  const measured = (j: Journey) => j.points.filter((p) => p.median !== null).length;
  // among project machines, the one whose journeys cover the most releases (a machine measured on a few
  // builds does not replace the whole journey), then the newest quiet run
  const coverage = new Map<string, number>();
  for (const j of all) coverage.set(j.host, Math.max(coverage.get(j.host) ?? 0, measured(j)));
  const host = defaultHost(
    all.filter((j) => measured(j) > 0).map((j) => j.host),
    runs,
    coverage,
  );
  const journeys = all.filter((j) => j.host === host);
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
/** Values stored once and referred to by index (shards name labels and configurations once). */
export function internTable<T>(key: (t: T) => string = (t) => String(t)) {
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
}

export function splitJourneys(payload: JourneyPayload): { index: JourneyIndex; files: Record<string, Journey[]> } {
  const metrics = internTable<JourneyIndex['metrics'][number]>((m) => JSON.stringify(m));
  const labels = internTable<string>((l) => l);
  const configs = internTable<string>((c) => c);
  const fileIds = internTable<string>((k) => k);
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

/** What the home page embeds for its script (see JourneyInit); null without a default view. */
export function journeyInit(payload: JourneyPayload, writeups: WriteupRef[]): JourneyInit | null {
  const d = payload.defaults;
  if (!d) return null;
  const { files } = splitJourneys(payload);
  const file = Object.entries(files).find(([, js]) => js.some((j) => j.host === d.host && j.metric === d.metric && j.config === d.config))?.[0];
  if (!file) return null;
  return { benchmark: payload.benchmark, file, versions: payload.versions[d.host] ?? [], released: payload.released, writeups };
}

/** A write-up as the home chart marks it: the fields it reads from the write-up's frontmatter. */
export interface WriteupFields {
  id: string;
  title: string;
  versions: string[];
  seriesKeys: string[];
}

/**
 * Where each write-up belongs on the home chart: the release series it studies (catalogue order) and the
 * kinds of cost of the series it names, looked up in summary.json (a series not measured says nothing).
 */
export function writeupRefs(summary: Summary, writeups: readonly WriteupFields[]): WriteupRef[] {
  const byKey = new Map(summary.entries.map((e) => [e.key, e]));
  const seriesOfVersion = new Map(summary.entries.map((e) => [e.version, e.series]));
  return writeups.map((w) => ({
    id: w.id,
    title: w.title,
    series: [...new Set(w.versions.map((v) => seriesOfVersion.get(v) ?? seriesFromCatalogue(v)).filter((s): s is string => s !== null))].sort(compareSeries),
    families: [
      ...new Set(
        w.seriesKeys
          .map((k) => byKey.get(k))
          .filter((e) => e !== undefined)
          .map((e) => `${e.benchmark}:${METHOD_FAMILY[e.method] ?? e.method}`),
      ),
    ].sort(),
  }));
}

/** A version summary.json does not hold: its series from the catalogue, or nothing for an unknown version. */
function seriesFromCatalogue(version: string): string | null {
  try {
    return seriesOf(version).series;
  } catch {
    return null;
  }
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

/**
 * A version's page per host and benchmark (/versions/<slug>/<host>/<benchmark>): every table of that benchmark
 * on that host. Split by host too, since each host's tables alone can fill a page budget.
 */
export interface VersionBenchmarkPage {
  page: VersionPage;
  host: string;
  benchmark: string;
}

export const benchmarkPagePath = (p: { slug: string; host: string; benchmark: string }) => `/versions/${p.slug}/${p.host}/${p.benchmark}`;

export function versionBenchmarkPages(summary: Summary): VersionBenchmarkPage[] {
  return versionPages(summary).flatMap((page) =>
    page.hosts.flatMap((host) => {
      const benchmarks = new Set(summary.entries.filter((e) => e.host === host && versionSlug(e.version, e.variant) === page.slug).map((e) => e.benchmark));
      return [...benchmarks].sort().map((benchmark) => ({ page, host, benchmark }));
    }),
  );
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

// ------------------------------------------------------------------ write-ups

/** Every summary entry of one series key (optionally limited to versions), oldest version first. */
export function seriesEntries(summary: Summary, key: string, versions?: readonly string[]): Entry[] {
  return summary.entries
    .filter((e) => e.key === key && (!versions || versions.length === 0 || versions.includes(e.version)))
    .sort((a, b) => a.host.localeCompare(b.host) || byVersion(a, b));
}
