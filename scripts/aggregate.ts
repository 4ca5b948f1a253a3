// data/runs/** -> data/summary.json + data/detailed-iterations.json + data/timeseries/<host>/<YYYY>.json
// (+ JSON Schema exports). detailed-iterations.json is committed and published: it holds only the
// iterations behind the summary, so it stays bounded however many nights accumulate.
//
// Deterministic: the same run files give byte-identical output. Nothing is dropped silently: a file
// that cannot be used (invalid, outside the layout or not where its content says it belongs, a run id
// another file already has, or one the aggregation fails on) is skipped with its name and the reason,
// everything else is still written, and the exit status is EXIT_SKIPPED (3) instead of 0. Only quiet runs
// feed the summary (a local build, --local-host, adds the not-quiet runs of the machine that ran npm start); each series comes from the quiet run of its host that outranks the others for it
// (SELECTION: measured, then full, then newest), and detailed-iterations.json holds the iterations behind the summary. History (every run) lives in the
// run files and the time-series files (analysis/history.ts), whose records let the aggregation choose the
// runs behind the summary without opening years of files.
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
  type Build,
  type RunMode,
  type RunRecord,
  type SummaryEntry,
  DataFileError,
  describeIssues,
} from '../schema/index.ts';
import { BASELINE_VERSION, cataloguedRelease, comparedWith, compareReleases, compareVersions } from '../catalogue/index.ts';
import { registeredSeries } from '../runner/series-registry.ts';
import {
  COMPARISON_METHOD,
  DETERMINISTIC_METHODS,
  DETERMINISTIC_THRESHOLD,
  INTERVAL_METHOD,
  MIN_COVERAGE_FOR_VERDICT,
  compareRounds,
  measuredRounds,
  describe,
  significant,
  SUMMARY_DIGITS,
} from '../analysis/stats.ts';
import { commandLine } from '../runner/cli.ts';
import { byTime, loadHistory, quietReasons, timeseriesFiles, timeseriesPath, writeTimeseries } from '../analysis/history.ts';

export { quietReasons };

/** A run file left out of the derived files, and why (printed, and the exit status says so). */
export interface SkippedFile {
  /** relative to the data directory, e.g. runs/<host>/<YYYY>/<MM>/<runId>.json.br */
  path: string;
  reason: string;
}

/** Exit status of `npm run aggregate` when it wrote everything else but skipped files. */
export const EXIT_SKIPPED = 3;

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

type RunSeries = Run['series'][number];

/** What decides which run a summary row (host, library, version, variant, key) comes from. */
interface RowCandidate {
  /** always true but in a local build, which takes the local machine's not-quiet runs after its quiet ones */
  quiet: boolean;
  /** the run's series for this row is measured (not failed or unsupported) */
  measured: boolean;
  mode: RunMode;
  startedAt: string;
  /** a reproduction of one write-up (plan.reproduces): a few series measured until decided */
  reproduction: boolean;
}

/**
 * Whether `a` replaces `b` as the source of a row: a measured series before a failed or unsupported one
 * (a night that could not measure a build must not erase what an earlier night measured), then full
 * mode before quick (more rounds), then the newer run (the tables follow the current state of the host).
 * Equals do not replace each other, so the first in path order stays: within a host and a start time
 * that is the smaller run id.
 */
function outranks(a: RowCandidate, b: RowCandidate): boolean {
  if (a.quiet !== b.quiet) return a.quiet;
  if (a.measured !== b.measured) return a.measured;
  // a reproduction measures a write-up's few series: the tables keep the rows of the runs that measured the whole matrix
  if (a.reproduction !== b.reproduction) return !a.reproduction;
  if (a.mode !== b.mode) return a.mode === 'full';
  return Date.parse(a.startedAt) > Date.parse(b.startedAt);
}

export const SELECTION =
  'only quiet runs (host lock held, every quiet-host check passed); each row (host, library, version, variant and series) comes from one run: ' +
  'a run that measured it before one where it failed or was unsupported, then an ordinary run before a reproduction of one write-up (npm run reproduce), then a full run before a quick one, then the newest run. ' +
  'So the newest quiet full run of a host decides every row it measured, and the builds it did not measure keep the rows of their own newest run. ' +
  'Comparisons stay within one run. On the site, timing values (CPU time, wall clock) of different runs never share a table or chart: each run gets its own; deterministic counts of one machine may, each row naming its run.';

/**
 * A local build (npm start: --local-host): the machine that just ran is shown beside the committed ones, its
 * not-quiet runs included after its quiet ones (runs[].local marks its runs; the site says "not quiet:
 * indicative" of their values). The committed summary is never made this way.
 */
export interface LocalOptions {
  /** machine id of the computer npm start measured */
  localHost?: string;
}

const LOCAL_SELECTION =
  ' This is a local build (npm start): the not-quiet runs of the machine that ran it feed it too, after its quiet runs; their values are indicative.';

/** Whether a run may feed the summary: a quiet one, or in a local build any run of the local machine. */
const admitted = (quiet: boolean, host: string, o: LocalOptions) => quiet || host === o.localHost;

/**
 * The runs aggregate() would take series from, found from their records alone: for each host, library,
 * version, variant and series key the quiet run that outranks the others holding it (the first in path order
 * among equals, as aggregate() does). Records are given in path order.
 */
export function selectRuns(records: readonly RunRecord[], keySets: ReadonlyMap<string, readonly string[]>, local: LocalOptions = {}): RunRecord[] {
  const buildOf = (r: RunRecord, b: RunRecord['builds'][number]) => `${r.host.id}|${b.library ?? 'openssl'}|${b.version}|${b.variant}`;
  // runs with the same keys and the same measured keys for a build dominate each other as a whole (each
  // key has the same status in all of them, so mode and time decide): keep the best of each such group
  const groupBest = new Map<string, RunRecord>();
  for (const r of records) {
    if (!admitted(r.quiet, r.host.id, local)) continue;
    for (const b of r.builds) {
      const g = `${buildOf(r, b)}|${b.keys}|${b.measured}`;
      const prev = groupBest.get(g);
      if (
        !prev ||
        outranks(
          { quiet: r.quiet, measured: true, mode: r.mode, startedAt: r.startedAt, reproduction: !!r.reproduces },
          { quiet: prev.quiet, measured: true, mode: prev.mode, startedAt: prev.startedAt, reproduction: !!prev.reproduces },
        )
      )
        groupBest.set(g, r);
    }
  }
  const order = new Map(records.map((r, i) => [r, i]));
  const candidates = [...new Set(groupBest.values())].sort((a, b) => order.get(a)! - order.get(b)!);
  const chosen = new Map<string, RowCandidate & { record: RunRecord }>();
  for (const r of candidates)
    for (const b of r.builds) {
      const measured = new Set(keySets.get(b.measured) ?? []);
      for (const key of keySets.get(b.keys) ?? []) {
        const id = `${buildOf(r, b)}|${key}`;
        const candidate = { record: r, quiet: r.quiet, mode: r.mode, startedAt: r.startedAt, reproduction: !!r.reproduces, measured: measured.has(key) };
        const prev = chosen.get(id);
        if (!prev || outranks(candidate, prev)) chosen.set(id, candidate);
      }
    }
  return [...new Set([...chosen.values()].map((c) => c.record))].sort((a, b) => order.get(a)! - order.get(b)!);
}

/**
 * A series' observed parameters as the summary publishes them. Runs before the handshake program said
 * 'unknown' recorded hiddenFeatures 'none' for libraries whose capability vector cannot be read (no
 * cpuCapabilities: the probe does not compile against BoringSSL or wolfSSL): nothing was compared there.
 */
export function observedOf(observed: NonNullable<RunSeries['observed']>, build: Build): NonNullable<RunSeries['observed']> {
  return observed.hiddenFeatures === 'none' && !build.cpuCapabilities ? { ...observed, hiddenFeatures: 'unknown' } : observed;
}

/**
 * A series' label in today's words: the runner's registry (runner/series-registry.ts) says what a key
 * measures as the runner words it now, so older runs read like new ones; a series the runner no longer
 * writes keeps the label its run recorded. The key, not the label, identifies the series: the words may
 * change, what is measured may not.
 */
export function currentLabel(build: Build, s: Pick<RunSeries, 'key' | 'label'>): string {
  const known = cataloguedRelease(build);
  return (
    (known && registeredSeries({ library: build.library, version: build.version, series: known.series, variant: build.variant }).get(s.key)?.label) ?? s.label
  );
}

/**
 * `runs` in path order. `hosts`: the description of each host to publish (default: the newest among
 * `runs`); the aggregation passes the newest of all runs, also of those it did not need to open.
 */
export function aggregate(
  runs: { run: Run; path: string }[],
  options: { hosts?: Run['host'][] } & LocalOptions = {},
): { summary: Summary; detailed: DetailedIterations } {
  const isQuiet = (run: Run) => quietReasons(run).length === 0;
  const fed = runs.filter(({ run }) => admitted(isQuiet(run), run.host.id, options));
  // per (host, library, version, variant, key) the quiet run that outranks the others (selectRuns chooses the same)
  const chosen = new Map<string, RowCandidate & { run: Run; series: RunSeries; build: Build }>();
  for (const { run } of fed) {
    const builds = new Map(run.builds.map((b) => [b.id, b]));
    for (const s of run.series) {
      const build = builds.get(s.buildId)!;
      const id = `${run.host.id}|${build.library}|${build.version}|${build.variant}|${s.key}`;
      const candidate = {
        run,
        series: s,
        build,
        quiet: isQuiet(run),
        mode: run.mode,
        startedAt: run.startedAt,
        reproduction: !!run.plan.reproduces,
        measured: s.status === 'measured',
      };
      const prev = chosen.get(id);
      if (!prev || outranks(candidate, prev)) chosen.set(id, candidate);
    }
  }

  const rounds = new Map<SummaryEntry, Map<number, number[]>>();
  const entries: SummaryEntry[] = [];
  for (const { run, series: s, build } of chosen.values()) {
    const r = measuredRounds(s);
    const values = [...r.values()].flat();
    const entry: SummaryEntry = {
      host: run.host.id,
      library: build.library,
      version: build.version,
      series: build.series,
      variant: build.variant,
      key: s.key,
      benchmark: s.benchmark,
      metric: s.metric,
      label: currentLabel(build, s),
      unit: s.unit,
      method: s.method,
      higherIsBetter: s.higherIsBetter,
      params: s.params,
      comparability: s.comparability,
      status: s.status,
      ...(s.reason ? { reason: s.reason } : {}),
      ...(s.observed ? { observed: observedOf(s.observed, build) } : {}),
      runId: run.runId,
      stats: s.status === 'measured' && values.length ? describe(values, DETERMINISTIC_METHODS.includes(s.method)) : null,
      vsPreviousSeries: null,
      vsBaseline: null,
      vsOpenSSL: null,
    };
    rounds.set(entry, r);
    entries.push(entry);
  }

  // comparisons only between entries of the same run (different runs are different conditions)
  const groups = new Map<string, SummaryEntry[]>();
  for (const e of entries) {
    if (e.status !== 'measured' || e.variant !== 'default' || e.library !== 'openssl') continue;
    const g = `${e.host}|${e.runId}|${e.key}`;
    groups.set(g, [...(groups.get(g) ?? []), e]);
  }
  for (const group of groups.values()) {
    for (const e of group) {
      if (!e.comparability.acrossVersions) continue;
      const det = DETERMINISTIC_METHODS.includes(e.method);
      const { previous: prev, baseline: base } = comparedWith(e, group);
      if (prev) e.vsPreviousSeries = compareRounds(rounds.get(e)!, rounds.get(prev)!, prev.version, det);
      if (base) e.vsBaseline = compareRounds(rounds.get(e)!, rounds.get(base)!, base.version, det);
    }
  }

  // another library against the newest OpenSSL release the same run measured (any variant of it: default)
  for (const e of entries) {
    if (e.status !== 'measured' || e.library === 'openssl' || !e.comparability.acrossVersions) continue;
    const ref = entries
      .filter(
        (o) => o.library === 'openssl' && o.variant === 'default' && o.status === 'measured' && o.host === e.host && o.runId === e.runId && o.key === e.key,
      )
      .sort((a, b) => compareVersions(b.version, a.version))[0];
    if (ref) e.vsOpenSSL = compareRounds(rounds.get(e)!, rounds.get(ref)!, ref.version, DETERMINISTIC_METHODS.includes(e.method));
  }

  // Published statistics carry SUMMARY_DIGITS significant digits, more than any page shows or a verdict
  // (decided above on the full values) needs; the nightly rewrite of summary.json then changes fewer bytes.
  // The full values are in the run files and detailed-iterations.json.
  for (const e of entries) {
    e.stats = significant(e.stats, SUMMARY_DIGITS);
    e.vsPreviousSeries = significant(e.vsPreviousSeries, SUMMARY_DIGITS);
    e.vsBaseline = significant(e.vsBaseline, SUMMARY_DIGITS);
    e.vsOpenSSL = significant(e.vsOpenSSL, SUMMARY_DIGITS);
  }

  entries.sort(
    (a, b) =>
      (a.host < b.host ? -1 : a.host > b.host ? 1 : 0) ||
      (a.key < b.key ? -1 : a.key > b.key ? 1 : 0) ||
      compareReleases(a, b) ||
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
      selection: options.localHost ? SELECTION + LOCAL_SELECTION : SELECTION,
    },
    hosts: (options.hosts ?? [...hosts.values()]).slice().sort((a, b) => (a.id < b.id ? -1 : 1)),
    builds: [...builds.values()].sort((a, b) => (a.host < b.host ? -1 : a.host > b.host ? 1 : compareReleases(a, b) || (a.id < b.id ? -1 : 1))),
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
      ...(run.host.id === options.localHost ? { local: true } : {}),
    })),
    entries,
  });

  // the measured iterations behind the summary, and only those (history, warm-ups and times stay in the run files)
  const rows: DetailedIterations['rows'] = [];
  for (const { run, series: s, build: b } of [...chosen.values()].sort((x, y) =>
    x.run.startedAt < y.run.startedAt
      ? -1
      : x.run.startedAt > y.run.startedAt
        ? 1
        : x.series.key < y.series.key
          ? -1
          : x.series.key > y.series.key
            ? 1
            : x.build.id < y.build.id
              ? -1
              : 1,
  )) {
    const measured = s.iterations.filter((it) => !it.warmup).sort((x, y) => x.round - y.round);
    if (measured.length) rows.push([run.runId, run.host.id, b.id, b.version, b.variant, s.key, measured.map((it) => it.round), measured.map((it) => it.value)]);
  }
  const detailed = DetailedIterations.parse({
    schemaVersion: 2,
    kind: 'detailed-iterations',
    columns: ['runId', 'host', 'buildId', 'version', 'variant', 'key', 'rounds', 'values'],
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

const HELP = `usage: npm run aggregate -- [--rebuild] [--local-host MACHINE_ID] [DATA_DIR]

Derives from the run files under DATA_DIR/runs (default data) the files the site reads:
DATA_DIR/summary.json, DATA_DIR/detailed-iterations.json, DATA_DIR/timeseries/<machine>/<YYYY>.json and
DATA_DIR/schema/*.json. Reads only the run files the time series do not know yet; --rebuild reads them all.
A run file it cannot use is named and skipped, everything else written, and the exit status is ${EXIT_SKIPPED}.
--local-host MACHINE_ID: a local build (npm start passes it): that machine's runs that were not quiet feed
the summary too, after its quiet ones, marked so the site calls their values indicative and opens on it.
Never for the committed data/: without it only quiet runs count.`;

if (import.meta.main) {
  const cli = commandLine('aggregate', HELP, { rebuild: { type: 'boolean' }, 'local-host': { type: 'string' } });
  const { rebuild = false, 'local-host': localHost } = cli.values;
  if (localHost !== undefined && (!localHost || localHost.startsWith('-'))) cli.fail('--local-host needs a machine id');
  if (cli.positionals.length > 1) cli.fail(`one DATA_DIR, not ${cli.positionals.join(' ')}`);
  const dataDir = cli.positionals[0] ?? 'data';
  try {
    const r = writeAll(dataDir, { rebuild, localHost });
    for (const i of r.ignored) console.log(`rebuilt from the run files: ${i}`);
    for (const s of r.skipped) console.error(`skipped ${join(dataDir, s.path)}: ${s.reason}`);
    console.log(
      `aggregated ${r.runs} run(s) (${r.read} read, the others known from ${dataDir}/timeseries/): ${r.selected} behind the summary, ` +
        `${r.entries} summary entries, ${r.rows} iterations, ${r.timeseries} time-series file(s) -> ${dataDir}/summary.json, ${dataDir}/detailed-iterations.json, ${dataDir}/timeseries/`,
    );
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
