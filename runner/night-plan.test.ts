// A night with a time budget (issue 32, item 4): after the warm-up the headline tasks are kept first, what
// does not fit is left out and named in the run file, and no round ends after the budget: once the minimum
// rounds are measured, only the open tasks that fit go on.
// The clock is the test's own: each synthetic task advances it by its cost.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { standInBuild, standInPlan, standInSpec } from './stand-in-build.ts';
import type { Benchmark } from './benchmark.ts';
import { executeRun } from './run.ts';
import type { RunPlan } from './run/journal.ts';
import type { Run } from '../schema/index.ts';
import { harnessFactor, isNightHeadline, leftOutBefore, planNight, reserveSeconds, RESERVE_TASK_REMEASURES } from './night-plan.ts';
import { MAX_TASK_DROPS } from './quiet/evidence.ts';
import { aeadCpuSpec, aeadSpec } from './aead/aead.ts';
import { ALGORITHMS, speedSpec } from './speed/speed.ts';
import { seededRandom } from '../analysis/stats.ts';
import { normal } from '../experiments/hypothesis/synthetic.ts';
import { standInEvidence } from './quiet/stand-in-evidence.ts';

process.env.OBSERVATORY_CACHE ??= mkdtempSync(join(tmpdir(), 'night-plan-cache-'));

test('the plan keeps headline tasks first, then whatever else still fits, the cheapest first', () => {
  const t = (task: string, headline: boolean, secondsPerRound: number) => ({ benchmark: 'b', task, headline, secondsPerRound });
  const { kept, leftOut } = planNight([t('slow', false, 60), t('hs', true, 20), t('cheap', false, 4), t('hs2', true, 50)], 6, 300, () => 0);
  assert.deepEqual(
    kept.map((x) => x.task),
    ['hs', 'cheap'],
    'hs (120 s) first; hs2 (300 s more) does not fit, cheap (24 s) still does',
  );
  assert.deepEqual(
    leftOut.map((x) => x.task),
    ['hs2', 'slow'],
  );
  // the reserve: RESERVE_TASK_REMEASURES rounds of the costliest kept task, or a round of all kept if less
  assert.equal(RESERVE_TASK_REMEASURES, MAX_TASK_DROPS);
  assert.equal(reserveSeconds([t('hs', true, 20), t('cheap', false, 4)]), 24, 'a round (24 s) is less than 3 x 20 s');
  assert.equal(reserveSeconds([t('a', true, 20), t('b', false, 30), t('c', false, 40), t('d', false, 42)]), 126, '3 x 42 s is less than a round (132 s)');
  assert.equal(reserveSeconds([]), 0);
  // with the reserve each kept task costs its minimum rounds plus room: hs (120 s + 20 s) fits in 165 s,
  // cheap (24 s more, the reserve growing to 24 s) no longer does
  assert.deepEqual(
    planNight([t('hs', true, 20), t('cheap', false, 4)], 6, 165).kept.map((x) => x.task),
    ['hs'],
  );
  assert.deepEqual(
    planNight([t('hs', true, 20), t('cheap', false, 4)], 6, 165, () => 0).kept.map((x) => x.task),
    ['hs', 'cheap'],
  );
});

test("the harness's time between tasks counts in the plan: measured from the warm-up's entries, a session's end aside", () => {
  const at = (s: number) => new Date(Date.UTC(2026, 0, 1) + s * 1000).toISOString();
  // tasks of 10 s ending at 10, 22, 34 s: 2 s of harness before each of the last two, on 30 s of tasks
  const round = [10, 22, 34].map((end) => ({ at: at(end), seconds: 10 }));
  assert.equal(harnessFactor(round), 1 + 4 / 30);
  assert.equal(harnessFactor([...round].reverse()), 1 + 4 / 30, 'in the order the tasks ended, whatever the journal order');
  // an hour between two tasks is a session that ended and resumed, not the harness
  assert.equal(harnessFactor([...round, { at: at(34 + 3600 + 10), seconds: 10 }]), 1 + 4 / 40);
  assert.equal(harnessFactor([]), 1);
  // hs alone: 6 rounds of 20 s fit in 130 s; with 10% of harness (132 s) they no longer do
  const t = (task: string, secondsPerRound: number) => ({ benchmark: 'b', task, headline: true, secondsPerRound });
  assert.deepEqual(planNight([t('hs', 20)], 6, 130, () => 0).kept.length, 1);
  assert.deepEqual(planNight([t('hs', 20)], 6, 130, () => 0, 1.1).kept.length, 0);
});

test("the tasks the machine's previous budgeted night left out come right after the headline tasks", () => {
  const t = (task: string, headline: boolean, carried: boolean) => ({ benchmark: 'b', task, headline, carried, secondsPerRound: 10 });
  const { kept, leftOut } = planNight([t('first', false, false), t('left-before', false, true), t('hs', true, false)], 6, 140, () => 0);
  // the cheapest first within a class: one expensive task does not crowd out three cheap ones
  const c = (task: string, secondsPerRound: number) => ({ benchmark: 'b', task, headline: false, carried: true, secondsPerRound });
  assert.deepEqual(
    planNight([c('speed', 20), c('k1', 2), c('k2', 3), c('k3', 4)], 6, 120, () => 0).kept.map((x) => x.task),
    ['k1', 'k2', 'k3'],
  );
  assert.deepEqual(
    kept.map((x) => x.task),
    ['hs', 'left-before'],
  );
  assert.deepEqual(
    leftOut.map((x) => x.task),
    ['first'],
  );
  // which night: the newest budgeted run of the same mode, and only when it left something out
  const run = (runId: string, startedAt: string, mode: 'quick' | 'full', budgetMinutes?: number, leftOut: string[] = []) => ({
    runId,
    mode,
    startedAt,
    plan: {
      ...(budgetMinutes ? { budgetMinutes } : {}),
      leftOut: leftOut.map((task) => ({ benchmark: 'b', task, headline: false, secondsPerRound: 1 })),
    } as never,
  });
  const runs = [
    run('old', '2026-01-01T00:00:00Z', 'full', 80, ['x']),
    run('new', '2026-01-03T00:00:00Z', 'full', 80, ['y', 'z']),
    run('unbudgeted', '2026-01-04T00:00:00Z', 'full'),
    run('quick', '2026-01-05T00:00:00Z', 'quick', 10, ['q']),
  ];
  assert.deepEqual(leftOutBefore('full', runs), { leftOutBefore: { runId: 'new', tasks: ['b|y', 'b|z'] } });
  assert.deepEqual(leftOutBefore('full', [...runs, run('all-fit', '2026-01-06T00:00:00Z', 'full', 80)]), {});
  assert.deepEqual(leftOutBefore('full', []), {});
});

test("the night's headline: the tracker's AEAD and openssl speed series come first, their neighbours do not", () => {
  const alg = (id: string) => ALGORITHMS.find((a) => a.id === id)!;
  assert.ok(isNightHeadline(aeadSpec('aes-128-gcm', 16384, 13)), 'AES-128-GCM, 16 KiB records (tracked)');
  assert.ok(isNightHeadline(aeadSpec('chacha20-poly1305', 16384, 13)), 'ChaCha20-Poly1305, 16 KiB records (tracked)');
  assert.ok(!isNightHeadline(aeadCpuSpec('aes-256-gcm', 16384, 13)), 'AES-256-GCM is not tracked');
  assert.ok(isNightHeadline(speedSpec(alg('rsa2048'), 'sign', undefined, '3.5.7', '3.5')));
  assert.ok(isNightHeadline(speedSpec(alg('ml-kem-768'), 'encaps', undefined, '3.5.7', '3.5')));
  assert.ok(isNightHeadline(speedSpec(alg('sha256'), 'digest', 16384, '3.5.7', '3.5')));
  assert.ok(!isNightHeadline(speedSpec(alg('aes-128-gcm'), 'encrypt', 16384, '3.5.7', '3.5')), 'speed AES-128-GCM is not tracked');
  assert.ok(!isNightHeadline(speedSpec(alg('rsa4096'), 'sign', undefined, '3.5.7', '3.5')));
});

const PLAIN = { proto: '1.3', resume: 'none', threads: 1, clientCtx: 'shared' };

const BUILDS = [standInBuild('3.4.1', 'b34'), standInBuild('3.5.7', 'b35')];

/** Each test process measures on machines of its own: no task times recorded by another. */
const OWN = Math.random().toString(16).slice(2, 8);

/** A night of the syn benchmark on 3.4.1 and 3.5.7 with a time budget, measured until decided (6 to 12 rounds), on machine `name`. */
const budgetedNight = (name: string, budgetMinutes: number, o: Parameters<typeof standInPlan>[1] = {}): RunPlan =>
  standInPlan(BUILDS, { mode: 'full', hostName: `${name}-${OWN}`, benchmarks: ['syn'], rounds: 6, maxRounds: 12, precision: 0.001, budgetMinutes, ...o });

/**
 * A night whose one headline task never decides (equal builds, noisy) and can be killed: its `kill`-th call
 * never returns, as a SIGKILLed session's task; `costOf(call)` is the milliseconds each call advances `clock`.
 */
function killableNight(kill: number, costOf: (call: number) => number, seed: number) {
  const state = { now: 0, calls: 0 };
  const rand = seededRandom(seed);
  const bench: Benchmark = {
    id: 'syn',
    description: 'one headline task that never decides (equal builds, noisy)',
    tasks: () => [
      {
        id: 'hs',
        produces: [standInSpec('cpu-per-handshake', PLAIN)],
        run: async () => {
          if (++state.calls === kill) await new Promise(() => {});
          state.now += costOf(state.calls);
          return [{ spec: standInSpec('cpu-per-handshake', PLAIN), value: 100 * Math.exp(0.3 * normal(rand)) }];
        },
      },
    ],
  };
  const out = mkdtempSync(join(tmpdir(), 'runs-'));
  const session = (plan: RunPlan) => executeRun(plan, BUILDS, [bench], out, { progress: () => {} }, [], undefined, { clock: () => state.now });
  /** the first session, killed in its `kill`-th task; resolves once it is stuck there */
  const killedSession = async (plan: RunPlan) => {
    void session(plan);
    while (state.calls < kill) await new Promise((r) => setTimeout(r, 5));
  };
  return { state, session, killedSession };
}

test('--budget-minutes: the headline task is measured, the task that does not fit is left out and named, and the run ends within the budget', async () => {
  let now = 0;
  const rand = seededRandom(11);
  const calls = new Map<string, number>();
  const truth: Record<string, number> = { '3.4.1': 100, '3.5.7': 130 };
  const bench: Benchmark = {
    id: 'syn',
    description: 'three tasks of different cost',
    tasks: (b) =>
      (
        [
          ['slow', 30, 'bulk', {}, 0.01, true],
          ['hs', 10, 'cpu-per-handshake', PLAIN, 0.01, true],
          ['cheap', 2, 'noisy', {}, 0.3, false],
        ] as const
      ).map(([id, seconds, metric, params, sigma, differs]) => ({
        id,
        produces: [standInSpec(metric, params)],
        run: async () => {
          now += seconds * 1000;
          calls.set(`${id}@${b.record.version}`, (calls.get(`${id}@${b.record.version}`) ?? 0) + 1);
          const base = differs ? truth[b.record.version]! : 100;
          return [{ spec: standInSpec(metric, params), value: base * Math.exp(sigma * normal(rand)) }];
        },
      })),
  };
  const { run } = await executeRun(
    budgetedNight('night-host', 5, { maxRounds: 60 }),
    BUILDS,
    [bench],
    mkdtempSync(join(tmpdir(), 'runs-')),
    { progress: () => {} },
    [],
    undefined,
    { clock: () => now },
  );
  // warm-up: (30 + 10 + 2) s on 2 builds = 84 s; 216 s left: hs (20 s a round) and cheap (4 s) fit 6 rounds, slow (60 s) does not
  assert.deepEqual(run.plan.leftOut, [{ benchmark: 'syn', task: 'slow', headline: false, secondsPerRound: 60 }]);
  assert.equal(calls.get('slow@3.5.7'), 1, 'left out after its warm-up');
  assert.ok(!run.series.some((s) => s.metric === 'bulk'), 'a left-out task has no series (its warm-up values are not kept)');
  assert.equal(run.plan.budgetMinutes, 5);
  assert.ok(now <= 5 * 60_000, `the run ended within the budget (${now / 1000} s)`);
  const hs = run.series.find((s) => s.metric === 'cpu-per-handshake' && s.buildId === 'b35')!;
  assert.deepEqual(hs.stopped, { reason: 'decided', round: 6 });
  const cheap = run.series.find((s) => s.metric === 'noisy' && s.buildId === 'b35')!;
  assert.equal(cheap.stopped?.reason, 'budget');
  assert.ok(run.plan.rounds > 6 && run.plan.rounds < 60, `measured until the budget: ${run.plan.rounds} rounds`);
  assert.ok(
    run.notes.some((n) => /5-minute budget ended after measured round \d+/.test(n)),
    run.notes.join('\n'),
  );
});

/**
 * A night of two tasks that never decide (equal builds, noisy): `slow` takes 30 s, `cheap` 2 s. Its
 * `kill`-th task call never returns, as a SIGKILLed session's task; `session` runs (or resumes) it on `clock`.
 */
function twoTaskNight(kill = 0, cheapSeconds = (_call: number) => 2) {
  const state = { now: 0, calls: 0 };
  const rand = seededRandom(17);
  const calls = new Map<string, number>();
  const bench: Benchmark = {
    id: 'syn',
    description: 'two tasks that never decide (equal builds, noisy), one costly and one cheap',
    tasks: (b) =>
      (
        [
          ['slow', 30, 'bulk'],
          ['cheap', 2, 'noisy'],
        ] as const
      ).map(([id, seconds, metric]) => ({
        id,
        produces: [standInSpec(metric, {})],
        run: async () => {
          if (++state.calls === kill) await new Promise(() => {});
          state.now += (id === 'cheap' ? cheapSeconds(state.calls) : seconds) * 1000;
          calls.set(`${id}@${b.record.version}`, (calls.get(`${id}@${b.record.version}`) ?? 0) + 1);
          return [{ spec: standInSpec(metric, {}), value: 100 * Math.exp(0.3 * normal(rand)) }];
        },
      })),
  };
  const out = mkdtempSync(join(tmpdir(), 'runs-'));
  const session = (plan: RunPlan) => executeRun(plan, BUILDS, [bench], out, { progress: () => {} }, [], undefined, { clock: () => state.now });
  const stop = (run: Run, metric: string) => run.series.find((s) => s.metric === metric && s.buildId === 'b35')!.stopped;
  return { state, calls, session, stop };
}

test('once the minimum rounds are measured and a whole round no longer fits, the open tasks that fit go on, cheapest first, and the others stop for the budget there', async () => {
  const { state, calls, session, stop } = twoTaskNight();
  const { run } = await session(budgetedNight('narrowed-night', 9, { maxRounds: 60 }));
  // a round of both takes 64 s: the warm-up ends at 64 s, round 6 at 448 s and round 7 at 512 s; 28 s are
  // left, room for the cheap task (4 s a round) but not the slow one (60 s): the slow one stops after
  // round 7, and the cheap one goes on until its rounds fill the budget, round 14 ending at 540 s
  assert.equal(run.plan.leftOut, undefined);
  assert.equal(state.now, 540_000);
  assert.deepEqual([calls.get('slow@3.5.7'), calls.get('cheap@3.5.7')], [8, 15], 'a warm-up and 7 rounds, a warm-up and 14 rounds');
  assert.deepEqual(stop(run, 'bulk'), { reason: 'budget', round: 7 });
  assert.deepEqual(stop(run, 'noisy'), { reason: 'budget', round: 14 });
  assert.equal(run.plan.rounds, 14);
  assert.ok(
    run.notes.some((n) => n.includes('after round 7, 1 of 2 open tasks went on (1 stopped)')),
    run.notes.join('\n'),
  );
  assert.ok(
    run.notes.some((n) => /9-minute budget ended after measured round 14/.test(n)),
    run.notes.join('\n'),
  );
});

test('a narrowed round that takes longer than its estimate ends the night after the budget, and the run file says which round', async () => {
  // the cheap task takes 2 s until its 40th call (measured round 11), then 10 s: round 12, estimated at 4 s, takes 20
  const { state, session } = twoTaskNight(0, (call) => (call > 40 ? 10 : 2));
  const { run } = await session(budgetedNight('narrowed-late', 9, { maxRounds: 60 }));
  assert.equal(state.now, 548_000);
  assert.equal(run.plan.rounds, 12);
  assert.ok(
    run.notes.includes(
      "the night ended 8 s after its 9-minute budget: its last round, measured round 12, took longer than its estimate (the round before's time of its tasks)",
    ),
    run.notes.join('\n'),
  );
});

test('a resumed night keeps the tasks its killed session stopped for the budget stopped', async () => {
  // 4 task calls a round: the first session is killed in round 9 (its 35th call), after round 8 ran only the cheap task
  const { state, calls, session, stop } = twoTaskNight(35);
  const plan = budgetedNight('narrowed-resume', 9, { maxRounds: 60 });
  void session(plan);
  while (state.calls < 35) await new Promise((r) => setTimeout(r, 5));
  assert.equal(state.now, 516_000);
  state.now = 0; // the next process: a clock of its own, 24 s of the budget left
  const { run } = await session(plan);
  assert.equal(calls.get('slow@3.5.7'), 8, 'the slow task is not measured again after round 7');
  assert.deepEqual(stop(run, 'bulk'), { reason: 'budget', round: 7 });
  assert.deepEqual(stop(run, 'noisy'), { reason: 'budget', round: 14 });
  assert.ok(
    run.notes.some((n) => n.includes('after round 7, 1 of 2 open tasks went on (1 stopped)')),
    run.notes.join('\n'),
  );
});

test('a night whose rounds run longer than planned still measures its minimum rounds, past the budget, and says by how much', async () => {
  let now = 0;
  const rand = seededRandom(3);
  const truth: Record<string, number> = { '3.4.1': 100, '3.5.7': 130 };
  let calls = 0;
  const bench: Benchmark = {
    id: 'syn',
    description: 'one headline task that takes 10 s in the warm-up and 13 s after it',
    tasks: (b) => [
      {
        id: 'hs',
        produces: [standInSpec('cpu-per-handshake', PLAIN)],
        run: async () => {
          now += (++calls <= 2 ? 10 : 13) * 1000;
          return [{ spec: standInSpec('cpu-per-handshake', PLAIN), value: truth[b.record.version]! * Math.exp(0.01 * normal(rand)) }];
        },
      },
    ],
  };
  // budget 162 s: the warm-up (20 s) leaves 142 s; 6 rounds of 20 s (and 20 s of reserve) fit on paper, but
  // the rounds take 26 s: round 5 ends at 150 s, and round 6 runs to 176 s (within a tenth of the budget
  // past it) rather than end the night undecided
  const { run } = await executeRun(
    budgetedNight('overrun-night', 2.7),
    BUILDS,
    [bench],
    mkdtempSync(join(tmpdir(), 'runs-')),
    { progress: () => {} },
    [],
    undefined,
    { clock: () => now },
  );
  assert.equal(run.plan.rounds, 6);
  assert.equal(now, 176_000);
  assert.deepEqual(run.series.find((s) => s.buildId === 'b35')!.stopped, { reason: 'decided', round: 6 });
  assert.ok(
    run.notes.includes(
      'the night ended 14 s after its 2.7-minute budget: its minimum 6 measured rounds took longer than planned, and fewer would decide no comparison',
    ),
    run.notes.join('\n'),
  );
});

test('a short warm-up plans the night from the times a quiet run of the same request recorded: the tasks it did not warm are kept or left out by those', async () => {
  let now = 0;
  const rand = seededRandom(5);
  const calls: string[] = [];
  const truth: Record<string, number> = { '3.4.1': 100, '3.5.7': 130 };
  const bench: Benchmark = {
    id: 'syn',
    description: 'a headline task first, then a slow and a cheap one',
    tasks: (b) =>
      (
        [
          ['hs', 10, 'cpu-per-handshake', PLAIN, 0.01],
          ['slow', 30, 'bulk', {}, 0.01],
          ['cheap', 2, 'noisy', {}, 0.3],
        ] as const
      ).map(([id, seconds, metric, params, sigma]) => ({
        id,
        produces: [standInSpec(metric, params)],
        run: async () => {
          now += seconds * 1000;
          calls.push(`${id}@${b.record.version}`);
          return [{ spec: standInSpec(metric, params), value: truth[b.record.version]! * Math.exp(sigma * normal(rand)) }];
        },
      })),
  };
  const night = (budgetMinutes: number) => budgetedNight('short-warmup-night', budgetMinutes, { revision: 2 });
  const run = (p: RunPlan) =>
    executeRun(p, BUILDS, [bench], mkdtempSync(join(tmpdir(), 'runs-')), { progress: () => {} }, [], standInEvidence().recorder, {
      clock: () => now,
      shortWarmup: true,
    });
  // the first night has time for everything: a whole warm-up round, every task measured, times recorded
  const first = (await run(night(60))).run;
  assert.equal(first.plan.warmup, 'whole-round');
  assert.equal(first.plan.leftOut, undefined);
  assert.equal(first.quiet?.quiet, true);
  // a shorter night of the same request: round 0 warms each build with hs (20 s in all); the plan takes
  // slow (2 x 30 s a round) and cheap (2 x 2 s) from the first night's records; 280 s are left: hs (120 s
  // for 6 rounds) is kept first, slow (360 s) no longer fits, cheap (24 s) does
  calls.length = 0;
  now = 0;
  const { run: second } = await run(night(5));
  assert.deepEqual(calls.slice(0, 2), ['hs@3.4.1', 'hs@3.5.7'], 'round 0 ran the first task of each build');
  assert.ok(!calls.some((c) => c.startsWith('slow@')), 'slow was left out on its recorded time, never run');
  assert.deepEqual(second.plan.leftOut, [{ benchmark: 'syn', task: 'slow', headline: false, secondsPerRound: 60 }]);
  assert.equal(second.plan.warmup, 'short');
  assert.deepEqual(second.plan.warmupTimesFrom, [first.runId]);
  assert.ok(
    second.notes.some(
      (n) => n.startsWith('a short warm-up round: round 0 ran 2 of the 6 timed tasks') && n.endsWith('; 2 of them were left out by the budget'),
    ),
    second.notes.join('\n'),
  );
  const cheap = second.series.find((s) => s.metric === 'noisy' && s.buildId === 'b35')!;
  assert.ok(cheap.iterations.length >= 6 && cheap.iterations.every((i) => !i.warmup), 'cheap is measured, without a warm-up iteration');
  assert.ok(now <= 5 * 60_000, `the run ended within the budget (${now / 1000} s)`);
});

test('the real handshake benchmark declares a headline series of every headline metric, in both modes', async () => {
  const { handshakeBenchmark } = await import('./handshake/handshake.ts');
  const { isHeadline, HANDSHAKE_HEADLINE_METRICS } = await import('./handshake/series.ts');
  for (const mode of ['quick', 'full'] as const) {
    const tasks = handshakeBenchmark.tasks(standInBuild('3.5.7'), mode);
    const metrics = new Set(tasks.flatMap((t) => (t.produces ?? []).filter(isHeadline).map((s) => s.metric)));
    assert.deepEqual([...metrics].sort(), [...HANDSHAKE_HEADLINE_METRICS].sort(), mode);
  }
});

test('a budgeted night keeps room in reserve: a round the host disturbs is measured again and the night still reaches its minimum rounds', async () => {
  let now = 0;
  const rand = seededRandom(3);
  const truth: Record<string, number> = { '3.4.1': 100, '3.5.7': 130 };
  const bench: Benchmark = {
    id: 'syn',
    description: 'a headline task and a cheap one',
    tasks: (b) =>
      (
        [
          ['hs', 10, 'cpu-per-handshake', PLAIN],
          ['mid', 3, 'other', {}],
        ] as const
      ).map(([id, seconds, metric, params]) => ({
        id,
        produces: [standInSpec(metric, params)],
        run: async () => {
          now += seconds * 1000;
          return [{ spec: standInSpec(metric, params), value: truth[b.record.version]! * Math.exp(0.3 * normal(rand)) }];
        },
      })),
  };
  // warm-up 26 s of 195: 169 s left. Without the reserve both tasks fit 6 rounds (156 s) and the repeat of
  // round 2 (26 s more) would leave the sixth round unstarted; with it (a round of what is kept, here less
  // than three rounds of hs), mid is left out (6 x 26 s + 26 s > 169 s)
  const { run } = await executeRun(
    budgetedNight('reserve-night', 3.25),
    BUILDS,
    [bench],
    mkdtempSync(join(tmpdir(), 'runs-')),
    { progress: () => {} },
    [],
    standInEvidence([2]).recorder,
    { clock: () => now },
  );
  assert.deepEqual(
    run.plan.leftOut?.map((t) => t.task),
    ['mid'],
  );
  assert.equal(run.quiet?.repeated?.length, 1, 'round 2 was measured again');
  const hs = run.series.find((s) => s.metric === 'cpu-per-handshake' && s.buildId === 'b35')!;
  assert.ok(new Set(hs.iterations.filter((i) => !i.warmup).map((i) => i.round)).size >= 6, 'at least six measured rounds: enough for a verdict');
  assert.ok(now <= 3.25 * 60_000, `within the budget (${now / 1000} s)`);
});

test("a budget is the night's: a resumed run counts the time its killed session spent, and ends within the budget of both", async () => {
  // the first session is killed in round 4: its 9th task never ends
  const { state, session, killedSession } = killableNight(9, () => 10_000, 17);
  const plan = budgetedNight('budget-resume', 3);
  await killedSession(plan);
  const spent = state.now; // warm-up and rounds 1-3: 80 s of the 180
  assert.equal(spent, 80_000);
  // the next process: a clock of its own
  state.now = 0;
  const { run } = await session(plan);
  assert.ok(spent + state.now <= 3 * 60_000, `both sessions together within the 3-minute budget (${(spent + state.now) / 1000} s)`);
  assert.equal(run.plan.rounds, 8, 'rounds 4-8 fit the 100 s left; a fresh 180 s would have reached the 12-round limit');
  assert.ok(
    run.notes.some((n) => /3-minute budget ended after measured round 8/.test(n)),
    run.notes.join('\n'),
  );
});

test('a run resumed after its budget has run out finishes the round it was killed in, keeps every round, and stops there', async () => {
  // the first session overruns its budget in round 3 (its 7th task takes 150 s) and is killed in its 8th
  const { state, session, killedSession } = killableNight(8, (call) => (call === 7 ? 150_000 : 10_000), 23);
  const plan = budgetedNight('budget-overrun', 3);
  await killedSession(plan);
  assert.equal(state.now, 210_000, 'the killed session spent 210 s of the 180');
  state.now = 0;
  const { run } = await session(plan);
  assert.equal(state.now, 10_000, 'only the task in flight ran again');
  assert.equal(run.plan.rounds, 3, 'rounds 1-3 measured, not cut back to the first round the journal replays');
  const hs = run.series.find((s) => s.buildId === 'b35')!;
  assert.deepEqual([...new Set(hs.iterations.map((i) => i.round))], [0, 1, 2, 3]);
  assert.ok(
    run.notes.some((n) => /3-minute budget ended after measured round 3/.test(n)),
    run.notes.join('\n'),
  );
});
