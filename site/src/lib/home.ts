// What the home page says first, computed at build time from the journey (summary.json): the chart's
// default view and the one step it leads with. Pure; unit-tested.
import {
  GROUP_MODES,
  changeCell,
  familyOf,
  findJourney,
  stepsFor,
  type ChangeCell,
  type Journey,
  type JourneyPoint,
  type Step,
  type WriteupRef,
} from './journey-view.ts';
import type { JourneyPayload } from './model.ts';
import { isTiming } from './runs.ts';
import { fractionText } from './format.ts';

/** The deterministic count a CPU-time step must agree with before it may lead the page. */
export const COUNT_METRIC = 'instructions-per-handshake';
/** The parameters a timing series and its instruction-count series share (groups are matched by mode). */
const SHARED_PARAMS = ['cert', 'proto', 'resume', 'clientCtx'];

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
  /** the instruction counts of the first line's configuration (same host, groups and shared parameters), if measured */
  counts: Journey | null;
}

const configParams = (config: string) =>
  new Map(
    config
      .split(', ')
      .filter(Boolean)
      .map((kv) => [kv.slice(0, kv.indexOf('=')), kv.slice(kv.indexOf('=') + 1)]),
  );

/**
 * The instruction-count line beside a timing line: same host and group mode, the same values of the
 * parameters they share (cert, proto, resume, clientCtx); the count series has no thread or side variants
 * of its own, so those are not matched. The identical configuration first where there are several.
 */
export function countsFor(journeys: readonly Journey[], line: Journey): Journey | null {
  const want = configParams(line.config);
  const same = journeys.filter(
    (j) =>
      j.host === line.host &&
      j.groups === line.groups &&
      j.metric.split(':')[0] === COUNT_METRIC &&
      SHARED_PARAMS.every((k) => configParams(j.config).get(k) === want.get(k)),
  );
  return same.find((j) => j.config === line.config) ?? same[0] ?? null;
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
  return { ...d, lines, versions, released: payload.released, baseline, steps, counts: countsFor(payload.journeys, lines[0]!) };
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
  /** the instruction counts of the two versions that let a timing step lead (null for a deterministic line) */
  counts: { before: number; after: number; ratio: number; unit: string; method: string } | null;
}

/** The sentence said with the headline: the rule that chose it (threshold: summary.statistics.deterministicThreshold). */
export const headlineRule = (threshold: number) =>
  `Chosen among the steps whose paired CPU-time change (one run) is matched by a change of more than ${fractionText(threshold)} in the deterministic instruction count in the same direction; steps without that agreement are not headlined.`;

/**
 * Whether a significant step may lead the page. Many paired comparisons each carry a few per cent chance of a
 * false call, so the largest of them is often one: a timing step leads only where the instruction count of
 * the same configuration on the same host moved between the same two versions by more than the
 * deterministic threshold, in the same direction (fewer instructions where the timing improved). Without an
 * instruction-count series the step is not eligible. A deterministic line's own step needs no second witness.
 */
export function countAgreement(
  line: Journey,
  counts: Journey | null,
  before: JourneyPoint,
  after: JourneyPoint,
  threshold: number,
): Headline['counts'] | false {
  if (!isTiming(line.method)) return null;
  if (!counts || !after.prev) return false;
  const cb = counts.points.find((p) => p.version === before.version)?.median ?? null;
  const ca = counts.points.find((p) => p.version === after.version)?.median ?? null;
  if (cb === null || ca === null || cb <= 0) return false;
  const ratio = ca / cb;
  if (Math.abs(ratio - 1) <= threshold) return false;
  const timingBetter = after.prev.ratio > 1 === line.higherIsBetter;
  const countBetter = ratio > 1 === counts.higherIsBetter;
  return timingBetter === countBetter ? { before: cb, after: ca, ratio, unit: counts.unit, method: counts.method } : false;
}

/**
 * The step the page leads with: the largest change between neighbouring versions of the first line that
 * summary.json shows as significant (paired within one run) and that the instruction count agrees with
 * (countAgreement, headlineRule). Null when no step is both.
 */
export function headline(view: HomeView, threshold: number): Headline | null {
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
    const counts = countAgreement(line, view.counts, before, after, threshold);
    if (counts === false) continue;
    const o = others[0];
    const oAfter = o?.points.find((p) => p.version === after.version);
    const oBefore = o?.points.find((p) => p.version === before.version);
    const other = o && oAfter && oAfter.median !== null ? { line: o, after: oAfter, change: changeCell(oAfter, oBefore, 'prev', o.higherIsBetter) } : null;
    best = { from: before.version, to: after.version, line, before, after, change, other, step: view.steps.find((s) => s.version === after.version), counts };
  }
  return best;
}

/** The newest measured point of the first line: the number the page shows when no step may lead. */
export function newestPoint(view: HomeView): { line: Journey; point: JourneyPoint } | null {
  for (const line of view.lines) {
    const p = [...line.points].reverse().find((x) => view.versions.includes(x.version) && x.median !== null);
    if (p) return { line, point: p };
  }
  return null;
}
