// The home chart's data types and the logic shared by the build and the browser script.
// No runtime imports: this file is bundled into the page's script.

export const GROUP_MODES = ['default', 'X25519'] as const;
export type GroupMode = (typeof GROUP_MODES)[number];
export const GROUP_LABEL: Record<GroupMode, string> = {
  default: 'library defaults (both sides)',
  X25519: 'pinned X25519 (both sides)',
};

export interface JourneyPoint {
  version: string;
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
}

export interface Journey {
  host: string;
  metric: string;
  label: string;
  unit: string;
  method: string;
  higherIsBetter: boolean;
  config: string;
  groups: GroupMode;
  points: JourneyPoint[];
}

/** Said under the chart when its points come from more than one run. */
export function mixedRunsNote(points: readonly JourneyPoint[]): string {
  const runs = new Set(points.filter((p) => p.median !== null).map((p) => p.run));
  return runs.size > 1
    ? ` These values come from ${runs.size} runs (see the Run column): versions measured in different runs were not interleaved with each other, so a difference between them is less certain than their intervals suggest.`
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
export type JourneyMeta = Omit<Journey, 'points'> & { file: string };

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

/** Options of each control given the others, so a selection never lands on nothing. */
export function optionsFor(journeys: readonly JourneyBase[], s: Pick<Selection, 'host' | 'metric'>) {
  const onHost = journeys.filter((j) => j.host === s.host);
  // a metric's label names it only when every configuration shares it (some labels name a parameter)
  const labels = new Map<string, Set<string>>();
  for (const j of onHost) (labels.get(j.metric) ?? labels.set(j.metric, new Set()).get(j.metric)!).add(`${j.label} (${j.unit})`);
  const metrics = [...labels.entries()]
    .map(([m, ls]): [string, string] => [m, ls.size === 1 ? [...ls][0]! : `${m} (${onHost.find((j) => j.metric === m)!.unit})`])
    .sort((a, b) => a[0].localeCompare(b[0]));
  const configs = [...new Set(onHost.filter((j) => j.metric === s.metric).map((j) => j.config))].sort();
  return { metrics, configs };
}

export function groupsAvailable(journeys: readonly JourneyBase[], s: Omit<Selection, 'groups'>): GroupMode[] {
  return GROUP_MODES.filter((g) => findJourney(journeys, { ...s, groups: g }));
}
