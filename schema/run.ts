// The run file: one run of the benchmarks on one machine. Bump schemaVersion when its shape changes and
// keep reading the old one (parseRunFile checks the version first).
import { z } from 'zod';
import { DataFileError, describeIssues, finite, isoTime, nonNegative, safeId, shortText } from './primitives.ts';
import { Host } from './host.ts';
import { Build } from './build.ts';
import { Series } from './series.ts';
import { QuietEvidence } from './quiet.ts';

export const RunMode = z.enum(['quick', 'full']);
export type RunMode = z.infer<typeof RunMode>;
export const Run = z
  .object({
    schemaVersion: z.literal(1),
    kind: z.literal('run'),
    runId: safeId,
    mode: RunMode,
    startedAt: isoTime,
    finishedAt: isoTime,
    host: Host,
    harness: z.object({
      gitCommit: z.string().regex(/^[0-9a-f]{7,40}$|^unknown$/),
      gitDirty: z.boolean(),
      node: shortText(40),
      /** which harness revision measured (catalogue/harness-steps.ts); absent in runs from before the list: revision 1 */
      revision: z.int().positive().max(1000).optional(),
      resumedAt: z
        .array(z.object({ at: isoTime, gitCommit: z.string().regex(/^[0-9a-f]{7,40}$|^unknown$/), gitDirty: z.boolean() }))
        .max(100)
        .optional()
        .describe('each resume of the run, with the checkout it resumed from'),
    }),
    plan: z.object({
      benchmarks: z.array(safeId).min(1),
      rounds: z.int().positive().max(1000),
      warmupRounds: z.int().nonnegative().max(100),
      warmup: z
        .enum(['whole-round', 'short'])
        .optional()
        .describe(
          "which tasks the warm-up round ran (runner/run/warmup.ts): whole-round, every timed task on every build; short, for each benchmark and build only the first task in run order when earlier quiet runs of this machine had recorded every task's time (else the tasks without one), the night plan taking the others' seconds per round from those records (runner/task-times.ts). Absent in runs from before the choice and in runs without a warm-up or a timed task: a whole round",
        ),
      warmupTimesFrom: z
        .array(safeId)
        .min(1)
        .max(1000)
        .optional()
        .describe('a short warm-up: the quiet runs whose recorded task times stood in for the tasks it did not run'),
      windows: z
        .array(
          z.object({
            benchmark: safeId,
            window: z.enum(['short', 'long']),
            size: nonNegative.describe('the window in `unit`'),
            unit: shortText(200),
            basis: shortText(1000).describe('why this window: the evidence in words'),
            cvRatio: finite.optional().describe("median over the paired series of the short windows' CV over the long windows'"),
            pairedSeries: z.int().nonnegative().optional(),
            runs: z.array(safeId).max(1000).optional().describe('the quiet runs of this machine the paired series came from'),
          }),
        )
        .max(100)
        .optional()
        .describe(
          "the length of the timed windows of each benchmark that has a choice (runner/windows.ts): short, quick mode's; long, full mode's. A full run takes the short one where this machine's quiet runs show that it gives less variance per second of measuring. Absent in runs from before the choice: the mode's (quick short, full long)",
        ),
      order: z.array(z.array(safeId)).describe('build ids in the order each round ran them'),
      maxRounds: z
        .int()
        .positive()
        .max(1000)
        .optional()
        .describe('measured until decided (runner/until-decided.ts): the round budget; rounds is then the rounds measured'),
      budgetMinutes: nonNegative.optional().describe('--budget-minutes: the time a session of the run may take (runner/night-plan.ts)'),
      leftOut: z
        .array(z.object({ benchmark: safeId, task: shortText(300), headline: z.boolean(), secondsPerRound: nonNegative }))
        .max(10000)
        .optional()
        .describe(
          'timed tasks the time budget left out after the warm-up round, for the next night, with the seconds one round of each took there (on a build a short warm-up did not run it on: its recorded time, see warmup)',
        ),
      stopping: z
        .object({
          minRounds: z.int().positive().max(1000),
          looks: z.array(z.int().positive().max(1000)).max(100),
          alpha: z.array(finite).max(100),
          precisionTarget: finite.describe('relative half-width of a series interval below which it counts as precise'),
          method: shortText(1000),
        })
        .optional()
        .describe('the pre-declared looks and alpha spending of a run measured until decided'),
      reproduces: safeId
        .optional()
        .describe('npm run reproduce: the write-up whose claims this run measured until they were decided (its rounds come from the stopping rule)'),
    }),
    builds: z.array(Build).min(1),
    series: z.array(Series),
    notes: z.array(shortText(2000)).max(100).default([]),
    quiet: QuietEvidence.optional().describe('absent in runs recorded before the quiet-host protocol: such runs count as not quiet'),
    phases: z
      .object({
        prepare: z.object({ seconds: nonNegative }),
        deterministic: z.object({
          seconds: nonNegative,
          jobs: z.int().positive().max(4096).describe('deterministic tasks run at once'),
          tasks: z.int().nonnegative().describe('deterministic tasks of the run (one per build, benchmark and task)'),
          reused: z.int().nonnegative().describe('of them, taken from the reuse cache'),
        }),
        timed: z.object({
          seconds: nonNegative,
          rounds: z.int().nonnegative().describe('rounds run, warm-up included'),
          benchmarks: z
            .record(safeId, z.object({ warmupSeconds: nonNegative, measuredSeconds: nonNegative }))
            .optional()
            .describe(
              "each benchmark's timed tasks: their own wall seconds in the warm-up round(s) and in the measured rounds, summed (a round measured again counts once; the time between tasks is the phase's alone). Absent in runs from before 2026-11-27",
            ),
        }),
      })
      .optional()
      .describe('wall time of each phase, summed over the sessions of a resumed run (absent in runs from before the phases)'),
  })
  .superRefine((run, ctx) => {
    const ids = new Set(run.builds.map((b) => b.id));
    run.series.forEach((s, i) => {
      if (!ids.has(s.buildId)) ctx.addIssue({ code: 'custom', path: ['series', i, 'buildId'], message: `unknown build id ${s.buildId}` });
      if (s.status === 'measured' && s.iterations.filter((it) => !it.warmup).length === 0)
        ctx.addIssue({ code: 'custom', path: ['series', i, 'iterations'], message: 'measured series without a measured iteration' });
      if (s.status !== 'measured' && !s.reason) ctx.addIssue({ code: 'custom', path: ['series', i, 'reason'], message: `${s.status} series must say why` });
    });
    if ((run.plan.warmup === 'short') !== (run.plan.warmupTimesFrom !== undefined))
      ctx.addIssue({
        code: 'custom',
        path: ['plan', 'warmupTimesFrom'],
        message: 'a short warm-up says which runs its task times came from, and only a short one',
      });
  });
export type Run = z.infer<typeof Run>;

const KNOWN_RUN_SCHEMA_VERSIONS = [1];

/** Parse a run file's text. Unknown schema versions and invalid content are errors naming the file. */
export function parseRunFile(text: string, file: string): Run {
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch (e) {
    throw new DataFileError(`${file}: not valid JSON (${(e as Error).message}); a truncated file?`);
  }
  const version = (json as { schemaVersion?: unknown } | null)?.schemaVersion;
  if (typeof version !== 'number' || !KNOWN_RUN_SCHEMA_VERSIONS.includes(version))
    throw new DataFileError(`${file}: schemaVersion ${JSON.stringify(version)} is not one this code reads (${KNOWN_RUN_SCHEMA_VERSIONS.join(', ')})`);
  const parsed = Run.safeParse(json);
  if (!parsed.success) throw new DataFileError(`${file}: invalid run file\n${describeIssues(parsed.error)}`);
  return parsed.data;
}
