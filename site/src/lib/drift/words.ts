// The drift view in words: step-change labels, the sentences under the chart (also its SVG description)
// and the table of recent nights.
import type { StepChange } from '../../../../schema/index.ts';
import { num } from '../format.ts';
import type { DriftMetric } from './shards.ts';
import { BAND_SIGMAS, MIN_BAND_NIGHTS, type DriftMarker, type DriftView } from './view.ts';

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
