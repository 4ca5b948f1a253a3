// A build's entries grouped for its pages: by benchmark in reading order, then by measure into tables, with
// series the build cannot measure listed once per reason, and one summary line per benchmark.
import { seriesNote } from '../../../../runner/handshake/series.ts';
import { gist, isNoisy, significant } from '../format.ts';
import { groupBy, type Entry } from '../model.ts';
import { clauses, splitAround, splitLabels } from './labels.ts';
import { benchmarkTitle, compareEntries } from './order.ts';

/**
 * Instruction counts inside one function (the fn-cost experiment): evidence for a write-up's cause, not a
 * figure of the version. A version page counts them and leaves their tables to the write-ups and the
 * download; dozens per version would push the page past its transfer budget.
 */
export const writeupOnly = (e: Entry): boolean => e.metric === 'instructions-in-function';

export interface Measure {
  /** what every row measures, said once (the label's shared clauses); '' for a table of full labels */
  head: string;
  /** explanations several rows' labels repeated, said once */
  notes: string[];
  entries: Entry[];
  /** per entry: the part of its label the head and notes do not say */
  rowLabels: string[];
}

export interface Unsupported {
  /** the library's reason, without its error dump */
  reason: string;
  entries: Entry[];
}

export interface BenchmarkGroup {
  benchmark: string;
  title: string;
  measures: Measure[];
  /** series this build cannot measure, one line per reason instead of a row each */
  unsupported: Unsupported[];
  count: number;
}

/** A library's error dump ("...:error:0A080106:SSL routines:...") adds nothing a reader can use on a page; the downloads keep it whole. */
export function reasonText(reason: string | undefined): string {
  return reason ? gist(reason.replace(/:\s*(?:[0-9A-F]{8,}:)?error:[0-9A-F]{8}:[\s\S]*$/, '').replace(/:\s*\(the library queued no error\)$/, ''), 200) : '';
}

/** Index of the first ": " outside parentheses, or -1. */
function firstColonBreak(text: string): number {
  let depth = 0;
  for (let i = 0; i < text.length; i++) {
    const c = text[i];
    if (c === '(') depth++;
    else if (c === ')') depth = Math.max(0, depth - 1);
    else if (c === ':' && depth === 0 && text[i + 1] === ' ') return i;
  }
  return -1;
}

/** A label written "<measure>: <operation>" (the known-issues benchmark's): its measure, or null. */
const colonHead = (label: string): string | null => {
  const i = firstColonBreak(label);
  return i > 0 ? label.slice(0, i) : null;
};

/** Rows that measure the same thing on the same side (and layer, function) in the same run: one table each. */
const measureKey = (e: Entry) => [e.metric, e.method, e.unit, e.params.side, e.params.layer, e.params.function].join('\u0000');

/** Within a measure, rows whose labels share a "<measure>: " head go together; a head no other row has is no measure. */
function byColonHead(rows: readonly Entry[]): Entry[][] {
  const heads = rows.map((e) => colonHead(e.label) ?? '');
  const shared = new Set(heads.filter((h, i) => h !== '' && heads.indexOf(h) !== i));
  return [...groupBy(rows, (e) => (shared.has(colonHead(e.label) ?? '') ? colonHead(e.label)! : '')).values()];
}

/** Measures with fewer rows than this share one table of full labels per benchmark and run. */
const MIN_MEASURE_ROWS = 3;

/**
 * Entries of one build, grouped by benchmark (in reading order), then by measure. A table never mixes runs:
 * a measure whose rows come from several runs becomes one table per run, the run with most rows first.
 */
export function groupEntries(entries: readonly Entry[]): BenchmarkGroup[] {
  const sorted = [...entries].sort(compareEntries);
  const out: BenchmarkGroup[] = [];
  for (const [benchmark, list] of groupBy(sorted, (e) => e.benchmark)) {
    const runSize = new Map<string, number>();
    for (const e of list) runSize.set(e.runId, (runSize.get(e.runId) ?? 0) + 1);
    const byRun = (a: string, b: string) => runSize.get(b)! - runSize.get(a)! || a.localeCompare(b);
    const measures: Measure[] = [];
    const loose = new Map<string, Entry[]>();
    const unsupported = [
      ...groupBy(
        list.filter((e) => e.status === 'unsupported'),
        (e) => reasonText(e.reason),
      ),
    ].map(([reason, es]) => ({ reason, entries: es }));
    for (const same of [
      ...groupBy(
        list.filter((e) => e.status !== 'unsupported'),
        measureKey,
      ).values(),
    ].flatMap(byColonHead)) {
      for (const [run, rows] of [...groupBy(same, (e) => e.runId)].sort(([a], [b]) => byRun(a, b))) {
        const split = rows.length >= MIN_MEASURE_ROWS ? splitLabels(rows.map((e) => e.label)) : null;
        const head = colonHead(rows[0]!.label);
        const around = rows.length >= MIN_MEASURE_ROWS ? splitAround(rows.map((e) => e.label)) : null;
        if (split) measures.push({ head: split.head, notes: split.notes, entries: rows, rowLabels: split.rows });
        // "<measure>: <operation>" labels: the measure said once above the table, each row its operation
        else if (head !== null && rows.length > 1 && rows.every((e) => colonHead(e.label) === head))
          measures.push({ head, notes: [], entries: rows, rowLabels: rows.map((e) => e.label.slice(head.length + 2)) });
        // labels that differ in a few words only (openssl speed's buffer sizes): the rest said once
        else if (around) measures.push({ head: around.head, notes: [], entries: rows, rowLabels: around.rows });
        else loose.set(run, [...(loose.get(run) ?? []), ...rows]);
      }
    }
    for (const run of [...loose.keys()].sort(byRun)) {
      const rows = loose.get(run)!;
      // full labels, but an explanation several of them repeat is said once, as a note
      const parts = rows.map((e) => clauses(e.label));
      const counts = new Map<string, number>();
      for (const r of parts) for (const c of new Set(r.slice(1))) counts.set(c, (counts.get(c) ?? 0) + 1);
      const notes = [...counts].filter(([, n]) => n > 1).map(([c]) => c);
      measures.push({ head: '', notes, entries: rows, rowLabels: parts.map((r) => [r[0]!, ...r.slice(1).filter((c) => !notes.includes(c))].join('; ')) });
    }
    // said beside the table whatever the labels of the runs say (runs before the percentile labels were reworded)
    for (const m of measures) for (const note of new Set(m.entries.map(seriesNote))) if (note && !m.notes.includes(note)) m.notes.push(note);
    out.push({ benchmark, title: benchmarkTitle(benchmark), measures, unsupported, count: list.length });
  }
  return out;
}

/** What a version page lists of one benchmark: its own page holds the tables. */
export interface BenchmarkSummary {
  benchmark: string;
  title: string;
  /** series shown on the benchmark's page (write-up-only series not counted) */
  shown: number;
  writeupOnly: number;
  unsupported: number;
  /** series whose interval shows a change against the previous series */
  changed: number;
  noisy: number;
  runs: string[];
}

/** One line per benchmark of a build's entries, in reading order. */
export function benchmarkSummaries(entries: readonly Entry[]): BenchmarkSummary[] {
  const sorted = [...entries].sort(compareEntries);
  return [...groupBy(sorted, (e) => e.benchmark)].map(([benchmark, list]) => ({
    benchmark,
    title: benchmarkTitle(benchmark),
    shown: list.filter((e) => !writeupOnly(e)).length,
    writeupOnly: list.filter(writeupOnly).length,
    unsupported: list.filter((e) => e.status === 'unsupported').length,
    changed: list.filter((e) => significant(e.vsPreviousSeries)).length,
    noisy: list.filter((e) => isNoisy(e.stats)).length,
    runs: [...new Set(list.map((e) => e.runId))].sort(),
  }));
}
