// Quiet-host evidence: what the machine was doing while a run measured, read from /proc and /sys.
//
// A snapshot covers a window between two samples: before the run (a short window, repeated until the
// host is quiet or a time limit passes), each round as a whole, and each round in windows (WINDOWS
// below). From the samples:
//  - steal and iowait: deltas of the aggregate "cpu" line of /proc/stat, percent of all CPUs;
//  - other busy CPU: user + nice + system time of the whole machine (/proc/stat) minus the CPU time of
//    this run's process tree, percent of one CPU. The tree's time is the sum over the run's process and
//    its descendants of utime + stime + cutime + cstime (/proc/<pid>/stat): that sum only grows with
//    CPU the tree used, because a child's time moves into its parent's cutime when it is reaped.
//    Interrupt and softirq time are left out on both sides: the run's own loopback traffic
//    (s_time) is accounted there, not to a process;
//  - the busiest other processes: each process's own CPU (utime + stime, all its threads) over the window,
//    processes outside the tree. A process's children are not added to it: a child's whole life lands in
//    its parent's cutime when it is reaped, which would credit a shell with an hour-long build in a
//    five-second window. Processes that start and end inside the window are in the total only;
//  - the 1-minute load average (/proc/loadavg) at the end of the window;
//  - cpufreq governor and boost, where the kernel exposes them (recorded, not judged).
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
import { execFileSync } from 'node:child_process';
import { readdirSync } from 'node:fs';
import { cpus } from 'node:os';
import { Worker } from 'node:worker_threads';
import { MAX_QUIET_WINDOWS, type HostSnapshot, type QuietEvidence, type QuietWindow, type StealProbe } from '../schema/index.ts';
import { boostState, governorState, readSystemFile, type ReadFile } from './host.ts';
import { notQuietReasons } from '../analysis/quiet-rule.ts';

export const QUIET_THRESHOLDS = {
  maxStealPercent: 2,
  maxIowaitPercent: 5,
  maxOtherBusyPercent: 10,
  maxLoadPerCpuBefore: 0.5,
  maxLoadPerCpuRound: 1.5,
} as const;

/** WINDOWS above: the longest window of a round, and the shortest one a task's end closes. */
export const MAX_WINDOW_SECONDS = 30;
export const MIN_WINDOW_SECONDS = 5;
/** A round's reasons quote at most this many of its windows' reasons (each window keeps all its own). */
const MAX_WINDOW_REASONS = 40;

export type Phase = 'before' | 'round' | 'window';
export type Snapshot = HostSnapshot;
export type CheckedSnapshot = QuietEvidence['before'];
export type RoundSnapshot = QuietEvidence['rounds'][number];

interface ProcInfo {
  ppid: number;
  comm: string;
  startTime: string;
  /** utime + stime + cutime + cstime, clock ticks */
  ticks: number;
  /** utime + stime only */
  ownTicks: number;
}

/** One reading of the machine. */
export interface Sample {
  atMs: number;
  /** the aggregate "cpu" line of /proc/stat: user nice system idle iowait irq softirq steal (guest columns ignored) */
  cpu: number[];
  loadavg: [number, number, number];
  procs: Map<number, ProcInfo>;
  governor: string | null;
  boost: string | null;
}

/** Where samples come from; tests pass synthetic /proc text. */
export interface ProcSource {
  read: ReadFile;
  pids(): number[];
  now(): number;
}

export const systemProc: ProcSource = {
  read: readSystemFile,
  pids: () =>
    readdirSync('/proc')
      .filter((n) => /^\d+$/.test(n))
      .map(Number),
  now: () => Date.now(),
};

export function parseProcStat(text: string): number[] {
  const line = text.split('\n').find((l) => /^cpu\s/.test(l));
  if (!line) throw new Error('/proc/stat has no aggregate "cpu" line');
  const values = line.trim().split(/\s+/).slice(1, 9).map(Number);
  if (values.length < 8 || values.some((v) => !Number.isFinite(v))) throw new Error(`/proc/stat: unreadable cpu line "${line}"`);
  return values;
}

export function parseLoadavg(text: string): [number, number, number] {
  const [a, b, c] = text.trim().split(/\s+/).map(Number);
  if (![a, b, c].every((v) => Number.isFinite(v))) throw new Error(`/proc/loadavg: unreadable "${text.trim()}"`);
  return [a!, b!, c!];
}

/** /proc/<pid>/stat: the command is in parentheses and may hold spaces, so fields are counted after ")". */
export function parsePidStat(text: string): ProcInfo | null {
  const open = text.indexOf('(');
  const close = text.lastIndexOf(')');
  if (open < 0 || close < open) return null;
  const f = text
    .slice(close + 2)
    .trim()
    .split(/\s+/); // f[0] = field 3 (state)
  const n = (i: number) => Number(f[i - 3]);
  const own = n(14) + n(15);
  const all = own + n(16) + n(17);
  if (!Number.isFinite(all) || !Number.isFinite(n(4))) return null;
  return { ppid: n(4), comm: text.slice(open + 1, close), startTime: f[22 - 3] ?? '', ticks: all, ownTicks: own };
}

export function takeSample(src: ProcSource = systemProc): Sample {
  const procs = new Map<number, ProcInfo>();
  for (const pid of src.pids()) {
    const text = src.read(`/proc/${pid}/stat`);
    const info = text ? parsePidStat(text) : null;
    if (info) procs.set(pid, info);
  }
  return {
    atMs: src.now(),
    cpu: parseProcStat(src.read('/proc/stat') ?? ''),
    loadavg: parseLoadavg(src.read('/proc/loadavg') ?? ''),
    procs,
    governor: governorState(src.read),
    boost: boostState(src.read),
  };
}

/** `root` and every process descending from it in this sample. */
export function processTree(procs: Map<number, ProcInfo>, root: number): Set<number> {
  const children = new Map<number, number[]>();
  for (const [pid, p] of procs) children.set(p.ppid, [...(children.get(p.ppid) ?? []), pid]);
  const tree = new Set<number>();
  const stack = [root];
  while (stack.length) {
    const pid = stack.pop()!;
    if (tree.has(pid)) continue;
    tree.add(pid);
    stack.push(...(children.get(pid) ?? []));
  }
  return tree;
}

let clockTicks: number | undefined;
export function ticksPerSecond(): number {
  if (clockTicks === undefined) {
    try {
      clockTicks = Number(execFileSync('getconf', ['CLK_TCK'], { encoding: 'utf8' }).trim()) || 100;
    } catch {
      clockTicks = 100; // USER_HZ on every Linux architecture this runs on
    }
  }
  return clockTicks;
}

const round2 = (v: number) => Math.round(v * 100) / 100;

/** What happened between two samples. `root` is this run's process (its tree is not "other"). */
export function snapshotBetween(a: Sample, b: Sample, root: number, hz = ticksPerSecond()): Snapshot {
  const windowSeconds = Math.max((b.atMs - a.atMs) / 1000, 1e-3);
  const d = b.cpu.map((v, i) => v - a.cpu[i]!);
  const [user, nice, system, , iowait, , , steal] = d as [number, number, number, number, number, number, number, number];
  const total = d.reduce((s, v) => s + v, 0);
  const pct = (v: number) => (total > 0 ? round2((100 * v) / total) : null);

  const inTree = (s: Sample) => processTree(s.procs, root);
  const treeA = inTree(a);
  const treeB = inTree(b);
  const sum = (s: Sample, tree: Set<number>) => [...tree].reduce((t, pid) => t + (s.procs.get(pid)?.ticks ?? 0), 0);
  const treeTicks = Math.max(0, sum(b, treeB) - sum(a, treeA));
  const otherTicks = Math.max(0, user + nice + system - treeTicks);

  const others: { pid: number; command: string; cpuPercent: number }[] = [];
  for (const [pid, p] of b.procs) {
    if (treeB.has(pid) || treeA.has(pid)) continue;
    const before = a.procs.get(pid);
    const used = before && before.startTime === p.startTime ? p.ownTicks - before.ownTicks : p.ownTicks;
    if (used > 0) others.push({ pid, command: p.comm.slice(0, 200), cpuPercent: round2((100 * used) / hz / windowSeconds) });
  }
  others.sort((x, y) => y.cpuPercent - x.cpuPercent);
  return {
    at: new Date(b.atMs).toISOString(),
    windowSeconds: round2(windowSeconds),
    loadAverage: b.loadavg,
    stealPercent: pct(steal),
    iowaitPercent: pct(iowait),
    otherBusyPercent: round2((100 * otherTicks) / hz / windowSeconds),
    busiestOthers: others.slice(0, 5),
    governor: b.governor,
    boost: b.boost,
  };
}

/** Each threshold the snapshot breaks, in words with the measured value; a window with a steal probe (STEAL PROBES above) is judged on the probe's steal. */
export function checkSnapshot(
  s: Omit<Snapshot, 'governor' | 'boost'> & { stealProbe?: StealProbe },
  phase: Phase,
  logicalCpus: number,
): { quiet: boolean; reasons: string[] } {
  const t = QUIET_THRESHOLDS;
  const over = `over the ${s.windowSeconds} s ${phase === 'before' ? 'window before the run' : phase}`;
  const reasons: string[] = [];
  const probe = s.stealProbe;
  if (probe) {
    if (probe.stealPercent !== null && probe.stealPercent > t.maxStealPercent)
      reasons.push(
        `CPU steal was ${probe.stealPercent}% of all CPUs in a ${probe.seconds} s probe with every CPU busy, after a task of this ${phase} whose processes wake each other's CPUs (limit ${t.maxStealPercent}%)`,
      );
  } else if (s.stealPercent !== null && s.stealPercent > t.maxStealPercent)
    reasons.push(`CPU steal was ${s.stealPercent}% of all CPUs ${over} (limit ${t.maxStealPercent}%)`);
  if (s.iowaitPercent !== null && s.iowaitPercent > t.maxIowaitPercent)
    reasons.push(`iowait was ${s.iowaitPercent}% of all CPUs ${over} (limit ${t.maxIowaitPercent}%)`);
  if (s.otherBusyPercent !== null && s.otherBusyPercent > t.maxOtherBusyPercent) {
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

/** A window of a round between two samples, checked (cpufreq state is the round's, not repeated); `probe`: STEAL PROBES above. */
export function windowBetween(a: Sample, b: Sample, root: number, logicalCpus: number, hz = ticksPerSecond(), probe?: StealProbe): QuietWindow {
  const { governor: _g, boost: _b, ...snapshot } = snapshotBetween(a, b, root, hz);
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
  return {
    ...whole,
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

/** Records evidence: a settled window before the run, and each round (as a whole, or in windows). */
export interface EvidenceRecorder {
  exclusive: boolean;
  thresholds: Record<string, number>;
  before(log: (m: string) => void): Promise<CheckedSnapshot>;
  sample(): Sample;
  /** the round since `since` as one window */
  round(since: Sample, round: number): RoundSnapshot;
  /** starts watching a round in windows of at most MAX_WINDOW_SECONDS */
  watchRound(): RoundWatch;
  /**
   * Before a disturbed round is measured again: keeps one CPU busy in windows of CALM_PROBE_SECONDS until
   * CALM_QUIET_WINDOWS of them in a row are quiet or `maxSeconds` have passed (steal shows only while a CPU
   * wants to run, so an idle wait cannot see a storm end; a storm has quiet windows inside it, so one is
   * not enough). Says how long it waited and whether the host calmed down; measures nothing.
   */
  calm(log: (m: string) => void, maxSeconds?: number): Promise<{ waitedSeconds: number; calm: boolean }>;
  /** keeps every CPU busy for STEAL_PROBE_SECONDS and says how much steal the host showed (STEAL PROBES above) */
  stealProbe(): Promise<StealProbe>;
}

/** Length of a steal probe (STEAL PROBES above): 200 ticks on 2 CPUs at 100 Hz, so the 2% limit is 4 ticks. */
export const STEAL_PROBE_SECONDS = 1;

/** One window of the calm probe (above): as long as the windows of a round, so it judges the same way. */
export const CALM_PROBE_SECONDS = 8;
/** Quiet probe windows in a row that end the wait (on the Intel Xeon VM, storms of steal left single quiet 8-s windows inside them). */
export const CALM_QUIET_WINDOWS = 4;
/** How long a run waits at most for a host storm to pass before measuring a disturbed round again. */
export const MAX_CALM_WAIT_SECONDS = 300;

/** Keeps this thread busy for `ms`, in slices that let timers and signals through. */
async function spinFor(ms: number): Promise<void> {
  const end = Date.now() + ms;
  while (Date.now() < end) {
    const slice = Math.min(end, Date.now() + 50);
    while (Date.now() < slice);
    await new Promise((r) => setImmediate(r));
  }
}

/** Keeps `n` CPUs busy for `ms`, each in a thread of its own (this thread waits). */
async function spinAllFor(ms: number, n: number): Promise<void> {
  const code = 'const end = Date.now() + require("node:worker_threads").workerData; while (Date.now() < end);';
  await Promise.all(
    Array.from(
      { length: n },
      () => new Promise<void>((resolve, reject) => new Worker(code, { eval: true, workerData: ms }).on('exit', () => resolve()).on('error', reject)),
    ),
  );
}

/** Calls `fn` every `ms` until the returned function is called; never keeps the process alive. */
export type Every = (fn: () => void, ms: number) => () => void;
const every: Every = (fn, ms) => {
  const t = setInterval(fn, ms);
  t.unref();
  return () => clearInterval(t);
};

export interface RecorderOptions {
  exclusive: boolean;
  /** length of one window before the run */
  windowSeconds?: number;
  /** how long to wait for the host to settle before starting anyway (recorded as not quiet) */
  settleSeconds?: number;
  logicalCpus?: number;
  source?: ProcSource;
  root?: number;
  sleep?: (ms: number) => Promise<void>;
  /** the timer that closes windows within a long task (tests drive it by hand) */
  every?: Every;
  /** the calm probe's busy wait (tests pass a stand-in) */
  spin?: (ms: number) => Promise<void>;
  /** the steal probe's busy wait of every CPU (tests pass a stand-in) */
  spinAll?: (ms: number) => Promise<void>;
}

export function hostEvidence(opts: RecorderOptions): EvidenceRecorder {
  const { exclusive, windowSeconds = 5, settleSeconds = 120, source = systemProc, root = process.pid } = opts;
  const logicalCpus = opts.logicalCpus ?? cpus().length;
  const sleep = opts.sleep ?? ((ms: number) => new Promise<void>((r) => setTimeout(r, ms)));
  const timer = opts.every ?? every;
  const spin = opts.spin ?? spinFor;
  const spinAll = opts.spinAll ?? ((ms: number) => spinAllFor(ms, logicalCpus));
  return {
    exclusive,
    thresholds: {
      ...QUIET_THRESHOLDS,
      beforeWindowSeconds: windowSeconds,
      settleSeconds,
      maxWindowSeconds: MAX_WINDOW_SECONDS,
      minWindowSeconds: MIN_WINDOW_SECONDS,
      calmProbeSeconds: CALM_PROBE_SECONDS,
      calmQuietWindows: CALM_QUIET_WINDOWS,
      maxCalmWaitSeconds: MAX_CALM_WAIT_SECONDS,
      stealProbeSeconds: STEAL_PROBE_SECONDS,
    },
    async before(log) {
      const deadline = source.now() + settleSeconds * 1000;
      for (;;) {
        const a = takeSample(source);
        await sleep(windowSeconds * 1000);
        const s = snapshotBetween(a, takeSample(source), root);
        const check = checkSnapshot(s, 'before', logicalCpus);
        if (check.quiet || source.now() >= deadline) {
          log(check.quiet ? 'host is quiet' : `host is NOT quiet; starting anyway, the run will say so: ${check.reasons.join('; ')}`);
          return { ...s, ...check };
        }
        log(`waiting for the host to settle: ${check.reasons.join('; ')}`);
      }
    },
    sample: () => takeSample(source),
    round(since, round) {
      const s = snapshotBetween(since, takeSample(source), root);
      return { ...s, ...checkSnapshot(s, 'round', logicalCpus), round };
    },
    async calm(log, maxSeconds = MAX_CALM_WAIT_SECONDS) {
      const started = source.now();
      let quietInARow = 0;
      for (;;) {
        const a = takeSample(source);
        await spin(CALM_PROBE_SECONDS * 1000);
        const w = windowBetween(a, takeSample(source), root, logicalCpus);
        quietInARow = w.quiet ? quietInARow + 1 : 0;
        const waitedSeconds = round2((source.now() - started) / 1000);
        const calm = quietInARow >= CALM_QUIET_WINDOWS;
        if (calm || waitedSeconds >= maxSeconds) return { waitedSeconds, calm };
        if (!w.quiet) log(`  waiting for the host to calm down before measuring again: ${w.reasons.join('; ')}`);
      }
    },
    async stealProbe() {
      const a = takeSample(source);
      await spinAll(STEAL_PROBE_SECONDS * 1000);
      const s = snapshotBetween(a, takeSample(source), root);
      return { seconds: s.windowSeconds, stealPercent: s.stealPercent };
    },
    watchRound() {
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
        windows.push(windowBetween(open, end, root, logicalCpus, undefined, openProbe));
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
            windows.splice(-1, 1, windowBetween(before, end, root, logicalCpus, undefined, worseProbe(windows.at(-1)!.stealProbe, openProbe)));
          else windows.push(windowBetween(open, end, root, logicalCpus, undefined, openProbe));
          return roundEvidence(snapshotBetween(start, end, root), windows, round, logicalCpus);
        },
        stop,
      };
    },
  };
}

/**
 * Attempts at measured rounds the host disturbed that a run drops and measures again (measureUndisturbed
 * here, the bench run loop in runner/run.ts); past it a disturbed round is kept and the run is not quiet.
 * A limit per run, so that a host that stays loud ends the run instead of repeating rounds for ever.
 */
export const MAX_REPEATED_ROUNDS = 10;

/**
 * Times one task may be dropped from one attempt at a measured round because it overlapped a window that
 * broke a limit (runner/run.ts measures it again at the round's end, on every build); one more and the
 * round is cut short and measured again as a whole.
 */
export const MAX_TASK_DROPS = 3;

/**
 * Measures round `round` until the host leaves it undisturbed. A disturbed attempt is handed to `drop`
 * (which discards what it measured) and added to `repeated`; once `repeated` holds `maxRepeated`
 * attempts (a limit for the whole run), a disturbed round is kept as it is. Before each new attempt the
 * host is given time to calm down (EvidenceRecorder.calm: a busy probe, since steal shows only while a
 * CPU wants to run). Returns the kept snapshot. The decision reads /proc only, never the measured values.
 */
export async function measureUndisturbed(
  recorder: Pick<EvidenceRecorder, 'sample' | 'round' | 'calm'>,
  round: number,
  measure: () => Promise<void>,
  o: { drop: (disturbed: RoundSnapshot) => void; repeated: RoundSnapshot[]; maxRepeated: number; log?: (m: string) => void },
): Promise<RoundSnapshot> {
  for (;;) {
    const since = recorder.sample();
    await measure();
    const snapshot = recorder.round(since, round);
    if (snapshot.quiet || o.repeated.length >= o.maxRepeated) return snapshot;
    o.repeated.push(snapshot);
    o.drop(snapshot);
    await recorder.calm(o.log ?? (() => {}));
  }
}

/**
 * The run file's evidence and its verdict by the quiet rule (analysis/quiet-rule.ts). `deterministicMeasured`:
 * that phase measured something (it did not only reuse stored results), so it must have left evidence; a
 * run killed in it has none and is not quiet.
 */
export function summarizeEvidence(
  thresholds: Record<string, number>,
  exclusive: boolean,
  before: CheckedSnapshot,
  rounds: RoundSnapshot[],
  measuredRounds: number[],
  repeated: RoundSnapshot[] = [],
  deterministic: RoundSnapshot[] = [],
  deterministicMeasured = false,
): QuietEvidence {
  const quiet = notQuietReasons({ exclusive, before, rounds, deterministic }, measuredRounds, deterministicMeasured).length === 0;
  const order = (x: RoundSnapshot, y: RoundSnapshot) => x.round - y.round;
  return {
    thresholds,
    exclusive,
    before,
    rounds: [...rounds].sort(order),
    ...(repeated.length ? { repeated: [...repeated].sort(order) } : {}),
    ...(deterministic.length ? { deterministic } : {}),
    quiet,
  };
}
