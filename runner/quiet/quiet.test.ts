// Quiet-host evidence on synthetic /proc snapshots (quiet, a busy process beside the run, steal, load,
// a short-lived build job), the settle loop before a run, a round in windows (a burst the round average
// hides), and one real sample of this machine.
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { test } from 'node:test';
import { HostSnapshot, MAX_QUIET_WINDOWS, RoundEvidence, type StealProbe } from '../../schema/index.ts';
import { makeHostSnapshot } from '../../schema/test-data.ts';
import { CALM_PROBE_SECONDS, CALM_QUIET_WINDOWS, hostEvidence, measureUndisturbed, STEAL_PROBE_SECONDS, summarizeEvidence } from './evidence.ts';
import { checkSnapshot } from './limits.ts';
import { MAX_WINDOW_SECONDS, MIN_WINDOW_SECONDS, type Every, type RoundSnapshot, type RoundWatch } from './round-watch.ts';
import { parsePidStat, processTree, round2, snapshotBetween, systemProc, takeSample, type ProcSource } from './sample.ts';

interface Proc {
  ppid: number;
  comm: string;
  /** user, system, children user, children system (clock ticks) */
  t: [number, number, number, number];
  start?: number;
}
interface Machine {
  /** /proc/stat aggregate: user nice system idle iowait irq softirq steal */
  cpu: [number, number, number, number, number, number, number, number];
  load: number;
  procs: Record<number, Proc>;
}

/** /proc text in the kernel's own layout (fields 1-22 of /proc/<pid>/stat, then zeros). */
function pidStat(pid: number, p: Proc): string {
  const fields = [pid, `(${p.comm})`, 'S', p.ppid, pid, pid, 0, -1, 4194304, 0, 0, 0, 0, ...p.t, 20, 0, 1, 0, p.start ?? 1000, 3133440, 363];
  return `${fields.join(' ')} 18446744073709551615 0 0 0\n`;
}
function source(states: Machine[], stepMs = 10_000): ProcSource & { i: number } {
  const src = {
    i: 0,
    now: () => 1_800_000_000_000 + src.i * stepMs,
    pids: () => Object.keys(states[Math.min(src.i, states.length - 1)]!.procs).map(Number),
    read: (path: string) => {
      const m = states[Math.min(src.i, states.length - 1)]!;
      if (path === '/proc/stat') return `cpu  ${m.cpu.join(' ')} 0 0\ncpu0 0 0 0 0 0 0 0 0 0 0\n`;
      if (path === '/proc/loadavg') return `${m.load.toFixed(2)} 0.50 0.40 2/150 4242\n`;
      if (path.endsWith('scaling_governor')) return 'performance\n';
      const pid = /^\/proc\/(\d+)\/stat$/.exec(path)?.[1];
      const p = pid ? m.procs[Number(pid)] : undefined;
      return p ? pidStat(Number(pid), p) : null;
    },
  };
  return src;
}
/** Two samples 10 s apart on a 2-CPU machine (2000 ticks at 100 Hz). */
function between(a: Machine, b: Machine, root = 100) {
  const src = source([a, b]);
  const first = takeSample(src);
  src.i = 1;
  return snapshotBetween(first, takeSample(src), root, 100);
}
const RUN = (t: number, child: number): Record<number, Proc> => ({
  1: { ppid: 0, comm: 'systemd', t: [5, 5, 0, 0] },
  100: { ppid: 1, comm: 'node', t: [t, 0, child, 0] },
});

test('parsePidStat reads a command with spaces and parentheses, and the CPU fields after it', () => {
  const p = parsePidStat(pidStat(7, { ppid: 3, comm: 'Web Content (x)', t: [10, 20, 30, 40], start: 555 }))!;
  assert.deepEqual([p.ppid, p.comm, p.ownTicks, p.ticks, p.startTime], [3, 'Web Content (x)', 30, 100, '555']);
});

test('quiet: the run keeps one CPU busy through its child, nothing else runs', () => {
  const a: Machine = {
    cpu: [1000, 0, 200, 5000, 10, 0, 5, 0],
    load: 1.0,
    procs: { ...RUN(50, 0), 101: { ppid: 100, comm: 'openssl', t: [0, 0, 0, 0], start: 2000 } },
  };
  // 10 s later: openssl used 950 ticks, node 20, and one short child of node (already reaped) 25
  const b: Machine = {
    cpu: [1985, 0, 210, 5985, 12, 0, 8, 0],
    load: 1.1,
    procs: { ...RUN(70, 25), 101: { ppid: 100, comm: 'openssl', t: [940, 10, 0, 0], start: 2000 } },
  };
  const s = between(a, b);
  HostSnapshot.parse(s);
  assert.equal(s.windowSeconds, 10);
  assert.equal(s.otherBusyPercent, 0);
  assert.deepEqual(s.busiestOthers, []);
  assert.equal(s.stealPercent, 0);
  assert.deepEqual(checkSnapshot(s, 'round', 2), { quiet: true, reasons: [] });
});

test("a shell that reaps a long build is not credited with the build's whole life", () => {
  const procs = (cutime: number): Record<number, Proc> => ({ ...RUN(0, 0), 300: { ppid: 1, comm: 'bash', t: [2, 1, cutime, 0] } });
  const a: Machine = { cpu: [1000, 0, 200, 5000, 0, 0, 0, 0], load: 0.3, procs: procs(0) };
  // the build's last 10 s were 100 ticks of CPU; when bash reaped it, its cutime grew by its whole 50000 ticks
  const b: Machine = { cpu: [1100, 0, 200, 6900, 0, 0, 0, 0], load: 0.3, procs: procs(50_000) };
  const s = between(a, b);
  assert.equal(s.otherBusyPercent, 10);
  assert.deepEqual(s.busiestOthers, [], 'bash itself used no CPU in the window');
});

test('a busy process beside the run is named with its share of a CPU', () => {
  const procs = (cc1: number, make: number): Record<number, Proc> => ({
    ...RUN(0, 0),
    150: { ppid: 1, comm: 'make', t: [1, 1, make, 0] },
    200: { ppid: 150, comm: 'cc1', t: [cc1, 0, 0, 0], start: 3000 },
  });
  const a: Machine = { cpu: [1000, 0, 200, 5000, 0, 0, 0, 0], load: 0.2, procs: procs(100, 0) };
  const b: Machine = { cpu: [1800, 0, 200, 6200, 0, 0, 0, 0], load: 0.9, procs: procs(900, 0) };
  const s = between(a, b);
  assert.equal(s.otherBusyPercent, 80);
  assert.deepEqual(s.busiestOthers, [{ pid: 200, command: 'cc1', cpuPercent: 80 }]);
  const c = checkSnapshot(s, 'round', 2);
  assert.equal(c.quiet, false);
  assert.deepEqual(c.reasons, ['processes outside this run used 80% of one CPU over the 10 s round (limit 10%); busiest: cc1 (PID 200, 80%)']);
});

test('a job that starts and ends inside the window still counts, through the machine total', () => {
  const a: Machine = { cpu: [1000, 0, 200, 5000, 0, 0, 0, 0], load: 0.1, procs: RUN(0, 0) };
  const b: Machine = { cpu: [1300, 0, 250, 6650, 0, 0, 0, 0], load: 0.1, procs: RUN(0, 0) };
  const s = between(a, b);
  assert.equal(s.otherBusyPercent, 35);
  assert.match(checkSnapshot(s, 'before', 2).reasons[0]!, /^processes outside this run used 35% of one CPU over the 10 s window before the run \(limit 10%\)$/);
});

test('steal and iowait are percentages of all CPUs, with the value in the reason', () => {
  const a: Machine = { cpu: [0, 0, 0, 0, 0, 0, 0, 0], load: 1, procs: RUN(0, 0) };
  const b: Machine = { cpu: [1000, 0, 0, 600, 200, 0, 0, 200], load: 1, procs: RUN(1000, 0) };
  const s = between(a, b);
  assert.equal(s.stealPercent, 10);
  assert.equal(s.iowaitPercent, 10);
  assert.deepEqual(checkSnapshot(s, 'round', 2).reasons, [
    'CPU steal was 10% of all CPUs over the 10 s round (limit 2%)',
    'iowait was 10% of all CPUs over the 10 s round (limit 5%)',
  ]);
});

test('a limit is broken only by more than one clock tick: one tick of iowait in a 0.07 s window is not a storm, two are', () => {
  const a: Machine = { cpu: [0, 0, 0, 0, 0, 0, 0, 0], load: 0.1, procs: RUN(0, 0) };
  const b: Machine = { cpu: [1000, 0, 0, 800, 0, 0, 0, 200], load: 0.1, procs: RUN(1000, 0) };
  assert.equal(between(a, b).cpuTicks, 2000, 'the window records its ticks');
  const window = (ticks: number, iowait: number, steal: number, other: number) => ({
    at: '2026-11-29T00:00:00.000Z',
    windowSeconds: round2(ticks / 200),
    loadAverage: [0.1, 0.1, 0.1] as [number, number, number],
    stealPercent: round2((100 * steal) / ticks),
    iowaitPercent: round2((100 * iowait) / ticks),
    otherBusyPercent: round2((100 * other * 2) / ticks),
    cpuTicks: ticks,
    busiestOthers: [],
  });
  // 14 ticks of 2 CPUs: one tick is 7.14% of all CPUs, 14.29% of one
  assert.deepEqual(checkSnapshot(window(14, 1, 0, 1), 'window', 2), { quiet: true, reasons: [] });
  assert.deepEqual(checkSnapshot(window(14, 2, 0, 0), 'window', 2).reasons, ['iowait was 14.29% of all CPUs over the 0.07 s window (limit 5%)']);
  assert.equal(checkSnapshot(window(14, 0, 0, 2), 'window', 2).quiet, false, 'two ticks of another process: 28.57% of one CPU');
  // 1200 ticks (6 s): one tick is 0.08%, so 2.17% of steal still breaks the 2% limit
  assert.equal(checkSnapshot(window(1200, 0, 26, 0), 'window', 2).quiet, false);
  // a snapshot from before cpuTicks was recorded is judged without the allowance
  const { cpuTicks: _t, ...old } = window(14, 1, 0, 0);
  assert.equal(checkSnapshot(old, 'window', 2).quiet, false);
});

test('load average: tight before the run, looser at the end of a round', () => {
  const a: Machine = { cpu: [0, 0, 0, 1000, 0, 0, 0, 0], load: 1.8, procs: RUN(0, 0) };
  const s = between(a, { ...a, cpu: [0, 0, 0, 3000, 0, 0, 0, 0] });
  assert.deepEqual(checkSnapshot(s, 'before', 2).reasons, ['the 1-minute load average was 1.8 before the run (limit 1: 0.5 per logical CPU, 2 CPUs)']);
  assert.equal(checkSnapshot(s, 'round', 2).quiet, true);
  assert.deepEqual(checkSnapshot({ ...s, loadAverage: [4.5, 3, 2] }, 'round', 2).reasons, [
    'the 1-minute load average was 4.5 at the end of the round (limit 3: 1.5 per logical CPU, 2 CPUs)',
  ]);
});

test('before the run: waits while the host settles, then records the quiet window', async () => {
  const busy: Machine = { cpu: [0, 0, 0, 0, 0, 0, 0, 0], load: 1.6, procs: RUN(0, 0) };
  const states = [
    busy,
    { ...busy, cpu: [0, 0, 0, 1000, 0, 0, 0, 0] as Machine['cpu'], load: 1.2 },
    { ...busy, cpu: [0, 0, 0, 2000, 0, 0, 0, 0] as Machine['cpu'], load: 0.6 },
  ];
  const src = source(states, 5_000);
  const log: string[] = [];
  const rec = hostEvidence({ exclusive: true, logicalCpus: 2, source: src, root: 100, sleep: async () => void src.i++, windowSeconds: 5, settleSeconds: 60 });
  const before = await rec.before((m) => log.push(m));
  assert.equal(before.quiet, true);
  assert.equal(before.loadAverage[0], 0.6);
  assert.equal(log.length, 2);
  assert.match(log[0]!, /^waiting for the host to settle: the 1-minute load average was 1.2/);
});

test('before the run: a host that never settles is recorded as not quiet once the time is up', async () => {
  const m: Machine = { cpu: [0, 0, 0, 0, 0, 0, 0, 0], load: 3, procs: RUN(0, 0) };
  const src = source([m], 5_000);
  let t = 0;
  src.now = () => 1_800_000_000_000 + t;
  const rec = hostEvidence({
    exclusive: true,
    logicalCpus: 2,
    source: src,
    root: 100,
    sleep: async (ms) => void (t += ms),
    windowSeconds: 5,
    settleSeconds: 20,
  });
  const before = await rec.before(() => {});
  assert.equal(before.quiet, false);
  assert.equal(t, 20_000, 'four windows of 5 s, then gives up');
});

test('the run is quiet only if it held the lock and every measured round was quiet', () => {
  const snap = makeHostSnapshot(new Date().toISOString(), { windowSeconds: 10, loadAverage: [1, 1, 1] });
  const ok = { ...snap, quiet: true, reasons: [] };
  const bad = { ...snap, quiet: false, reasons: ['x'] };
  const rounds = [0, 1, 2].map((round) => ({ ...ok, round }));
  assert.equal(summarizeEvidence({}, true, ok, rounds, [1, 2]).quiet, true);
  assert.equal(summarizeEvidence({}, false, ok, rounds, [1, 2]).quiet, false, 'not exclusive');
  assert.equal(summarizeEvidence({}, true, ok, [{ ...bad, round: 0 }, ...rounds.slice(1)], [1, 2]).quiet, true, 'a noisy warm-up round does not decide');
  assert.equal(summarizeEvidence({}, true, ok, [...rounds.slice(0, 2), { ...bad, round: 2 }], [1, 2]).quiet, false);
  assert.equal(summarizeEvidence({}, true, ok, rounds.slice(0, 2), [1, 2]).quiet, false, 'a measured round without evidence');
});

test('the deterministic phase decides too: a noisy phase, or one that measured and left no evidence, makes the run not quiet', () => {
  const snap = makeHostSnapshot(new Date().toISOString(), { windowSeconds: 10, loadAverage: [1, 1, 1] });
  const ok = { ...snap, quiet: true, reasons: [] };
  const rounds = [0, 1, 2].map((round) => ({ ...ok, round }));
  const phase = { ...ok, round: 1 };
  assert.equal(summarizeEvidence({}, true, ok, rounds, [1, 2], [], [phase], true).quiet, true);
  assert.equal(
    summarizeEvidence({}, true, ok, rounds, [1, 2], [], [{ ...phase, quiet: false, reasons: ['x'] }], true).quiet,
    false,
    'a noisy deterministic phase',
  );
  const killed = summarizeEvidence({}, true, ok, rounds, [1, 2], [], [], true);
  assert.equal(killed.quiet, false, 'the phase measured and was killed before its evidence');
  assert.equal(killed.deterministic, undefined, 'no evidence is made up for it');
  assert.equal(summarizeEvidence({}, true, ok, rounds, [1, 2], [], [], false).quiet, true, 'a phase that only reused stored results needs no evidence');
  assert.equal(summarizeEvidence({}, true, ok, rounds, [1, 2]).quiet, true, 'nor does a run without a deterministic phase');
});

test("a round the host disturbed is dropped and measured again, until the run's limit of repeats is spent", async () => {
  // every state is one sample: [start, end] of each attempt; attempts alternate stolen / clean as listed
  // each attempt: 1000 ticks of the run, 1000 idle, or 800 idle and 200 stolen (10% of all CPUs)
  const at = (user: number, idle: number, steal: number): Machine => ({ cpu: [user, 0, 0, idle, 0, 0, 0, steal], load: 0.5, procs: RUN(user, 0) });
  const attempts = [true, false, true, true]; // round 1: stolen, clean; round 2: stolen, stolen
  const states: Machine[] = [];
  const c = { user: 0, idle: 0, steal: 0 };
  for (const stolen of attempts) {
    states.push(at(c.user, c.idle, c.steal));
    Object.assign(c, { user: c.user + 1000, idle: c.idle + (stolen ? 800 : 1000), steal: c.steal + (stolen ? 200 : 0) });
    states.push(at(c.user, c.idle, c.steal));
  }
  const src = source(states);
  let probes = 0; // the calm probe between a dropped attempt and the next (no time passes in it here)
  const rec = hostEvidence({ exclusive: true, logicalCpus: 2, source: src, root: 100, spin: async () => void probes++ });
  const repeated: Parameters<typeof measureUndisturbed>[3]['repeated'] = [];
  const measured: string[] = [];
  const dropped: number[] = [];
  const attempt = (round: number) => async () => {
    measured.push(`round ${round}`);
    src.i++;
  };
  const next = () => void src.i++; // the sample at the start of the next attempt
  const o = { drop: (d: { round: number }) => (dropped.push(d.round), next()), repeated, maxRepeated: 2 };
  const one = await measureUndisturbed(rec, 1, attempt(1), o);
  assert.equal(one.quiet, true);
  next();
  const two = await measureUndisturbed(rec, 2, attempt(2), o);
  assert.equal(two.quiet, false, 'the limit is spent: the disturbed round stays and the run will say so');
  assert.match(two.reasons[0]!, /^CPU steal was 10% of all CPUs/);
  assert.deepEqual(measured, ['round 1', 'round 1', 'round 2', 'round 2']);
  assert.deepEqual(dropped, [1, 2]);
  assert.equal(probes, 2 * CALM_QUIET_WINDOWS, 'the host was given time to calm down after each dropped attempt');
  assert.deepEqual(
    repeated.map((r) => [r.round, r.quiet]),
    [
      [1, false],
      [2, false],
    ],
  );
  assert.deepEqual(summarizeEvidence({}, true, one, [one, two], [1, 2], repeated).repeated?.length, 2);
  assert.equal(summarizeEvidence({}, true, one, [one], [1], []).repeated, undefined, 'no field when nothing was measured again');
});

test("a real sample of this machine: the run's own children are in its tree, not among the others", async () => {
  const child = spawn('sleep', ['5']);
  try {
    await new Promise((r) => child.once('spawn', r));
    const s = takeSample(systemProc);
    assert.ok(s.cpu.length === 8 && s.procs.size > 1);
    assert.ok(processTree(s.procs, process.pid).has(child.pid!));
    const snap = snapshotBetween(s, takeSample(systemProc), process.pid);
    assert.ok(snap.busiestOthers.every((p) => p.pid !== child.pid && p.pid !== process.pid));
    HostSnapshot.parse(snap);
  } finally {
    child.kill();
  }
});

// ---------------------------------------------------------------- a round in windows

/**
 * A 2-CPU machine at 100 ticks per second, second by second: the run (PID 100) keeps one CPU busy, and
 * `stress` (PID 500, outside the run) uses `otherCpus(s)` CPUs in second s. A stand-in timer is fired
 * by `advance`, once per simulated second, as setInterval would be.
 */
function timeline(otherCpus: (second: number) => number, stolenCpus: (second: number) => number = () => 0) {
  let t = 0;
  let other = 0;
  let stolen = 0;
  let fire = () => {};
  const src: ProcSource = {
    now: () => 1_800_000_000_000 + t * 1000, // 2027-01-15T08:00:00Z
    pids: () => [1, 100, 500],
    read: (path) => {
      const run = 100 * t;
      const m: Machine = {
        cpu: [run + other, 0, 0, 200 * t - run - other - stolen, 0, 0, 0, stolen],
        load: 1,
        procs: { ...RUN(run, 0), 500: { ppid: 1, comm: 'stress', t: [other, 0, 0, 0] } },
      };
      return source([m]).read(path);
    },
  };
  const every: Every = (fn) => ((fire = fn), () => (fire = () => {}));
  const rec = hostEvidence({ exclusive: true, logicalCpus: 2, source: src, root: 100, every });
  return {
    rec,
    /** `seconds` of measuring, with a task ending every `taskSeconds` (named by the second it ends at), each with `probe` */
    advance(watch: RoundWatch, seconds: number, taskSeconds = Infinity, probe?: StealProbe) {
      for (let i = 0; i < seconds; i++) {
        other += 100 * otherCpus(t);
        stolen += 100 * stolenCpus(t);
        t++;
        if (t % taskSeconds === 0) watch.taskEnded(`task ending at ${t} s`, probe);
        fire();
      }
    },
  };
}

/** The windows tile the round: each starts where the one before ended. */
function assertTiled(r: RoundSnapshot): void {
  const w = r.windows!;
  const start = (x: { at: string; windowSeconds: number }) => Date.parse(x.at) - x.windowSeconds * 1000;
  assert.equal(start(w[0]!), start(r));
  assert.equal(w.at(-1)!.at, r.at);
  for (let i = 1; i < w.length; i++) assert.equal(start(w[i]!), Date.parse(w[i - 1]!.at), `window ${i + 1} starts where ${i} ended`);
}

test('a two-minute burst of one CPU inside a 30-minute round fails the round, although the round average passes', () => {
  const burst = (s: number) => (s >= 600 && s < 720 ? 1 : 0);
  const { rec, advance } = timeline(burst);
  const watch = rec.watchRound();
  advance(watch, 1803, 300);
  const r = RoundEvidence.parse(watch.finish(3));
  assert.equal(r.windowSeconds, 1803);
  assert.equal(r.otherBusyPercent, 6.66, 'the round as a whole: 120 s of one CPU in 1803 s');
  assert.equal(checkSnapshot(r, 'round', 2).quiet, true, 'the round average alone would pass');
  assert.equal(r.quiet, false);
  assertTiled(r);
  assert.ok(r.windows!.every((w) => w.windowSeconds >= MIN_WINDOW_SECONDS && w.windowSeconds <= MAX_WINDOW_SECONDS));
  assert.equal(r.windows!.at(-1)!.windowSeconds, 28, 'the last 3 s joined the window before them');
  const loud = r.windows!.filter((w) => !w.quiet);
  assert.deepEqual(
    loud.map((w) => w.otherBusyPercent),
    [100, 100, 100, 100, 80],
  );
  assert.deepEqual(r.reasons.length, 5);
  assert.equal(
    r.reasons[0],
    'window 25 of 72 (08:10:00-08:10:25 UTC): processes outside this run used 100% of one CPU over the 25 s window (limit 10%); busiest: stress (PID 500, 100%)',
  );
  assert.match(r.reasons[4]!, /^window 29 of 72 \(08:11:40-08:12:05 UTC\): processes outside this run used 80% of one CPU over the 25 s window/);
  // the run file and the published reasons name the window and the value
  const evidence = summarizeEvidence(rec.thresholds, true, { ...r, quiet: true, reasons: [] }, [r], [3]);
  assert.equal(evidence.quiet, false);
  assert.equal(evidence.thresholds.maxWindowSeconds, MAX_WINDOW_SECONDS);
});

test('loud(): nothing until a closed window breaks a limit, then that window with the tasks it overlapped, until it is excused', () => {
  const { rec, advance } = timeline((s) => (s >= 20 && s < 30 ? 1 : 0));
  const watch = rec.watchRound();
  advance(watch, 20, 5);
  assert.deepEqual(watch.loud(), [], 'four quiet windows');
  advance(watch, 4, 5);
  assert.deepEqual(watch.loud(), [], 'the burst is in the open window: not judged yet');
  advance(watch, 1, 5);
  const [first, ...more] = watch.loud();
  assert.equal(more.length, 0);
  assert.equal(first!.index, 4);
  assert.deepEqual(first!.tasks, ['task ending at 25 s']);
  assert.match(first!.reasons[0]!, /^processes outside this run used 100% of one CPU over the 5 s window/);
  advance(watch, 30, 5);
  assert.deepEqual(
    watch.loud().map((w) => [w.index, w.tasks]),
    [
      [4, ['task ending at 25 s']],
      [5, ['task ending at 30 s']],
    ],
    'each loud window until excused',
  );
  watch.excuse(4, ['task ending at 25 s']);
  watch.excuse(5, ['task ending at 30 s']);
  assert.deepEqual(watch.loud(), []);
  const r = watch.finish(1);
  assert.equal(r.quiet, true, 'the loud windows were excused: what overlapped them was dropped');
  assert.deepEqual(
    r.windows!.flatMap((w, i) => (w.dropped ? [[i, w.quiet, w.dropped]] : [])),
    [
      [4, false, ['task ending at 25 s']],
      [5, false, ['task ending at 30 s']],
    ],
    'the excused windows keep their verdict and say what was dropped',
  );
  assertTiled(r);
});

test('a task the timer cut into windows counts in each of them; the window after a wait counts none of it', () => {
  const { rec, advance } = timeline((s) => (s >= 10 && s < 40 ? 1 : 0));
  const watch = rec.watchRound();
  advance(watch, 60); // one 60-s task: the timer closes windows every 25 s, the task ends in the third
  watch.taskEnded('long');
  assert.deepEqual(
    watch.loud().map((w) => [w.index, w.tasks]),
    [
      [0, ['long']],
      [1, ['long']],
    ],
  );
  watch.excuse(0, ['long']);
  watch.excuse(1, ['long']);
  advance(watch, 6); // a wait for the host: no task ends
  watch.closeWindow();
  advance(watch, 5, 5);
  const r = watch.finish(2);
  assert.equal(r.quiet, true);
  assert.deepEqual(
    r.windows!.map((w) => w.windowSeconds),
    [25, 25, 10, 6, 5],
    'two timer windows and the rest of the task, the wait, then the next task',
  );
});

test('a window a task that wakes other CPUs overlapped is judged on the steal probe after it, and keeps its own steal', () => {
  // 0.2 of a CPU stolen throughout: 10% of all CPUs, which the task causes itself
  const { rec, advance } = timeline(
    () => 0,
    () => 0.2,
  );
  const watch = rec.watchRound();
  advance(watch, 10, 5, { seconds: 1, stealPercent: 0.5 });
  advance(watch, 5, 5); // a task without a probe: its own steal is judged
  advance(watch, 3); // a short last stretch with a probed task end joins the window before it
  watch.taskEnded('short', { seconds: 1, stealPercent: 3 });
  const r = watch.finish(1);
  assert.deepEqual(
    r.windows!.map((w) => [w.windowSeconds, w.stealPercent, w.stealProbe?.stealPercent, w.quiet]),
    [
      [5, 10, 0.5, true],
      [5, 10, 0.5, true],
      [8, 10, 3, false],
    ],
  );
  assert.match(r.windows![2]!.reasons[0]!, /^CPU steal was 3% of all CPUs in a 1 s probe with every CPU busy, after a task of this window/);
  assert.equal(r.reasons.length, 1, 'the window with the loud probe');
  assert.equal(r.stealPercent, 10, 'the round records the steal it saw');
});

test('windows the timer closed during a task that wakes other CPUs are judged again on its probe; the round as a whole on the probes', () => {
  const { rec, advance } = timeline(
    () => 0,
    () => 0.2,
  );
  const watch = rec.watchRound();
  advance(watch, 60); // one 60-s task: the timer closes two windows, loud on their own steal
  assert.equal(watch.loud().length, 2);
  watch.taskEnded('long', { seconds: 1, stealPercent: 0.25 });
  assert.deepEqual(watch.loud(), [], 'the probe says the steal was the task');
  const r = watch.finish(1);
  assert.equal(r.quiet, true, 'the whole round is judged on the probes too');
  assert.deepEqual(
    r.windows!.map((w) => [w.windowSeconds, w.stealProbe?.stealPercent]),
    [
      [25, 0.25],
      [25, 0.25],
      [10, 0.25],
    ],
  );
});

test('stealProbe(): keeps every CPU busy for the probe and reads the steal of that time', async () => {
  let stolen = 0; // the probe's 200 ticks: 194 busy, 6 stolen
  const src: ProcSource = {
    now: () => 0,
    pids: () => [],
    read: (path) => (path === '/proc/stat' ? `cpu  ${stolen ? 194 : 0} 0 0 0 0 0 0 ${stolen} 0 0\n` : path === '/proc/loadavg' ? '0.1 0 0 1/1 1\n' : null),
  };
  const spun: number[] = [];
  const rec = hostEvidence({ exclusive: true, logicalCpus: 2, source: src, spinAll: async (ms) => void (spun.push(ms), (stolen = 6)) });
  const probe = await rec.stealProbe();
  assert.deepEqual(spun, [STEAL_PROBE_SECONDS * 1000]);
  assert.equal(probe.stealPercent, 3);
  assert.equal(rec.thresholds.stealProbeSeconds, STEAL_PROBE_SECONDS);
});

test('calm(): keeps a CPU busy in windows until one is free of steal, or the time is up', async () => {
  const at = (user: number, idle: number, steal: number): Machine => ({ cpu: [user, 0, 0, idle, 0, 0, 0, steal], load: 0.5, procs: RUN(user, 0) });
  // windows of 10 s on 2 CPUs (2000 ticks): stolen (10% of all CPUs), clean, stolen, then clean four times
  const steps = [true, false, true, false, false, false, false];
  const states = [at(0, 0, 0)];
  for (const [i, stolen] of steps.entries()) {
    const s = states[i]!.cpu;
    states.push(at(s[0]! + 1000, s[3]! + (stolen ? 800 : 1000), s[7]! + (stolen ? 200 : 0)));
  }
  const src = source(states);
  const spins: number[] = [];
  const rec = hostEvidence({ exclusive: true, logicalCpus: 2, source: src, root: 100, spin: async (ms) => void (spins.push(ms), src.i++) });
  const log: string[] = [];
  assert.deepEqual(await rec.calm((m) => log.push(m)), { waitedSeconds: 70, calm: true }, 'one quiet window inside the storm is not enough');
  assert.deepEqual(spins, Array(7).fill(CALM_PROBE_SECONDS * 1000));
  assert.equal(CALM_QUIET_WINDOWS, 4);
  assert.equal(log.length, 2);
  assert.match(log[0]!, /waiting for the host to calm down before measuring again: CPU steal was 10% of all CPUs/);
  // a storm that does not end: gives up once the time is up, and says so
  const storm = source([0, 1, 2, 3, 4, 5].map((i) => at(1000 * i, 800 * i, 200 * i)));
  const rec2 = hostEvidence({ exclusive: true, logicalCpus: 2, source: storm, root: 100, spin: async () => void storm.i++ });
  assert.deepEqual(await rec2.calm(() => {}, 20), { waitedSeconds: 20, calm: false });
});

test('a quiet round in windows passes; tasks close windows once they are 5 s long, the timer within long tasks', () => {
  const { rec, advance } = timeline(() => 0);
  const watch = rec.watchRound();
  advance(watch, 14, 2); // tasks of 2 s: windows close at 6 s and 12 s
  advance(watch, 100); // one long task: the timer closes every 25 s
  const r = RoundEvidence.parse(watch.finish(1));
  assert.equal(r.quiet, true);
  assert.deepEqual(r.reasons, []);
  assertTiled(r);
  assert.deepEqual(
    r.windows!.map((w) => w.windowSeconds),
    [6, 6, 25, 25, 25, 27],
  );
  assert.ok(r.windows!.every((w) => w.quiet && w.otherBusyPercent === 0));
  // a round shorter than a window is one window
  const short = rec.watchRound();
  advance(short, 3, 1);
  assert.deepEqual(
    short.finish(2).windows!.map((w) => w.windowSeconds),
    [3],
  );
});

test(`a round keeps at most ${MAX_QUIET_WINDOWS} windows: the rest of a very long round is its last`, () => {
  const { rec, advance } = timeline((s) => (s >= 7000 && s < 7100 ? 1 : 0));
  const watch = rec.watchRound();
  advance(watch, 7200);
  const r = RoundEvidence.parse(watch.finish(1));
  assert.equal(r.windows!.length, MAX_QUIET_WINDOWS);
  assertTiled(r);
  assert.equal(r.windows!.at(-1)!.windowSeconds, 7200 - 25 * (MAX_QUIET_WINDOWS - 1));
});

test('stop() ends the timer of a round that records nothing', () => {
  const { rec, advance } = timeline(() => 0);
  const watch = rec.watchRound();
  watch.stop();
  advance(watch, 100);
  assert.equal(watch.finish(1).windows!.length, 1, 'no window was closed after the stop');
});

test("a round that is loud throughout quotes its first windows' reasons and counts the rest", () => {
  const { rec, advance } = timeline(() => 0.5);
  const watch = rec.watchRound();
  advance(watch, 1800);
  const r = RoundEvidence.parse(watch.finish(1));
  assert.equal(r.windows!.length, 72);
  assert.ok(r.windows!.every((w) => !w.quiet));
  assert.match(r.reasons[0]!, /^processes outside this run used 50% of one CPU over the 1800 s round/);
  assert.equal(r.reasons.length, 1 + 40 + 1);
  assert.equal(r.reasons.at(-1), 'and 32 more from other windows (each window lists its own reasons)');
});
