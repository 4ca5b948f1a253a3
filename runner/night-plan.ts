// A night's plan with a time budget (issue 32, item 4; --budget-minutes). The warm-up round times every
// timed task (summed over the builds), or, where it is short, the tasks it does not run take the times
// earlier quiet runs of this machine recorded (runner/run/warmup.ts, runner/task-times.ts); then, before the first measured round, the run keeps the tasks
// whose minimum rounds fit in the time left: the tasks of headline series first (what the version pages
// open with: handshake.ts isHeadline), then the others in run order, each kept when it still fits. The
// tasks left out are not run again; the run file lists them with their time per round, for the next night.
// Once measuring, a round that would end after the budget is not started (until-decided.ts finalLook).

export interface TaskCost {
  benchmark: string;
  task: string;
  headline: boolean;
  /** seconds one round of it takes, over every build (from the warm-up round, or the recorded time on a build it did not warm) */
  secondsPerRound: number;
}

export function planNight(tasks: readonly TaskCost[], minRounds: number, secondsLeft: number): { kept: TaskCost[]; leftOut: TaskCost[] } {
  const order = [...tasks.filter((t) => t.headline), ...tasks.filter((t) => !t.headline)];
  const kept: TaskCost[] = [];
  const leftOut: TaskCost[] = [];
  let used = 0;
  for (const t of order) {
    const cost = t.secondsPerRound * minRounds;
    if (used + cost <= secondsLeft) {
      kept.push(t);
      used += cost;
    } else leftOut.push(t);
  }
  return { kept, leftOut };
}
