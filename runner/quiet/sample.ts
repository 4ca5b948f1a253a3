// Readings of the machine for quiet-host evidence (runner/quiet/): a sample of /proc and /sys, and what
// happened between two samples. From the samples:
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
import { execFileSync } from 'node:child_process';
import { readdirSync } from 'node:fs';
import type { HostSnapshot } from '../../schema/index.ts';
import { boostState, governorState, readSystemFile, type ReadFile } from '../host.ts';

export type Snapshot = HostSnapshot;

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

export const round2 = (v: number) => Math.round(v * 100) / 100;

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
    cpuTicks: total,
    busiestOthers: others.slice(0, 5),
    governor: b.governor,
    boost: b.boost,
  };
}
