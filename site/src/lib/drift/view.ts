// The drift chart's model: one build's nightly medians from the loaded shards, a marker per step change
// that can move them, and a control band per stretch between markers. Pure (no DOM): the page draws its
// first chart with it at build time and the browser script every other selection.
import type { StepChange } from '../../../../schema/index.ts';
import { median } from '../../../../analysis/stats.ts';
import type { DriftRunsShard, DriftValuesShard } from './shards.ts';

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
