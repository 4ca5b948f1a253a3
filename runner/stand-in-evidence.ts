// Quiet-host evidence from a stand-in, for tests of the run loop: every snapshot is quiet unless its round
// is listed in `noisy`, once per attempt it spoils (a round listed twice is noisy in its first two
// attempts: the run loop measures a disturbed round again); `calls` counts what the run asked of it.
// The watches listed in `loudWatches` (0 is the first round the run watches, each attempt a new watch)
// report a loud window from their first task's end on, whatever their snapshot at the end says.
import type { EvidenceRecorder, Sample } from './quiet.ts';

export function standInEvidence(noisy: number[] = [], exclusive = true, loudWatches: number[] = []) {
  const calls = { before: 0, rounds: [] as number[], tasksEnded: 0, watches: 0, stopped: 0, calms: 0 };
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
    watchRound: () => {
      calls.watches++;
      let stopped = false;
      let ended = 0;
      const loud = loudWatches.includes(calls.watches - 1);
      const stop = () => void (stopped || ((stopped = true), calls.stopped++));
      return {
        taskEnded: () => void (calls.tasksEnded++, ended++),
        loud: () => (loud && ended > 0 ? ['steal 9% of all CPUs over the 8 s window'] : undefined),
        finish: (round) => (stop(), recorder.round({} as Sample, round)),
        stop,
      };
    },
  };
  return { recorder, calls };
}
