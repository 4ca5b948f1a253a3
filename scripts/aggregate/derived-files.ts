// The derived files (summary.json, detailed-iterations.json, data/timeseries/, schema/*.json) from data/runs/: which run
// files to open (the time-series records choose them without opening years of files: analysis/history.ts), frozen years
// left as they are, and the files that cannot be used, skipped by name with the reason while everything else is written.
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { z } from 'zod';
import {
  DetailedIterations,
  Run,
  Summary,
  Timeseries,
  listRunFiles,
  misplacedRun,
  parseRunFilePath,
  readRunFile,
  runFilePath,
  type RunRecord,
  DataFileError,
  describeIssues,
} from '../../schema/index.ts';
import { byTime, loadHistory, timeseriesFiles, timeseriesPath, writeTimeseries } from '../../analysis/history.ts';
import { aggregate } from './summary.ts';
import { selectRuns, type LocalOptions } from './selection.ts';

/** A run file left out of the derived files, and why (printed, and the exit status says so). */
export interface SkippedFile {
  /** relative to the data directory, e.g. runs/<host>/<YYYY>/<MM>/<runId>.json.br */
  path: string;
  reason: string;
}

/**
 * aggregate(), and if it fails, the runs it fails on when given alone are skipped and the rest
 * aggregated. An error that no single run causes on its own (or that every one of several runs causes:
 * a bug, not a file) is thrown as it was.
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
        skipped.push({
          path: r.path,
          reason: `the aggregation fails on this run: ${e instanceof z.ZodError ? `\n${describeIssues(e)}` : (e as Error).message}`,
        });
      }
    }
    // several runs that all fail alone: a bug, not a file (one run that fails alone is that file)
    if (skipped.length === 0 || (skipped.length === runs.length && runs.length > 1)) throw error;
    const bad = new Set(skipped.map((s) => s.path));
    return { result: aggregateRuns(runs.filter((r) => !bad.has(r.path))), skipped };
  }
}

/** JSON Schema files for people who validate with other tools. */
export function jsonSchemas(): Record<string, unknown> {
  const io = { io: 'input' as const, unrepresentable: 'any' as const };
  return {
    'run.schema.json': z.toJSONSchema(Run, io),
    'summary.schema.json': z.toJSONSchema(Summary, io),
    'detailed-iterations.schema.json': z.toJSONSchema(DetailedIterations, io),
    'timeseries.schema.json': z.toJSONSchema(Timeseries, io),
  };
}

/**
 * The records of run files that sit in the layout, where their content says they belong, one file per
 * run id (the first in path order is kept); the others are skipped with the place they belong.
 */
export function checkLayout(records: readonly RunRecord[]): { kept: RunRecord[]; skipped: SkippedFile[] } {
  const kept: RunRecord[] = [];
  const skipped: SkippedFile[] = [];
  const seen = new Map<string, string>();
  for (const r of records) {
    if (!parseRunFilePath(r.path)) {
      skipped.push({
        path: r.path,
        reason: `not where run files go; expected ${runFilePath(r)} (runs/<host>/<YYYY>/<MM>/<runId>.json.br, as npm run bench writes it)`,
      });
      continue;
    }
    const misplaced = misplacedRun(r.path, r);
    if (misplaced) {
      skipped.push({ path: r.path, reason: misplaced });
      continue;
    }
    const other = seen.get(r.runId);
    if (other) {
      skipped.push({ path: r.path, reason: `runId ${r.runId} is also used by ${other} (kept)` });
      continue;
    }
    seen.set(r.runId, r.path);
    kept.push(r);
  }
  return { kept, skipped };
}

/** summary.json: one entry per line, no indentation (it holds every series of every host). */
export function serializeSummary(summary: Summary): string {
  const { entries, ...head } = summary;
  return `${JSON.stringify(head, null, 1).slice(0, -2)},\n "entries": [\n${entries.map((e) => JSON.stringify(e)).join(',\n')}\n ]\n}\n`;
}

export interface AggregateResult {
  /** run files used (found, minus those skipped) */
  runs: number;
  /** run files read this time (the others were known from data/timeseries/) */
  read: number;
  selected: number;
  entries: number;
  rows: number;
  timeseries: number;
  /** time-series files that could not be reused, and why */
  ignored: string[];
  /** run files left out, and why (also in summary.json) */
  skipped: SkippedFile[];
}

/** Every derived file's text, by path relative to data/ (schema exports aside). */
export interface Derived {
  files: Map<string, string>;
  selected: RunRecord[];
  entries: number;
  rows: number;
  timeseries: Map<string, Timeseries>;
  /** the run files left out (unreadable ones given by the caller, then layout and aggregation failures) */
  skipped: SkippedFile[];
  /** records of the run files used */
  records: RunRecord[];
  /** time-series files left as they are (analysis/history.ts loadHistory) */
  frozen: ReadonlySet<string>;
}

/** A DataFileError's message without the file name it starts with. */
const reasonOf = (path: string, e: Error) => (e.message.startsWith(`${path}: `) ? e.message.slice(path.length + 2) : e.message);

/**
 * The derived files from the records of every run file (in path order), opening only the runs behind
 * the summary through `loadRun`. The aggregation and tools/simulate-year.ts both come through here.
 * `unreadable`: run files the caller could not read (listed in the summary's `skipped`). A file outside
 * the layout, a repeated run id, a run that cannot be opened any more or one the aggregation fails on
 * is skipped too, and the runs behind the summary are chosen again without it.
 */
export function derive(
  records: readonly RunRecord[],
  keySets: ReadonlyMap<string, string[]>,
  loadRun: (path: string) => Run,
  unreadable: readonly SkippedFile[] = [],
  frozen: ReadonlySet<string> = new Set(),
  local: LocalOptions = {},
): Derived {
  const layout = checkLayout(records);
  const skipped = [...unreadable, ...layout.skipped];
  let kept = layout.kept;
  const newestHost = new Map<string, Run['host']>();
  for (const r of [...kept].sort(byTime)) newestHost.set(r.host.id, r.host);
  const aggregateRuns: typeof aggregate = (rs) => aggregate(rs, { hosts: [...newestHost.values()], ...local });
  let selected: RunRecord[];
  let result: ReturnType<typeof aggregate>;
  for (;;) {
    selected = selectRuns(kept, keySets, local);
    const runs: { run: Run; path: string }[] = [];
    const bad: SkippedFile[] = [];
    for (const r of selected) {
      try {
        runs.push({ run: loadRun(r.path), path: r.path });
      } catch (e) {
        if (!(e instanceof DataFileError)) throw e;
        bad.push({ path: r.path, reason: reasonOf(r.path, e) });
      }
    }
    if (bad.length === 0) {
      const attempt = runs.length ? aggregateSkipping(runs, aggregateRuns) : { result: aggregateRuns([]), skipped: [] };
      bad.push(...attempt.skipped);
      if (bad.length === 0) {
        result = attempt.result;
        break;
      }
    }
    // choose again without them: another run may hold the series they held
    skipped.push(...bad);
    const gone = new Set(bad.map((b) => b.path));
    kept = kept.filter((r) => !gone.has(r.path));
  }
  skipped.sort((a, b) => (a.path < b.path ? -1 : a.path > b.path ? 1 : 0));
  const summary = Summary.parse({ ...result.summary, skipped });
  const { detailed } = result;
  const timeseries = timeseriesFiles(kept, keySets, frozen);
  for (const f of timeseries.values()) Timeseries.parse(f);
  const files = new Map<string, string>();
  files.set('summary.json', serializeSummary(summary));
  // one row per line keeps the file diffable without making it huge
  const body = detailed.rows.map((r) => JSON.stringify(r)).join(',\n');
  const head = JSON.stringify({ schemaVersion: detailed.schemaVersion, kind: detailed.kind, columns: detailed.columns }).slice(0, -1);
  files.set('detailed-iterations.json', `${head},"rows":[\n${body}\n]}\n`);
  return { files, selected, entries: summary.entries.length, rows: detailed.rows.length, timeseries, skipped, records: kept, frozen };
}

export function writeDerived(dataDir: string, d: Derived): void {
  for (const [rel, text] of d.files) writeFileSync(join(dataDir, rel), text);
  writeTimeseries(dataDir, d.timeseries, d.frozen);
  mkdirSync(join(dataDir, 'schema'), { recursive: true });
  for (const [name, schema] of Object.entries(jsonSchemas())) writeFileSync(join(dataDir, 'schema', name), JSON.stringify(schema, null, 1) + '\n');
}

/**
 * Reads what it must and writes every derived file. `rebuild` ignores data/timeseries/ and reads every
 * run file (the output is the same; it only takes longer). A run file that cannot be read is skipped,
 * never fatal: one bad file on main must not stop the summary, the site or the nightly publish.
 */
export function writeAll(dataDir: string, opts: { rebuild?: boolean } & LocalOptions = {}): AggregateResult {
  const paths = listRunFiles(dataDir);
  const unreadable: SkippedFile[] = [];
  const history = loadHistory(dataDir, paths, {
    reuse: !opts.rebuild,
    keepAtMost: 16,
    onError: (path, e) => unreadable.push({ path, reason: reasonOf(path, e) }),
  });
  const d = derive(history.records, history.keySets, (path) => history.read.get(path) ?? readRunFile(join(dataDir, path), path), unreadable, history.frozen, {
    localHost: opts.localHost,
  });
  // a run skipped now whose year was left as it is would stay in that year's file: make every year again
  const yearFile = new Map(history.records.map((r) => [r.path, timeseriesPath(r.host.id, new Date(r.startedAt).getUTCFullYear())]));
  if (!opts.rebuild && d.skipped.some((s) => history.frozen.has(yearFile.get(s.path) ?? ''))) return writeAll(dataDir, { ...opts, rebuild: true });
  writeDerived(dataDir, d);
  return {
    runs: d.records.length,
    read: history.readCount,
    selected: d.selected.length,
    entries: d.entries,
    rows: d.rows,
    timeseries: d.timeseries.size + d.frozen.size,
    ignored: history.ignored,
    skipped: d.skipped,
  };
}
