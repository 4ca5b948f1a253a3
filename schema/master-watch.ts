// Master watched night by night (runner/bisect/master-watch.ts): the deterministic figures of the head of
// OpenSSL's development branch each night, and for every change above the threshold the commits a
// bisection between the two nights named. One file per machine: data/master/<machine>/nights.json.
import { z } from 'zod';

const commitId = z.string().regex(/^[0-9a-f]{40}$/);

export const MasterChange = z.object({
  metric: z.string(),
  /** the night before: its commit and figure */
  fromCommit: commitId,
  before: z.number(),
  after: z.number(),
  /** the bisection report in data/bisect/<machine>/, or why there is none */
  report: z.string().nullable(),
  why: z.string().optional(),
  /** measured, not bisected yet (--bisect-later); `npm run master-watch -- --bisect-pending` bisects it */
  pending: z.boolean().optional(),
  culprits: z.array(z.object({ commit: commitId, subject: z.string(), before: z.number(), after: z.number() })),
  /** ranges the bisection could not resolve into one commit */
  unresolved: z.int().nonnegative(),
});
export type MasterChange = z.infer<typeof MasterChange>;

export const MasterNight = z.object({
  /** when it was measured (a night), or the snapshot's date when history is replayed */
  at: z.string(),
  /** true: a replay of history (the snapshot of master at `at`), not a night as it happened */
  replay: z.boolean(),
  commit: commitId,
  subject: z.string(),
  commitDate: z.string(),
  /** per metric id: the figure, or null when the commit did not build or could not be measured */
  values: z.record(z.string(), z.number().nullable()),
  reasons: z.record(z.string(), z.string()).optional(),
  changes: z.array(MasterChange),
});
export type MasterNight = z.infer<typeof MasterNight>;

export const MasterWatch = z.object({
  /** where the history came from */
  repo: z.string(),
  /** the branch watched */
  ref: z.string(),
  host: z.object({ id: z.string(), cpuModel: z.string() }),
  /** relative difference between two nights that counts as a change */
  threshold: z.number().positive(),
  /** what each metric id measures, in words (runner/bisect/bisect-cli.ts parseMetric) */
  metrics: z.array(z.object({ id: z.string(), what: z.string(), unit: z.string() })),
  nights: z.array(MasterNight),
});
export type MasterWatch = z.infer<typeof MasterWatch>;
