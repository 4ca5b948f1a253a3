// The compare page's data files and what the page does with them, shared by the build (the static view of
// the default pair) and the browser script (any pair). Runtime imports only from pure modules.
//
// Files, so a pair loads only what it needs (all under /data/compare/):
//   index: the machines and their builds (embedded in the page)
//   <host>/series.json: the series measured on a host (label, configuration, unit, ...), indexed
//   <host>/<build>.json: one build's values, by series index
//   <host>/<a>_vs_<b>.json: B against A paired by round, for the series both measured in the same run
import { INDEPENDENT_TEXT, INDICATIVE_TEXT, PAIRING_TEXT, VERDICT_TEXT, coverageText, pct, pctRange, quantity, quantityRange, toCsv } from './format.ts';
import { plainWhat } from './journey-view.ts';
import { isTiming, runAttrs, runDate, splitByRun, type RunOf } from './runs.ts';
import { esc, tag } from './svg.ts';
import { CURATED } from './reference-keys.ts';
import type { SummaryEntry } from '../../../schema/index.ts';

export const VERDICTS = ['higher', 'lower', 'no-difference-shown', 'within-threshold', 'not-enough-data'] as const;
export type Verdict = (typeof VERDICTS)[number];
export const STATUSES = ['measured', 'unsupported', 'failed'] as const;

export interface CompareBuild {
  /** "<host>/<slug>", the value in the address */
  id: string;
  host: string;
  library: SummaryEntry['library'];
  version: string;
  variant: string;
  /** catalogue buildSlug: "3.5.7-no-ml-kem", "aws-lc-5.12.0" */
  slug: string;
  /** catalogue buildLabel: "3.5.7 (no-ml-kem)", "AWS-LC 5.12.0" */
  label: string;
}

export interface CompareIndex {
  /** every build of every library measured, by machine (display order within a machine) */
  builds: CompareBuild[];
  /** the machines, the one the page opens on first (lib/hosts.ts) */
  machines: string[];
  defaults: { a: string; b: string } | null;
  /** runs whose machine was not quiet (only in a local build, npm start): their values are indicative */
  indicative: string[];
  /** how the build lists head each library's group (catalogue LIBRARY_NAMES) */
  libraryNames: Record<string, string>;
}

// ------------------------------------------------------------------ what a visitor can choose

/** Every build a machine measured, in display order: what both of its lists offer. */
export const buildsOn = (index: Pick<CompareIndex, 'builds'>, host: string): CompareBuild[] => index.builds.filter((b) => b.host === host);

/**
 * The pair a machine opens with: the newest 3.4 against the newest 3.5 (the step the site is about), else
 * its two newest OpenSSL builds, else its first two builds; null when it measured fewer than two.
 */
export function defaultPairOn(builds: readonly CompareBuild[], host: string): { a: string; b: string } | null {
  const mine = builds.filter((b) => b.host === host);
  const openssl = mine.filter((b) => b.library === 'openssl' && b.variant === 'default');
  const newest = (series: string) => [...openssl].reverse().find((b) => b.version.startsWith(`${series}.`));
  const a = newest('3.4') ?? openssl[openssl.length - 2] ?? mine[0];
  const b = newest('3.5') ?? openssl[openssl.length - 1] ?? mine[1];
  return a && b && a !== b ? { a: a.id, b: b.id } : null;
}

export interface CompareSelection {
  host: string;
  /** what both lists offer: every build of the machine */
  offered: CompareBuild[];
  a: CompareBuild;
  b: CompareBuild;
}

/**
 * What the page shows for what was asked (the address, or a list changed): one machine, A and B among its
 * builds. A build of another machine than the one asked for is not kept (nothing compares two machines);
 * what is missing or unknown falls back to the machine's default pair, and B is never A.
 */
export function selectPair(index: CompareIndex, asked: { host?: string | null; a?: string | null; b?: string | null }): CompareSelection | null {
  const byId = (id: string | null | undefined) => index.builds.find((b) => b.id === id);
  const usable = index.machines.filter((h) => buildsOn(index, h).length >= 2);
  const host = [asked.host, byId(asked.a)?.host, byId(asked.b)?.host, index.defaults ? byId(index.defaults.a)?.host : null, usable[0]].find(
    (h) => h && usable.includes(h),
  );
  if (!host) return null;
  const offered = buildsOn(index, host);
  const def = defaultPairOn(index.builds, host)!;
  const on = (id: string | null | undefined) => offered.find((b) => b.id === id);
  const a = on(asked.a) ?? on(def.a)!;
  const b = [on(asked.b), on(def.b), on(def.a), ...offered].find((x) => x && x !== a)!;
  return { host, offered, a, b };
}

export interface SeriesCatalogue {
  host: string;
  runs: string[];
  benchmarks: string[];
  metrics: string[];
  /** what is measured, in full (labels without their configuration part) */
  whats: string[];
  /** "k=v" parameter tokens */
  tokens: string[];
  units: string[];
  methods: string[];
  segments: string[];
  /**
   * [benchmark, metric, what, configuration words from the label, parameter tokens, unit, method, higher is
   * better (1/0), the key itself where it is not benchmark/metric[sorted parameters]]
   */
  series: [number, number, number, string, number[], number, number, 0 | 1, string?][];
}

/** [series, status, median, low, high, n, segment (null: comparable with no other version), run, reason] */
export type BuildRow = [number, number, number | null, number | null, number | null, number, number | null, number, string | null];
export interface BuildShard {
  id: string;
  rows: BuildRow[];
}

/** [series, ratio B/A, low, high, coverage, verdict, rounds paired, deterministic (1/0)] */
export type PairRow = [number, number, number | null, number | null, number | null, number, number, 0 | 1];
export interface PairShard {
  a: string;
  b: string;
  rows: PairRow[];
}

export const pairFile = (a: CompareBuild, b: CompareBuild) => `${a.slug}_vs_${b.slug}`;

/** Values of A and B were measured as pairs (same host, same run) for some series: the pair file exists. */
export function sharesRun(a: BuildShard, b: BuildShard): boolean {
  const runs = new Map(a.rows.filter((r) => r[1] === 0).map((r) => [r[0], r[7]]));
  return b.rows.some((r) => r[1] === 0 && runs.get(r[0]) === r[7]);
}

/**
 * What the page says of a pair before its tables when none of its values could be paired: the two builds
 * were never measured in one run on the machine (the project never divides values of two runs).
 */
export function neverPairedText(a: CompareBuild, b: CompareBuild): string {
  return `${a.label} and ${b.label} were never measured in the same run on this machine, so no change between them is computed: each value is listed with its own run, without a ratio.`;
}

// ------------------------------------------------------------------ one row of the comparison

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

const changeSize = (r: CompareRow) => (r.paired ? Math.abs(Math.log(r.paired.ratio)) : -1);

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

export const RELATION_WORDS: Record<Relation, string> = {
  paired: PAIRING_TEXT['paired-rounds'],
  independent: INDEPENDENT_TEXT,
  'not-comparable': 'not comparable: the measurement method differs',
  'one-side': 'measured in one build only',
  'not-measured': 'measured in neither build',
};

function sideHtml(s: Side | null, unit: string, method: string, showRun: boolean): string {
  if (!s || s.median === null) {
    const why = !s ? 'not measured' : s.status === 'measured' ? 'not measured' : s.status;
    // an unsupported or failed value names the run that reported it, as a measured one does
    return tag('span', { class: 'muted', title: s?.reason ?? why, ...(s ? { 'data-run': s.run } : {}) }, esc(why));
  }
  const iv = s.low !== null && s.high !== null ? `${quantityRange(s.low, s.high, unit, method)}, ` : '';
  // every measured value names its run (lib/runs.ts: a table of rows of several runs says each row's)
  return (
    tag('span', { class: 'v', 'data-median': s.median, 'data-run': s.run }, esc(quantity(s.median, unit, method))) +
    tag('span', { class: 'sub' }, esc(`${iv}n=${s.n}`)) +
    (showRun ? tag('span', { class: 'sub run' }, esc(`run ${s.run}`)) : '')
  );
}

/** The label in full, its parenthesised method notes set apart (muted) so the measure reads first. */
function whatHtml(what: string): string {
  return what
    .split(/(\s*\([^)]*\))/)
    .map((part) => (/^\s*\(/.test(part) ? tag('span', { class: 'note' }, esc(part)) : esc(part)))
    .join('');
}

export function changeText(r: CompareRow): { main: string; sub: string } {
  if (r.relation !== 'paired' || !r.paired) return { main: RELATION_WORDS[r.relation], sub: '' };
  const p = r.paired;
  const iv =
    p.low !== null && p.high !== null ? `${pctRange({ low: p.low, high: p.high })}${p.coverage !== null ? ` (covers ${coverageText(p.coverage)})` : ''}, ` : '';
  return { main: pct(p.ratio), sub: `${iv}${p.deterministic ? 'exact count' : `${p.pairs} rounds paired`}: ${VERDICT_TEXT[p.verdict]}` };
}

/** The table rows as HTML: the same text in the static page and after every change of selection. */
/**
 * The rows of one table. `questions`: compare's default view (curatedRows), where `what` is the question's
 * label and `config` its group, shown as a heading row where it changes; such rows carry data-question, not
 * data-key, so the full list below names each series once.
 */
export function compareRowsHtml(rows: readonly CompareRow[], questions = false): string {
  let group = '';
  return rows
    .map((r) => {
      const heading =
        questions && r.config !== group ? tag('tr', { class: 'group' }, tag('th', { scope: 'colgroup', colspan: 4 }, esc((group = r.config)))) : '';
      const showRun = r.a?.median != null && r.b?.median != null && r.a.run !== r.b.run;
      const c = changeText(r);
      const mark = r.significant ? (r.paired!.verdict === 'higher' ? ' ▲' : ' ▼') : '';
      const changeCls = r.relation === 'paired' ? `num change ${r.significant ? `sig ${r.tone}` : 'ns'}` : 'num change muted';
      const label = questions
        ? tag('th', { scope: 'row' }, tag('span', { class: 'what' }, esc(r.what)))
        : tag(
            'th',
            { scope: 'row' },
            tag('span', { class: 'what' }, whatHtml(r.what)),
            r.config ? tag('span', { class: 'cfg' }, esc(`; ${r.config}`)) : '',
            tag('span', { class: 'sub params' }, esc(`${r.benchmark} · ${r.params || 'no parameters'}`)),
          );
      return (
        heading +
        tag(
          'tr',
          { [questions ? 'data-question' : 'data-key']: r.key, 'data-relation': r.relation },
          label,
          tag('td', { class: 'num', 'data-label': 'A' }, sideHtml(r.a, r.unit, r.method, showRun)),
          tag('td', { class: 'num', 'data-label': 'B' }, sideHtml(r.b, r.unit, r.method, showRun)),
          tag(
            'td',
            { class: changeCls, 'data-label': 'B vs A', 'data-verdict': r.paired?.verdict ?? '', ...(r.paired ? { 'data-ratio': r.paired.ratio } : {}) },
            tag(
              'span',
              { class: 'v' },
              esc(c.main),
              mark ? tag('span', { 'aria-hidden': 'true' }, mark) : '',
              r.significant ? tag('span', { class: 'sr-only' }, ` (significant)`) : '',
            ),
            c.sub ? tag('span', { class: 'sub' }, esc(c.sub)) : '',
          ),
        )
      );
    })
    .join('');
}

// ------------------------------------------------------------------ one run per table

/** Where each measured value of a row comes from (hosts: A's and B's), as runAttrs reads it. */
export function rowRuns(r: CompareRow, hosts: readonly [string, string]): RunOf[] {
  return ([r.a, r.b] as const).flatMap((s, i) => (s && s.median !== null ? [{ host: hosts[i]!, runId: s.run, method: r.method }] : []));
}

/**
 * A row whose two values may not stand side by side in one table (site/README.md, Tables): values of two
 * hosts, or timing values of two runs. Deterministic counts of two runs of one host may.
 */
export function isApart(r: CompareRow, hosts: readonly [string, string]): boolean {
  const [x, y] = rowRuns(r, hosts);
  return y !== undefined && (x!.host !== y.host || (isTiming(r.method) && x!.runId !== y.runId));
}

export interface ComparePart {
  host: string;
  /** the run of its timing rows, null when it has none */
  run: string | null;
  /** the first table: the other parts are the timing rows of other runs (or of B's host) */
  main: boolean;
  rows: CompareRow[];
  attrs: Record<string, string | undefined>;
}

export interface CompareLayout {
  parts: ComparePart[];
  /** rows of values from different runs or hosts: listed each value with its run, never in a table */
  apart: CompareRow[];
  /** rows neither build measured */
  neither: CompareRow[];
}

/**
 * The rows (in their order) as the page lays them out: tables of one host and, for timing rows, one run
 * (lib/runs.ts splitByRun), the rows whose two values come from different runs or hosts apart, and the rows
 * with no value at all named under the tables.
 */
export function compareLayout(rows: readonly CompareRow[], hosts: readonly [string, string]): CompareLayout {
  const apart = rows.filter((r) => isApart(r, hosts));
  const kept = rows.filter((r) => !isApart(r, hosts) && rowRuns(r, hosts).length > 0);
  const parts = splitByRun(kept, (r) => rowRuns(r, hosts)[0]!).map((p): ComparePart => ({
    host: p.host,
    run: p.timingRun,
    main: p.main,
    rows: p.rows,
    attrs: runAttrs(p.rows.flatMap((r) => rowRuns(r, hosts))),
  }));
  return { parts, apart, neither: rows.filter((r) => rowRuns(r, hosts).length === 0) };
}

const sideWords = (s: Side | null, unit: string, method: string) =>
  !s || s.median === null ? (s && s.status !== 'measured' ? s.status : 'not measured') : `${quantity(s.median, unit, method)} (n=${s.n})`;

/**
 * A run as a table names it: by id and time; in the main questions' view by its time only (the id is in the
 * full list's disclosure); a run of a machine that was not quiet says so.
 */
const runWords = (run: string, questions: boolean, indicative: ReadonlySet<string>) =>
  `${questions ? `the run of ${runDate(run)}` : `run ${run} (${runDate(run)})`}${indicative.has(run) ? ` (${INDICATIVE_TEXT})` : ''}`;

/** One row of values from different runs, in words: each value with its run, no pair, no ratio. */
function apartHtml(
  r: CompareRow,
  names: readonly [string, string],
  hosts: readonly [string, string],
  questions: boolean,
  indicative: ReadonlySet<string>,
): string {
  const why = hosts[0] !== hosts[1] ? 'different hosts' : 'different runs';
  return tag(
    'li',
    { [questions ? 'data-question' : 'data-key']: r.key, 'data-relation': r.relation },
    questions
      ? tag('span', { class: 'what' }, esc(`${r.config}: ${r.what}`))
      : [
          tag('span', { class: 'what' }, esc(plainWhat(r.what))),
          r.config ? esc(`; ${r.config}`) : '',
          tag('span', { class: 'muted' }, esc(` (${r.params || 'no parameters'})`)),
        ].join(''),
    ': ',
    esc(`${names[0]}: ${sideWords(r.a, r.unit, r.method)}, measured in ${runWords(r.a!.run, questions, indicative)} only; `),
    esc(`${names[1]}: ${sideWords(r.b, r.unit, r.method)}, in ${runWords(r.b!.run, questions, indicative)}; `),
    tag('strong', {}, esc(`not compared: ${why}`)),
    '.',
  );
}

/**
 * The tables of a comparison (names: A's and B's as the headers say them), then the rows of values from
 * different runs listed apart: the same HTML in the static page and after every change of selection.
 */
/**
 * `machine` puts a host id into words (the page's machine descriptions); the id itself where it has none.
 * `indicative`: runs of a machine that was not quiet (CompareIndex.indicative), said so wherever a run is named.
 */
export function compareTablesHtml(
  rows: readonly CompareRow[],
  names: readonly [string, string],
  hosts: readonly [string, string],
  machine: (host: string) => string = (h) => h,
  questions = false,
  indicative: ReadonlySet<string> = new Set(),
): string {
  const { parts, apart, neither } = compareLayout(rows, hosts);
  const head = tag(
    'thead',
    {},
    tag(
      'tr',
      {},
      tag('th', { scope: 'col' }, 'Series'),
      tag('th', { scope: 'col', class: 'num' }, esc(`A: ${names[0]}`)),
      tag('th', { scope: 'col', class: 'num' }, esc(`B: ${names[1]}`)),
      tag('th', { scope: 'col', class: 'num' }, 'B vs A'),
    ),
  );
  const caption = (p: ComparePart, i: number) =>
    p.run === null
      ? `Deterministic counts on ${machine(p.host)}`
      : `${i === 0 ? 'Measured' : 'Timing values measured'} in ${runWords(p.run, questions, indicative)} on ${machine(p.host)}${i === 0 && parts.length > 1 ? '; the tables below hold the timing values of other runs' : ''}`;
  const tables = parts.map((p, i) =>
    tag(
      'div',
      {
        class: 'table-scroll cmp-scroll',
        tabindex: 0,
        role: 'region',
        'aria-label': i === 0 ? 'Comparison of A and B' : `Comparison of A and B, run ${p.run}`,
      },
      tag(
        'table',
        { class: 'cmp', ...p.attrs, ...(i > 0 ? { 'data-apart': p.run ?? p.host } : {}) },
        tag('caption', { class: 'muted' }, esc(caption(p, i))),
        head,
        tag('tbody', {}, compareRowsHtml(p.rows, questions)),
      ),
    ),
  );
  const apartList = apart.length
    ? tag(
        'section',
        { class: 'cmp-apart', 'data-compare-apart': '' },
        tag('h2', {}, 'Measured in different runs: not compared'),
        tag(
          'p',
          { class: 'muted' },
          esc(
            `The same machine measuring the same build hours apart moves by more than a run's intervals, so these values are not put side by side and no ratio is given.`,
          ),
        ),
        tag('ul', {}, apart.map((r) => apartHtml(r, names, hosts, questions, indicative)).join('')),
      )
    : '';
  const neitherNote = neither.length
    ? tag(
        'p',
        { class: 'muted', 'data-compare-neither': '' },
        esc(`Measured in neither build: ${neither.map((r) => `${plainWhat(r.what)}${r.config ? `; ${r.config}` : ''}`).join(' · ')}.`),
      )
    : '';
  return tables.join('') + apartList + neitherNote;
}

// ------------------------------------------------------------------ download this view

export function compareCsv(rows: readonly CompareRow[], a: CompareBuild, b: CompareBuild): string {
  const sideCols = (x: string) => [`${x} median`, `${x} interval low`, `${x} interval high`, `${x} n`, `${x} run`, `${x} status`];
  const head = [
    'series key',
    'benchmark',
    'what',
    'configuration',
    'unit',
    ...sideCols(`A ${a.id}`),
    ...sideCols(`B ${b.id}`),
    'relation',
    'ratio B/A',
    'ratio low',
    'ratio high',
    'coverage',
    'verdict',
  ];
  const sideVals = (s: Side | null) => (s ? [s.median, s.low, s.high, s.n, s.run, s.status] : [null, null, null, null, null, 'not measured']);
  return toCsv(
    head,
    rows.map((r) => [
      r.key,
      r.benchmark,
      r.what,
      r.config,
      r.unit,
      ...sideVals(r.a),
      ...sideVals(r.b),
      RELATION_WORDS[r.relation],
      r.paired?.ratio,
      r.paired?.low,
      r.paired?.high,
      r.paired?.coverage,
      r.paired?.verdict,
    ]),
  );
}

export function compareJson(rows: readonly CompareRow[], a: CompareBuild, b: CompareBuild): string {
  return JSON.stringify({ a, b, rows }, null, 1) + '\n';
}

// ------------------------------------------------------------------ forest chart input

export interface ForestRow {
  key: string;
  label: string;
  ratio: number;
  low: number | null;
  high: number | null;
  tone: 'better' | 'worse' | 'neutral';
  significant: boolean;
  detail: string;
}

/** The runs of a forest's rows (the rows of one table: one host, timing of one run), for runAttrs. */
export function forestRuns(rows: readonly CompareRow[], forest: readonly ForestRow[], hosts: readonly [string, string]): RunOf[] {
  const keys = new Set(forest.map((f) => f.key));
  return rows.filter((r) => keys.has(r.key)).flatMap((r) => rowRuns(r, hosts));
}

/** The largest paired changes, largest first. */
export function forestRows(rows: readonly CompareRow[], limit: number): ForestRow[] {
  const top = rows
    .filter((r) => r.paired)
    .sort((x, y) => changeSize(y) - changeSize(x))
    .slice(0, limit);
  const labelOf = (r: CompareRow) => `${plainWhat(r.what)}${r.config ? `; ${r.config}` : ''}`;
  // rows whose labels coincide are told apart by the parameters that differ between them
  const same = new Map<string, CompareRow[]>();
  for (const r of top) same.set(labelOf(r), [...(same.get(labelOf(r)) ?? []), r]);
  const distinct = (r: CompareRow) => {
    const group = same.get(labelOf(r))!;
    if (group.length < 2) return '';
    const mine = r.params.split(', ');
    const differing = mine.filter((t) => !group.every((o) => o.params.split(', ').includes(t)));
    return differing.length ? ` [${differing.join(', ')}]` : '';
  };
  return top.map((r) => ({
    key: r.key,
    label: `${labelOf(r)}${distinct(r)}`,
    ratio: r.paired!.ratio,
    low: r.paired!.low,
    high: r.paired!.high,
    tone: r.tone,
    significant: r.significant,
    detail: `${changeText(r).main}, ${changeText(r).sub}`,
  }));
}
