// The drift view: one headline metric of one build on one host, night after night, as a control chart.
// Pure (no DOM, no runtime imports but types, number formatting and the default host): the page draws its first chart with
// it at build time and the browser script draws every other selection with the same code.
//
// Shards (what the browser loads): per host and year, the runs (date, id, mode, quiet, file) and the step
// changes between consecutive runs; per host, year, metric and build, the nightly medians. A page loads
// the years it shows, never the whole history.
import type { StepChange, Timeseries } from '../../../schema/index.ts';
import { median } from '../../../analysis/stats.ts';
import { axisScale, tickText } from './chart-text.ts';
import { num, runWords } from './format.ts';
import { defaultHost } from './hosts.ts';

// ---------------------------------------------------------------- shards

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

// ---------------------------------------------------------------- the chart's model

export interface DriftPoint {
  t: number;
  runId: string;
  mode: string;
  quiet: boolean;
  path: string;
  median: number;
  low: number | null;
  high: number | null;
  n: number;
}
export interface DriftMarker {
  t: number;
  runId: string;
  changes: { kind: StepChange['kind']; build: string | null; from: string | null; to: string | null }[];
}
export interface DriftSegment {
  from: number;
  to: number;
  points: DriftPoint[];
  quietNights: number;
  /** median of the quiet nights' medians */
  center: number | null;
  /** half-width of the band: 3 x 1.4826 x the median absolute deviation (a robust 3-sigma) */
  halfWidth: number | null;
  /** quiet nights outside the band */
  outside: DriftPoint[];
  /** the change that starts this segment (null for the first) */
  startedBy: DriftMarker | null;
  /** this segment's center against the previous segment's, when both have one */
  shift: number | null;
}
export interface DriftView {
  points: DriftPoint[];
  markers: DriftMarker[];
  segments: DriftSegment[];
}

/** A band needs this many quiet nights between two step changes: fewer medians say little about spread. */
export const MIN_BAND_NIGHTS = 5;
/** Control limits at 3 robust standard deviations (1.4826 x MAD estimates sigma for normal noise). */
export const BAND_SIGMAS = 3;

/**
 * The view of one build's values: runs and changes of the years loaded (merged), the points of this build,
 * markers where something changed that can move this build's values (any host-level change, and a
 * compiler or build change of this build), and one segment per stretch between markers with its band.
 */
export function driftView(runShards: readonly DriftRunsShard[], valueShards: readonly DriftValuesShard[], build: string, since = -Infinity): DriftView {
  const byYear = new Map(runShards.map((s) => [s.year, s]));
  const points: DriftPoint[] = [];
  for (const v of valueShards) {
    const rs = byYear.get(v.year);
    if (!rs) continue;
    for (const [i, median, low, high, n] of v.points) {
      const [t, runId, mode, quiet, path] = rs.runs[i]!;
      if (Date.parse(t) >= since) points.push({ t: Date.parse(t), runId, mode, quiet: quiet === 1, path, median, low, high, n });
    }
  }
  points.sort((a, b) => a.t - b.t);
  const markers: DriftMarker[] = [];
  for (const rs of [...runShards].sort((a, b) => a.year - b.year))
    for (const [i, kind, b, from, to] of rs.changes) {
      if ((kind === 'compiler' || kind === 'build') && b !== build) continue;
      const [t, runId] = rs.runs[i]!;
      const at = Date.parse(t);
      const last = markers[markers.length - 1];
      if (last && last.runId === runId) last.changes.push({ kind, build: b, from, to });
      else markers.push({ t: at, runId, changes: [{ kind, build: b, from, to }] });
    }
  // only markers inside the shown stretch split it
  const first = points[0]?.t ?? 0;
  const inside = markers.filter((m) => m.t > first);
  const segments: DriftSegment[] = [];
  for (let k = 0; k <= inside.length; k++) {
    const begin = k === 0 ? -Infinity : inside[k - 1]!.t;
    const end = k < inside.length ? inside[k]!.t : Infinity;
    const pts = points.filter((p) => p.t >= begin && p.t < end);
    if (!pts.length) continue;
    const quiet = pts.filter((p) => p.quiet);
    const center = quiet.length ? median(quiet.map((p) => p.median)) : null;
    const halfWidth = center !== null && quiet.length >= MIN_BAND_NIGHTS ? BAND_SIGMAS * 1.4826 * median(quiet.map((p) => Math.abs(p.median - center))) : null;
    const prev = [...segments].reverse().find((s) => s.center !== null);
    segments.push({
      from: pts[0]!.t,
      to: pts[pts.length - 1]!.t,
      points: pts,
      quietNights: quiet.length,
      center,
      halfWidth,
      outside: halfWidth === null || center === null ? [] : quiet.filter((p) => Math.abs(p.median - center) > halfWidth),
      startedBy: k === 0 ? null : inside[k - 1]!,
      shift: prev && center !== null && prev.center ? center / prev.center - 1 : null,
    });
  }
  return { points, markers: markers.filter((m) => points.length && m.t >= first && m.t <= points[points.length - 1]!.t), segments };
}

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

// ---------------------------------------------------------------- words

const KIND_TEXT: Record<StepChange['kind'], string> = {
  harness: 'harness commit',
  kernel: 'kernel',
  microcode: 'microcode',
  compiler: 'compiler',
  build: 'build',
  os: 'operating system',
  cpu: 'CPU',
};
const KIND_LETTER: Record<StepChange['kind'], string> = { harness: 'H', kernel: 'K', microcode: 'M', compiler: 'C', build: 'B', os: 'OS', cpu: 'CPU' };
export const markerLetters = (m: DriftMarker) => [...new Set(m.changes.map((c) => KIND_LETTER[c.kind]))].join('');
/** A commit as git abbreviates it (the full hash is in the run files); other values whole. */
const shortRef = (v: string | null | undefined) => (v == null ? 'unknown' : v.replace(/\b([0-9a-f]{7})[0-9a-f]{33}\b/g, '$1'));
export const markerText = (m: DriftMarker) =>
  m.changes.map((c) => `${KIND_TEXT[c.kind]}${c.build ? ` of ${c.build}` : ''}: ${shortRef(c.from)} → ${shortRef(c.to)}`).join('; ');
export const day = (t: number) => new Date(t).toISOString().slice(0, 10);
const signedPct = (r: number) => `${r >= 0 ? '+' : '−'}${Math.abs(r * 100).toFixed(Math.abs(r) < 0.001 ? 2 : 1)}%`;

/** What the chart shows and what it cannot show yet, in sentences with the numbers from the view. */
export function driftSentences(view: DriftView, metric: DriftMetric): string[] {
  const out: string[] = [];
  const n = view.points.length;
  const quiet = view.points.filter((p) => p.quiet).length;
  if (n === 0) return ['No run has measured this series on this host yet.'];
  out.push(
    `${n} night${n === 1 ? '' : 's'} from ${day(view.points[0]!.t)} to ${day(view.points[n - 1]!.t)}, ${quiet} of them quiet; ${view.markers.length} step change${view.markers.length === 1 ? '' : 's'} (harness, kernel, microcode, operating system, CPU, or this build's compiler or build).`,
  );
  const last = view.segments[view.segments.length - 1]!;
  if (metric.deterministic) {
    const distinct = new Set(view.points.map((p) => p.median)).size;
    out.push(
      distinct === 1
        ? `This count is deterministic and has not changed over these nights: ${num(view.points[0]!.median)} ${metric.unit}.`
        : `This count is deterministic: it took ${distinct} different values, each a change of the code, the build or the harness, not noise.`,
    );
  } else if (last.halfWidth !== null && last.center) {
    out.push(
      `Since ${last.startedBy ? `the last step change (${day(last.startedBy.t)})` : 'the first night'}, the nightly medians of quiet runs lie within ±${((last.halfWidth / last.center) * 100).toFixed(1)}% of their median ${num(last.center)} ${metric.unit} (the band: ${BAND_SIGMAS} robust standard deviations). A difference between two versions smaller than this is within this machine's own night-to-night drift.`,
    );
    if (last.outside.length) out.push(`${last.outside.length} quiet night${last.outside.length === 1 ? '' : 's'} of that stretch fall outside the band.`);
  } else {
    out.push(
      `No band yet: a band needs at least ${MIN_BAND_NIGHTS} quiet nights with no step change between them (the latest stretch has ${last.quietNights}).`,
    );
  }
  for (const s of view.segments)
    if (s.startedBy && s.shift !== null)
      out.push(`After the change of ${day(s.startedBy.t)} (${markerText(s.startedBy)}), the median moved ${signedPct(s.shift)}.`);
  return out;
}

// ---------------------------------------------------------------- the chart

const esc = (s: string) => s.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);

/** About five round tick values covering [lo, hi]. */
export function ticks(lo: number, hi: number, count = 5): number[] {
  if (!(hi > lo)) return [lo];
  const raw = (hi - lo) / count;
  const mag = 10 ** Math.floor(Math.log10(raw));
  const step = [1, 2, 2.5, 5, 10].map((m) => m * mag).find((s) => s >= raw)!;
  const out: number[] = [];
  for (let v = Math.ceil(lo / step) * step; v <= hi + step * 1e-9; v += step) out.push(Number(v.toPrecision(12)));
  return out;
}

/** The control chart as SVG markup: bands and medians per segment, a point per night, a line per step change. */
export function driftSvg(view: DriftView, metric: DriftMetric, label: string): string {
  const W = 760;
  const H = 340;
  const m = { l: 78, r: 16, t: 28, b: 44 };
  const pts = view.points;
  if (!pts.length) return '';
  const t0 = pts[0]!.t;
  const t1 = pts[pts.length - 1]!.t;
  const pad = Math.max((t1 - t0) * 0.02, 2 * 86_400_000);
  const x0 = t0 - pad;
  const x1 = t1 + pad;
  const ys = pts.flatMap((p) => [p.median, ...(p.low !== null ? [p.low] : []), ...(p.high !== null ? [p.high] : [])]);
  for (const s of view.segments) if (s.center !== null && s.halfWidth !== null) ys.push(s.center - s.halfWidth, s.center + s.halfWidth);
  let lo = Math.min(...ys);
  let hi = Math.max(...ys);
  const spread = hi - lo || Math.abs(hi) * 0.01 || 1;
  lo -= spread * 0.08;
  hi += spread * 0.08;
  const X = (t: number) => m.l + ((t - x0) / (x1 - x0)) * (W - m.l - m.r);
  const Y = (v: number) => H - m.b - ((v - lo) / (hi - lo)) * (H - m.t - m.b);
  const f = (v: number) => v.toFixed(1);
  const parts: string[] = [];
  parts.push(`<svg viewBox="0 0 ${W} ${H}" role="img" aria-labelledby="drift-title drift-desc" class="drift-svg">`);
  parts.push(`<title id="drift-title">${esc(label)}</title>`);
  parts.push(`<desc id="drift-desc">${esc(driftSentences(view, metric).join(' '))}</desc>`);
  // axes and grid
  // ticks are numbers in one scale, the unit (in that scale) is the axis title: "720.7 handshakes/s" on every tick did not fit
  const scale = axisScale(metric.unit, metric.method, Math.max(Math.abs(lo), Math.abs(hi)));
  for (const v of ticks(lo, hi, 6))
    parts.push(
      `<g class="grid"><line x1="${m.l}" x2="${W - m.r}" y1="${f(Y(v))}" y2="${f(Y(v))}"/><text x="${m.l - 6}" y="${f(Y(v) + 4)}" text-anchor="end">${esc(tickText(v, scale))}</text></g>`,
    );
  const days = (t1 - t0) / 86_400_000;
  const dates: number[] = [];
  const d = new Date(t0);
  d.setUTCHours(0, 0, 0, 0);
  if (days > 60) d.setUTCDate(1);
  while (d.getTime() <= x1) {
    if (d.getTime() >= x0) dates.push(d.getTime());
    if (days > 400) d.setUTCMonth(d.getUTCMonth() + 3);
    else if (days > 60) d.setUTCMonth(d.getUTCMonth() + 1);
    else d.setUTCDate(d.getUTCDate() + Math.max(1, Math.ceil(days / 8)));
  }
  for (const t of dates)
    parts.push(`<text class="xtick" x="${f(X(t))}" y="${H - m.b + 16}" text-anchor="middle">${days > 60 ? day(t).slice(0, 7) : day(t).slice(5)}</text>`);
  parts.push(`<text class="ylabel" x="4" y="${m.t - 12}">${esc(scale.suffix)}</text>`);
  parts.push(`<line class="axis" x1="${m.l}" x2="${W - m.r}" y1="${H - m.b}" y2="${H - m.b}"/>`);
  // bands and centers
  for (const s of view.segments) {
    if (s.center === null) continue;
    const a = X(s.from) - 3;
    const b = X(s.to) + 3;
    if (s.halfWidth !== null)
      parts.push(
        `<rect class="band" x="${f(a)}" width="${f(b - a)}" y="${f(Y(s.center + s.halfWidth))}" height="${f(Math.max(1, Y(s.center - s.halfWidth) - Y(s.center + s.halfWidth)))}"/>`,
      );
    parts.push(`<line class="center" x1="${f(a)}" x2="${f(b)}" y1="${f(Y(s.center))}" y2="${f(Y(s.center))}"/>`);
  }
  // step changes
  for (const mk of view.markers) {
    const x = X(mk.t - 12 * 3_600_000);
    parts.push(
      `<g class="change"><title>${esc(`${day(mk.t)}: ${markerText(mk)}`)}</title><line x1="${f(x)}" x2="${f(x)}" y1="${m.t}" y2="${H - m.b}"/><text x="${f(x)}" y="${m.t - 4}" text-anchor="middle">${esc(markerLetters(mk))}</text></g>`,
    );
  }
  // nights
  const out = new Set(view.segments.flatMap((s) => s.outside));
  const whiskers = pts.length <= 400;
  for (const p of pts) {
    const cls = ['pt', p.quiet ? '' : 'notquiet', out.has(p) ? 'out' : ''].filter(Boolean).join(' ');
    const text = `${day(p.t)}: ${num(p.median)} ${metric.unit}${p.low !== null && p.high !== null ? ` [${num(p.low)} – ${num(p.high)}]` : ''}, n=${p.n}, ${runWords(p.runId)}${p.quiet ? '' : ' (not quiet: left out of the band)'}${out.has(p) ? ' (outside the band)' : ''}`;
    const iv =
      whiskers && p.low !== null && p.high !== null ? `<line class="iv" x1="${f(X(p.t))}" x2="${f(X(p.t))}" y1="${f(Y(p.low))}" y2="${f(Y(p.high))}"/>` : '';
    parts.push(`<g class="${cls}"><title>${esc(text)}</title>${iv}<circle cx="${f(X(p.t))}" cy="${f(Y(p.median))}" r="3.5"/></g>`);
  }
  parts.push('</svg>');
  return parts.join('');
}

/** The most recent nights as table rows: date, median, interval, n, quiet, run, what changed that night. */
export function recentRows(
  view: DriftView,
  count = 30,
): {
  date: string;
  median: number;
  low: number | null;
  high: number | null;
  n: number;
  quiet: boolean;
  mode: string;
  runId: string;
  path: string;
  changed: string;
}[] {
  const changes = new Map(view.markers.map((mk) => [mk.runId, markerText(mk)]));
  return view.points
    .slice(-count)
    .reverse()
    .map((p) => ({
      date: day(p.t),
      median: p.median,
      low: p.low,
      high: p.high,
      n: p.n,
      quiet: p.quiet,
      mode: p.mode,
      runId: p.runId,
      path: p.path,
      changed: changes.get(p.runId) ?? '',
    }));
}
