// The forest chart's input: the largest paired changes of a comparison (lib/forest-chart.ts draws them).
import { plainWhat } from '../journey-view.ts';
import type { RunOf } from '../runs.ts';
import { rowRuns } from './layout.ts';
import { changeSize, type CompareRow } from './rows.ts';
import { changeText } from './words.ts';

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
