// A bisection report (runner/bisect/bisect-cli.ts): the commits between two points of OpenSSL's history
// where a deterministic figure moved, and what is left unexplained.
import { z } from 'zod';

const commitId = z.string().regex(/^[0-9a-f]{40}$/);

/** One function's instructions per handshake at the two commits of a step (self: its own; inclusive: with its callees). */
export const BisectFunctionChange = z.object({ name: z.string(), before: z.number().nonnegative(), after: z.number().nonnegative() });
export type BisectFunctionChange = z.infer<typeof BisectFunctionChange>;

export const BisectStep = z.object({
  commit: commitId,
  subject: z.string(),
  date: z.string(),
  author: z.string(),
  /** the path steps back from this commit (it is on the older release's branch): its change is undone */
  undone: z.boolean(),
  /** the first-parent merge the commit came in through, when the step was found on a merge and followed inside */
  viaMerge: commitId.optional(),
  /** the neighbouring commits of the path measured on either side of the step (before, after) */
  measuredFrom: commitId,
  measuredTo: commitId,
  /** index on the path of measuredTo (of the merge, for a step found inside one): orders steps and ranges */
  position: z.int().nonnegative(),
  before: z.number(),
  after: z.number(),
  /** instruction metrics: the functions whose cost changed most between measuredFrom and measuredTo */
  functions: z
    .union([z.object({ self: z.array(BisectFunctionChange), inclusive: z.array(BisectFunctionChange) }), z.object({ unavailable: z.string() })])
    .optional(),
});

export const BisectUnresolved = z.object({
  /** the measured ends of a range the figure changed across without a named commit */
  from: commitId,
  to: commitId,
  /** commits strictly between them */
  between: z.int().nonnegative(),
  /** index on the path of `to` (of the merge, inside one) */
  position: z.int().nonnegative(),
  before: z.number(),
  after: z.number(),
  reason: z.enum(['budget', 'unbuildable']),
});

/** An end of the path; a catalogued release also says how its tag was checked against the archive the journey measured. */
const BisectEnd = z.object({
  ref: z.string(),
  commit: commitId,
  version: z.string(),
  /** the series the commit belongs to ("3.5", "1.1.1"): from the commit's own version files */
  series: z.string(),
  release: z.object({ version: z.string(), sameFiles: z.int().positive(), generatedFiles: z.int().nonnegative() }).optional(),
});

export const BisectReport = z.object({
  /** where the history came from (a URL; commit ids are upstream's, so links go to upstream) */
  repo: z.string(),
  from: BisectEnd,
  to: BisectEnd,
  metric: z.object({ id: z.string(), what: z.string(), unit: z.string() }),
  /** relative difference that counts as a step */
  threshold: z.number().positive(),
  budget: z.int().positive(),
  pathLength: z.int().positive(),
  first: z.number().nullable(),
  last: z.number().nullable(),
  steps: z.array(BisectStep),
  unresolved: z.array(BisectUnresolved),
  /** share of last - first that the named steps add up to (null when the ends do not differ) */
  explained: z.number().nullable(),
  measured: z.array(z.object({ commit: commitId, value: z.number().nullable(), reason: z.string().optional() })),
  builds: z.object({
    built: z.int().nonnegative(),
    cached: z.int().nonnegative(),
    failed: z.int().nonnegative(),
    secondsBuilding: z.number(),
    /** what the builds taken from the cache took when an earlier run built them (absent in reports before it was recorded) */
    secondsBuildingEarlier: z.number().optional(),
  }),
  wallSeconds: z.number(),
  startedAt: z.string(),
  harness: z.object({ gitCommit: z.string(), gitDirty: z.boolean(), node: z.string(), revision: z.int().positive().optional() }),
  host: z.object({ id: z.string(), cpuModel: z.string() }),
});
export type BisectReport = z.infer<typeof BisectReport>;

/** An end of a bisection in a report's file name: a catalogued release by its version whatever its tag's spelling, else its ref without "openssl-". */
const fileEndName = (e: BisectReport['from']): string => e.release?.version ?? e.ref.replace(/^openssl-/, '');

/** An end as readers know it: the file name's, with 1.1.1's tag spelling (OpenSSL_1_1_1w) read as its version. */
export const bisectEndName = (e: BisectReport['from']): string => fileEndName(e).replace(/^OpenSSL_(\d+)_(\d+)_(\d+)([a-z]?)$/, '$1.$2.$3$4');

/** The file name of a report in data/bisect/<machine>/: its ends and its metric. */
export const bisectReportName = (r: Pick<BisectReport, 'from' | 'to' | 'metric'>): string =>
  `${fileEndName(r.from)}..${fileEndName(r.to)}-${r.metric.id.replace(/[^A-Za-z0-9.-]+/g, '-')}.json`;
