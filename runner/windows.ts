// How long one measuring window of a timed task lasts (issue 32, item 2: windows sized by their noise).
// A benchmark with a choice declares two windows (Benchmark.windows): short, what quick mode measures
// with, and long, what full mode measured with until now. Quick mode always takes the short one. A full
// run takes the short one for a benchmark where this machine's own quiet runs show that it decides more
// per second of measuring: the spread between rounds, not within a window, sets how wide an interval
// is, so a window three times shorter loses little precision per round and buys three times the rounds.
//
// The evidence, per benchmark: every series (same key, same build) this machine measured in a quiet run
// with short windows and in a quiet run with long ones, at this harness revision. For each, the ratio of
// their coefficients of variation over the measured rounds (each corrected for its number of rounds,
// c4); r is the median ratio. One round with short windows costs s = short/long of a long round
// (nominal: a task's fixed start-up is left out, which slightly favours short windows), and an interval
// from n rounds has a variance of about CV^2/n, so the variance per second of measuring is r^2 * s times
// the long windows'. The short windows are chosen when that is at most SHORT_WINDOW_GAIN (a margin, so
// that a ratio near 1 keeps what full mode always measured) from at least MIN_PAIRED_SERIES series.
// Without that evidence (a machine without both kinds of run, a benchmark it never measured both ways):
// the long windows. Only the two declared windows are ever chosen: no length nobody measured.
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { listRunFiles, readRunFile, type Run, type RunMode } from '../schema/index.ts';
import { DETERMINISTIC_METHODS, mean, median, variance } from '../analysis/stats.ts';
import { quietReasons } from '../analysis/quiet-rule.ts';
import { defaultWindow, type Benchmark, type WindowLength } from './benchmark.ts';

/** What a run measured a benchmark with, and why (the run file's plan.windows). */
export type WindowChoice = NonNullable<Run['plan']['windows']>[number];

export const MIN_PAIRED_SERIES = 10;
/** short windows when r^2 * s (variance per second of measuring, relative to long windows) is at most this */
export const SHORT_WINDOW_GAIN = 0.8;

/** The window a plan chose for a benchmark, or undefined where it chose none (the mode's own). */
export const chosenWindow = (windows: readonly WindowChoice[] | undefined, benchmark: string): WindowLength | undefined =>
  windows?.find((w) => w.benchmark === benchmark)?.window;

/** The window a run measured a benchmark with: its plan's record, else its mode's. */
export function windowOf(run: Pick<Run, 'mode' | 'plan'>, benchmark: string): WindowLength {
  return chosenWindow(run.plan.windows, benchmark) ?? defaultWindow(run.mode);
}

/** c4(n): the mean of a sample standard deviation is c4 * sigma (normal data); a close approximation. */
const c4 = (n: number) => 1 - 1 / (4 * n) - 7 / (32 * n * n);

/** The coefficient of variation of a series' measured rounds, or undefined with fewer than 3. */
function cvOf(values: readonly number[]): number | undefined {
  if (values.length < 3) return undefined;
  const m = mean(values);
  return m > 0 ? Math.sqrt(variance(values, m)) / c4(values.length) / m : undefined;
}

interface SeriesCv {
  runId: string;
  startedAt: string;
  cv: number;
}

/** Per benchmark and window, the newest quiet run's CV of each timed series of each build. */
function seriesCvs(runs: readonly Run[], harnessRevision: number): Map<string, Map<WindowLength, Map<string, SeriesCv>>> {
  const out = new Map<string, Map<WindowLength, Map<string, SeriesCv>>>();
  for (const run of runs) {
    if ((run.harness.revision ?? 1) !== harnessRevision || quietReasons(run).length) continue;
    for (const s of run.series) {
      if (s.status !== 'measured' || DETERMINISTIC_METHODS.includes(s.method)) continue;
      const cv = cvOf(s.iterations.filter((i) => !i.warmup).map((i) => i.value));
      if (cv === undefined) continue;
      const window = windowOf(run, s.benchmark);
      const byWindow = out.get(s.benchmark) ?? new Map<WindowLength, Map<string, SeriesCv>>();
      out.set(s.benchmark, byWindow);
      const bySeries = byWindow.get(window) ?? new Map<string, SeriesCv>();
      byWindow.set(window, bySeries);
      const id = `${s.key}@${s.buildId}`;
      const had = bySeries.get(id);
      if (!had || had.startedAt < run.startedAt) bySeries.set(id, { runId: run.runId, startedAt: run.startedAt, cv });
    }
  }
  return out;
}

/**
 * The window of each benchmark that has a choice, for a run of `mode` on the machine whose quiet runs are
 * `runs` (this machine's only: another machine's noise says nothing about this one).
 */
export function chooseWindows(
  mode: RunMode,
  benchmarks: readonly Pick<Benchmark, 'id' | 'windows'>[],
  runs: readonly Run[],
  harnessRevision: number,
): WindowChoice[] {
  const cvs = mode === 'full' ? seriesCvs(runs, harnessRevision) : undefined;
  return benchmarks.flatMap((b): WindowChoice[] => {
    const w = b.windows;
    if (!w) return [];
    const choice = (window: WindowLength, basis: string, extra: Partial<WindowChoice> = {}): WindowChoice[] => [
      { benchmark: b.id, window, size: w[window], unit: w.unit, basis, ...extra },
    ];
    if (mode === 'quick') return choice('short', 'quick mode measures with short windows');
    const short = cvs?.get(b.id)?.get('short');
    const long = cvs?.get(b.id)?.get('long');
    const pairs = [...(short?.entries() ?? [])].flatMap(([id, s]) => {
      const l = long?.get(id);
      return l && l.cv > 0 ? [{ ratio: s.cv / l.cv, runs: [s.runId, l.runId] }] : [];
    });
    if (pairs.length < MIN_PAIRED_SERIES)
      return choice(
        'long',
        `this machine has ${pairs.length} series measured quietly with both windows at this harness revision (at least ${MIN_PAIRED_SERIES} decide): full mode's long windows`,
      );
    const r = median(pairs.map((p) => p.ratio));
    const s = w.short / w.long;
    const gain = r * r * s;
    const runIds = [...new Set(pairs.flatMap((p) => p.runs))].sort();
    const words = `over ${pairs.length} series measured quietly both ways here, the short windows' CV is ${r.toFixed(2)} times the long ones' (median) at ${s.toFixed(2)} of their length: variance per second of measuring ${gain.toFixed(2)} times the long windows'`;
    const extra = { cvRatio: Number(r.toFixed(4)), pairedSeries: pairs.length, runs: runIds };
    return gain <= SHORT_WINDOW_GAIN
      ? choice('short', `${words} (at most ${SHORT_WINDOW_GAIN}: short)`, extra)
      : choice('long', `${words} (above ${SHORT_WINDOW_GAIN}: long)`, extra);
  });
}

/** The windows asked for on the command line (--windows short|long), for every benchmark that has a choice. */
export function askedWindows(window: WindowLength, benchmarks: readonly Pick<Benchmark, 'id' | 'windows'>[]): WindowChoice[] {
  return benchmarks.flatMap((b) =>
    b.windows ? [{ benchmark: b.id, window, size: b.windows[window], unit: b.windows.unit, basis: `asked for (--windows ${window})` }] : [],
  );
}

/** This machine's run files under `runsDir` (its folder is its id), read; a file that cannot be read is named, not skipped. */
export function machineRuns(runsDir: string, machineId: string): Run[] {
  const dir = join(runsDir, machineId);
  return existsSync(dir) ? listRunFiles(runsDir, machineId).map((rel) => readRunFile(join(runsDir, rel))) : [];
}
