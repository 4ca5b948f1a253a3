// What the home page says first, computed at build time from the journey (summary.json): the chart's
// default view and the one step it leads with. Pure; unit-tested.
import { GROUP_MODES, changeCell, familyOf, findJourney, stepsFor, type ChangeCell, type Journey, type JourneyPoint, type Step, type WriteupRef } from './journey-view.ts';
import type { JourneyPayload } from './model.ts';

export interface HomeView {
  host: string;
  metric: string;
  config: string;
  /** library defaults first, then pinned X25519, where measured */
  lines: Journey[];
  versions: string[];
  released: Record<string, string>;
  baseline: string;
  steps: Step[];
}

/** The chart as the page opens: the default configuration with every group mode measured in it. */
export function homeView(payload: JourneyPayload, refs: readonly WriteupRef[], baseline: string): HomeView | null {
  const d = payload.defaults;
  if (!d) return null;
  const lines = GROUP_MODES.map((groups) => findJourney(payload.journeys, { ...d, groups })).filter((j): j is Journey => j !== undefined);
  if (!lines.length) return null;
  const present = new Set(lines.flatMap((l) => l.points.map((p) => p.version)));
  const versions = (payload.versions[d.host] ?? []).filter((v) => present.has(v));
  const axis = versions.map((v) => ({ version: v, series: lines.flatMap((l) => l.points).find((p) => p.version === v)!.series }));
  const steps = stepsFor(axis, familyOf(payload.benchmark, lines[0]!.method), refs);
  return { ...d, lines, versions, released: payload.released, baseline, steps };
}

export interface Headline {
  from: string;
  to: string;
  /** the line the step is read on (library defaults where measured) */
  line: Journey;
  before: JourneyPoint;
  after: JourneyPoint;
  change: ChangeCell;
  /** the same step on the other line, when it was measured */
  other: { line: Journey; change: ChangeCell; after: JourneyPoint } | null;
  step: Step | undefined;
}

/**
 * The step the page leads with: the largest change between neighbouring versions of the first line that
 * summary.json shows as significant (paired within one run). Null when no step is.
 */
export function headline(view: HomeView): Headline | null {
  const [line, ...others] = view.lines;
  if (!line) return null;
  const shown = line.points.filter((p) => view.versions.includes(p.version) && p.median !== null);
  let best: Headline | null = null;
  for (let i = 1; i < shown.length; i++) {
    const before = shown[i - 1]!;
    const after = shown[i]!;
    const change = changeCell(after, before, 'prev', line.higherIsBetter);
    if (!change.significant || !after.prev) continue;
    if (best && Math.abs(Math.log(after.prev.ratio)) <= Math.abs(Math.log(best.after.prev!.ratio))) continue;
    const o = others[0];
    const oAfter = o?.points.find((p) => p.version === after.version);
    const oBefore = o?.points.find((p) => p.version === before.version);
    const other = o && oAfter && oAfter.median !== null ? { line: o, after: oAfter, change: changeCell(oAfter, oBefore, 'prev', o.higherIsBetter) } : null;
    best = { from: before.version, to: after.version, line, before, after, change, other, step: view.steps.find((s) => s.version === after.version) };
  }
  return best;
}

/** The newest measured point of the first line: the number the page shows when no step is significant. */
export function newestPoint(view: HomeView): { line: Journey; point: JourneyPoint } | null {
  for (const line of view.lines) {
    const p = [...line.points].reverse().find((x) => view.versions.includes(x.version) && x.median !== null);
    if (p) return { line, point: p };
  }
  return null;
}
