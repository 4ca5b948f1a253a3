// Quiet-host evidence: what the machine was doing around a measurement (runner/quiet/).
import { z } from 'zod';
import { finite, isoTime, nonNegative, safeId, shortText } from './primitives.ts';

/** What the machine was doing around a measurement: read from /proc and /sys, never estimated. */
export const HostSnapshot = z.object({
  at: isoTime,
  windowSeconds: nonNegative.describe('length of the /proc/stat delta window the percentages come from'),
  loadAverage: z.tuple([finite, finite, finite]),
  stealPercent: nonNegative.nullable().describe('CPU steal over the window, percent of all CPUs'),
  iowaitPercent: nonNegative.nullable().describe('iowait over the window, percent of all CPUs'),
  otherBusyPercent: nonNegative.nullable().describe("CPU used over the window by processes outside this run's process tree, percent of one CPU"),
  cpuTicks: z
    .int()
    .nonnegative()
    .optional()
    .describe(
      'clock ticks of all CPUs in the window (/proc/stat), the resolution of the percentages: a limit is broken only by more than one tick (absent in runs before the evening of 28 November 2026, judged without that allowance)',
    ),
  busiestOthers: z
    .array(z.object({ pid: z.int().nonnegative(), command: shortText(200), cpuPercent: nonNegative }))
    .max(10)
    .describe('the busiest processes outside this run over the window'),
  governor: shortText(80).nullable(),
  boost: shortText(80).nullable(),
});
export type HostSnapshot = z.infer<typeof HostSnapshot>;

export const QuietCheck = z.object({
  quiet: z.boolean(),
  reasons: z.array(shortText(500)).max(50).describe('each threshold the snapshot broke, in words with the measured value'),
});
/** Most windows one round records (runner/quiet/round-watch.ts closes no more, whatever the round's length). */
export const MAX_QUIET_WINDOWS = 240;
/** A short busy probe of every CPU: the steal it saw (see QuietWindow.stealProbe). */
export const StealProbe = z.object({
  seconds: nonNegative.describe('length of the probe'),
  stealPercent: nonNegative.nullable().describe('CPU steal during the probe, percent of all CPUs'),
});
export type StealProbe = z.infer<typeof StealProbe>;
/** One window of a round: the same readings over a shorter span, with its own verdict. */
export const QuietWindow = HostSnapshot.omit({ governor: true, boost: true })
  .extend(QuietCheck.shape)
  .extend({
    stealProbe: StealProbe.optional().describe(
      "the window overlapped a task whose processes wake each other's CPUs (s_time and s_server over loopback): the steal a VM reports then includes the time a halted CPU waits to be woken, which the task causes itself, so the window's steal is recorded but judged by the worst busy probe of every CPU run right after such a task on each build (absent: the window's own steal is judged; benchmark runs since 28 November 2026)",
    ),
    dropped: z
      .array(shortText(300))
      .max(500)
      .optional()
      .describe(
        'a window that broke a limit in a measured round: the timed tasks (benchmark|task) that overlapped it, whose measurements in the round were dropped on every build and measured again later in the round, so that no kept value overlaps it; empty when it overlapped none (a wait for the host). Such a window does not decide the round (absent: nothing dropped; benchmark runs since 28 November 2026)',
      ),
  });
export type QuietWindow = z.infer<typeof QuietWindow>;
export const RoundEvidence = HostSnapshot.extend(QuietCheck.shape).extend({
  round: z.int().nonnegative(),
  windows: z
    .array(QuietWindow)
    .max(MAX_QUIET_WINDOWS)
    .optional()
    .describe(
      'the round in consecutive windows (their length is in thresholds, documented in runner/quiet/round-watch.ts), each checked against the same limits; the round is quiet only if every window is, those whose measurements were dropped (`dropped`) aside (absent in files written before windows were kept: the round is judged as a whole)',
    ),
});
export type RoundEvidence = z.infer<typeof RoundEvidence>;
export const QuietEvidence = z.object({
  thresholds: z.record(safeId, finite).describe('the limits a snapshot is checked against (documented in runner/quiet/limits.ts)'),
  exclusive: z.boolean().describe('the run held the host measurement lock from start to finish'),
  before: HostSnapshot.extend(QuietCheck.shape),
  rounds: z.array(RoundEvidence).max(1000),
  repeated: z
    .array(RoundEvidence)
    .max(1000)
    .optional()
    .describe(
      'attempts at a measured round that the host disturbed, whose measurements were dropped before anything used them and the round measured again (the hypothesis test, and benchmark runs since 2026-11-27); at most thresholds.maxRepeatedRounds per run',
    ),
  deterministic: z
    .array(RoundEvidence)
    .max(100)
    .optional()
    .describe(
      'the deterministic phase (instruction and call counts, several at a time, before the timed rounds), watched like a round, once per session that ran it; `round` is the measured round its results carry',
    ),
  quiet: z.boolean().describe('exclusive, quiet before the start, in every measured round that ran a timed task and in the deterministic phase'),
});
export type QuietEvidence = z.infer<typeof QuietEvidence>;
