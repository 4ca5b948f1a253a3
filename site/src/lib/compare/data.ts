// The compare page's data files, generated at build time from summary.json and detailed-iterations.json
// (formats in compare/files.ts). Pairs are compared with the aggregation's own function, round by round,
// only where both builds measured the series in the same run.
import type { DetailedIterations, Summary, SummaryEntry } from '../../../../schema/index.ts';
import { DETERMINISTIC_METHODS, SUMMARY_DIGITS, compareRounds, significant, valuesByRound, type RoundValues } from '../../../../analysis/stats.ts';
import { LIBRARY_NAMES, buildLabel, buildSlug, compareReleases } from '../../../../catalogue/index.ts';
import { labelParts } from '../chart-text.ts';
import { rankHosts, type HostRun } from '../hosts.ts';
import { internTable } from '../model.ts';
import {
  STATUSES,
  VERDICTS,
  pairFile,
  type BuildRow,
  type BuildShard,
  type CompareBuild,
  type CompareIndex,
  type PairRow,
  type PairShard,
  type SeriesCatalogue,
} from './files.ts';
import { defaultPairOn } from './selection.ts';

export interface CompareFiles {
  index: CompareIndex;
  catalogues: Record<string, SeriesCatalogue>;
  /** by "<host>/<slug>" */
  builds: Record<string, BuildShard>;
  /** by "<host>/<a>_vs_<b>" */
  pairs: Record<string, PairShard>;
}

const segmentOf = (e: SummaryEntry) => (e.comparability.acrossVersions ? 'all' : (e.comparability.group ?? null));
const tokensOf = (e: SummaryEntry) =>
  Object.keys(e.params)
    .sort()
    .map((k) => `${k}=${String(e.params[k])}`);

/** The pair the page opens with: on the first machine of lib/hosts.ts's ranking, compare/selection.ts defaultPairOn. */
export function defaultPair(builds: CompareBuild[], runs: readonly HostRun[]): CompareIndex['defaults'] {
  for (const host of rankHosts(
    builds.map((b) => b.host),
    runs,
  )) {
    const pair = defaultPairOn(builds, host);
    if (pair) return pair;
  }
  return null;
}

const memo = new WeakMap<Summary, CompareFiles>();

/** Computed once per build: the data endpoint and the page both need it. */
export function compareFiles(summary: Summary, detailed: DetailedIterations | null): CompareFiles {
  const known = memo.get(summary);
  if (known) return known;
  const files = makeCompareFiles(summary, detailed);
  memo.set(summary, files);
  return files;
}

function makeCompareFiles(summary: Summary, detailed: DetailedIterations | null): CompareFiles {
  // rounds behind each entry (detailed-iterations.json holds exactly those)
  const rounds = new Map<string, Map<number, number[]>>();
  // detailed-iterations.json names a build by version and variant (no two libraries share a version number)
  for (const [runId, host, , version, variant, key, roundList, values] of detailed?.rows ?? [])
    rounds.set(`${host}|${version}|${variant}|${key}|${runId}`, valuesByRound(roundList, values));
  const roundsOf = (e: SummaryEntry): RoundValues => rounds.get(`${e.host}|${e.version}|${e.variant}|${e.key}|${e.runId}`) ?? new Map();

  const builds = new Map<string, CompareBuild>();
  const byHost = new Map<string, SummaryEntry[]>();
  for (const e of summary.entries) {
    const slug = buildSlug(e);
    const id = `${e.host}/${slug}`;
    if (!builds.has(id)) builds.set(id, { id, host: e.host, library: e.library, version: e.version, variant: e.variant, slug, label: buildLabel(e) });
    const list = byHost.get(e.host);
    if (list) list.push(e);
    else byHost.set(e.host, [e]);
  }
  // OpenSSL by version, then the other libraries (catalogue order), a build's default before its variants
  const buildList = [...builds.values()].sort(
    (a, b) =>
      a.host.localeCompare(b.host) ||
      compareReleases(a, b) ||
      (a.variant === 'default' ? -1 : b.variant === 'default' ? 1 : a.variant.localeCompare(b.variant)),
  );
  const index: CompareIndex = {
    builds: buildList,
    machines: rankHosts(byHost.keys(), summary.runs),
    defaults: defaultPair(buildList, summary.runs),
    indicative: summary.runs.filter((r) => !r.quiet).map((r) => r.runId),
    libraryNames: LIBRARY_NAMES,
  };
  const files: CompareFiles = { index, catalogues: {}, builds: {}, pairs: {} };

  for (const [host, entries] of byHost) {
    const runs = internTable<string>();
    const benchmarks = internTable<string>();
    const metrics = internTable<string>();
    const whats = internTable<string>();
    const tokens = internTable<string>();
    const units = internTable<string>();
    const methods = internTable<string>();
    const segments = internTable<string>();
    const seriesIds = internTable<SeriesCatalogue['series'][number]>((s) => JSON.stringify(s));
    const seriesOfKey = new Map<string, number>();
    const perBuild = new Map<string, { entry: SummaryEntry; series: number }[]>();
    for (const e of [...entries].sort((a, b) => a.key.localeCompare(b.key))) {
      let si = seriesOfKey.get(e.key);
      if (si === undefined) {
        // the page rebuilds each key from its parts (seriesKeyOf); a key written otherwise is carried whole
        const rebuilt = `${e.benchmark}/${e.metric}${tokensOf(e).length ? `[${tokensOf(e).join(',')}]` : ''}`;
        const { what, config } = labelParts(e.label);
        const s: SeriesCatalogue['series'][number] = [
          benchmarks.id(e.benchmark),
          metrics.id(e.metric),
          whats.id(what),
          config,
          tokensOf(e).map((t) => tokens.id(t)),
          units.id(e.unit),
          methods.id(e.method),
          e.higherIsBetter ? 1 : 0,
        ];
        if (rebuilt !== e.key) s.push(e.key);
        si = seriesIds.id(s);
        seriesOfKey.set(e.key, si);
      }
      const id = `${host}/${buildSlug(e)}`;
      const list = perBuild.get(id);
      if (list) list.push({ entry: e, series: si });
      else perBuild.set(id, [{ entry: e, series: si }]);
    }
    for (const [id, list] of perBuild) {
      const rows = list.map(({ entry: e, series }): BuildRow => {
        const s = e.status === 'measured' ? e.stats : null;
        const seg = segmentOf(e);
        return [
          series,
          STATUSES.indexOf(e.status),
          s?.median ?? null,
          s?.interval?.low ?? null,
          s?.interval?.high ?? null,
          s?.n ?? 0,
          seg === null ? null : segments.id(seg),
          runs.id(e.runId),
          e.reason ?? null,
        ];
      });
      files.builds[id] = { id, rows };
    }
    // every pair of builds on this host that measured a series in the same run: B against A, A the older
    const hostBuilds = buildList.filter((b) => b.host === host);
    for (let i = 0; i < hostBuilds.length; i++)
      for (let j = i + 1; j < hostBuilds.length; j++) {
        const A = hostBuilds[i]!;
        const B = hostBuilds[j]!;
        const aRows = new Map((perBuild.get(A.id) ?? []).map((x) => [x.series, x.entry]));
        const rows: PairRow[] = [];
        let shared = false;
        for (const { entry: b, series } of perBuild.get(B.id) ?? []) {
          const a = aRows.get(series);
          if (!a || a.runId !== b.runId || a.status !== 'measured' || b.status !== 'measured') continue;
          shared = true;
          const sa = segmentOf(a);
          if (sa === null || sa !== segmentOf(b)) continue;
          // published like summary.json's comparisons, so the two agree to the digit
          const c = significant(compareRounds(roundsOf(b), roundsOf(a), A.version, DETERMINISTIC_METHODS.includes(b.method)), SUMMARY_DIGITS);
          if (!c) continue;
          rows.push([
            series,
            c.ratio,
            c.interval?.low ?? null,
            c.interval?.high ?? null,
            c.interval?.coverage ?? null,
            VERDICTS.indexOf(c.verdict),
            c.pairs,
            c.pairing === 'deterministic' ? 1 : 0,
          ]);
        }
        if (shared) files.pairs[`${host}/${pairFile(A, B)}`] = { a: A.id, b: B.id, rows };
      }
    files.catalogues[host] = {
      host,
      runs: runs.items,
      benchmarks: benchmarks.items,
      metrics: metrics.items,
      whats: whats.items,
      tokens: tokens.items,
      units: units.items,
      methods: methods.items,
      segments: segments.items,
      series: seriesIds.items,
    };
  }
  return files;
}
