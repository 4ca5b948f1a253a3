// Quiet-host evidence from a stand-in, for tests of the run loop: every snapshot is quiet unless its round
// is listed in `noisy`, once per attempt it spoils (a round listed twice is noisy in its first two
// attempts: the run loop measures a disturbed round again); `calls` counts what the run asked of it.
// Each task's end closes a window of the watch (0 is the first round the run watches, each attempt a new
// watch). In the watches listed in `loudWatches` every window breaks a limit (a storm throughout); in a
// watch `w` of `loudTaskEnds`, the windows closed by the listed task ends (1 is its first task's end) do,
// whatever the round's snapshot at the end says. `probedTaskEnds` lists the task ends that came with a
// steal probe.
import type { EvidenceRecorder } from './evidence.ts';
import type { Sample } from './sample.ts';

export function standInEvidence(noisy: number[] = [], exclusive = true, loudWatches: number[] = [], loudTaskEnds: Record<number, number[]> = {}) {
  const calls = { before: 0, rounds: [] as number[], tasksEnded: 0, watches: 0, stopped: 0, calms: 0, stealProbes: 0, probedTaskEnds: [] as string[] };
  const snap = (quiet: boolean) => ({
    at: new Date().toISOString(),
    windowSeconds: 1,
    loadAverage: [0.1, 0.1, 0.1] as [number, number, number],
    stealPercent: 0,
    iowaitPercent: 0,
    otherBusyPercent: quiet ? 0 : 50,
    busiestOthers: quiet ? [] : [{ pid: 9, command: 'cc1', cpuPercent: 50 }],
    governor: null,
    boost: null,
    quiet,
    reasons: quiet ? [] : ['processes outside this run used 50% of one CPU'],
  });
  const recorder: EvidenceRecorder = {
    exclusive,
    thresholds: { maxStealPercent: 2 },
    before: async () => (calls.before++, snap(true)),
    sample: () => ({}) as Sample,
    round: (_since, round) => {
      const attempt = calls.rounds.filter((r) => r === round).length;
      calls.rounds.push(round);
      return { ...snap(noisy.filter((r) => r === round).length <= attempt), round };
    },
    calm: async () => (calls.calms++, { waitedSeconds: 0, calm: true }),
    stealProbe: async () => (calls.stealProbes++, { seconds: 1, stealPercent: 0 }),
    watchRound: () => {
      calls.watches++;
      const watch = calls.watches - 1;
      let stopped = false;
      const windows: { loud: boolean; tasks: string[]; dropped?: string[] }[] = [];
      const stop = () => void (stopped || ((stopped = true), calls.stopped++));
      return {
        taskEnded: (task, probe) => {
          calls.tasksEnded++;
          if (probe && task !== undefined) calls.probedTaskEnds.push(task);
          const loud = loudWatches.includes(watch) || (loudTaskEnds[watch] ?? []).includes(windows.length + 1);
          windows.push({ loud, tasks: task === undefined ? [] : [task] });
        },
        closeWindow: () => {},
        loud: () =>
          windows.flatMap((w, index) => (w.loud && !w.dropped ? [{ index, reasons: ['steal 9% of all CPUs over the 8 s window'], tasks: w.tasks }] : [])),
        excuse: (index, dropped) => void (windows[index]!.dropped = dropped),
        finish: (round) => (stop(), recorder.round({} as Sample, round)),
        stop,
      };
    },
  };
  return { recorder, calls };
}
