// The home chart's data types and the logic shared by the build and the browser script.
// Runtime imports only from format.ts (pure): this file is bundled into the page's script.
import { VERDICT_TEXT, coverageText, pct, pctRange } from './format.ts';
import { paramWords } from '../../../catalogue/words.ts';

export const GROUP_MODES = ['default', 'X25519'] as const;
export type GroupMode = (typeof GROUP_MODES)[number];
export const GROUP_LABEL: Record<GroupMode, string> = {
  default: 'library defaults (both sides)',
  X25519: 'pinned X25519 (both sides)',
};
/** Legend and column names. */
export const GROUP_SHORT: Record<GroupMode, string> = { default: 'Library defaults', X25519: 'Pinned X25519' };

export type Verdict = 'higher' | 'lower' | 'no-difference-shown' | 'within-threshold' | 'not-enough-data';

/** A comparison summary.json measured within one run (paired by round, or exact for deterministic metrics). */
export interface StepComparison {
  against: string;
  ratio: number;
  low: number | null;
  high: number | null;
  coverage: number | null;
  verdict: Verdict;
  deterministic: boolean;
}

export interface JourneyPoint {
  version: string;
  /** release series of the version ("3.5"): the time axis places it at the series' release date */
  series: string;
  /** the summary.json series key this point is */
  key: string;
  status: 'measured' | 'unsupported' | 'failed';
  median: number | null;
  low: number | null;
  high: number | null;
  n: number;
  /** line segments break where this changes; null = not comparable with any other version */
  segment: string | null;
  reason: string | null;
  negotiated: string | null;
  /** the run this value comes from: values of different runs were not interleaved with each other */
  run: string | null;
  /** summary.json's comparison against the previous series measured in the same run */
  prev: StepComparison | null;
  /** summary.json's comparison against the baseline version, same run */
  base: StepComparison | null;
}

export interface Journey {
  host: string;
  /** metric id with the side it counts, e.g. "cpu-per-handshake:client" */
  metric: string;
  /** what is measured, in full (the series label without its configuration part) */
  label: string;
  unit: string;
  method: string;
  higherIsBetter: boolean;
  /** the parameters other than groups and side, as "k=v, ..." (the identity of the configuration) */
  config: string;
  groups: GroupMode;
  /** the points of the chart: for a timing measure, all of one run (lib/runs.ts) */
  points: JourneyPoint[];
  /** points of a timing measure that other runs measured, per run: shown in tables of their own, never on the line */
  apart?: { run: string; points: JourneyPoint[] }[];
}

/** The host, run and method of each point a chart or table shows (what lib/runs.ts's runAttrs reads). */
export const pointRuns = (lines: readonly Journey[], points: (l: Journey) => readonly JourneyPoint[] = (l) => l.points) =>
  lines.flatMap((l) => points(l).map((p) => ({ host: l.host, runId: p.run ?? '', method: l.method })));

/** Said under the chart when its points come from more than one run. */
export function mixedRunsNote(points: readonly JourneyPoint[]): string {
  const runs = new Set(points.filter((p) => p.median !== null).map((p) => p.run));
  return runs.size > 1
    ? ` These values come from ${runs.size} runs: versions measured in different runs were not interleaved with each other, so a difference between them is less certain than their intervals suggest.`
    : '';
}

/** Consecutive measured points of one comparability segment: the only points a line may join. */
export function lineRuns(points: readonly JourneyPoint[]): JourneyPoint[][] {
  const runs: JourneyPoint[][] = [];
  let current: JourneyPoint[] = [];
  for (const p of points) {
    const prev = current[current.length - 1];
    const joins = p.median !== null && p.segment !== null && prev !== undefined && prev.segment === p.segment;
    if (!joins) {
      if (current.length > 1) runs.push(current);
      current = [];
    }
    if (p.median !== null && p.segment !== null) current.push(p);
  }
  if (current.length > 1) runs.push(current);
  return runs;
}

/** A journey without its points: what the home page loads first. */
export type JourneyMeta = Omit<Journey, 'points' | 'apart'> & { file: string };

/** A write-up as the chart needs it: where it is marked (see stepsFor). */
export interface WriteupRef {
  id: string;
  title: string;
  /** the release series it studies, oldest first ("1.1.1", "3.0", ...) */
  series: string[];
  /** "benchmark:family" of every series it names that summary.json holds (see METHOD_FAMILY) */
  families: string[];
}

/**
 * What the home page loads first: every journey without its points, as rows of indexes into shared tables
 * (a full run has thousands of journeys whose configuration strings repeat).
 */
export interface JourneyIndex {
  benchmark: string;
  hosts: string[];
  /** x axis: every default-variant version measured on a host, oldest first */
  versions: Record<string, string[]>;
  defaults: { host: string; metric: string; config: string } | null;
  metrics: { id: string; unit: string; method: string; higherIsBetter: boolean }[];
  labels: string[];
  configs: string[];
  /** [host, metric, config, label, groups (index into GROUP_MODES), file number] */
  rows: [number, number, number, number, number, number][];
}

/**
 * What the home page's script starts from, embedded in the page: enough to redraw the default view from
 * its one journey file. The index (every other measurement) loads only when a reader asks for another.
 */
export interface JourneyInit {
  benchmark: string;
  /** the journey file of the default view */
  file: string;
  /** x axis of the default host */
  versions: string[];
  /** first release date (x.y.0) of each version's series, for the time axis */
  released: Record<string, string>;
  writeups: WriteupRef[];
}

export function expandIndex(ix: JourneyIndex): JourneyMeta[] {
  return ix.rows.map(([h, m, c, l, g, f]) => {
    const metric = ix.metrics[m]!;
    return {
      host: ix.hosts[h]!,
      metric: metric.id,
      label: ix.labels[l]!,
      unit: metric.unit,
      method: metric.method,
      higherIsBetter: metric.higherIsBetter,
      config: ix.configs[c]!,
      groups: GROUP_MODES[g]!,
      file: `j${f}`,
    };
  });
}

type JourneyBase = Omit<Journey, 'points'>;

export interface Selection {
  host: string;
  metric: string;
  config: string;
  groups: GroupMode;
}

export function findJourney<T extends JourneyBase>(journeys: readonly T[], s: Selection): T | undefined {
  return journeys.find((j) => j.host === s.host && j.metric === s.metric && j.config === s.config && j.groups === s.groups);
}

/**
 * The measurements of a host, one choice per metric and label: a metric whose label changes with a
 * parameter (the ClientHello counted as a message or as a record; instructions inside one function) is
 * as many choices, each named by its label in full. Value: metric and label joined by NUL.
 */
export function measureChoices(journeys: readonly JourneyBase[], host: string): [string, string][] {
  const seen = new Map<string, string>();
  for (const j of journeys) if (j.host === host) seen.set(measureId(j), `${j.label} (${unitWords(j.unit)})`);
  return [...seen.entries()].sort((a, b) => a[1].localeCompare(b[1]));
}

export const measureId = (j: Pick<JourneyBase, 'metric' | 'label'>) => `${j.metric}\u0000${j.label}`;

/** Configurations measured for one measure, in words, identified by their parameter text. */
export function configChoices(journeys: readonly JourneyBase[], host: string, measure: string): [string, string][] {
  const configs = new Set(journeys.filter((j) => j.host === host && measureId(j) === measure).map((j) => j.config));
  return [...configs].sort().map((c) => [c, configText(c)]);
}

export function groupsAvailable(journeys: readonly JourneyBase[], s: Omit<Selection, 'groups'>): GroupMode[] {
  return GROUP_MODES.filter((g) => findJourney(journeys, { ...s, groups: g }));
}

const unitWords = (unit: string) => unit.replace(/^us\//, 'µs per ').replace(/^bytes\/s$/, 'bytes per second');

// ------------------------------------------------------------------ configuration in words

/** "cert=ecdsa-p256, clientCtx=shared, proto=1.3, resume=none, threads=1" -> "TLS 1.3, ECDSA P-256 certificate, ..." (catalogue/words.ts). */
export function configText(config: string): string {
  if (!config || config === '(no parameters)') return 'no parameters';
  const params = Object.fromEntries(
    config.split(', ').map((kv) => {
      const i = kv.indexOf('=');
      return i < 0 ? [kv, ''] : [kv.slice(0, i), kv.slice(i + 1)];
    }),
  );
  return paramWords(params).join(', ');
}

// ------------------------------------------------------------------ changes between steps

export type ChangeKind = 'paired' | 'different-runs' | 'not-comparable' | 'none';

export interface ChangeCell {
  kind: ChangeKind;
  /** "−31.2%"; empty when there is no comparison */
  text: string;
  /** a verdict of higher or lower: the interval of the paired ratio excludes no change */
  significant: boolean;
  tone: 'better' | 'worse' | 'neutral';
  verdict: Verdict | null;
  /** what a reader needs to trust or doubt it, in words (title text and CSV) */
  detail: string;
}

/**
 * The change of a point against a reference point on the same line, as summary.json measured it. Only
 * comparisons within one run exist; a reference from another run is said to be one, never divided.
 */
export function changeCell(point: JourneyPoint, ref: JourneyPoint | undefined, which: 'prev' | 'base', higherIsBetter: boolean): ChangeCell {
  const none = (kind: ChangeKind, detail: string): ChangeCell => ({ kind, text: '', significant: false, tone: 'neutral', verdict: null, detail });
  if (point.median === null) return none('none', 'not measured');
  if (!ref || ref.median === null) return none('none', 'nothing to compare with');
  if (ref.run !== point.run)
    return none('different-runs', `${ref.version} was measured in another run (${ref.run}); values of different runs are not compared`);
  if (ref.segment === null || ref.segment !== point.segment) return none('not-comparable', 'the measurement method differs between these versions');
  const c = point[which];
  if (!c || c.against !== ref.version) return none('none', `summary.json has no comparison with ${ref.version}`);
  const significant = c.verdict === 'higher' || c.verdict === 'lower';
  const tone = !significant ? 'neutral' : (c.verdict === 'higher') === higherIsBetter ? 'better' : 'worse';
  const interval =
    c.low !== null && c.high !== null
      ? `, interval ${pctRange({ low: c.low, high: c.high })}${c.coverage !== null ? ` (covers ${coverageText(c.coverage)})` : ''}`
      : '';
  const how = c.deterministic ? 'exact count' : 'paired by round';
  return {
    kind: 'paired',
    text: pct(c.ratio),
    significant,
    tone,
    verdict: c.verdict,
    detail: `${pct(c.ratio)} vs ${ref.version}${interval}; ${how}: ${VERDICT_TEXT[c.verdict]}`,
  };
}

/** The mark beside a significant change: an arrow in the direction of the value (up = higher). */
export function changeMark(c: ChangeCell): string {
  if (!c.significant) return '';
  return c.verdict === 'higher' ? '▲' : '▼';
}

// ------------------------------------------------------------------ causes: write-ups marked on steps

/** Which write-ups concern a chart: those naming a series of the same benchmark and kind of cost. */
export const METHOD_FAMILY: Record<string, string> = {
  'cpu-time-client': 'cpu',
  'cpu-time-server': 'cpu',
  'cpu-time-both': 'cpu',
  'cpu-time-thread': 'cpu',
  'instruction-count': 'cpu',
  'call-count': 'cpu',
  'wall-clock-throughput': 'cpu',
  'client-user-cpu': 'cpu',
  'openssl-speed': 'cpu',
  'heap-bytes': 'memory',
  'wire-bytes': 'bytes',
};

export interface Step {
  /** the version the step leads to; the step starts at the version before it on the chart */
  version: string;
  from: string;
  n: number;
  writeups: { id: string; title: string }[];
}

/**
 * Each write-up about this kind of cost is marked on one step: the step into the first release series it
 * studies after its oldest one (a write-up on 3.4.0, 3.4.1 and 3.5.7 marks the step into 3.5). Steps are
 * numbered from the left.
 */
export function stepsFor(points: readonly { version: string; series: string }[], family: string, refs: readonly WriteupRef[]): Step[] {
  const byVersion = new Map<string, Step>();
  for (const w of refs) {
    const target = w.series[1];
    if (!w.families.includes(family) || !target) continue;
    const i = points.findIndex((p) => p.series === target);
    if (i < 1) continue;
    const at = points[i]!;
    const step = byVersion.get(at.version) ?? { version: at.version, from: points[i - 1]!.version, n: 0, writeups: [] };
    step.writeups.push({ id: w.id, title: w.title });
    byVersion.set(at.version, step);
  }
  const steps = points.map((p) => byVersion.get(p.version)).filter((s): s is Step => s !== undefined);
  steps.forEach((s, i) => (s.n = i + 1));
  return steps;
}

/** The family key a journey's write-ups are matched on. */
export const familyOf = (benchmark: string, method: string) => `${benchmark}:${METHOD_FAMILY[method] ?? method}`;

/** A label without its parenthesised method note, for a sentence: "Handshakes per second of client + server CPU time". */
export const plainWhat = (label: string) => label.replace(/\s*\([^)]*\)/g, '').trim();
