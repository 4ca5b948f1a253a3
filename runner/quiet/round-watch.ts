// A round watched in windows (WINDOWS below), for quiet-host evidence (runner/quiet/).
//
// WINDOWS: a round can last half an hour, and over that long a two-minute burst of one CPU averages to
// 7% and passes the 10% limit. So a round is also cut into consecutive windows of at most
// MAX_WINDOW_SECONDS (30 s), each checked against the same limits (the load average against the round's):
// a window closes when a task ends once it is MIN_WINDOW_SECONDS (5 s) long, and within a long task when
// a timer finds it 25 s long; a last window shorter than 5 s joins the one before it. (Shorter windows
// would judge tick rounding: at 100 ticks per second, one stray tick is 10% of a CPU over 0.1 s.) The
// round is quiet only if it is as a whole and every window is; its reasons name each window that broke a
// limit, with the value. A round keeps at most MAX_QUIET_WINDOWS windows; past that the rest of the
// round is its last window.
//
// STEAL PROBES: on a VM, a CPU that halts and is woken again reports the wait for the hypervisor to run
// it as steal. A task whose processes wake each other across CPUs (s_time and s_server over loopback)
// causes that itself: on the 2-CPU AMD EPYC VM it showed 6-11% of all CPUs, and 1.7-3% with both
// processes on one CPU, while two busy loops saw 0.14%. Steal in such a window says nothing about other
// tenants, so after each such task (each build) the run keeps every CPU busy for STEAL_PROBE_SECONDS and
// the windows the task overlapped are judged on the probe's steal (the worst, if several); their own
// steal stays in the record. The other limits judge them as any window.
import { MAX_QUIET_WINDOWS, type QuietEvidence, type QuietWindow, type StealProbe } from '../../schema/index.ts';
import { checkSnapshot } from './limits.ts';
import { round2, snapshotBetween, takeSample, type ProcSource, type Sample, type Snapshot } from './sample.ts';

/** WINDOWS above: the longest window of a round, and the shortest one a task's end closes. */
export const MAX_WINDOW_SECONDS = 30;
export const MIN_WINDOW_SECONDS = 5;
/** A round's reasons quote at most this many of its windows' reasons (each window keeps all its own). */
const MAX_WINDOW_REASONS = 40;

export type RoundSnapshot = QuietEvidence['rounds'][number];

/** A window of a round between two samples, checked (cpufreq state is the round's, not repeated); `probe`: STEAL PROBES above. */
export function windowBetween(a: Sample, b: Sample, root: number, logicalCpus: number, probe?: StealProbe): QuietWindow {
  const { governor: _g, boost: _b, ...snapshot } = snapshotBetween(a, b, root);
  const s = probe ? { ...snapshot, stealProbe: probe } : snapshot;
  return { ...s, ...checkSnapshot(s, 'window', logicalCpus) };
}

/** The worse of two probes (either may be absent). */
const worseProbe = (a: StealProbe | undefined, b: StealProbe | undefined): StealProbe | undefined =>
  !a || !b ? (a ?? b) : (a.stealPercent ?? -1) >= (b.stealPercent ?? -1) ? a : b;

/** The window judged again with one more steal probe: the worse of its two. */
function withProbe(w: QuietWindow, probe: StealProbe, logicalCpus: number): QuietWindow {
  const { quiet: _q, reasons: _r, ...s } = { ...w, stealProbe: worseProbe(w.stealProbe, probe) };
  return { ...s, ...checkSnapshot(s, 'window', logicalCpus) };
}

const clock = (ms: number) => new Date(ms).toISOString().slice(11, 19);

/**
 * A round's evidence from the round as a whole and its windows: quiet only if the whole and every window
 * are, the windows whose overlapping measurements were dropped (`dropped`) aside, in the whole too (it is
 * then judged over the kept windows); the reasons name each other window that broke a limit (its place,
 * its time and the value).
 */
export function roundEvidence(whole: Snapshot, windows: QuietWindow[], round: number, logicalCpus: number): RoundSnapshot {
  const reasons = checkSnapshot(keptPart(whole, windows), 'round', logicalCpus).reasons;
  const fromWindows = windows.flatMap((w, i) => {
    if (w.dropped) return []; // what it overlapped was dropped and measured again
    const end = Date.parse(w.at);
    const where = `window ${i + 1} of ${windows.length} (${clock(end - w.windowSeconds * 1000)}-${clock(end)} UTC)`;
    return w.reasons.map((r) => `${where}: ${r}`.slice(0, 500));
  });
  reasons.push(...fromWindows.slice(0, MAX_WINDOW_REASONS));
  if (fromWindows.length > MAX_WINDOW_REASONS)
    reasons.push(`and ${fromWindows.length - MAX_WINDOW_REASONS} more from other windows (each window lists its own reasons)`);
  return { ...whole, quiet: reasons.length === 0, reasons, round, ...(windows.length ? { windows } : {}) };
}

/**
 * The round as a whole without its excused windows (`dropped`: nothing measured in them was kept): the
 * kept windows' seconds, and their percentages weighted by their seconds, steal from a window's probe
 * where it has one (STEAL PROBES above); the round itself when no window was excused or probed.
 */
function keptPart(whole: Snapshot, windows: QuietWindow[]): Omit<Snapshot, 'governor' | 'boost'> {
  const kept = windows.filter((w) => !w.dropped);
  if (kept.length === windows.length && !kept.some((w) => w.stealProbe)) return whole;
  const seconds = kept.reduce((a, w) => a + w.windowSeconds, 0);
  const value = (w: QuietWindow, f: 'stealPercent' | 'iowaitPercent' | 'otherBusyPercent') =>
    f === 'stealPercent' && w.stealProbe ? w.stealProbe.stealPercent : w[f];
  const mean = (f: 'stealPercent' | 'iowaitPercent' | 'otherBusyPercent') =>
    seconds === 0 || kept.some((w) => value(w, f) === null) ? null : round2(kept.reduce((a, w) => a + value(w, f)! * w.windowSeconds, 0) / seconds);
  const ticks = kept.every((w) => w.cpuTicks !== undefined) ? kept.reduce((a, w) => a + w.cpuTicks!, 0) : undefined;
  const { cpuTicks: _t, ...rest } = whole;
  return {
    ...rest,
    ...(ticks !== undefined ? { cpuTicks: ticks } : {}),
    windowSeconds: round2(seconds),
    stealPercent: mean('stealPercent'),
    iowaitPercent: mean('iowaitPercent'),
    otherBusyPercent: mean('otherBusyPercent'),
  };
}

/** A round being measured, watched window by window (WINDOWS above). */
export interface RoundWatch {
  /**
   * A task ended: `task` (its benchmark|task) is counted in every window it overlapped (the open one and
   * any the timer closed while it ran), and `probe` judges their steal (STEAL PROBES above); then the open
   * window closes if it is MIN_WINDOW_SECONDS long.
   */
  taskEnded(task?: string, probe?: StealProbe): void;
  /** closes the open window if it is MIN_WINDOW_SECONDS long, with no task ended (after a wait for the host) */
  closeWindow(): void;
  /** the windows closed so far that broke a limit and were not excused, each with the tasks that overlapped it */
  loud(): LoudWindow[];
  /** the measurements that overlapped window `index` were dropped (`dropped`: their tasks): it no longer decides the round */
  excuse(index: number, dropped: string[]): void;
  /** the round's evidence: the round as a whole and its windows; stops the timer */
  finish(round: number): RoundSnapshot;
  /** stops the timer without evidence (a round that ran nothing, or one that failed) */
  stop(): void;
}

/** A window of a round that broke a limit: its place in the round, its reasons, the tasks it overlapped. */
export interface LoudWindow {
  index: number;
  reasons: string[];
  tasks: string[];
}

/** Calls `fn` every `ms` until the returned function is called; never keeps the process alive. */
export type Every = (fn: () => void, ms: number) => () => void;
export const every: Every = (fn, ms) => {
  const t = setInterval(fn, ms);
  t.unref();
  return () => clearInterval(t);
};

/** Starts watching a round in windows of at most MAX_WINDOW_SECONDS (`timer` closes them within long tasks). */
export function watchRound(source: ProcSource, root: number, logicalCpus: number, timer: Every = every): RoundWatch {
  const start = takeSample(source);
  const windows: QuietWindow[] = [];
  const tasksOf: Set<string>[] = []; // per closed window, the tasks that overlapped it
  let openTasks = new Set<string>();
  let closedSinceTask = 0; // windows the timer closed while the current task ran
  let openProbe: StealProbe | undefined; // the worst steal probe of the tasks that overlapped the open window
  let open = start; // where the open window starts
  let before = start; // where the window before it started (a short last window joins it)
  const closeIfLonger = (seconds: number) => {
    if (source.now() - open.atMs < seconds * 1000 || windows.length >= MAX_QUIET_WINDOWS - 1) return;
    const end = takeSample(source);
    windows.push(windowBetween(open, end, root, logicalCpus, openProbe));
    tasksOf.push(openTasks);
    openTasks = new Set();
    openProbe = undefined;
    closedSinceTask++;
    [before, open] = [open, end];
  };
  // the timer closes a window early enough that a short last window joined to it stays within the maximum
  const stop = timer(() => closeIfLonger(MAX_WINDOW_SECONDS - MIN_WINDOW_SECONDS), 1000);
  const closeWindow = () => {
    closeIfLonger(MIN_WINDOW_SECONDS);
    closedSinceTask = 0; // the next task starts in the open window
  };
  return {
    taskEnded(task, probe) {
      for (let i = windows.length - closedSinceTask; i < windows.length; i++) {
        if (task !== undefined) tasksOf[i]!.add(task);
        if (probe) windows[i] = withProbe(windows[i]!, probe, logicalCpus);
      }
      if (task !== undefined) openTasks.add(task);
      openProbe = worseProbe(openProbe, probe);
      closeWindow();
    },
    closeWindow,
    loud: () => windows.flatMap((w, index) => (w.quiet || w.dropped ? [] : [{ index, reasons: w.reasons, tasks: [...tasksOf[index]!] }])),
    excuse(index, dropped) {
      windows[index] = { ...windows[index]!, dropped };
    },
    finish(round) {
      stop();
      const end = takeSample(source);
      // a short last window joins the one before it, unless that one was excused: what the last one
      // overlapped was kept, so it is judged on its own
      if (windows.length && end.atMs - open.atMs < MIN_WINDOW_SECONDS * 1000 && !windows.at(-1)!.dropped)
        windows.splice(-1, 1, windowBetween(before, end, root, logicalCpus, worseProbe(windows.at(-1)!.stealProbe, openProbe)));
      else windows.push(windowBetween(open, end, root, logicalCpus, openProbe));
      return roundEvidence(snapshotBetween(start, end, root), windows, round, logicalCpus);
    },
    stop,
  };
}
