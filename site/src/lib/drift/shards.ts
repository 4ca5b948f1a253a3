// The drift page's data files: from the time-series files of every host and year, an index (metrics,
// hosts, which builds have values in which years) and shards. Runs at build time; the browser only
// reads the shards' types.
//
// Shards (what the browser loads): per host and year, the runs (date, id, mode, quiet, file) and the step
// changes between consecutive runs; per host, year, metric and build, the nightly medians. A page loads
// the years it shows, never the whole history.
import type { StepChange, Timeseries } from '../../../../schema/index.ts';

/** [startedAt, runId, mode, quiet (1/0), path of the run file relative to data/] */
export type ShardRun = [string, string, string, 0 | 1, string];
/** [index into runs, kind, build or null, from, to] */
export type ShardChange = [number, StepChange['kind'], string | null, string | null, string | null];
/** [index into runs, median, interval low, interval high, n] */
export type ShardPoint = [number, number, number | null, number | null, number];

export interface DriftRunsShard {
  host: string;
  year: number;
  runs: ShardRun[];
  changes: ShardChange[];
}
export interface DriftValuesShard {
  host: string;
  year: number;
  metric: string;
  build: string;
  points: ShardPoint[];
}
export interface DriftMetric {
  id: string;
  title: string;
  unit: string;
  method: string;
  higherIsBetter: boolean;
  deterministic: boolean;
}
export interface DriftBuild {
  /** URL-safe: "3.5.7" or "3.5.7-no-ml-kem" */
  slug: string;
  /** as a reader sees it (and as step changes name it): "3.5.7" or "3.5.7 no-ml-kem" */
  name: string;
}
/** [index into builds, the years with values, how many values] */
export type DriftAvailability = [number, number[], number];
export interface DriftHost {
  /** the machine id: one machine's history, never another's (a different machine has its own time series) */
  id: string;
  /** how readers name the machine (machines.ts machineLabel, given by the caller; the id where none) */
  machine: string;
  years: number[];
  runs: number;
  /** startedAt of the host's newest run */
  last: string;
  /** startedAt of the host's newest quiet run ('' without one): which host the page opens on */
  lastQuiet: string;
  builds: DriftBuild[];
  /** per metric (index into metrics): which builds have values, and in which years */
  series: [number, DriftAvailability[]][];
}
export interface DriftIndex {
  metrics: DriftMetric[];
  hosts: DriftHost[];
}

export const buildName = (version: string, variant: string) => (variant === 'default' ? version : `${version} ${variant}`);
/** A build's name in a URL or key: the name with its space made a dash ("3.5.7 no-ml-kem" -> "3.5.7-no-ml-kem"). */
export const slugOfBuildName = (name: string) => name.replace(' ', '-');
export const buildSlug = (version: string, variant: string) => slugOfBuildName(buildName(version, variant));

/** Everything the drift page and its data files need, from the time-series files of every host and year. */
export function driftShards(
  files: readonly Timeseries[],
  describe: (host: string) => string = (host) => host,
): { index: DriftIndex; runs: DriftRunsShard[]; values: DriftValuesShard[] } {
  const metrics: DriftMetric[] =
    files[0]?.metrics.map((m) => ({
      id: m.id,
      title: m.title,
      unit: m.unit,
      method: m.method,
      higherIsBetter: m.higherIsBetter,
      deterministic: m.deterministic,
    })) ?? [];
  const metricIndex = new Map(metrics.map((m, i) => [m.id, i]));
  const runs: DriftRunsShard[] = [];
  const values = new Map<string, DriftValuesShard>();
  const hosts = new Map<string, { host: DriftHost; avail: Map<string, { metric: number; build: string; years: Set<number>; points: number }> }>();
  for (const f of [...files].sort((a, b) => (a.host < b.host ? -1 : a.host > b.host ? 1 : a.year - b.year))) {
    let h = hosts.get(f.host);
    if (!h)
      hosts.set(
        f.host,
        (h = { host: { id: f.host, machine: describe(f.host), years: [], runs: 0, last: '', lastQuiet: '', builds: [], series: [] }, avail: new Map() }),
      );
    h.host.years.push(f.year);
    h.host.runs += f.runs.length;
    for (const r of f.runs) {
      if (r.startedAt > h.host.last) h.host.last = r.startedAt;
      if (r.quiet && r.startedAt > h.host.lastQuiet) h.host.lastQuiet = r.startedAt;
    }
    const shard: DriftRunsShard = { host: f.host, year: f.year, runs: [], changes: [] };
    f.runs.forEach((r, i) => {
      shard.runs.push([r.startedAt, r.runId, r.mode, r.quiet ? 1 : 0, r.path]);
      for (const c of r.changes) shard.changes.push([i, c.kind, c.build ?? null, c.from, c.to]);
      for (const [m, b, median, low, high, n] of r.values) {
        const build = r.builds[b]!;
        // the drift page follows OpenSSL builds night after night; other libraries are on /libraries
        if (build.library) continue;
        const metric = f.metrics[m]!.id;
        const slug = buildSlug(build.version, build.variant);
        const key = `${f.host}/${f.year}/${metric}/${slug}`;
        let v = values.get(key);
        if (!v) values.set(key, (v = { host: f.host, year: f.year, metric, build: slug, points: [] }));
        v.points.push([i, median, low, high, n]);
        if (!h.host.builds.some((x) => x.slug === slug)) h.host.builds.push({ slug, name: buildName(build.version, build.variant) });
        const a = h.avail.get(`${metric}/${slug}`) ?? { metric: metricIndex.get(metric) ?? -1, build: slug, years: new Set<number>(), points: 0 };
        h.avail.set(`${metric}/${slug}`, a);
        a.years.add(f.year);
        a.points++;
      }
    });
    runs.push(shard);
  }
  const out: DriftHost[] = [];
  for (const { host, avail } of hosts.values()) {
    host.builds.sort((a, b) => compareBuildNames(a.name, b.name));
    const slugIndex = new Map(host.builds.map((b, i) => [b.slug, i]));
    const byMetric = new Map<number, DriftAvailability[]>();
    for (const a of avail.values()) {
      if (a.metric < 0) continue;
      const list = byMetric.get(a.metric) ?? [];
      list.push([slugIndex.get(a.build)!, [...a.years].sort(), a.points]);
      byMetric.set(a.metric, list);
    }
    host.series = [...byMetric].sort((a, b) => a[0] - b[0]).map(([m, list]) => [m, list.sort((a, b) => a[0] - b[0])]);
    out.push(host);
  }
  return { index: { metrics, hosts: out }, runs, values: [...values.values()] };
}

/** Version order (1.1.1w < 3.0.22 < 3.10.0), variants after their version. */
export function compareBuildNames(a: string, b: string): number {
  const parts = (s: string) =>
    s
      .split(' ')[0]!
      .split(/[.]/)
      .map((p) => /^\d+/.exec(p)?.[0] ?? p);
  const pa = parts(a);
  const pb = parts(b);
  for (let i = 0; i < Math.max(pa.length, pb.length); i++) {
    const d = Number(pa[i] ?? 0) - Number(pb[i] ?? 0);
    if (d) return d;
  }
  return a < b ? -1 : a > b ? 1 : 0;
}
