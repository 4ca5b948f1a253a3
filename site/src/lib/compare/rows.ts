// One row per series of a comparison: two builds' values joined by series key, paired only within one
// run; then the filter and the default (curated) view.
import { CURATED } from '../reference-keys.ts';
import { STATUSES, VERDICTS, type BuildRow, type BuildShard, type PairRow, type PairShard, type SeriesCatalogue, type Verdict } from './files.ts';

export interface Side {
  status: string;
  median: number | null;
  low: number | null;
  high: number | null;
  n: number;
  segment: string | null;
  run: string;
  reason: string | null;
}

export interface Paired {
  ratio: number;
  low: number | null;
  high: number | null;
  coverage: number | null;
  verdict: Verdict;
  pairs: number;
  deterministic: boolean;
}

export type Relation = 'paired' | 'independent' | 'not-comparable' | 'one-side' | 'not-measured';

export interface CompareRow {
  key: string;
  benchmark: string;
  what: string;
  config: string;
  params: string;
  unit: string;
  method: string;
  higherIsBetter: boolean;
  a: Side | null;
  b: Side | null;
  relation: Relation;
  paired: Paired | null;
  significant: boolean;
  tone: 'better' | 'worse' | 'neutral';
}

function side(cat: SeriesCatalogue, r: BuildRow): Side {
  return {
    status: STATUSES[r[1]] ?? 'measured',
    median: r[2],
    low: r[3],
    high: r[4],
    n: r[5],
    segment: r[6] === null ? null : cat.segments[r[6]]!,
    run: cat.runs[r[7]]!,
    reason: r[8],
  };
}

/** The series key as the runner writes it: benchmark/metric[sorted k=v,...]. */
export function seriesKeyOf(cat: SeriesCatalogue, i: number): string {
  const s = cat.series[i]!;
  if (s[8] !== undefined) return s[8];
  const params = s[4].map((t) => cat.tokens[t]!).join(',');
  return `${cat.benchmarks[s[0]]}/${cat.metrics[s[1]]}${params ? `[${params}]` : ''}`;
}

/**
 * Join two builds' values by series. A ratio is shown only for values paired within one run (same host,
 * same run, comparable method); values of different runs are independent: both shown, never divided.
 */
export function joinRows(catA: SeriesCatalogue, a: BuildShard, catB: SeriesCatalogue, b: BuildShard, pair: PairShard | null, reversed: boolean): CompareRow[] {
  const byKey = new Map<string, { meta: [SeriesCatalogue, number]; a: Side | null; b: Side | null; bIdx: number | null }>();
  for (const r of a.rows) byKey.set(seriesKeyOf(catA, r[0]), { meta: [catA, r[0]], a: side(catA, r), b: null, bIdx: null });
  for (const r of b.rows) {
    const k = seriesKeyOf(catB, r[0]);
    const e = byKey.get(k) ?? { meta: [catB, r[0]] as [SeriesCatalogue, number], a: null, b: null, bIdx: null };
    e.b = side(catB, r);
    e.bIdx = r[0];
    byKey.set(k, e);
  }
  const paired = new Map((pair?.rows ?? []).map((p) => [p[0], p]));
  const rows: CompareRow[] = [];
  for (const [key, e] of byKey) {
    const [cat, i] = e.meta;
    const s = cat.series[i]!;
    const higherIsBetter = s[7] === 1;
    let relation: Relation;
    let p: Paired | null = null;
    const measured = (x: Side | null) => x !== null && x.median !== null;
    if (!measured(e.a) && !measured(e.b)) relation = 'not-measured';
    else if (!measured(e.a) || !measured(e.b)) relation = 'one-side';
    else if (e.a!.segment === null || e.a!.segment !== e.b!.segment) relation = 'not-comparable';
    else if (catA.host !== catB.host || e.a!.run !== e.b!.run) relation = 'independent';
    else {
      // pair files hold series by the catalogue index of their host (A and B share it)
      const pr = e.bIdx === null ? undefined : paired.get(e.bIdx);
      relation = pr ? 'paired' : 'independent';
      if (pr) p = toPaired(pr, reversed);
    }
    const significant = p !== null && (p.verdict === 'higher' || p.verdict === 'lower');
    const tone = !significant ? 'neutral' : (p!.verdict === 'higher') === higherIsBetter ? 'better' : 'worse';
    const tokens = s[4].map((t) => cat.tokens[t]!);
    rows.push({
      key,
      benchmark: cat.benchmarks[s[0]]!,
      what: cat.whats[s[2]]!,
      config: s[3],
      params: tokens.join(', '),
      unit: cat.units[s[5]]!,
      method: cat.methods[s[6]]!,
      higherIsBetter,
      a: e.a,
      b: e.b,
      relation,
      paired: p,
      significant,
      tone,
    });
  }
  return rows;
}

/** A pair file holds B/A for its own order; the page may show them the other way round. */
function toPaired(r: PairRow, reversed: boolean): Paired {
  const [, ratio, low, high, coverage, v, pairs, det] = r;
  const verdict = VERDICTS[v] ?? 'not-enough-data';
  if (!reversed) return { ratio, low, high, coverage, verdict, pairs, deterministic: det === 1 };
  const flipped: Verdict = verdict === 'higher' ? 'lower' : verdict === 'lower' ? 'higher' : verdict;
  return {
    ratio: 1 / ratio,
    low: high === null ? null : 1 / high,
    high: low === null ? null : 1 / low,
    coverage,
    verdict: flipped,
    pairs,
    deterministic: det === 1,
  };
}

// ------------------------------------------------------------------ filter, sort, words

export interface CompareFilter {
  benchmark: string;
  text: string;
  significantOnly: boolean;
  sort: 'change' | 'name';
}

/** How far a paired row moved (|log ratio|; -1 without a pair): the order of the "change" sort and of the forest. */
export const changeSize = (r: CompareRow) => (r.paired ? Math.abs(Math.log(r.paired.ratio)) : -1);

export function filterRows(rows: readonly CompareRow[], f: CompareFilter): CompareRow[] {
  const words = f.text.toLowerCase().split(/\s+/).filter(Boolean);
  const out = rows.filter(
    (r) =>
      (!f.benchmark || r.benchmark === f.benchmark) &&
      (!f.significantOnly || r.significant) &&
      words.every((w) => `${r.benchmark} ${r.what} ${r.config} ${r.params}`.toLowerCase().includes(w)),
  );
  const byName = (a: CompareRow, b: CompareRow) => a.benchmark.localeCompare(b.benchmark) || a.what.localeCompare(b.what) || a.key.localeCompare(b.key);
  return out.sort(f.sort === 'change' ? (a, b) => changeSize(b) - changeSize(a) || byName(a, b) : byName);
}

/**
 * Compare's default view: the rows of reference-keys.ts CURATED that the pair has, in its order, each with its
 * question as `what` and its group as `config` (compareRowsHtml's question mode); the filter's conditions
 * apply, its sort does not.
 */
export function curatedRows(rows: readonly CompareRow[], f: CompareFilter): CompareRow[] {
  const kept = new Set(filterRows(rows, f).map((r) => r.key));
  return CURATED.flatMap((q) => {
    const r = rows.find((x) => x.key === q.key);
    return r && kept.has(r.key) ? [{ ...r, what: q.label, config: q.group }] : [];
  });
}
