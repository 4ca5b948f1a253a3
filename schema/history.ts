// data/timeseries/<host>/<YYYY>.json: the history of one host in one year, derived from its run files by
// `npm run aggregate`. One record per run (a few KB: what ran, on what, whether it was quiet, the medians
// of the headline metrics, what changed since the host's previous run), so a drift chart, a run list or
// the aggregation's choice of runs never has to open years of run files. The run files stay the record.
import { z } from 'zod';
import { finite, isoTime, safeId, sha256Hex, shortText } from './primitives.ts';
import { Host } from './host.ts';
import { Library } from './build.ts';
import { Method, Unit } from './series.ts';
import { RunMode } from './run.ts';

/** A metric followed night after night (analysis/headline-metrics.ts HEADLINE_METRICS chooses them). */
export const HeadlineMetric = z.object({
  id: safeId,
  key: z.string().describe('the series key in the run files'),
  title: shortText(200),
  unit: Unit.describe('a series with this key but another unit or method is another measurement and is not taken'),
  method: Method,
  higherIsBetter: z.boolean(),
  deterministic: z.boolean().describe('instruction counts and bytes: any change is a change of the code or the build, not noise'),
});
export type HeadlineMetric = z.infer<typeof HeadlineMetric>;

export const StepChangeKind = z.enum(['harness', 'kernel', 'microcode', 'compiler', 'build', 'os', 'cpu']);
export type StepChangeKind = z.infer<typeof StepChangeKind>;

/** Something that differs from the host's previous run and can move results on its own. */
export const StepChange = z.object({
  kind: StepChangeKind,
  /** for compiler and build changes: the build it concerns ("3.5.7" or "3.5.7 no-ml-kem") */
  build: z.string().optional(),
  from: z.string().nullable(),
  to: z.string().nullable(),
});
export type StepChange = z.infer<typeof StepChange>;

export const RunRecordBuild = z.object({
  id: safeId,
  /** absent for OpenSSL (so records written before other libraries existed read the same) */
  library: Library.exclude(['openssl']).optional(),
  version: z.string(),
  series: z.string(),
  variant: safeId,
  compiler: z.string(),
  /** id in keySets of the sorted keys of every series of this build (any status) */
  keys: z.string(),
  /** id in keySets of the keys this build measured */
  measured: z.string(),
});

/** [metric index, build index, median, interval low, interval high, n] of one headline series in one run. */
export const HeadlineValue = z.tuple([z.int().nonnegative(), z.int().nonnegative(), finite, finite.nullable(), finite.nullable(), z.int().nonnegative()]);

export const RunRecord = z.object({
  runId: safeId,
  /** relative to data/ */
  path: z.string(),
  bytes: z.int().nonnegative().describe('size of the stored file'),
  contentHash: sha256Hex.describe('sha256 of the JSON of its series: two runs with the same measurements have the same hash'),
  mode: RunMode,
  /** npm run reproduce: the write-up the run reproduces (its rows rank below ordinary runs') */
  reproduces: z.string().optional(),
  startedAt: isoTime,
  finishedAt: isoTime,
  quiet: z.boolean(),
  quietReasons: z.array(z.string()).describe('the first few reasons it is not quiet'),
  repeatedRounds: z
    .int()
    .positive()
    .optional()
    .describe('measured rounds the host disturbed that were dropped and measured again (quiet.repeated); absent when none'),
  benchmarks: z.array(safeId),
  rounds: z.int().nonnegative(),
  warmupRounds: z.int().nonnegative(),
  series: z.int().nonnegative(),
  measuredSeries: z.int().nonnegative(),
  host: Host,
  harness: z.object({ gitCommit: z.string(), gitDirty: z.boolean(), revision: z.int().positive().optional() }),
  builds: z.array(RunRecordBuild),
  values: z.array(HeadlineValue),
  changes: z.array(StepChange).describe("what differs from the host's previous run (empty for its first run)"),
});
export type RunRecord = z.infer<typeof RunRecord>;

export const Timeseries = z.object({
  schemaVersion: z.literal(1),
  kind: z.literal('timeseries'),
  host: safeId,
  year: z.int(),
  metrics: z.array(HeadlineMetric),
  keySets: z.record(z.string(), z.array(z.string())),
  runs: z.array(RunRecord).describe('oldest first'),
});
export type Timeseries = z.infer<typeof Timeseries>;
