// Summary entries as a download: one row per entry with its stats and comparisons (the version pages'
// "every entry" and "headline figures" views), and the ids those views are served under.
import type { SummaryEntry } from '../../../../schema/index.ts';
import type { View } from './format.ts';

const ENTRY_COLUMNS = [
  'host',
  'version',
  'variant',
  'runId',
  'benchmark',
  'metric',
  'key',
  'label',
  'unit',
  'method',
  'higherIsBetter',
  'params',
  'observed',
  'comparableAcrossVersions',
  'status',
  'reason',
  'n',
  'median',
  'min',
  'max',
  'cv',
  'deterministic',
  'intervalLow',
  'intervalHigh',
  'intervalCoverage',
  'intervalKind',
  ...(['previousSeries', 'baseline'] as const).flatMap((s) =>
    ['Against', 'Ratio', 'Pairing', 'Pairs', 'Low', 'High', 'Coverage', 'Verdict'].map((c) => `${s}${c}`),
  ),
];

function entryRow(e: SummaryEntry): unknown[] {
  const s = e.status === 'measured' ? e.stats : null;
  const cmp = (c: SummaryEntry['vsBaseline']) =>
    c ? [c.against, c.ratio, c.pairing, c.pairs, c.interval?.low, c.interval?.high, c.interval?.coverage, c.verdict] : Array(8).fill(null);
  return [
    e.host,
    e.version,
    e.variant,
    e.runId,
    e.benchmark,
    e.metric,
    e.key,
    e.label,
    e.unit,
    e.method,
    e.higherIsBetter,
    JSON.stringify(e.params),
    e.observed ? JSON.stringify(e.observed) : null,
    e.comparability.acrossVersions,
    e.status,
    e.reason,
    s?.n,
    s?.median,
    s?.min,
    s?.max,
    s?.cv,
    s?.deterministic,
    s?.interval?.low,
    s?.interval?.high,
    s?.interval?.coverage,
    s?.interval?.kind,
    ...cmp(e.vsPreviousSeries),
    ...cmp(e.vsBaseline),
  ];
}

export function entryView(id: string, title: string, entries: readonly SummaryEntry[]): View {
  return { id, title, columns: ENTRY_COLUMNS, rows: entries.map(entryRow) };
}

export const versionViewId = (host: string, slug: string, part: 'all' | 'headline') => `versions/${host}/${slug}${part === 'all' ? '' : `-${part}`}`;
