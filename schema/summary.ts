// The files derived from the run files by the aggregation: data/summary.json and data/detailed-iterations.json.
import { z } from 'zod';
import { finite, isoTime, safeId } from './primitives.ts';
import { Host } from './host.ts';
import { BuildFields, Library } from './build.ts';
import { Comparability, Method, Params, Unit } from './series.ts';
import { RunMode } from './run.ts';

/** A plain interval (used where the method is stated beside it, e.g. the hypothesis test's t intervals). */
export const Interval = z.object({ low: finite, high: finite });

/**
 * A distribution-free interval: order statistics of the sample (or of per-round ratios) with the exact
 * probability that they bracket the true median (binomial with p = 1/2). "range" means n was too small
 * for any pair of order statistics to reach 95%, so the interval is [min, max] with its lower coverage.
 */
export const CoverageInterval = z.object({
  low: finite,
  high: finite,
  coverage: finite.refine((c) => c > 0 && c <= 1, { message: 'must be a probability' }),
  kind: z.enum(['order-statistic', 'range']),
});
export type CoverageInterval = z.infer<typeof CoverageInterval>;

export const Stats = z.object({
  n: z.int().nonnegative(),
  median: finite,
  mean: finite,
  stdev: finite.nullable(),
  min: finite,
  max: finite,
  cv: finite.nullable(),
  deterministic: z.boolean().describe('instruction counts, bytes, heap: no interval; changes count above the stated threshold'),
  interval: CoverageInterval.nullable().describe('interval of the median; null for deterministic metrics and n < 2'),
});
export type Stats = z.infer<typeof Stats>;

export const Comparison = z.object({
  against: z.string().describe('build key of the reference (version[+variant]; another library: library-version[+variant]) in the same run'),
  ratio: finite.describe('paired: median of the per-round ratios; deterministic: ratio of the medians'),
  pairing: z
    .enum(['paired-rounds', 'deterministic'])
    .describe('paired-rounds: the two builds ran in the same rounds and each round gives one ratio; deterministic: exact counts'),
  pairs: z.int().nonnegative().describe('rounds that measured both builds'),
  interval: CoverageInterval.nullable(),
  verdict: z.enum(['higher', 'lower', 'no-difference-shown', 'within-threshold', 'not-enough-data']),
});
export type Comparison = z.infer<typeof Comparison>;

export const SummaryEntry = z.object({
  host: safeId,
  library: Library.default('openssl'),
  version: z.string(),
  series: z.string(),
  variant: safeId,
  key: z.string(),
  benchmark: safeId,
  metric: safeId,
  label: z.string(),
  unit: Unit,
  method: Method,
  higherIsBetter: z.boolean(),
  params: Params,
  comparability: Comparability,
  status: z.enum(['measured', 'unsupported', 'failed']),
  reason: z.string().optional(),
  observed: Params.optional(),
  runId: safeId.describe('the one run this entry comes from'),
  stats: Stats.nullable(),
  vsPreviousSeries: Comparison.nullable(),
  vsBaseline: Comparison.nullable(),
  vsOpenSSL: Comparison.nullable()
    .default(null)
    .describe("another library's entry against the newest OpenSSL release of the same run (null for OpenSSL entries)"),
});
export type SummaryEntry = z.infer<typeof SummaryEntry>;

export const SummaryRun = z.object({
  runId: safeId,
  host: safeId,
  mode: RunMode,
  startedAt: isoTime,
  finishedAt: isoTime,
  path: z.string(),
  series: z.int(),
  benchmarks: z.array(safeId),
  quiet: z.boolean().describe('held the host lock and passed every quiet-host check; only quiet runs feed the entries (but in a local build: see local)'),
  quietReasons: z.array(z.string()).describe('why a run is not quiet (empty for quiet runs)'),
  local: z
    .literal(true)
    .optional()
    .describe(
      'only in a local build (npm start: npm run aggregate -- --local-host): a run of the machine that ran it, whose not-quiet runs feed the entries too (their values are indicative); never in the committed summary',
    ),
});
export type SummaryRun = z.infer<typeof SummaryRun>;

export const Summary = z.object({
  schemaVersion: z.literal(2),
  kind: z.literal('summary'),
  statistics: z.object({
    intervalMethod: z.string(),
    comparisonMethod: z.string(),
    minCoverageForVerdict: finite,
    deterministicThreshold: finite.describe('relative change below which a deterministic metric counts as unchanged'),
    baselineVersion: z.string(),
    selection: z.string().describe('how the run behind each entry is chosen'),
  }),
  hosts: z.array(Host),
  builds: z.array(BuildFields.extend({ host: safeId })),
  runs: z.array(SummaryRun),
  skipped: z
    .array(z.object({ path: z.string(), reason: z.string() }))
    .default([])
    .describe('run files under data/runs/ the aggregation could not use, with why (the rest was still aggregated)'),
  entries: z.array(SummaryEntry),
});
export type Summary = z.infer<typeof Summary>;

export const DetailedIterations = z
  .object({
    schemaVersion: z.literal(2),
    kind: z.literal('detailed-iterations'),
    columns: z.tuple([
      z.literal('runId'),
      z.literal('host'),
      z.literal('buildId'),
      z.literal('version'),
      z.literal('variant'),
      z.literal('key'),
      z.literal('rounds'),
      z.literal('values'),
    ]),
    rows: z.array(
      z
        .tuple([z.string(), z.string(), z.string(), z.string(), z.string(), z.string(), z.array(z.int().nonnegative()), z.array(finite)])
        .refine((r) => r[6].length === r[7].length, { message: 'rounds and values differ in length' }),
    ),
  })
  .describe(
    'the measured iterations behind the summary, one row per series of a build in a run: the round of each value and the value, in round order (warm-up iterations and the time of each iteration are in the run file)',
  );
export type DetailedIterations = z.infer<typeof DetailedIterations>;
