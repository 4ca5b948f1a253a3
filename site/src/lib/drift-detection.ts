// Change detection on the drift view's CPU-time series, per machine: the detector of analysis/changepoint.ts,
// tuned and evaluated on that machine's own noise (the rounds of its committed runs and the spread between
// its quiet nights), and what it finds in the nights measured so far.
import type { DetailedIterations } from '../../../schema/index.ts';
import {
  detectSteps,
  errorRates,
  EVALUATION,
  noiseModel,
  reported,
  simulate,
  tune,
  type DetectedStep,
  type DetectorOptions,
  type ErrorRates,
  type NoiseModel,
} from '../../../analysis/changepoint.ts';
import { HEADLINE_METRICS } from '../../../analysis/headline-metrics.ts';
import { median } from '../../../analysis/stats.ts';
import { slugOfBuildName, type DriftRunsShard, type DriftValuesShard } from './drift/shards.ts';

/** The followed metrics measured in CPU time (handshakes per CPU-second, openssl speed's user time): not counts, not wall clock. */
export const CPU_TIME_METRICS = HEADLINE_METRICS.filter((m) => !m.deterministic && m.method !== 'wall-clock-throughput');

export interface MachineDetection {
  host: string;
  /** rounds and nights the noise model was made from */
  rounds: number;
  nights: number;
  model: NoiseModel;
  /** null: no setting keeps false alarms within the budget on this machine's noise */
  tuned: { detector: DetectorOptions; rates: ErrorRates } | null;
  /** the tuned window and threshold with confirmation the other way round (with it if tuning chose none), for comparison */
  flipped: { detector: DetectorOptions; rates: ErrorRates } | null;
  /**
   * series (between two changes of what is measured) with enough nights to be tested; `steps`: those the
   * tuned detector reports (confirmed ones, when it confirms), `candidates`: every step seen, with what the
   * measurement after it said
   */
  tested: { metric: string; build: string; nights: number; steps: DetectedStep[]; candidates: DetectedStep[] }[];
  /** nights a series needs before the detector can say anything (two windows) */
  nightsNeeded: number | null;
}

export function machineDetection(
  host: string,
  detailed: DetailedIterations | null,
  runs: readonly DriftRunsShard[],
  values: readonly DriftValuesShard[],
): MachineDetection | null {
  const keys = new Set(CPU_TIME_METRICS.map((m) => m.key));
  const rows = (detailed?.rows ?? []).filter((r) => r[1] === host && keys.has(r[5]));
  if (rows.length === 0) return null;
  const series = rows.map((r) => r[7]);
  const roundsPerNight = Math.round(median(rows.map((r) => new Set(r[6]).size)));
  // quiet nights only, per metric and build, in time order
  const quiet = new Map<string, boolean>();
  const started = new Map<string, string>();
  // a change of harness, kernel, microcode, OS, CPU, compiler or the build itself starts a new segment:
  // nights on either side of one are not the same measurement (their spread is not noise)
  const changes: { t: string; build: string | null }[] = [];
  for (const shard of runs.filter((s) => s.host === host)) {
    shard.runs.forEach(([startedAt, , , isQuiet], i) => {
      quiet.set(`${shard.year}/${i}`, isQuiet === 1);
      started.set(`${shard.year}/${i}`, startedAt);
    });
    for (const [i, , build] of shard.changes) changes.push({ t: shard.runs[i]![0], build });
  }
  const segment = (build: string, t: string) =>
    changes.filter((c) => c.t <= t && (c.build === null || c.build === build || slugOfBuildName(c.build) === build)).length;
  const ids = new Set(CPU_TIME_METRICS.map((m) => m.id));
  const nightly = new Map<string, { t: string; v: number }[]>();
  for (const v of values.filter((x) => x.host === host && ids.has(x.metric)))
    for (const [i, med] of v.points) {
      const at = `${v.year}/${i}`;
      if (!quiet.get(at)) continue;
      const t = started.get(at)!;
      const key = `${v.metric}\u0000${v.build}\u0000${segment(v.build, t)}`;
      const list = nightly.get(key) ?? [];
      list.push({ t, v: med });
      nightly.set(key, list);
    }
  const nights = [...nightly.values()].map((l) => l.sort((a, b) => (a.t < b.t ? -1 : 1)).map((p) => p.v));
  const model = roundsPerNight >= 3 ? noiseModel(series, nights, roundsPerNight) : null;
  if (!model) return null;
  const tuned = tune(model);
  const flippedDetector = tuned ? { ...tuned.detector, confirm: !tuned.detector.confirm } : null;
  const flipped = flippedDetector ? { detector: flippedDetector, rates: errorRates(simulate(model, EVALUATION), flippedDetector) } : null;
  const tested = tuned
    ? [...nightly]
        .filter(([, l]) => l.length >= 2 * tuned.detector.window)
        .map(([k, l]) => {
          const [metric, build] = k.split('\u0000') as [string, string, string];
          const candidates = detectSteps(
            l.map((p) => p.v),
            tuned.detector,
          );
          return { metric, build, nights: l.length, steps: reported(candidates, tuned.detector), candidates };
        })
    : [];
  return {
    host,
    rounds: series.reduce((s, v) => s + v.length, 0),
    nights: nights.reduce((s, l) => s + l.length, 0),
    model,
    tuned,
    flipped,
    tested,
    nightsNeeded: tuned ? 2 * tuned.detector.window : null,
  };
}

export { EVALUATION };
