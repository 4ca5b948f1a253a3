// The limits a quiet host keeps (runner/quiet/), and the check of a snapshot against them.
//
// THRESHOLDS (a snapshot that breaks one is not quiet; the reason says which, with the measured value):
//  - steal above 2% of all CPUs: the hypervisor gave our CPUs to someone else;
//  - iowait above 5% of all CPUs: something is waiting for the disk;
//  - other processes above 10% of one CPU over the window;
//  - 1-minute load average above 0.5 per logical CPU before the run, or above 1.5 per logical CPU at
//    the end of a round (the run itself keeps about one CPU busy, and briefly up to four threads; more
//    than that means tasks waited for a CPU). The load average decays over minutes, so before the run
//    the check repeats until the machine has settled after the builds.
//
// A window with a steal probe (runner/quiet/round-watch.ts, STEAL PROBES) is judged on the probe's steal.
//
// RESOLUTION: /proc/stat counts clock ticks (100 a second per CPU), so a window's percentages move in
// steps of one tick: in a 0.07 s window of 2 CPUs (14 ticks) one tick of iowait reads 7.14%, over the 5%
// limit although nothing waited for the disk for more than a tick. A limit is broken only by more than
// one tick's share (Snapshot.cpuTicks); over a 6-s window that share is 0.08% and changes nothing.
import type { StealProbe } from '../../schema/index.ts';
import { round2, type Snapshot } from './sample.ts';

export const QUIET_THRESHOLDS = {
  maxStealPercent: 2,
  maxIowaitPercent: 5,
  maxOtherBusyPercent: 10,
  maxLoadPerCpuBefore: 0.5,
  maxLoadPerCpuRound: 1.5,
} as const;

export type Phase = 'before' | 'round' | 'window';

/** Each threshold the snapshot breaks, in words with the measured value; a window with a steal probe is judged on the probe's steal. */
export function checkSnapshot(
  s: Omit<Snapshot, 'governor' | 'boost'> & { stealProbe?: StealProbe },
  phase: Phase,
  logicalCpus: number,
): { quiet: boolean; reasons: string[] } {
  const t = QUIET_THRESHOLDS;
  // one clock tick, as a percentage of all CPUs and of one CPU (RESOLUTION above; none known: no allowance)
  const tick = s.cpuTicks ? 100 / s.cpuTicks : 0;
  const oneCpuTick = tick * logicalCpus;
  const over = `over the ${s.windowSeconds} s ${phase === 'before' ? 'window before the run' : phase}`;
  const reasons: string[] = [];
  const probe = s.stealProbe;
  if (probe) {
    if (probe.stealPercent !== null && probe.stealPercent > t.maxStealPercent)
      reasons.push(
        `CPU steal was ${probe.stealPercent}% of all CPUs in a ${probe.seconds} s probe with every CPU busy, after a task of this ${phase} whose processes wake each other's CPUs (limit ${t.maxStealPercent}%)`,
      );
  } else if (s.stealPercent !== null && s.stealPercent - tick > t.maxStealPercent)
    reasons.push(`CPU steal was ${s.stealPercent}% of all CPUs ${over} (limit ${t.maxStealPercent}%)`);
  if (s.iowaitPercent !== null && s.iowaitPercent - tick > t.maxIowaitPercent)
    reasons.push(`iowait was ${s.iowaitPercent}% of all CPUs ${over} (limit ${t.maxIowaitPercent}%)`);
  if (s.otherBusyPercent !== null && s.otherBusyPercent - oneCpuTick > t.maxOtherBusyPercent) {
    const named = s.busiestOthers
      .slice(0, 3)
      .map((p) => `${p.command} (PID ${p.pid}, ${p.cpuPercent}%)`)
      .join(', ');
    reasons.push(
      `processes outside this run used ${s.otherBusyPercent}% of one CPU ${over} (limit ${t.maxOtherBusyPercent}%)${named ? `; busiest: ${named}` : ''}`,
    );
  }
  const perCpu = phase === 'before' ? t.maxLoadPerCpuBefore : t.maxLoadPerCpuRound;
  const limit = round2(perCpu * logicalCpus);
  if (s.loadAverage[0] > limit)
    reasons.push(
      `the 1-minute load average was ${s.loadAverage[0]} ${phase === 'before' ? 'before the run' : `at the end of the ${phase}`} (limit ${limit}: ${perCpu} per logical CPU, ${logicalCpus} CPUs)`,
    );
  return { quiet: reasons.length === 0, reasons };
}
