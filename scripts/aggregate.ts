// data/runs/** -> data/summary.json + data/detailed-iterations.json (+ JSON Schema exports).
//
// Deterministic: the same run files give byte-identical output. Nothing is dropped silently: a file
// that cannot be used (invalid, misplaced, a run id another file already has, or one the aggregation
// fails on) is skipped with its name and the reason, everything else is still written, and the exit
// status is EXIT_SKIPPED (3) instead of 0. Only quiet runs feed the summary; each series comes from the
// best quiet run of its host that measured it (SELECTION), and detailed-iterations.json holds the
// iterations behind the summary.
import { existsSync, mkdirSync, readdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { z } from 'zod';
import {
  DetailedIterations,
  Run,
  Summary,
  parseRunFile,
  type Build,
  type SummaryEntry,
  DataFileError,
  describeIssues,
} from '../schema/index.ts';
import { compareSeries, compareVersions } from '../runner/catalogue.ts';
import { COMPARISON_METHOD, DETERMINISTIC_METHODS, DETERMINISTIC_THRESHOLD, INTERVAL_METHOD, MIN_COVERAGE_FOR_VERDICT, compareRounds, describe } from './stats.ts';

export const BASELINE_VERSION = '1.1.1w';

export function findRunFiles(runsDir: string): string[] {
  if (!existsSync(runsDir)) return [];
  const out: string[] = [];
  const walk = (dir: string) => {
    for (const name of readdirSync(dir).sort()) {
      const p = join(dir, name);
      if (statSync(p).isDirectory()) walk(p);
      else if (name.endsWith('.json')) out.push(p);
    }
  };
  walk(runsDir);
  return out;
}

/** A run file left out of the derived files, and why (printed, and the exit status says so). */
export interface SkippedFile {
  /** relative to the data directory, e.g. runs/<host>/<runId>.json */
  path: string;
  reason: string;
}

/** Exit status of `npm run aggregate` when it wrote everything else but skipped files. */
export const EXIT_SKIPPED = 3;

/**
 * Every run file that reads, validates and sits at runs/<host.id>/<runId>.json. The others are
 * skipped, never fatal: one bad or duplicated file on main must not stop the summary, the site or the
 * nightly publish. Of two files with the same run id the first in path order is kept.
 */
export function loadRuns(files: string[], root: string): { runs: { run: Run; path: string }[]; skipped: SkippedFile[] } {
  const runs: { run: Run; path: string }[] = [];
  const skipped: SkippedFile[] = [];
  const seen = new Map<string, string>();
  for (const file of files) {
    const rel = relative(root, file);
    let run: Run;
    try {
      run = parseRunFile(readFileSync(file, 'utf8'), rel);
    } catch (e) {
      // parseRunFile's messages start with the file name already
      const message = (e as Error).message;
      skipped.push({ path: rel, reason: message.startsWith(`${rel}: `) ? message.slice(rel.length + 2) : message });
      continue;
    }
    const expected = join('runs', run.host.id, `${run.runId}.json`);
    if (rel !== expected) {
      skipped.push({ path: rel, reason: `holds run ${run.runId} of host ${run.host.id}, which belongs at ${expected}` });
      continue;
    }
    const other = seen.get(run.runId);
    if (other) {
      skipped.push({ path: rel, reason: `runId ${run.runId} is also used by ${other} (kept)` });
      continue;
    }
    seen.set(run.runId, rel);
    runs.push({ run, path: rel });
  }
  return { runs, skipped };
}

/**
 * aggregate(), and if it fails, the runs it fails on when given alone are skipped and the rest
 * aggregated. An error that no single run causes on its own (or that every run causes: a bug, not a
 * file) is thrown as it was.
 */
export function aggregateSkipping(
  runs: { run: Run; path: string }[],
  aggregateRuns: typeof aggregate = aggregate,
): { result: ReturnType<typeof aggregate>; skipped: SkippedFile[] } {
  try {
    return { result: aggregateRuns(runs), skipped: [] };
  } catch (error) {
    const skipped: SkippedFile[] = [];
    for (const r of runs) {
      try {
        aggregateRuns([r]);
      } catch (e) {
        skipped.push({ path: r.path, reason: `the aggregation fails on this run: ${e instanceof z.ZodError ? `\n${describeIssues(e)}` : (e as Error).message}` });
      }
    }
    if (skipped.length === 0 || skipped.length === runs.length) throw error;
    const bad = new Set(skipped.map((s) => s.path));
    return { result: aggregateRuns(runs.filter((r) => !bad.has(r.path))), skipped };
  }
}

type RunSeries = Run['series'][number];

/** Why a run may not feed the published views; empty when it held the host lock and every check was quiet. */
export function quietReasons(run: Run): string[] {
  const q = run.quiet;
  if (!q) return ['recorded before the quiet-host protocol: nothing shows the machine was otherwise idle'];
  const reasons: string[] = [];
  if (!q.exclusive) reasons.push('did not hold the host measurement lock for the whole run');
  for (const r of q.before.reasons) reasons.push(`before the first round: ${r}`);
  for (const round of q.rounds) for (const r of round.reasons) reasons.push(`round ${round.round}: ${r}`);
  if (!q.quiet && reasons.length === 0) reasons.push('the runner marked it not quiet');
  return reasons;
}

/** Full runs outrank quick ones, then runs that cover more builds (their series compare with each
 * other), then the newest. */
const runRank = (r: Run) => `${r.mode === 'full' ? 1 : 0}|${String(r.builds.length).padStart(4, '0')}|${r.startedAt}`;

/** Measured (non-warm-up) values of a series by round. */
function byRound(s: RunSeries): Map<number, number[]> {
  const m = new Map<number, number[]>();
  for (const it of s.iterations) if (!it.warmup) m.set(it.round, [...(m.get(it.round) ?? []), it.value]);
  return m;
}

export const SELECTION =
  'only quiet runs (host lock held, every quiet-host check passed); for each host and series the best run that measured it: ' +
  'full before quick, then the run covering more builds, then the newest. A table whose rows come from more than one run names the run of each row.';

export function aggregate(runs: { run: Run; path: string }[]): { summary: Summary; detailed: DetailedIterations } {
  const quiet = runs.filter(({ run }) => quietReasons(run).length === 0);
  // best quiet run per (host, version, variant, key): the ranking is the same for every key, so the
  // keys of one benchmark come from one run wherever that run measured them
  const chosen = new Map<string, { run: Run; series: RunSeries; build: Build }>();
  for (const { run } of quiet) {
    const builds = new Map(run.builds.map((b) => [b.id, b]));
    for (const s of run.series) {
      const build = builds.get(s.buildId)!;
      const id = `${run.host.id}|${build.version}|${build.variant}|${s.key}`;
      const prev = chosen.get(id);
      if (!prev || runRank(run) > runRank(prev.run)) chosen.set(id, { run, series: s, build });
    }
  }

  const rounds = new Map<SummaryEntry, Map<number, number[]>>();
  const entries: SummaryEntry[] = [];
  for (const { run, series: s, build } of chosen.values()) {
    const r = byRound(s);
    const values = [...r.values()].flat();
    const entry: SummaryEntry = {
      host: run.host.id,
      version: build.version,
      series: build.series,
      variant: build.variant,
      key: s.key,
      benchmark: s.benchmark,
      metric: s.metric,
      label: s.label,
      unit: s.unit,
      method: s.method,
      higherIsBetter: s.higherIsBetter,
      params: s.params,
      comparability: s.comparability,
      status: s.status,
      ...(s.reason ? { reason: s.reason } : {}),
      ...(s.observed ? { observed: s.observed } : {}),
      runId: run.runId,
      stats: s.status === 'measured' && values.length ? describe(values, DETERMINISTIC_METHODS.includes(s.method)) : null,
      vsPreviousSeries: null,
      vsBaseline: null,
    };
    rounds.set(entry, r);
    entries.push(entry);
  }

  // comparisons only between entries of the same run (different runs are different conditions)
  const groups = new Map<string, SummaryEntry[]>();
  for (const e of entries) {
    if (e.status !== 'measured' || e.variant !== 'default') continue;
    const g = `${e.host}|${e.runId}|${e.key}`;
    groups.set(g, [...(groups.get(g) ?? []), e]);
  }
  for (const group of groups.values()) {
    for (const e of group) {
      if (!e.comparability.acrossVersions) continue;
      const det = DETERMINISTIC_METHODS.includes(e.method);
      const older = group
        .filter((o) => compareSeries(o.series, e.series) < 0)
        .sort((a, b) => compareSeries(b.series, a.series) || compareVersions(b.version, a.version));
      const prev = older[0];
      if (prev) e.vsPreviousSeries = compareRounds(rounds.get(e)!, rounds.get(prev)!, prev.version, det);
      const base = group.find((o) => o.version === BASELINE_VERSION);
      if (base && base !== e) e.vsBaseline = compareRounds(rounds.get(e)!, rounds.get(base)!, base.version, det);
    }
  }

  entries.sort(
    (a, b) =>
      (a.host < b.host ? -1 : a.host > b.host ? 1 : 0) ||
      (a.key < b.key ? -1 : a.key > b.key ? 1 : 0) ||
      compareVersions(a.version, b.version) ||
      (a.variant < b.variant ? -1 : a.variant > b.variant ? 1 : 0),
  );

  const hosts = new Map<string, Run['host']>();
  const builds = new Map<string, Build & { host: string }>();
  const sortedRuns = [...runs].sort((a, b) => (a.run.startedAt < b.run.startedAt ? -1 : a.run.startedAt > b.run.startedAt ? 1 : 0));
  const usedRuns = new Set(entries.map((e) => e.runId));
  for (const { run } of sortedRuns) {
    hosts.set(run.host.id, run.host); // the newest description of a host wins
    if (usedRuns.has(run.runId)) for (const b of run.builds) builds.set(`${run.host.id}|${b.id}`, { ...b, host: run.host.id });
  }

  const summary = Summary.parse({
    schemaVersion: 2,
    kind: 'summary',
    statistics: {
      intervalMethod: INTERVAL_METHOD,
      comparisonMethod: COMPARISON_METHOD,
      minCoverageForVerdict: MIN_COVERAGE_FOR_VERDICT,
      deterministicThreshold: DETERMINISTIC_THRESHOLD,
      baselineVersion: BASELINE_VERSION,
      selection: SELECTION,
    },
    hosts: [...hosts.values()].sort((a, b) => (a.id < b.id ? -1 : 1)),
    builds: [...builds.values()].sort((a, b) => (a.host < b.host ? -1 : a.host > b.host ? 1 : compareVersions(a.version, b.version) || (a.id < b.id ? -1 : 1))),
    runs: sortedRuns.map(({ run, path }) => ({
      runId: run.runId,
      host: run.host.id,
      mode: run.mode,
      startedAt: run.startedAt,
      finishedAt: run.finishedAt,
      path,
      series: run.series.length,
      benchmarks: run.plan.benchmarks,
      quiet: quietReasons(run).length === 0,
      quietReasons: quietReasons(run),
    })),
    entries,
  });

  // the iterations behind the summary, and only those (history stays in the run files)
  const rows: DetailedIterations['rows'] = [];
  for (const { run, series: s, build: b } of [...chosen.values()].sort((x, y) =>
    x.run.startedAt < y.run.startedAt ? -1 : x.run.startedAt > y.run.startedAt ? 1 : x.series.key < y.series.key ? -1 : x.series.key > y.series.key ? 1 : x.build.id < y.build.id ? -1 : 1,
  ))
    for (const it of s.iterations) rows.push([run.runId, run.host.id, b.id, b.version, b.variant, s.key, it.round, it.warmup, it.at, it.value]);
  const detailed = DetailedIterations.parse({
    schemaVersion: 1,
    kind: 'detailed-iterations',
    columns: ['runId', 'host', 'buildId', 'version', 'variant', 'key', 'round', 'warmup', 'at', 'value'],
    rows,
  });
  return { summary, detailed };
}

/** JSON Schema files for people who validate with other tools. */
export function jsonSchemas(): Record<string, unknown> {
  const io = { io: 'input' as const, unrepresentable: 'any' as const };
  return {
    'run.schema.json': z.toJSONSchema(Run, io),
    'summary.schema.json': z.toJSONSchema(Summary, io),
    'detailed-iterations.schema.json': z.toJSONSchema(DetailedIterations, io),
  };
}

export function writeAll(dataDir: string): { runs: number; entries: number; rows: number; skipped: SkippedFile[] } {
  const loaded = loadRuns(findRunFiles(join(dataDir, 'runs')), dataDir);
  const { result, skipped } = aggregateSkipping(loaded.runs);
  const allSkipped = [...loaded.skipped, ...skipped];
  const summary = Summary.parse({ ...result.summary, skipped: allSkipped });
  const { detailed } = result;
  writeFileSync(join(dataDir, 'summary.json'), JSON.stringify(summary, null, 1) + '\n');
  // one row per line keeps the file diffable without making it huge
  const body = detailed.rows.map((r) => JSON.stringify(r)).join(',\n');
  writeFileSync(
    join(dataDir, 'detailed-iterations.json'),
    `{"schemaVersion":1,"kind":"detailed-iterations","columns":${JSON.stringify(detailed.columns)},"rows":[\n${body}\n]}\n`,
  );
  mkdirSync(join(dataDir, 'schema'), { recursive: true });
  for (const [name, schema] of Object.entries(jsonSchemas())) writeFileSync(join(dataDir, 'schema', name), JSON.stringify(schema, null, 1) + '\n');
  return { runs: loaded.runs.length - skipped.length, entries: summary.entries.length, rows: detailed.rows.length, skipped: allSkipped };
}

if (import.meta.main) {
  const dataDir = process.argv[2] ?? 'data';
  try {
    const r = writeAll(dataDir);
    for (const s of r.skipped) console.error(`skipped ${join(dataDir, s.path)}: ${s.reason}`);
    console.log(`aggregated ${r.runs} run(s): ${r.entries} summary entries, ${r.rows} iterations -> ${dataDir}/summary.json, ${dataDir}/detailed-iterations.json`);
    if (r.skipped.length) {
      console.error(`${r.skipped.length} run file(s) skipped (listed above): everything else was written. Fix or remove them; exit status ${EXIT_SKIPPED}.`);
      process.exit(EXIT_SKIPPED);
    }
  } catch (e) {
    if (e instanceof z.ZodError) {
      console.error(`aggregation stopped, nothing written: the derived files would not validate\n${describeIssues(e)}`);
      process.exit(1);
    }
    if (e instanceof DataFileError) {
      console.error(`aggregation stopped, nothing written:\n${e.message}`);
      process.exit(1);
    }
    throw e;
  }
}
