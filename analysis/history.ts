// The history of every host, kept small: one record per run file (what ran, on what machine state,
// whether it was quiet, the medians of the headline metrics (analysis/headline-metrics.ts), which series it holds) in
// data/timeseries/<host>/<YYYY>.json, and the step changes between a host's consecutive runs.
//
// A record is a pure function of its run file, so the files are derived data like summary.json: the
// aggregation reuses the record of a file it has seen (same path, same size) and reads only new files,
// and `npm run aggregate -- --rebuild` (or deleting data/timeseries/) gives byte-identical output.
import { createHash } from 'node:crypto';
import { existsSync, lstatSync, mkdirSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { DataFileError, Timeseries, readRunFile, type Library, type Run, type RunRecord, type StepChange } from '../schema/index.ts';
import { describe } from './stats.ts';
import { LIBRARY_NAMES } from '../catalogue/index.ts';
import { harnessStep } from '../catalogue/harness-steps.ts';
import { quietReasons } from './quiet-rule.ts';
import { HEADLINE_METRICS } from './headline-metrics.ts';

/** Reasons kept per record: enough to say why, bounded however noisy a run was. */
const MAX_REASONS = 5;

const sha256 = (s: string) => createHash('sha256').update(s).digest('hex');
/** Same measurements = same hash, whatever the run is called (the validator finds copies by their values instead: validate-submission.ts REPLAY). */
export const contentHash = (run: Run) => sha256(JSON.stringify(run.series));
const keySetId = (keys: readonly string[]) => sha256(keys.join('\n')).slice(0, 16);

/** The record of one run file. `keySets` receives the key lists the record refers to. */
export function recordOf(run: Run, path: string, bytes: number, keySets: Map<string, string[]>): RunRecord {
  const reasons = quietReasons(run);
  const metricIndex = new Map(HEADLINE_METRICS.map((m, i) => [m.key, i]));
  const values: RunRecord['values'] = [];
  const builds = run.builds.map((b, buildIndex) => {
    const own = run.series.filter((s) => s.buildId === b.id);
    const ref = (keys: string[]) => {
      const sorted = [...new Set(keys)].sort();
      const id = keySetId(sorted);
      keySets.set(id, sorted);
      return id;
    };
    for (const s of own) {
      const m = metricIndex.get(s.key);
      if (m === undefined || s.status !== 'measured') continue;
      const def = HEADLINE_METRICS[m]!;
      // a key whose unit or method changed is another measurement: not the same line on the chart
      if (s.unit !== def.unit || s.method !== def.method) continue;
      const measured = s.iterations.filter((it) => !it.warmup).map((it) => it.value);
      if (!measured.length) continue;
      const st = describe(measured, def.deterministic);
      values.push([m, buildIndex, st.median, st.interval?.low ?? null, st.interval?.high ?? null, st.n]);
    }
    return {
      id: b.id,
      ...(b.library !== 'openssl' ? { library: b.library } : {}),
      version: b.version,
      series: b.series,
      variant: b.variant,
      compiler: b.compiler,
      keys: ref(own.map((s) => s.key)),
      measured: ref(own.filter((s) => s.status === 'measured').map((s) => s.key)),
    };
  });
  values.sort((a, b) => a[0] - b[0] || a[1] - b[1]);
  return {
    runId: run.runId,
    path,
    bytes,
    contentHash: contentHash(run),
    mode: run.mode,
    ...(run.plan.reproduces ? { reproduces: run.plan.reproduces } : {}),
    startedAt: run.startedAt,
    finishedAt: run.finishedAt,
    quiet: reasons.length === 0,
    quietReasons: reasons.length > MAX_REASONS ? [...reasons.slice(0, MAX_REASONS), `and ${reasons.length - MAX_REASONS} more (see the run file)`] : reasons,
    ...(run.quiet?.repeated?.length ? { repeatedRounds: run.quiet.repeated.length } : {}),
    benchmarks: run.plan.benchmarks,
    rounds: run.plan.rounds,
    warmupRounds: run.plan.warmupRounds,
    series: run.series.length,
    measuredSeries: run.series.filter((s) => s.status === 'measured').length,
    host: run.host,
    harness: { gitCommit: run.harness.gitCommit, gitDirty: run.harness.gitDirty, ...(run.harness.revision ? { revision: run.harness.revision } : {}) },
    builds,
    values,
    changes: [],
  };
}

const buildName = (b: { library?: Library; version: string; variant: string }) =>
  `${b.library ? `${LIBRARY_NAMES[b.library]} ` : ''}${b.variant === 'default' ? b.version : `${b.version} ${b.variant}`}`;
/** The harness commit, and the revision's title where a harness step starts it (catalogue/harness-steps.ts). */
const commitName = (h: RunRecord['harness'], step?: boolean) => {
  const s = step ? harnessStep(h.revision) : undefined;
  return `${h.gitCommit}${h.gitDirty ? ' (uncommitted changes)' : ''}${s ? ` (harness step ${s.revision}: ${s.title})` : ''}`;
};

/** What differs between a host's run and its previous one: each can move results by itself. */
export function stepChanges(prev: RunRecord, cur: RunRecord): StepChange[] {
  const out: StepChange[] = [];
  const field = (kind: StepChange['kind'], a: string | null | undefined, b: string | null | undefined) => {
    if ((a ?? null) !== (b ?? null)) out.push({ kind, from: a ?? null, to: b ?? null });
  };
  const stepped = (prev.harness.revision ?? 1) !== (cur.harness.revision ?? 1);
  field('harness', commitName(prev.harness, stepped), commitName(cur.harness, stepped));
  field('kernel', prev.host.kernel, cur.host.kernel);
  field('microcode', prev.host.microcode, cur.host.microcode);
  field('os', prev.host.os, cur.host.os);
  field('cpu', prev.host.cpuModel, cur.host.cpuModel);
  const before = new Map(prev.builds.map((b) => [buildName(b), b]));
  for (const b of cur.builds) {
    const p = before.get(buildName(b));
    if (!p) continue;
    if (p.compiler !== b.compiler) out.push({ kind: 'compiler', build: buildName(b), from: p.compiler, to: b.compiler });
    else if (p.id !== b.id) out.push({ kind: 'build', build: buildName(b), from: p.id, to: b.id });
  }
  return out;
}

/** Oldest first within a host; ties broken by run id so the order never depends on the file system. */
export const byTime = (a: RunRecord, b: RunRecord) =>
  a.host.id < b.host.id
    ? -1
    : a.host.id > b.host.id
      ? 1
      : a.startedAt < b.startedAt
        ? -1
        : a.startedAt > b.startedAt
          ? 1
          : a.runId < b.runId
            ? -1
            : a.runId > b.runId
              ? 1
              : 0;

/** Records sorted by host and time, each with the step changes since its host's previous run. */
export function withStepChanges(records: readonly RunRecord[]): RunRecord[] {
  const sorted = [...records].sort(byTime);
  return sorted.map((r, i) => {
    const prev = sorted[i - 1];
    return { ...r, changes: prev && prev.host.id === r.host.id ? stepChanges(prev, r) : [] };
  });
}

export const TIMESERIES_DIR = 'timeseries';
const yearOf = (r: RunRecord) => new Date(r.startedAt).getUTCFullYear();
export const timeseriesPath = (host: string, year: number) => `${TIMESERIES_DIR}/${host}/${year}.json`;

/** Time-series files (path relative to data/ -> file) for the records: one per host and year, except the frozen ones. */
export function timeseriesFiles(
  records: readonly RunRecord[],
  keySets: ReadonlyMap<string, string[]>,
  frozen: ReadonlySet<string> = new Set(),
): Map<string, Timeseries> {
  const files = new Map<string, Timeseries>();
  for (const r of withStepChanges(records)) {
    const path = timeseriesPath(r.host.id, yearOf(r));
    if (frozen.has(path)) continue;
    let f = files.get(path);
    if (!f)
      files.set(path, (f = { schemaVersion: 1, kind: 'timeseries', host: r.host.id, year: yearOf(r), metrics: [...HEADLINE_METRICS], keySets: {}, runs: [] }));
    f.runs.push(r);
    for (const b of r.builds) for (const id of [b.keys, b.measured]) f.keySets[id] ??= keySets.get(id)!;
  }
  for (const f of files.values()) f.keySets = Object.fromEntries(Object.entries(f.keySets).sort(([a], [b]) => (a < b ? -1 : 1)));
  return new Map([...files].sort(([a], [b]) => (a < b ? -1 : 1)));
}

/** One run record per line: diffs show the runs a night added; the file stays valid JSON. */
export function serializeTimeseries(f: Timeseries): string {
  const { runs, ...head } = f;
  const top = JSON.stringify(head).slice(0, -1);
  return `${top},"runs":[\n${runs.map((r) => JSON.stringify(r)).join(',\n')}\n]}\n`;
}

/** Every data/timeseries/<host>/<YYYY>.json, relative to data/. */
export function listTimeseriesFiles(dataDir: string): string[] {
  const root = join(dataDir, TIMESERIES_DIR);
  if (!existsSync(root)) return [];
  const out: string[] = [];
  for (const host of readdirSync(root).sort()) {
    if (!lstatSync(join(root, host)).isDirectory()) continue;
    for (const name of readdirSync(join(root, host)).sort()) if (/^\d{4}\.json$/.test(name)) out.push(`${TIMESERIES_DIR}/${host}/${name}`);
  }
  return out;
}

/** One time-series file as it is, validated, or why it cannot be reused. */
function readTimeseriesFile(dataDir: string, rel: string): Timeseries | string {
  let parsed: ReturnType<typeof Timeseries.safeParse>;
  try {
    parsed = Timeseries.safeParse(JSON.parse(readFileSync(join(dataDir, rel), 'utf8')));
  } catch {
    return `${rel}: not valid JSON`;
  }
  if (!parsed.success) return `${rel}: does not match the time-series schema`;
  if (JSON.stringify(parsed.data.metrics) !== JSON.stringify(HEADLINE_METRICS)) return `${rel}: made with another list of headline metrics`;
  return parsed.data;
}

/**
 * The time-series files as they are, validated. A file that does not parse, or was made with another
 * list of headline metrics, is left out: its records are made again from the run files.
 */
export function readTimeseries(dataDir: string): { files: Map<string, Timeseries>; ignored: string[] } {
  const files = new Map<string, Timeseries>();
  const ignored: string[] = [];
  for (const rel of listTimeseriesFiles(dataDir)) {
    const f = readTimeseriesFile(dataDir, rel);
    if (typeof f === 'string') ignored.push(f);
    else files.set(rel, f);
  }
  return { files, ignored };
}

export interface History {
  /** every run file's record, in path order (records of frozen files without their values) */
  records: RunRecord[];
  keySets: Map<string, string[]>;
  /**
   * time-series files that stay as they are: every run of theirs is unchanged, and so is every run of the
   * same host before them. A nightly update rewrites only the current year of each host, and keeps the
   * headline values of earlier years out of memory.
   */
  frozen: Set<string>;
  /** runs read (and validated) by this call, by path, at most `keepAtMost` of them */
  read: Map<string, Run>;
  /** how many run files were read because no reusable record existed */
  readCount: number;
  /** time-series files that could not be reused, and why */
  ignored: string[];
}

/**
 * The record of every run file in `paths` (relative to dataDir): reused from data/timeseries/ where the
 * same path with the same size is recorded there, else read through readRunFile (which validates it).
 * `reuse: false` reads every file. The first `keepAtMost` runs read stay in memory for the caller (a
 * nightly update reads a few new runs, which are usually the ones the summary then takes).
 */
export function loadHistory(
  dataDir: string,
  paths: readonly string[],
  opts: { reuse?: boolean; keepAtMost?: number; onError?: (path: string, error: DataFileError) => void } = {},
): History {
  const keySets = new Map<string, string[]>();
  const sizes = new Map(paths.map((p) => [p, statSync(join(dataDir, p)).size]));
  const known = new Map<string, { record: RunRecord; file: string }>();
  const intact = new Set<string>();
  const ignored: string[] = [];
  // one file at a time, and the headline values of intact files dropped at once: years of history are
  // parsed, but only their records' run descriptions stay
  for (const rel of opts.reuse === false ? [] : listTimeseriesFiles(dataDir)) {
    const f = readTimeseriesFile(dataDir, rel);
    if (typeof f === 'string') {
      ignored.push(f);
      continue;
    }
    for (const [id, keys] of Object.entries(f.keySets)) keySets.set(id, keys);
    const whole = f.runs.every((r) => sizes.get(r.path) === r.bytes);
    if (whole) intact.add(rel);
    for (const r of f.runs) known.set(r.path, { record: whole ? { ...r, values: [] } : r, file: rel });
  }
  // the earliest year of each host that changes: files before it are frozen
  const changedFrom = new Map<string, number>();
  const touch = (host: string, year: number) => changedFrom.set(host, Math.min(changedFrom.get(host) ?? Infinity, year));
  for (const [path, { record, file }] of known) if (!sizes.has(path) || !intact.has(file)) touch(record.host.id, new Date(record.startedAt).getUTCFullYear());
  const records: RunRecord[] = [];
  const read = new Map<string, Run>();
  let readCount = 0;
  for (const path of paths) {
    const bytes = sizes.get(path)!;
    const old = known.get(path);
    if (old && old.record.bytes === bytes && old.record.builds.every((b) => keySets.has(b.keys) && keySets.has(b.measured))) {
      records.push({ ...old.record, changes: [] });
      continue;
    }
    let run: Run;
    try {
      run = readRunFile(join(dataDir, path), path);
    } catch (e) {
      // without onError a bad file stops the caller; with it, the caller decides (the validator skips it)
      if (!(e instanceof DataFileError) || !opts.onError) throw e;
      opts.onError(path, e);
      continue;
    }
    readCount++;
    const record = recordOf(run, path, bytes, keySets);
    records.push(record);
    touch(record.host.id, new Date(record.startedAt).getUTCFullYear());
    if (read.size < (opts.keepAtMost ?? 0)) read.set(path, run);
  }
  const frozen = new Set(
    [...intact].filter((rel) => {
      const [, host = '', name = ''] = rel.split('/');
      return Number(name.slice(0, 4)) < (changedFrom.get(host) ?? Infinity);
    }),
  );
  // intact files that are not frozen are written again: their records need their values back
  const again = new Set([...intact].filter((rel) => !frozen.has(rel)));
  if (again.size) {
    const values = new Map<string, RunRecord['values']>();
    for (const rel of again) {
      const f = readTimeseriesFile(dataDir, rel);
      if (typeof f !== 'string') for (const r of f.runs) values.set(r.path, r.values);
    }
    for (const r of records) if (!r.values.length && values.has(r.path)) r.values = values.get(r.path)!;
  }
  return { records, keySets, frozen, read, readCount, ignored };
}

/** Writes the time-series files and removes those no run belongs to any more; frozen files stay as they are. */
export function writeTimeseries(dataDir: string, files: ReadonlyMap<string, Timeseries>, frozen: ReadonlySet<string> = new Set()): void {
  for (const [rel, f] of files) {
    mkdirSync(join(dataDir, TIMESERIES_DIR, f.host), { recursive: true });
    const text = serializeTimeseries(f);
    const abs = join(dataDir, rel);
    if (!existsSync(abs) || readFileSync(abs, 'utf8') !== text) writeFileSync(abs, text);
  }
  for (const rel of listTimeseriesFiles(dataDir)) if (!files.has(rel) && !frozen.has(rel)) rmSync(join(dataDir, rel));
  const root = join(dataDir, TIMESERIES_DIR);
  if (existsSync(root)) for (const host of readdirSync(root)) if (readdirSync(join(root, host)).length === 0) rmSync(join(root, host), { recursive: true });
}
