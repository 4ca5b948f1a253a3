// Replays: a submitted run whose measurements are those of a run already accepted (or of another file of
// the same change), changed a little.
import { join } from 'node:path';
import { readRunFile, type Run } from '../../schema/index.ts';
import { seriesKey } from '../../runner/benchmark.ts';
import type { FileReport } from './report.ts';

/**
 * Replays: a run whose measurements are another run's, changed a little (every value x1.0001, one value by
 * 1e-12, series or rounds reordered, keys or build ids renamed). Each measured series that varies from
 * round to round is its values, sorted, under its key and build (library, version, variant); a series of
 * one run matches the other run's when 80% of its values pair with values within `tolerance`. A run is a
 * replay of another when `share` of the series they both have match. A series that is the same in every
 * round (an instruction count, bytes sent) is the same in every honest run of the build and is left out.
 * On the committed runs, two honest full runs of one machine share at most 3.2% matching series (959e and
 * e33c: 79 of 2490), so 25% is far from an honest pair and near nothing a copy can reach by small changes.
 */
export const REPLAY = { tolerance: 0.005, share: 0.25, paired: 0.8 };
type ValueVectors = Map<string, number[]>;

export function valueVectors(run: Run): ValueVectors {
  const builds = new Map(run.builds.map((b) => [b.id, `${b.library} ${b.version} ${b.variant}`]));
  const out: ValueVectors = new Map();
  for (const s of run.series) {
    if (s.status !== 'measured') continue;
    const v = s.iterations.map((it) => it.value).sort((a, b) => a - b);
    if (v.length && v[0] !== v.at(-1)) out.set(`${seriesKey(s)} ${builds.get(s.buildId)}`, v);
  }
  return out;
}

/** How many values of two sorted lists pair up within the tolerance (each value used once). */
function pairedValues(a: readonly number[], b: readonly number[]): number {
  let i = 0,
    j = 0,
    n = 0;
  while (i < a.length && j < b.length) {
    if (Math.abs(a[i]! - b[j]!) <= REPLAY.tolerance * Math.max(Math.abs(a[i]!), Math.abs(b[j]!))) {
      n++;
      i++;
      j++;
    } else if (a[i]! < b[j]!) i++;
    else j++;
  }
  return n;
}

/** "m of n series", when `a` replays `b`; null when it does not. */
export function replayOf(a: ValueVectors, b: ValueVectors): string | null {
  let shared = 0,
    matching = 0;
  for (const [key, va] of a) {
    const vb = b.get(key);
    if (!vb) continue;
    shared++;
    if (pairedValues(va, vb) >= REPLAY.paired * Math.max(va.length, vb.length)) matching++;
  }
  return shared && matching >= REPLAY.share * shared ? `${matching} of ${shared} series` : null;
}

/** What the validator needs to know of an accepted run (from data/timeseries/, so no run file is opened for it). */
export interface AcceptedRun {
  file: string;
  runId: string;
  host: Run['host'];
}

/**
 * The accepted run (or an earlier file of this change) each submitted run replays, as "m of n series within
 * 0.5% of <file>". Reads every accepted run file, one at a time (the records in data/timeseries/ keep only
 * the headline medians): about 0.06 s per full run here.
 */
export function findReplays(root: string, accepted: readonly AcceptedRun[], files: readonly FileReport[]): Map<FileReport, string> {
  const found = new Map<FileReport, string>();
  const submitted: [FileReport, ValueVectors][] = files.filter((f) => f.run).map((f) => [f, valueVectors(f.run!)]);
  const compare = (vectors: ValueVectors, file: string, among: readonly [FileReport, ValueVectors][]) => {
    for (const [f, own] of among) {
      const share = found.has(f) ? null : replayOf(own, vectors);
      if (share) found.set(f, `${share} within ${REPLAY.tolerance * 100}% of ${file}`);
    }
  };
  for (const a of accepted) {
    let run: Run;
    try {
      run = readRunFile(join(root, a.file), a.file.slice('data/'.length));
    } catch {
      continue; // a file that does not read is the aggregation's to report
    }
    compare(valueVectors(run), a.file, submitted);
  }
  submitted.forEach(([f, vectors], i) => compare(vectors, f.file, submitted.slice(i + 1)));
  return found;
}
