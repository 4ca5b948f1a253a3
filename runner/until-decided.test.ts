// Measure until decided (issue 32, item 1), on synthetic series from a seeded generator: a clear 20%
// difference stops at the first look, no difference runs to the budget, a decided task leaves the rounds
// while the others keep theirs, the run file says why each series stopped, and in a few hundred
// simulated runs with no true difference the rule claims one at most alpha of the time.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { standInBuild, standInPlan, standInSpec } from './stand-in-build.ts';
import type { Benchmark, BuildUnderTest } from './benchmark.ts';
import { executeRun } from './run.ts';
import { newRunId } from './run/identity.ts';
import { journalPath, type JournalEntry, type RunPlan } from './run/journal.ts';
import { roundOrder } from './run/tasks.ts';
import { UntilDecided, decides } from './until-decided.ts';
import { seededRandom } from '../analysis/stats.ts';
import { ALPHA } from '../analysis/sequential.ts';
import { normal } from '../experiments/hypothesis/synthetic.ts';

process.env.OBSERVATORY_CACHE ??= mkdtempSync(join(tmpdir(), 'until-decided-cache-'));

const BUILDS: BuildUnderTest[] = [standInBuild('1.1.1w', 'b111'), standInBuild('3.4.1', 'b34'), standInBuild('3.5.7', 'b35')];

/** Tasks named by their truth per version and their noise (sd of the log); each call is counted. */
function synthetic(tasks: Record<string, { truth: Record<string, number>; sigma: number }>, calls: Map<string, number>, seed = 7): Benchmark {
  const rand = seededRandom(seed);
  return {
    id: 'syn',
    description: 'synthetic series',
    tasks: (b) =>
      Object.entries(tasks).map(([id, t]) => ({
        id,
        run: async () => {
          calls.set(`${id}@${b.record.version}`, (calls.get(`${id}@${b.record.version}`) ?? 0) + 1);
          return [{ spec: standInSpec(id), value: t.truth[b.record.version]! * Math.exp(t.sigma * normal(rand)) }];
        },
      })),
  };
}

const plan = (o: Partial<RunPlan>): RunPlan =>
  standInPlan(BUILDS, { mode: 'full', hostName: 'until-decided-host', benchmarks: ['syn'], rounds: 6, maxRounds: 24, precision: 0.001, ...o });

const STEPS = { '1.1.1w': 100, '3.4.1': 120, '3.5.7': 144 };
const FLAT = { '1.1.1w': 100, '3.4.1': 100, '3.5.7': 100 };
const go = (p: RunPlan, bench: Benchmark) => executeRun(p, BUILDS, [bench], mkdtempSync(join(tmpdir(), 'runs-')), { progress: () => {} });

test('a clear 20% difference stops the run at the first look, and the run file says why', async () => {
  const calls = new Map<string, number>();
  const { run } = await go(plan({}), synthetic({ clear: { truth: STEPS, sigma: 0.02 } }, calls));
  assert.equal(run.plan.rounds, 6, 'stopped at the first look, not at the budget of 24');
  assert.equal(run.plan.maxRounds, 24);
  assert.deepEqual(run.plan.stopping?.looks, [6, 8, 10, 13, 17, 22, 24]);
  assert.ok(Math.abs(run.plan.stopping!.alpha.reduce((a, b) => a + b, 0) - ALPHA) < 1e-12);
  assert.equal(calls.get('clear@3.5.7'), 7, 'one warm-up and 6 measured rounds');
  for (const s of run.series) assert.deepEqual(s.stopped, { reason: 'decided', round: 6 }, `${s.buildId}`);
});

test('no difference runs to the budget, while a decided task leaves the rounds and the rest keep their interleaving', async () => {
  const calls = new Map<string, number>();
  const order: string[] = [];
  const bench = synthetic({ clear: { truth: STEPS, sigma: 0.02 }, flat: { truth: FLAT, sigma: 0.1 } }, calls);
  const tasks = bench.tasks;
  bench.tasks = (b, mode) => tasks(b, mode).map((t) => ({ ...t, run: () => (order.push(`${t.id}@${b.record.version}`), t.run()) }));
  const { run } = await go(plan({ maxRounds: 12 }), bench);
  assert.equal(run.plan.rounds, 12, 'the budget');
  for (const v of Object.keys(STEPS)) {
    assert.equal(calls.get(`clear@${v}`), 7, `clear@${v} stopped after the first look`);
    assert.equal(calls.get(`flat@${v}`), 13, `flat@${v} ran to the budget`);
  }
  const stop = (metric: string, build: string) => run.series.find((s) => s.metric === metric && s.buildId === build)!.stopped;
  assert.deepEqual(stop('clear', 'b35'), { reason: 'decided', round: 6 });
  assert.deepEqual(stop('flat', 'b35'), { reason: 'budget', round: 12 });
  assert.deepEqual(stop('flat', 'b34'), { reason: 'budget', round: 12 });
  // after the first look only flat runs, still rotating the build order round by round
  const version = new Map(BUILDS.map((b) => [b.record.id, b.record.version]));
  const expected = [11, 12].flatMap((r) =>
    roundOrder(
      BUILDS.map((b) => b.record.id),
      r,
    ).map((id) => `flat@${version.get(id)}`),
  );
  assert.deepEqual(order.slice(order.length - 6), expected);
});

test('a noisy series whose interval is narrow enough stops as precise', async () => {
  const calls = new Map<string, number>();
  const { run } = await go(plan({ precision: 0.2 }), synthetic({ flat: { truth: FLAT, sigma: 0.1 } }, calls));
  assert.equal(run.plan.rounds, 6);
  assert.ok(
    run.series.every((s) => s.stopped?.reason === 'precise' || s.stopped?.reason === 'decided'),
    JSON.stringify(run.series.map((s) => s.stopped)),
  );
  assert.ok(run.series.some((s) => s.stopped?.reason === 'precise'));
});

test('--rounds N stays a fixed count: no plan.maxRounds, no early stop, no stop reasons', async () => {
  const calls = new Map<string, number>();
  const { run } = await go(plan({ maxRounds: undefined, precision: undefined }), synthetic({ clear: { truth: STEPS, sigma: 0.02 } }, calls));
  assert.equal(run.plan.rounds, 6);
  assert.equal(run.plan.maxRounds, undefined);
  assert.equal(run.plan.stopping, undefined);
  assert.ok(run.series.every((s) => s.stopped === undefined));
});

/** One simulated run of the stopping rule alone: two releases, per-round values with log-normal noise. */
function simulate(ratio: number, sigma: number, rand: () => number, maxRounds = 24) {
  const builds = [standInBuild('3.4.1', 'old').record, standInBuild('3.5.7', 'new').record];
  const u = new UntilDecided({ warmupRounds: 0, minRounds: 6, maxRounds, precision: 0, builds });
  const entries: JournalEntry[] = [];
  let round = 0;
  for (; round < maxRounds; round++) {
    for (const [id, truth] of [
      ['old', 100],
      ['new', 100 * ratio],
    ] as const)
      entries.push({
        round,
        buildId: id,
        benchmark: 'syn',
        task: 't',
        at: '',
        outcomes: [{ spec: standInSpec('t'), value: truth * Math.exp(sigma * normal(rand)) }],
      });
    if (u.afterRound(round, entries)) break;
  }
  return { rounds: round + 1, verdict: u.comparisons.get('new|syn/t|old')?.verdict ?? null };
}

test('a budget that ends at a scheduled look still takes the last look: it spends the alpha left and stops what is open for the budget', () => {
  // run 20261127T162517Z-full-5d03: the budget ended right after the first look (measured round 6), which had
  // spent 6/12 of alpha; the final look returned early, leaving 406 timed series without a stop reason
  const builds = [standInBuild('3.4.1', 'old').record, standInBuild('3.5.7', 'new').record];
  const u = new UntilDecided({ warmupRounds: 1, minRounds: 6, maxRounds: 12, precision: 0, builds });
  const rand = seededRandom(11);
  const entries: JournalEntry[] = [];
  const value = (task: string, id: string) =>
    task === 'flat' ? 100 * Math.exp(0.3 * normal(rand)) : (id === 'new' ? 112 : 100) * Math.exp(0.04 * normal(rand));
  for (let round = 0; round <= 6; round++)
    for (const task of ['flat', 'step'])
      for (const id of ['old', 'new'])
        entries.push({ round, buildId: id, benchmark: 'syn', task, at: '', outcomes: [{ spec: standInSpec(task), value: value(task, id) }] });
  assert.equal(u.afterRound(6, entries), false, 'the first look leaves something open');
  const open = ['new|syn/flat', 'new|syn/step'].filter((id) => !u.settled.has(id));
  assert.ok(open.length > 0);
  u.finalLook(6, entries);
  for (const id of open) assert.ok(u.settled.has(id), `${id} has a stop reason after the last look`);
  assert.deepEqual(u.stopOf('new', 'syn/flat'), { reason: 'budget', round: 6 }, 'a 30% noise with no difference stays open');
});

test('the stopping rule in simulation: stops early on a clear difference, and claims a difference that is not there at most alpha of the time', () => {
  const rand = seededRandom(2026);
  const clear = Array.from({ length: 200 }, () => simulate(1.2, 0.05, rand));
  assert.ok(
    clear.every((r) => r.verdict === 'higher'),
    'a 20% difference is always found, in the right direction',
  );
  assert.ok(clear.filter((r) => r.rounds === 6).length / clear.length >= 0.9, 'and almost always at the first look');
  const none = Array.from({ length: 400 }, () => simulate(1, 0.08, rand));
  const wrong = none.filter((r) => r.verdict === 'higher' || r.verdict === 'lower').length / none.length;
  assert.ok(wrong <= ALPHA, `false decisions ${wrong} > ${ALPHA}`);
  assert.ok(none.filter((r) => r.rounds === 24).length / none.length > 0.5, 'with no difference and this noise most runs go to the budget');
  // the naive rule (a 95% interval at every round from the 6th) errs more often: the looks matter
  const naive = (sigma: number) => {
    const ratios: number[] = [];
    for (let n = 1; n <= 24; n++) {
      ratios.push(Math.exp(sigma * normal(rand) - sigma * normal(rand)));
      if (n < 6) continue;
      const logs = ratios.map(Math.log);
      const mean = logs.reduce((a, b) => a + b, 0) / n;
      const sd = Math.sqrt(logs.reduce((a, v) => a + (v - mean) ** 2, 0) / (n - 1));
      const v = decides(Math.exp(mean - (2.07 * sd) / Math.sqrt(n)), Math.exp(mean + (2.07 * sd) / Math.sqrt(n)));
      if (v) return v;
    }
    return null;
  };
  const naiveWrong = Array.from({ length: 400 }, () => naive(0.08)).filter((v) => v === 'higher' || v === 'lower').length / 400;
  assert.ok(naiveWrong > wrong, `naive ${naiveWrong} vs sequential ${wrong}`);
});

test('a run measured until decided and killed midway resumes to the same decisions, without running a dropped task again', async () => {
  const tasks = {
    clear: { truth: STEPS, sigma: 0.02 },
    flat: { truth: FLAT, sigma: 0.1 },
    medium: { truth: { '1.1.1w': 100, '3.4.1': 105, '3.5.7': 110 }, sigma: 0.03 },
  };
  /** the k-th value of a task on a version, whichever session asks */
  const valueOf = (task: keyof typeof tasks, version: string, k: number) => {
    const rand = seededRandom([...`${task}@${version}#${k}`].reduce((h, c) => (h * 31 + c.charCodeAt(0)) >>> 0, 7));
    return tasks[task].truth[version as keyof typeof STEPS] * Math.exp(tasks[task].sigma * normal(rand));
  };
  const counted = (calls: Map<string, number>, start = new Map<string, number>()): Benchmark => ({
    id: 'syn',
    description: 'synthetic series, by call index',
    tasks: (b) =>
      (Object.keys(tasks) as (keyof typeof tasks)[]).map((id) => ({
        id,
        run: async () => {
          const name = `${id}@${b.record.version}`;
          const k = (start.get(name) ?? 0) + (calls.get(name) ?? 0);
          calls.set(name, (calls.get(name) ?? 0) + 1);
          return [{ spec: standInSpec(id), value: valueOf(id, b.record.version, k) }];
        },
      })),
  });
  const p = plan({ maxRounds: 24 });
  const whole = (await go(p, counted(new Map()))).run;
  // the journal a kill after round 8 (0-based, warm-up included) leaves
  const killedAt = 15;
  const later = whole.series.filter((s) => s.metric === 'medium' && s.stopped!.round > 6 && s.stopped!.round <= killedAt);
  assert.ok(
    later.length > 0,
    `some series decided after the first look and before the kill: ${JSON.stringify(whole.series.map((s) => [s.metric, s.buildId, s.stopped]))}`,
  );
  const p2 = { ...p, runId: newRunId('full') };
  const kept = whole.series.flatMap((s) =>
    s.iterations
      .filter((i) => i.round <= killedAt)
      .map((i) => ({
        round: i.round,
        buildId: s.buildId,
        benchmark: 'syn',
        task: s.metric,
        at: i.at,
        outcomes: [{ spec: standInSpec(s.metric), value: i.value }],
      })),
  );
  mkdirSync(join(journalPath(p2), '..'), { recursive: true });
  writeFileSync(journalPath(p2), [JSON.stringify({ plan: p2 }), ...kept.map((e) => JSON.stringify(e))].join('\n') + '\n');
  const start = new Map<string, number>();
  for (const e of kept)
    start.set(
      `${e.task}@${whole.builds.find((b) => b.id === e.buildId)!.version}`,
      (start.get(`${e.task}@${whole.builds.find((b) => b.id === e.buildId)!.version}`) ?? 0) + 1,
    );
  const calls = new Map<string, number>();
  const resumed = (await go(p2, counted(calls, start))).run;
  assert.equal(calls.get('clear@3.5.7'), undefined, 'the task dropped at the first look (round 6) is not run again');
  assert.equal(calls.get('flat@3.5.7'), 24 + 1 - (killedAt + 1));
  assert.equal(resumed.plan.rounds, whole.plan.rounds);
  const view = (r: typeof whole) => r.series.map((s) => [s.buildId, s.key, s.stopped, s.iterations.map((i) => i.value)]);
  assert.deepEqual(view(resumed), view(whole));
});
