// Finding the data for a comparison and comparing it: a claim test expanded into pairings, each side looked up
// in summary.json (its rounds in detailed-iterations.json) or in a run that measured both, then judged on one host.
import type { CoverageInterval, DetailedIterations, Library, Run, Summary, SummaryEntry } from '../../../../schema/index.ts';
import { DETERMINISTIC_METHODS, compareRounds, measuredRounds, median, valuesByRound, type RoundValues } from '../../../../analysis/stats.ts';
import { runWords } from '../format.ts';
import { buildName, parseBuild, type Build, type ClaimTest, type WriteupSeries } from './schema.ts';
import { judgedWords, type Direction, type TestVerdict } from './verdicts.ts';
import { band, comparable, exactRatio, judge } from './judge.ts';

/** One comparison a test expands to: series a on build a against series b on build b. */
export interface Pairing {
  a: { key: string; build: Build };
  b: { key: string; build: Build };
  /** how the page names it, e.g. "3.0.2 vs 1.1.1w" or "default groups vs X25519 pinned, on 3.5.7" */
  label: string;
  /** the key of the write-up series the comparison is about (the first) */
  seriesKey: string;
  /** that series' short label */
  seriesLabel: string;
  test: ClaimTest;
}

export interface ComparisonResult extends Pairing {
  host: string;
  verdict: TestVerdict;
  /** in words, e.g. "measured in different runs" */
  reason: string;
  /** acceptance band in ratio space (a / b) */
  band: [number, number];
  /** a / b; null where no ratio exists (a missing value, a zero) */
  ratio: number | null;
  /** interval of the ratio; null for deterministic metrics */
  interval: CoverageInterval | null;
  pairing: 'paired-rounds' | 'deterministic' | null;
  pairs: number;
  runId: string | null;
  /** deterministic comparisons where one side is zero (a function that does not run on one build) */
  zero: 'a' | 'b' | 'both' | null;
  higherIsBetter: boolean | null;
  /** for a quoted size (`magnitude`) that was measured: whether the change goes the reported way */
  direction: Direction | null;
  /** builds with no result for this comparison's series on this host (verdict not-measured) */
  missing: string[];
}

export interface ClaimData {
  summary: Summary | null;
  detailed: DetailedIterations | null;
  /** the run files behind the summary: where a comparison's two figures come from different runs, one of these that measured both decides */
  runs?: readonly Run[];
}

/** Expand a test into its comparisons, naming each with the series' short labels. */
export function pairings(test: ClaimTest, series: readonly WriteupSeries[]): Pairing[] {
  const resolve = (ref: string): WriteupSeries => {
    const s = series.find((x) => x.id === ref || x.key === ref);
    if (!s) throw new Error(`claim test refers to "${ref}", which is not a series of this write-up`);
    return s;
  };
  const name = (s: WriteupSeries) => s.label ?? s.id ?? s.key;
  if (!Array.isArray(test.series)) {
    const s = resolve(test.series);
    const [a, b] = test.builds.map(parseBuild) as [Build, Build];
    return [
      { a: { key: s.key, build: a }, b: { key: s.key, build: b }, label: `${buildName(a)} vs ${buildName(b)}`, seriesKey: s.key, seriesLabel: name(s), test },
    ];
  }
  const [sa, sb] = test.series.map(resolve) as [WriteupSeries, WriteupSeries];
  return test.builds.map((ref) => {
    const build = parseBuild(ref);
    return {
      a: { key: sa.key, build },
      b: { key: sb.key, build },
      label: `${name(sa)} vs ${name(sb)}, on ${buildName(build)}`,
      seriesKey: sa.key,
      seriesLabel: name(sa),
      test,
    };
  });
}

// Indexes are built once per data file (pages evaluate many claims against the same data).
const entryIndexes = new WeakMap<Summary, Map<string, SummaryEntry>>();
const roundIndexes = new WeakMap<DetailedIterations, Map<string, { runId: string; rounds: Map<number, number[]> }>>();
const entryId = (host: string, key: string, b: Build) => `${host}\u0000${b.library}\u0000${b.version}\u0000${b.variant}\u0000${key}`;

function entryIndex(summary: Summary): Map<string, SummaryEntry> {
  let m = entryIndexes.get(summary);
  if (!m) {
    m = new Map(summary.entries.map((e) => [entryId(e.host, e.key, e), e]));
    entryIndexes.set(summary, m);
  }
  return m;
}

function roundIndex(detailed: DetailedIterations): Map<string, { runId: string; rounds: Map<number, number[]> }> {
  let m = roundIndexes.get(detailed);
  if (!m) {
    m = new Map();
    for (const [runId, host, buildId, , , key, rounds, values] of detailed.rows) {
      // by build id: the rows name no library, and two libraries may number a release alike
      m.set(`${runId}\u0000${host}\u0000${buildId}\u0000${key}`, { runId, rounds: valuesByRound(rounds, values) });
    }
    roundIndexes.set(detailed, m);
  }
  return m;
}

/** One side of a comparison as one run measured it: from summary.json (and its rounds) or from a run file. */
interface Side {
  runId: string;
  unit: string;
  higherIsBetter: boolean;
  comparability: SummaryEntry['comparability'];
  library: Library;
  version: string;
  variant: string;
  key: string;
  deterministic: boolean;
  median: number;
  /** measured values by round; null where the per-round values are not at hand */
  rounds: RoundValues | null;
}

/**
 * The measured values by round behind a summary entry (detailed-iterations.json), found through the build
 * ids of its host in summary.builds; null where the file or the row is not at hand. Used by the claims and
 * by the machines page, so both pair the same values.
 */
export function entryRounds(e: SummaryEntry, summary: Pick<Summary, 'builds'>, detailed: DetailedIterations | null): Map<number, number[]> | null {
  if (!detailed) return null;
  const rounds = roundIndex(detailed);
  const found = summary.builds
    .filter((x) => x.host === e.host && x.library === e.library && x.version === e.version && x.variant === e.variant)
    .map((x) => rounds.get(`${e.runId}\u0000${e.host}\u0000${x.id}\u0000${e.key}`))
    .find((r) => r !== undefined);
  return found?.rounds ?? null;
}

function summarySide(e: SummaryEntry, summary: Summary, detailed: DetailedIterations | null): Side {
  const { runId, unit, higherIsBetter, comparability, library, version, variant, key } = e;
  return {
    runId,
    unit,
    higherIsBetter,
    comparability,
    library,
    version,
    variant,
    key,
    deterministic: Boolean(e.stats!.deterministic),
    median: e.stats!.median,
    rounds: entryRounds(e, summary, detailed),
  };
}

/** The measured series `key` of build `b` in one run, as a side; null unless the run measured it. */
function runSide(run: Run, key: string, b: Build): Side | null {
  const build = run.builds.find((x) => x.library === b.library && x.version === b.version && x.variant === b.variant);
  const s = build && run.series.find((x) => x.buildId === build.id && x.key === key);
  if (!s || s.status !== 'measured') return null;
  const rounds = measuredRounds(s);
  if (rounds.size === 0) return null;
  const { unit, higherIsBetter, comparability } = s;
  return {
    runId: run.runId,
    unit,
    higherIsBetter,
    comparability,
    library: b.library,
    version: b.version,
    variant: b.variant,
    key,
    deterministic: DETERMINISTIC_METHODS.includes(s.method),
    median: median([...rounds.values()].flat()),
    rounds,
  };
}

/**
 * Both sides from one run, when summary.json took them from two: the newest of `runs` (quiet runs behind the
 * summary) that measured both. Its figures may differ from the tables', which show each
 * series' best run; the comparison names the run it used.
 */
function sameRunSides(p: Pairing, host: string, runs: readonly Run[]): [Side, Side] | null {
  for (const run of [...runs].sort((x, y) => y.startedAt.localeCompare(x.startedAt))) {
    if (run.host.id !== host) continue;
    const a = runSide(run, p.a.key, p.a.build);
    const b = a && runSide(run, p.b.key, p.b.build);
    if (a && b) return [a, b];
  }
  return null;
}

/** Compare one pairing on one host. */
export function compare(p: Pairing, host: string, data: ClaimData, minCoverage: number): ComparisonResult {
  const base = {
    ...p,
    host,
    band: [0, Infinity] as [number, number],
    ratio: null,
    interval: null,
    pairing: null,
    pairs: 0,
    runId: null,
    zero: null,
    higherIsBetter: null,
    direction: null,
    missing: [],
  };
  const result = (verdict: TestVerdict, reason: string, extra: Partial<ComparisonResult> = {}): ComparisonResult => ({ ...base, verdict, reason, ...extra });
  const summary = data.summary;
  if (!summary) return result('not-measured', 'there is no summary of measurements yet');
  const idx = entryIndex(summary);
  const ea = idx.get(entryId(host, p.a.key, p.a.build));
  const eb = idx.get(entryId(host, p.b.key, p.b.build));
  let a: Side;
  let b: Side;
  let note = '';
  if (!ea || !eb) {
    // the summary has no entry for a side: a run behind it may still have measured both
    const absent = [...new Set([...(ea ? [] : [p.a.build]), ...(eb ? [] : [p.b.build])].map(buildName))];
    const same = sameRunSides(p, host, data.runs ?? []);
    if (!same)
      return result('not-measured', `${absent.join(' and ')} ${absent.length > 1 ? 'have' : 'has'} no result for this series on this host yet`, {
        missing: absent,
      });
    [a, b] = same;
    note = ` (in the ${runWords(a.runId)}, which measured both; the summary has no entry for ${absent.join(' and ')})`;
  } else {
    for (const [e, bl] of [
      [ea, p.a.build],
      [eb, p.b.build],
    ] as const) {
      // unsupported or failed is an answer, not a pending measurement: it leaves the claim undecided
      if (e.status !== 'measured' || !e.stats)
        return result('not-shown', `${buildName(bl)}: ${e.status === 'measured' ? 'no measured value' : e.status}${e.reason ? ` (${e.reason})` : ''}`);
    }
    a = summarySide(ea, summary, data.detailed);
    b = summarySide(eb, summary, data.detailed);
    if (a.runId !== b.runId) {
      const same = sameRunSides(p, host, data.runs ?? []);
      if (!same) {
        const bandOf = band(p.test, a.higherIsBetter);
        return result(
          'not-shown',
          `the two figures come from different runs (the ${runWords(a.runId)} and the ${runWords(b.runId)}) and no run measured both; no ratio is computed across runs`,
          { band: bandOf, higherIsBetter: a.higherIsBetter },
        );
      }
      [a, b] = same;
      note = ` (in the ${runWords(a.runId)}, which measured both; the tables show each figure from its own best run)`;
    }
  }
  if (a.unit !== b.unit) throw new Error(`claim comparison ${p.label} compares ${a.unit} with ${b.unit}: series of different units`);
  if (a.higherIsBetter !== b.higherIsBetter) throw new Error(`claim comparison ${p.label}: the two series disagree on whether higher is better`);
  const bandOf = band(p.test, a.higherIsBetter);
  const common = { band: bandOf, higherIsBetter: a.higherIsBetter, runId: a.runId };
  const sameSeriesOfSameBuild = a.library === b.library && a.version === b.version && a.variant === b.variant && a.key === b.key;
  if (!comparable(a.comparability, b.comparability, sameSeriesOfSameBuild) && !p.test.acrossMethodChange)
    return result('not-shown', `the two figures are not comparable: ${a.comparability.reason ?? b.comparability.reason ?? 'measured differently'}`, common);
  const place = (low: number, high: number) => judge(p.test, low, high, a.higherIsBetter);
  if (a.deterministic && b.deterministic) {
    const { ratio, zero } = exactRatio(a.median, b.median);
    const { verdict, direction } = place(ratio, ratio);
    return result(verdict, judgedWords(p.test, verdict, direction, true) + note, {
      ...common,
      ratio: Number.isFinite(ratio) ? ratio : null,
      pairing: 'deterministic',
      zero,
      direction,
    });
  }
  if (!a.rounds || !b.rounds) {
    const why = data.detailed
      ? 'the per-round values behind these figures are missing'
      : 'the per-round values (detailed-iterations.json) are missing, so the rounds cannot be paired';
    return result('not-shown', why, common);
  }
  if (a.median === 0 || b.median === 0) return result('not-shown', 'a median of zero leaves no ratio', common);
  const c = compareRounds(a.rounds, b.rounds, buildName(p.b.build), false);
  if (!c || !c.interval)
    return result('not-shown', `too few rounds measured both (${c?.pairs ?? 0}) for an interval${note}`, {
      ...common,
      ratio: c?.ratio ?? null,
      pairs: c?.pairs ?? 0,
      pairing: 'paired-rounds',
    });
  const extra = { ...common, ratio: c.ratio, interval: c.interval, pairing: 'paired-rounds' as const, pairs: c.pairs };
  if (c.interval.coverage < minCoverage)
    return result(
      'not-shown',
      `the interval covers only ${(Math.floor(c.interval.coverage * 1000) / 10).toFixed(1)}% with ${c.pairs} paired rounds; a verdict needs ${Math.round(minCoverage * 100)}%${note}`,
      extra,
    );
  const { verdict, direction } = place(c.interval.low, c.interval.high);
  return result(verdict, judgedWords(p.test, verdict, direction, false) + note, { ...extra, direction });
}
