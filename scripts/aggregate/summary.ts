// The summary's entries from the runs behind it (statistics, comparisons within one run, today's labels) and
// detailed-iterations.json: only the iterations behind the summary, so it stays bounded however many nights accumulate.
import { DetailedIterations, Run, Summary, type Build, type SummaryEntry } from '../../schema/index.ts';
import { BASELINE_VERSION, cataloguedRelease, comparedWith, compareReleases, compareVersions } from '../../catalogue/index.ts';
import { registeredSeries } from '../../runner/series-registry.ts';
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
} from '../../analysis/stats.ts';
import { quietReasons } from '../../analysis/quiet-rule.ts';
import { LOCAL_SELECTION, SELECTION, admitted, outranks, type LocalOptions, type RowCandidate } from './selection.ts';

type RunSeries = Run['series'][number];

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
