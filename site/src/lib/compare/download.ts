// "Download this view": the compared rows as CSV and JSON.
import { toCsv } from '../format.ts';
import type { CompareBuild } from './files.ts';
import type { CompareRow, Side } from './rows.ts';
import { RELATION_WORDS } from './words.ts';

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
