// The run loop on an in-memory benchmark: interleaving, journal, resume after a kill, unsupported series.
import { test } from 'node:test';
import { randomBytes } from 'node:crypto';
import assert from 'node:assert/strict';
import { existsSync, mkdirSync, mkdtempSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { readRunFile, runFileName } from '../schema/index.ts';
import { standInBuild, standInPlan } from './stand-in-build.ts';
import type { Benchmark, BuildUnderTest, SeriesSpec } from './benchmark.ts';
import { executeRun, howLate } from './run.ts';
import { journalPath, readJournal, resumePlan, type RunPlan } from './run/journal.ts';
import { roundOrder } from './run/tasks.ts';
import { describeHost } from './host.ts';
import { standInEvidence } from './quiet/stand-in-evidence.ts';
import { MAX_REPEATED_ROUNDS, MAX_TASK_DROPS, type EvidenceRecorder } from './quiet/evidence.ts';
import type { Sample } from './quiet/sample.ts';
import { findTaskTime, taskTimeKey, taskTimesDir } from './task-times.ts';

const build = standInBuild;
// journals live in the build cache: a scratch one unless the test runner gave one
process.env.OBSERVATORY_CACHE ??= mkdtempSync(join(tmpdir(), 'run-test-cache-'));

const spec = (metric: string): SeriesSpec => ({
  benchmark: 'toy',
  metric,
  label: `toy ${metric}`,
  unit: 'ops/s',
  method: 'wall-clock-throughput',
  higherIsBetter: true,
  params: { size: 16 },
  comparability: { acrossVersions: true },
});

/** Records the order it is called in; 'pq' is unsupported on 3.4; can be told to die after k calls. */
function toyBenchmark(calls: string[], dieAfter = Infinity): Benchmark {
  return {
    id: 'toy',
    description: 'a toy',
    tasks: (b) =>
      ['fast', 'pq'].map((t) => ({
        id: t,
        run: async () => {
          if (calls.length >= dieAfter) throw new Error('SIMULATED KILL');
          calls.push(`${t}@${b.record.version}`);
          if (t === 'pq' && b.record.version.startsWith('3.4')) return [{ spec: spec(t), status: 'unsupported' as const, reason: 'no ML-KEM before 3.5' }];
          return [{ spec: spec(t), value: calls.length, observed: { group: 'X25519' } }];
        },
      })),
  };
}

const plan = (builds: BuildUnderTest[]): RunPlan => standInPlan(builds);

test('rounds rotate the build order so no version always runs first', () => {
  assert.deepEqual(roundOrder(['a', 'b', 'c'], 0), ['a', 'b', 'c']);
  assert.deepEqual(roundOrder(['a', 'b', 'c'], 1), ['b', 'c', 'a']);
  assert.deepEqual(roundOrder(['a', 'b', 'c'], 3), ['a', 'b', 'c']);
});

test('a run interleaves builds task by task and writes a valid run file with every iteration', async () => {
  const out = mkdtempSync(join(tmpdir(), 'runs-'));
  const builds = [build('3.4.1', 'b34'), build('3.5.7', 'b35')];
  const calls: string[] = [];
  const p = plan(builds);
  const { path, run } = await executeRun(p, builds, [toyBenchmark(calls)], out, { progress: () => {} });
  assert.deepEqual(calls.slice(0, 4), ['fast@3.4.1', 'fast@3.5.7', 'pq@3.4.1', 'pq@3.5.7']);
  assert.deepEqual(calls.slice(4, 6), ['fast@3.5.7', 'fast@3.4.1'], 'round 2 starts with the other build');
  assert.ok(existsSync(path) && !existsSync(journalPath(p)), 'journal replaced by the run file');
  const fast35 = run.series.find((s) => s.key === 'toy/fast[size=16]' && s.buildId === 'b35')!;
  assert.equal(fast35.iterations.length, 3);
  assert.deepEqual(
    fast35.iterations.map((i) => i.warmup),
    [true, false, false],
  );
  const pq34 = run.series.find((s) => s.key === 'toy/pq[size=16]' && s.buildId === 'b34')!;
  assert.equal(pq34.status, 'unsupported');
  assert.equal(pq34.reason, 'no ML-KEM before 3.5');
  assert.equal(pq34.iterations.length, 0, 'unsupported is not zero');
  assert.deepEqual(run.plan.order, [
    ['b34', 'b35'],
    ['b35', 'b34'],
    ['b34', 'b35'],
  ]);
  assert.equal(path, join(out, runFileName(run)), 'written straight into the layout: <host>/<YYYY>/<MM>/<runId>.json.br');
  assert.deepEqual(readRunFile(path), run);
});

test('a killed run loses nothing: resuming keeps finished tasks and runs only the rest', async () => {
  const out = mkdtempSync(join(tmpdir(), 'runs-'));
  const builds = [build('3.4.1', 'b34'), build('3.5.7', 'b35')];
  const p = plan(builds);
  // the journal a SIGKILL leaves after five tasks: header, five entries, a torn sixth line
  const at = '2026-01-01T00:00:01.000Z';
  const entry = (round: number, buildId: string, task: string, value: number) =>
    JSON.stringify({
      round,
      buildId,
      benchmark: 'toy',
      task,
      at,
      outcomes: [buildId === 'b34' && task === 'pq' ? { spec: spec(task), status: 'unsupported', reason: 'no' } : { spec: spec(task), value }],
    });
  const jpath = journalPath(p);
  mkdirSync(join(jpath, '..'), { recursive: true });
  writeFileSync(
    jpath,
    [
      JSON.stringify({ plan: p }),
      entry(0, 'b34', 'fast', 1),
      entry(0, 'b35', 'fast', 2),
      entry(0, 'b34', 'pq', 3),
      entry(0, 'b35', 'pq', 4),
      entry(1, 'b35', 'fast', 5),
      '{"round":1,"buil',
    ].join('\n'),
  );
  const calls: string[] = [];
  const { run } = await executeRun(p, builds, [toyBenchmark(calls)], out, { progress: () => {} });
  assert.equal(calls.length, 12 - 5, 'only the unfinished tasks ran');
  assert.equal(calls[0], 'fast@3.4.1', 'resumed where the kill hit: round 2, fast on 3.4.1');
  const fast35 = run.series.find((s) => s.key === 'toy/fast[size=16]' && s.buildId === 'b35')!;
  assert.deepEqual(fast35.iterations.map((i) => i.value).slice(0, 2), [2, 5], 'values from before the kill are kept');
  assert.equal(fast35.iterations.length, 3);
});

test('a deterministic task runs once, in the first measured round', async () => {
  const out = mkdtempSync(join(tmpdir(), 'runs-'));
  const builds = [build('3.5.7', 'b35')];
  let calls = 0;
  const bench: Benchmark = {
    id: 'toy',
    description: 'counts',
    tasks: () => [{ id: 'count', oncePerRun: true, run: async () => [{ spec: spec('instructions'), value: ++calls }] }],
  };
  const { run } = await executeRun(plan(builds), builds, [bench], out, { progress: () => {} });
  assert.equal(calls, 1);
  assert.deepEqual(
    run.series[0]!.iterations.map((i) => [i.round, i.warmup]),
    [[1, false]],
  );
});

test('a task that throws is recorded in the notes and the run goes on', async () => {
  const out = mkdtempSync(join(tmpdir(), 'runs-'));
  const builds = [build('3.4.1', 'b34'), build('3.5.7', 'b35')];
  const calls: string[] = [];
  const { run } = await executeRun(plan(builds), builds, [toyBenchmark(calls, 5)], out, { progress: () => {} });
  assert.equal(calls.length, 5);
  assert.equal(run.notes.filter((n) => n.includes('SIMULATED KILL')).length, 12 - 5);
  const onlyWarmup = run.series.filter((s) => s.status === 'failed');
  assert.ok(onlyWarmup.length > 0 && onlyWarmup.every((s) => /only in warm-up/.test(s.reason ?? '')), 'values from warm-up alone do not count as measured');
});

// ---------------------------------------------------------------- resume, retry, quiet-host evidence

test('--resume refuses a checkout that moved since the run started, unless told; every resume is recorded', () => {
  const p = plan([build('3.5.7', 'b35')]);
  const started = { ...p, harness: { gitCommit: 'a'.repeat(40), gitDirty: false, node: 'v24' } };
  const moved = { gitCommit: 'b'.repeat(40), gitDirty: false, node: 'v24' };
  assert.throws(
    () => resumePlan(started, moved, false),
    /cannot resume .*: it started from commit a{40}, the checkout is now at b{40}\. .*--allow-moved-checkout/,
  );
  assert.throws(() => resumePlan(started, { ...started.harness, gitDirty: true }, false), /now at a{40} with uncommitted changes/);
  const at = new Date('2026-06-01T00:00:00Z');
  const resumed = resumePlan(started, moved, true, at);
  assert.equal(resumed.harness.gitCommit, 'a'.repeat(40), 'the commit the run started from stays');
  assert.deepEqual(resumed.harness.resumedAt, [{ at: at.toISOString(), gitCommit: 'b'.repeat(40), gitDirty: false }]);
  const again = resumePlan(resumed, started.harness, false, at);
  assert.equal(again.harness.resumedAt!.length, 2, 'the same commit resumes without the flag, and is recorded too');
});

test('resuming rewrites the journal by rename (never truncated in place) with the resumed plan', async () => {
  const out = mkdtempSync(join(tmpdir(), 'runs-'));
  const builds = [build('3.5.7', 'b35')];
  const p = plan(builds);
  const jpath = journalPath(p);
  mkdirSync(join(jpath, '..'), { recursive: true });
  writeFileSync(jpath, JSON.stringify({ plan: p }) + '\n');
  const inode = statSync(jpath).ino;
  const resumed = resumePlan(p, p.harness, false);
  let seenInode = 0;
  let header: RunPlan | undefined;
  const bench: Benchmark = {
    id: 'toy',
    description: 'looks at the journal while running',
    tasks: () => [{ id: 't', run: async () => ((seenInode = statSync(jpath).ino), (header = readJournal(jpath).plan), [{ spec: spec('t'), value: 1 }]) }],
  };
  const { run } = await executeRun(resumed, builds, [bench], out, { progress: () => {} });
  assert.notEqual(seenInode, inode, "a new file took the old one's place");
  assert.deepEqual(header!.harness.resumedAt, resumed.harness.resumedAt);
  assert.deepEqual(run.harness.resumedAt, resumed.harness.resumedAt);
});

test('a failed task is run once more; both attempts are in the notes', async () => {
  const out = mkdtempSync(join(tmpdir(), 'runs-'));
  const builds = [build('3.5.7', 'b35')];
  let flaky = 0;
  let broken = 0;
  let partial = 0;
  const bench: Benchmark = {
    id: 'toy',
    description: 'one task fails once, one fails always, one reports only a failed series, one a failed series beside a measured one',
    tasks: () => [
      { id: 'flaky', run: async () => (++flaky === 1 ? Promise.reject(new Error('transient: port in use')) : [{ spec: spec('flaky'), value: flaky }]) },
      { id: 'broken', run: async () => Promise.reject(new Error(`broken attempt ${++broken}`)) },
      { id: 'kat', run: async () => [{ spec: spec('kat'), status: 'failed' as const, reason: 'known-answer test failed' }] },
      // measured one series, another failed for a deterministic reason: not a failed task
      {
        id: 'partial',
        run: async () => (
          partial++,
          [
            { spec: spec('partial-new'), value: 1 },
            { spec: spec('partial-reuse'), status: 'failed' as const, reason: 'did not resume' },
          ]
        ),
      },
    ],
  };
  const { run } = await executeRun({ ...plan(builds), rounds: 1, warmupRounds: 0 }, builds, [bench], out, { progress: () => {} });
  assert.equal(flaky, 2);
  assert.equal(broken, 2);
  assert.equal(partial, 1, 'a task with one failed series among measured ones runs once');
  assert.deepEqual(
    run.series.find((s) => s.metric === 'flaky')!.iterations.map((i) => i.value),
    [2],
  );
  assert.ok(
    run.notes.some((n) => /toy\/flaky .* failed on the first attempt \(transient: port in use\); the second attempt succeeded/.test(n)),
    run.notes.join('\n'),
  );
  assert.ok(
    run.notes.some((n) => /toy\/broken .* failed on the first attempt \(broken attempt 1\); the second attempt failed too \(broken attempt 2\)/.test(n)),
  );
  assert.ok(run.notes.some((n) => /toy\/kat .* first attempt \(known-answer test failed\); the second attempt failed too/.test(n)));
  assert.equal(run.notes.length, 3, 'one note per failed task');
});

/** What a first session leaves in the journal when killed: its plan, its session, the window before, then `lines` (entries or evidence). */
async function killedJournal(p: RunPlan, first: EvidenceRecorder, lines: object[]): Promise<void> {
  mkdirSync(join(journalPath(p), '..'), { recursive: true });
  const preamble = [
    { plan: p },
    { kind: 'session', at: JOURNAL_AT, exclusive: true },
    { kind: 'quiet-before', thresholds: first.thresholds, snapshot: await first.before(() => {}) },
  ];
  writeFileSync(journalPath(p), [...preamble, ...lines].map((l) => JSON.stringify(l) + '\n').join(''));
}
const JOURNAL_AT = '2026-01-01T00:00:01.000Z';
/** A finished timed task of build b35 in a journal. */
const journalTask = (round: number, t: string, value = 1) => ({
  round,
  buildId: 'b35',
  benchmark: 'toy',
  task: t,
  at: JOURNAL_AT,
  outcomes: [{ spec: spec(t), value }],
});

test('quiet-host evidence: before the run and every round, in the run file; one noisy measured round marks the run', async () => {
  const builds = [build('3.4.1', 'b34'), build('3.5.7', 'b35')];
  const quiet = standInEvidence();
  const { run } = await executeRun(plan(builds), builds, [toyBenchmark([])], mkdtempSync(join(tmpdir(), 'runs-')), { progress: () => {} }, [], quiet.recorder);
  assert.equal(quiet.calls.before, 1);
  assert.deepEqual(quiet.calls.rounds, [0, 1, 2]);
  assert.equal(quiet.calls.tasksEnded, 12, 'a window can close after each of the 12 tasks');
  assert.deepEqual([quiet.calls.watches, quiet.calls.stopped], [3, 3], 'every round is watched, and its timer stopped');
  assert.equal(run.quiet?.quiet, true);
  assert.equal(run.quiet?.exclusive, true);
  assert.deepEqual(
    run.quiet?.rounds.map((r) => r.round),
    [0, 1, 2],
  );
  // round 2 disturbed in every attempt: measured again MAX_REPEATED_ROUNDS times (a limit per run, whatever its rounds), then kept
  const noisy = standInEvidence(Array(MAX_REPEATED_ROUNDS + 1).fill(2));
  const r2 = (await executeRun(plan(builds), builds, [toyBenchmark([])], mkdtempSync(join(tmpdir(), 'runs-')), { progress: () => {} }, [], noisy.recorder)).run;
  assert.equal(r2.quiet?.quiet, false);
  assert.deepEqual(noisy.calls.rounds, [0, 1, ...Array(MAX_REPEATED_ROUNDS + 1).fill(2)]);
  assert.equal(r2.quiet?.repeated?.length, MAX_REPEATED_ROUNDS);
  assert.equal(r2.quiet?.thresholds.maxRepeatedRounds, MAX_REPEATED_ROUNDS);
  assert.deepEqual(r2.quiet?.rounds.find((r) => r.round === 2)?.reasons, ['processes outside this run used 50% of one CPU']);
  const shared = standInEvidence([], false);
  const r3 = (await executeRun(plan(builds), builds, [toyBenchmark([])], mkdtempSync(join(tmpdir(), 'runs-')), { progress: () => {} }, [], shared.recorder))
    .run;
  assert.equal(r3.quiet?.quiet, false, 'a run that did not hold the host lock is never quiet');
});

test('quiet-host evidence of a run of deterministic tasks only: its phase is watched like a round, no timed round is wanted, a noisy phase marks the run', async () => {
  const builds = [build('3.4.1', 'b34'), build('3.5.7', 'b35')];
  const counts: Benchmark = {
    id: 'toy',
    description: 'instruction counts only',
    tasks: () => [{ id: 'count', oncePerRun: true, run: async () => [{ spec: spec('count'), value: 7 }] }],
  };
  const quiet = standInEvidence();
  const { run } = await executeRun(plan(builds), builds, [counts], mkdtempSync(join(tmpdir(), 'runs-')), { progress: () => {} }, [], quiet.recorder);
  assert.equal(run.quiet?.quiet, true, run.notes.join('\n'));
  assert.equal(run.quiet?.deterministic?.length, 1);
  assert.ok(!run.notes.some((n) => /no quiet-host evidence/.test(n)), run.notes.join('\n'));
  const noisy = standInEvidence([plan(builds).warmupRounds]);
  const r2 = (await executeRun(plan(builds), builds, [counts], mkdtempSync(join(tmpdir(), 'runs-')), { progress: () => {} }, [], noisy.recorder)).run;
  assert.equal(r2.quiet?.quiet, false, 'a noisy deterministic phase');
});

test('a run killed in its deterministic phase after its last task, before the evidence: resumed, it is not quiet and says why', async () => {
  const builds = [build('3.4.1', 'b34'), build('3.5.7', 'b35')];
  const counts: Benchmark = {
    id: 'toy',
    description: 'instruction counts only',
    tasks: () => [{ id: 'count', oncePerRun: true, run: async () => [{ spec: spec('count'), value: 7 }] }],
  };
  const p = plan(builds);
  const task = (buildId: string) => ({
    round: p.warmupRounds,
    buildId,
    benchmark: 'toy',
    task: 'count',
    at: JOURNAL_AT,
    deterministic: true,
    outcomes: [{ spec: spec('count'), value: 7 }],
  });
  await killedJournal(p, standInEvidence().recorder, [task('b34'), task('b35')]);
  const second = standInEvidence();
  const { run } = await executeRun(p, builds, [counts], mkdtempSync(join(tmpdir(), 'runs-')), { progress: () => {} }, [], second.recorder);
  assert.deepEqual(second.calls.rounds, [], "nothing left to run: no window is closed, the phase's evidence cannot come late");
  assert.equal(run.quiet?.deterministic, undefined);
  assert.equal(run.quiet?.quiet, false, 'the phase measured, and its evidence is missing');
  assert.ok(
    run.notes.includes('no quiet-host evidence for the deterministic phase (the run was killed in it): the run counts as not quiet'),
    run.notes.join('\n'),
  );
});

test('resume keeps the evidence already recorded and adds its own session', async () => {
  const out = mkdtempSync(join(tmpdir(), 'runs-'));
  const builds = [build('3.5.7', 'b35')];
  const p = plan(builds);
  // what a first session leaves when killed in round 1: its session, the window before, round 0 and its evidence, one task of round 1
  const first = standInEvidence([0]).recorder;
  await killedJournal(p, first, [
    journalTask(0, 'fast'),
    journalTask(0, 'pq'),
    { kind: 'quiet-round', snapshot: first.round({} as Sample, 0) },
    journalTask(1, 'fast'),
  ]);
  const second = standInEvidence([], false);
  const { run } = await executeRun(p, builds, [toyBenchmark([])], out, { progress: () => {} }, [], second.recorder);
  assert.equal(second.calls.before, 0, 'the window before the run is not taken again');
  assert.deepEqual(second.calls.rounds, [1, 2], 'round 0 kept its evidence; round 1 is covered from the resume on');
  assert.equal(second.calls.watches, second.calls.stopped, 'the watch of round 0, which ran nothing, is stopped too');
  assert.equal(run.quiet?.rounds.find((r) => r.round === 0)?.quiet, false, "the first session's noisy warm-up round is kept");
  assert.equal(run.quiet?.exclusive, false, 'one session without the lock: not exclusive');
});

test('a benchmark is not run on a library it does not list: one note per benchmark and build, no series, no silent drop', async () => {
  const out = mkdtempSync(join(tmpdir(), 'runs-'));
  const openssl = build('3.5.7', 'b35');
  const awslc: BuildUnderTest = {
    ...openssl,
    record: { ...openssl.record, id: 'awslc', library: 'aws-lc', version: '5.12.0', series: '5.12', versionString: 'AWS-LC 5.12.0' },
  };
  const calls: string[] = [];
  const opensslOnly = toyBenchmark(calls);
  const everywhere: Benchmark = { ...toyBenchmark(calls), id: 'toy-all', libraries: ['openssl', 'aws-lc'] };
  const p = { ...plan([openssl, awslc]), benchmarks: ['toy', 'toy-all'] };
  const { run } = await executeRun(p, [openssl, awslc], [opensslOnly, everywhere], out, { progress: () => {} });
  assert.ok(calls.includes('fast@5.12.0'), 'a benchmark that lists AWS-LC runs on it');
  assert.deepEqual(
    run.notes.filter((n) => n.includes('does not run on')),
    ['toy does not run on AWS-LC 5.12.0: toy measures OpenSSL only (a toy)'],
  );
  // three rounds (one warm-up) of two tasks, from toy-all only
  assert.equal(calls.filter((c) => c.endsWith('@5.12.0')).length, 6);
  assert.equal(calls.filter((c) => c.endsWith('@3.5.7')).length, 12);
});

/** Plan `p` run on the toy benchmark with the host evidence of `recorder` (a quiet host by default): what it ran, its progress lines, its run file. */
async function toyRunOnHost(p: RunPlan, builds: BuildUnderTest[], recorder: EvidenceRecorder = standInEvidence().recorder) {
  const calls: string[] = [];
  const progress: string[] = [];
  const { run } = await executeRun(p, builds, [toyBenchmark(calls)], mkdtempSync(join(tmpdir(), 'runs-')), { progress: (m) => progress.push(m) }, [], recorder);
  return { calls, progress, run };
}

test("each task of a benchmark that wakes other CPUs ends with a steal probe, on every build; other benchmarks' tasks do not", async () => {
  const builds = [build('3.4.1', 'b34'), build('3.5.7', 'b35')];
  const host = standInEvidence();
  const calls: string[] = [];
  const waking: Benchmark = { ...toyBenchmark(calls), id: 'toy-waking', wakesOtherCpus: true };
  await executeRun(plan(builds), builds, [toyBenchmark(calls), waking], mkdtempSync(join(tmpdir(), 'runs-')), { progress: () => {} }, [], host.recorder);
  assert.equal(calls.length, 3 * 8, 'three rounds of two benchmarks of two tasks on two builds');
  assert.equal(host.calls.stealProbes, 3 * 4);
  assert.deepEqual(new Set(host.calls.probedTaskEnds), new Set(['toy-waking|fast', 'toy-waking|pq']));
});

test('a measured round the host disturbed is dropped before anything uses it and measured again; the warm-up round is not', async () => {
  const builds = [build('3.4.1', 'b34'), build('3.5.7', 'b35')];
  const noisy = standInEvidence([0, 1]);
  const { calls, progress, run } = await toyRunOnHost(plan(builds), builds, noisy.recorder);
  assert.deepEqual(noisy.calls.rounds, [0, 1, 1, 2], 'round 1 twice, the warm-up once');
  assert.equal(calls.length, 4 * 4, 'four rounds of four tasks ran');
  assert.equal(run.quiet?.quiet, true, 'every round the run kept is quiet (the warm-up decides nothing)');
  assert.deepEqual(
    run.quiet?.repeated?.map((r) => [r.round, r.quiet]),
    [[1, false]],
  );
  assert.deepEqual(
    run.quiet?.rounds.map((r) => [r.round, r.quiet]),
    [
      [0, false],
      [1, true],
      [2, true],
    ],
  );
  const fast = run.series.find((x) => x.buildId === 'b35' && x.metric === 'fast')!;
  // values are the call count when the task ran: round 1's kept values come from its second attempt (calls 9-12)
  const round1 = fast.iterations.filter((it) => it.round === 1).map((it) => it.value);
  assert.equal(round1.length, 1);
  assert.ok(round1[0]! > 8 && round1[0]! <= 12, `round 1's value ${round1[0]} is from the second attempt`);
  assert.ok(
    run.notes.some((n) =>
      /^measured round 1 was disturbed by the host \(processes outside this run used 50% of one CPU\): what it measured was dropped/.test(n),
    ),
    run.notes.join('\n'),
  );
  assert.ok(progress.some((m) => /round 1 was disturbed by the host/.test(m)));
});

test('a window that breaks a limit drops the tasks it overlapped on every build; they are measured again at the end of the round', async () => {
  const builds = [build('3.4.1', 'b34'), build('3.5.7', 'b35')];
  // watch 1 is round 1 (order b35, b34): the window closed by its second task end (fast on 3.4.1) is loud
  const loud = standInEvidence([], true, [], { 1: [2] });
  const { calls, progress, run } = await toyRunOnHost(plan(builds), builds, loud.recorder);
  assert.deepEqual(
    calls.slice(4, 10),
    ['fast@3.5.7', 'fast@3.4.1', 'pq@3.5.7', 'pq@3.4.1', 'fast@3.5.7', 'fast@3.4.1'],
    'round 1: fast dropped on both builds after the loud window, pq measured, then fast again',
  );
  assert.equal(calls.length, 4 + 6 + 4);
  assert.equal(run.quiet?.quiet, true);
  assert.equal(run.quiet?.repeated, undefined, 'no round was measured again as a whole');
  assert.equal(loud.calls.calms, 1, 'the run waited for the host to calm down before going on');
  const values = (metric: string) =>
    run.series
      .filter((x) => x.metric === metric)
      .flatMap((x) => x.iterations.filter((it) => it.round === 1).map((it) => it.value))
      .sort((x, y) => x - y);
  assert.deepEqual(values('fast'), [9, 10], "round 1's fast comes from the measurement after the drop (calls 9 and 10), on both builds");
  assert.deepEqual(values('pq'), [7], 'pq on 3.5.7 (3.4.1 has none) was kept');
  assert.ok(
    run.notes.some((n) =>
      /^measured round 1: 1 time\(s\) a window broke a limit \(first: steal 9% of all CPUs over the 8 s window\): .* dropped on every build and measured again at the end of the round \(1 task\(s\): toy\|fast\)$/.test(
        n,
      ),
    ),
    run.notes.join('\n'),
  );
  assert.ok(
    progress.some((m) => m.endsWith('fast 3.5.7 (again)') || /fast .*\(again\)$/.test(m)),
    progress.join('\n'),
  );
});

test('a task the host keeps disturbing is given up for the round after MAX_TASK_DROPS drops; the other tasks keep their values', async () => {
  const builds = [build('3.4.1', 'b34'), build('3.5.7', 'b35')];
  // watch 1 is round 1 (order b35, b34): the windows closed by fast's first end and its two ends again are loud
  const loud = standInEvidence([], true, [], { 1: [1, 4, 5] });
  const { calls, progress, run } = await toyRunOnHost(plan(builds), builds, loud.recorder);
  assert.deepEqual(calls.slice(4, 9), ['fast@3.5.7', 'pq@3.5.7', 'pq@3.4.1', 'fast@3.5.7', 'fast@3.5.7'], 'fast dropped, pq kept, fast twice more');
  assert.equal(calls.length, 4 + 5 + 4, 'the warm-up, round 1, round 2: round 1 was not measured again');
  assert.equal(run.quiet?.quiet, true);
  assert.equal(run.quiet?.repeated, undefined);
  const inRound1 = (metric: string) => run.series.filter((x) => x.metric === metric).flatMap((x) => x.iterations.filter((it) => it.round === 1));
  assert.equal(inRound1('fast').length, 0, 'no value of the given-up task in round 1, on any build');
  assert.equal(inRound1('pq').length, 1, 'pq keeps its round-1 value (3.4.1 has no ML-KEM)');
  assert.ok(
    run.notes.some((n) =>
      new RegExp(`1 of them dropped ${MAX_TASK_DROPS} times and not measured again in this round, which has no value of them on any build: toy\\|fast$`).test(
        n,
      ),
    ),
    run.notes.join('\n'),
  );
  assert.ok(progress.some((m) => m.includes('toy|fast given up for this round')));
  assert.equal(run.quiet?.thresholds.giveUpAfterTaskDrops, MAX_TASK_DROPS);
});

test('a storm throughout a round: every task is given up, the round kept nothing and is measured again', async () => {
  const builds = [build('3.4.1', 'b34'), build('3.5.7', 'b35')];
  // watch 1 is round 1's first attempt: every window loud; its snapshot at the end is quiet
  const loud = standInEvidence([], true, [1]);
  const { calls, run } = await toyRunOnHost(plan(builds), builds, loud.recorder);
  // each drop ends its task after its first build: fast, pq, then each again until dropped MAX_TASK_DROPS times
  const attempt = 2 * MAX_TASK_DROPS;
  assert.equal(calls.length, 4 + attempt + 4 + 4, 'the warm-up, the attempt that kept nothing, round 1 again, round 2');
  assert.equal(run.quiet?.quiet, true);
  assert.deepEqual(
    run.quiet?.repeated?.map((r) => [r.round, r.quiet, r.reasons]),
    [[1, false, ['every task it ran was dropped until given up: nothing of the round was kept']]],
  );
  const round1 = run.series.flatMap((x) => x.iterations.filter((it) => it.round === 1).map((it) => it.value));
  assert.equal(round1.length, 3, 'round 1 of fast on both builds and pq on 3.5.7');
  assert.ok(
    round1.every((v) => v > 4 + attempt),
    "nothing of the first attempt's values is in the run file",
  );
  assert.equal(loud.calls.calms, attempt + 1, 'a wait after each drop, and one before the repeat');
});

test('past the limit of repeats a round that kept nothing is kept as it is, the run not quiet', async () => {
  const builds = [build('3.5.7', 'b35')];
  // rounds 1 and 2 disturbed in every attempt: the limit is MAX_REPEATED_ROUNDS repeats
  const n = MAX_REPEATED_ROUNDS;
  const loud = standInEvidence(
    [...Array(n + 1).fill(1), 2],
    true,
    Array.from({ length: n + 2 }, (_, i) => i + 1),
  );
  const { calls, run } = await toyRunOnHost(plan(builds), builds, loud.recorder);
  assert.equal(run.quiet?.repeated?.length, n);
  assert.equal(run.quiet?.quiet, false);
  // every attempt: fast and pq, each until dropped MAX_TASK_DROPS times
  assert.equal(calls.length, 2 + (n + 2) * 2 * MAX_TASK_DROPS, 'the warm-up, the attempts at round 1, round 2');
  assert.equal(run.series.flatMap((x) => x.iterations.filter((it) => it.round > 0)).length, 0, 'nothing measured was kept');
});

test("resuming in a repeated round: the disturbed attempt's entries are dropped from the journal, only the rest runs", async () => {
  const builds = [build('3.5.7', 'b35')];
  const p = plan(builds);
  const first = standInEvidence([1]).recorder;
  await killedJournal(p, first, [
    journalTask(0, 'fast'),
    journalTask(0, 'pq'),
    { kind: 'quiet-round', snapshot: first.round({} as Sample, 0) },
    journalTask(1, 'fast', 1000),
    journalTask(1, 'pq', 1000),
    { kind: 'round-repeated', snapshot: first.round({} as Sample, 1) },
    journalTask(1, 'fast', 5),
  ]);
  assert.deepEqual(
    readJournal(journalPath(p))
      .entries.filter((e) => e.round === 1)
      .map((e) => (e.outcomes?.[0] && 'value' in e.outcomes[0] ? e.outcomes[0].value : null)),
    [5],
  );
  const { calls, run } = await toyRunOnHost(p, builds);
  assert.deepEqual(calls, ['pq@3.5.7', 'fast@3.5.7', 'pq@3.5.7'], "round 1's pq, then round 2");
  const values = run.series.flatMap((x) => x.iterations.filter((it) => it.round === 1).map((it) => it.value));
  assert.ok(!values.includes(1000), 'nothing of the disturbed attempt reaches the run file');
  assert.equal(run.quiet?.quiet, true);
  assert.equal(run.quiet?.repeated?.length, 1);
});

test("resuming after a drop: the dropped task's entries journaled before the drop are gone, those after it stay", async () => {
  const builds = [build('3.5.7', 'b35')];
  const p = plan(builds);
  const first = standInEvidence().recorder;
  await killedJournal(p, first, [
    journalTask(0, 'fast'),
    journalTask(0, 'pq'),
    { kind: 'quiet-round', snapshot: first.round({} as Sample, 0) },
    journalTask(1, 'fast', 1000),
    journalTask(1, 'pq', 7),
    { kind: 'tasks-dropped', round: 1, tasks: ['toy|fast'], reasons: ['steal 9% of all CPUs over the 8 s window'] },
  ]);
  assert.deepEqual(
    readJournal(journalPath(p))
      .entries.filter((e) => e.round === 1)
      .map((e) => e.task),
    ['pq'],
  );
  const { calls, run } = await toyRunOnHost(p, builds);
  assert.deepEqual(calls, ['fast@3.5.7', 'fast@3.5.7', 'pq@3.5.7'], "round 1's fast again, then round 2");
  const values = run.series.flatMap((x) => x.iterations.filter((it) => it.round === 1).map((it) => it.value));
  assert.ok(!values.includes(1000) && values.includes(7), 'the dropped value is gone, the kept one stays');
});

// ---------------------------------------------------------------- the warm-up round: whole or short

/** A plan on a machine of its own (each test, and each test process, its own task-time records), at a harness revision. */
const OWN = randomBytes(3).toString('hex');
const warmPlan = (builds: BuildUnderTest[], machine: string, revision = 1): RunPlan => standInPlan(builds, { hostName: `${machine}-${OWN}`, revision });

/** Progress lines, and the tasks a run's warm-up round ran in them (task@version, in run order). */
function progressLog(killAt?: string) {
  const lines: string[] = [];
  return {
    lines,
    cb: {
      progress: (m: string) => {
        // a kill just before a task starts: the journal keeps what finished, as after a SIGKILL
        if (killAt && m.endsWith(killAt)) throw new Error('SIMULATED KILL');
        lines.push(m);
      },
    },
    warmedUp: () => lines.flatMap((l) => /\] warm-up toy\/(\S+) (\S+)$/.exec(l)?.slice(1, 3).join('@') ?? []),
  };
}

/** A run of the toy benchmark asking for a short warm-up (as npm run bench does); quiet unless a round is noisy. */
async function toyRun(p: RunPlan, builds: BuildUnderTest[], o: { noisy?: number[]; shortWarmup?: boolean } = {}) {
  const log = progressLog();
  const { run } = await executeRun(p, builds, [toyBenchmark([])], mkdtempSync(join(tmpdir(), 'runs-')), log.cb, [], standInEvidence(o.noisy ?? []).recorder, {
    shortWarmup: o.shortWarmup ?? true,
  });
  return { run, warmed: log.warmedUp() };
}

const ALL_FOUR = ['fast@3.4.1', 'fast@3.5.7', 'pq@3.4.1', 'pq@3.5.7'];

test("a quiet run records the median seconds of each timed task's measured rounds, keyed by machine, benchmark, task, build, mode and harness revision", async () => {
  let now = 0;
  const b35 = build('3.5.7', 'b35');
  const took = [100, 1, 5, 3]; // the warm-up round, then three measured rounds
  let n = 0;
  const bench: Benchmark = {
    id: 'toy',
    description: 'one task of known times, one that always fails, one that fails once',
    tasks: () => [
      { id: 'a', run: async () => ((now += took[n++]! * 1000), [{ spec: spec('a'), value: 1 }]) },
      { id: 'broken', run: async () => ((now += 7000), Promise.reject(new Error('broken'))) },
      { id: 'count', oncePerRun: true, run: async () => [{ spec: spec('count'), value: 7 }] },
    ],
  };
  const p = { ...warmPlan([b35], 'times-host', 3), rounds: 3 };
  const { run } = await executeRun(p, [b35], [bench], mkdtempSync(join(tmpdir(), 'runs-')), { progress: () => {} }, [], standInEvidence().recorder, {
    clock: () => now,
  });
  assert.equal(run.quiet?.quiet, true);
  const a = findTaskTime(taskTimeKey(p, 'toy', 'a', 'b35'));
  assert.deepEqual([a?.seconds, a?.rounds, a?.runId], [3, 3, p.runId], 'the median of 1, 5 and 3 s: not the 100 s warm-up');
  assert.equal(a?.key.machine, p.host.id);
  assert.equal(findTaskTime(taskTimeKey(p, 'toy', 'broken', 'b35')), undefined, 'a task that failed has no time');
  assert.equal(findTaskTime(taskTimeKey(p, 'toy', 'count', 'b35')), undefined, 'a deterministic task is not timed');
  assert.equal(findTaskTime(taskTimeKey({ ...p, mode: 'full' }, 'toy', 'a', 'b35')), undefined, 'another mode');
  assert.equal(findTaskTime(taskTimeKey({ ...p, harness: { ...p.harness, revision: 4 } }, 'toy', 'a', 'b35')), undefined, 'another harness revision');
  assert.equal(findTaskTime(taskTimeKey(p, 'toy', 'a', 'b34')), undefined, 'another build');
  assert.equal(findTaskTime(taskTimeKey({ ...p, host: describeHost('times-host-2') }, 'toy', 'a', 'b35')), undefined, 'another machine');
  // the window: a task timed with its mode's own window keeps the key it had before windows were a choice
  const asked = (window: 'short' | 'long') => ({ ...p, windows: [{ benchmark: 'toy', window, size: 1, unit: 'u', basis: 'b' }] });
  assert.equal('window' in taskTimeKey(p, 'toy', 'a', 'b35'), false);
  assert.equal(findTaskTime(taskTimeKey(asked('short'), 'toy', 'a', 'b35'))?.seconds, 3, "quick mode's own window: the same record");
  assert.equal(findTaskTime(taskTimeKey(asked('long'), 'toy', 'a', 'b35')), undefined, 'another window');
});

test('the run measures each benchmark with the window its plan chose, and its file says which and why', async () => {
  const b35 = build('3.5.7', 'b35');
  const asked: (string | undefined)[] = [];
  const bench: Benchmark = {
    id: 'toy',
    description: 'records the window it is asked for',
    windows: { unit: 'items', short: 1, long: 4 },
    tasks: (_b, _mode, window) => (asked.push(window), [{ id: 'a', run: async () => [{ spec: spec('a'), value: 1 }] }]),
  };
  const windows = [{ benchmark: 'toy', window: 'short' as const, size: 1, unit: 'items', basis: 'because' }];
  const p = { ...standInPlan([b35], { mode: 'full', hostName: `windows-${OWN}` }), windows };
  const { run } = await executeRun(p, [b35], [bench], mkdtempSync(join(tmpdir(), 'runs-')), { progress: () => {} }, [], standInEvidence().recorder);
  assert.ok(asked.length > 0 && asked.every((w) => w === 'short'), `asked for ${asked.join(', ')}`);
  assert.deepEqual(run.plan.windows, windows);
});

test('short warm-up: the second quiet run of the same request runs one task per benchmark and build in round 0, and its run file says where the other times came from', async () => {
  const builds = [build('3.4.1', 'b34'), build('3.5.7', 'b35')];
  const first = await toyRun(warmPlan(builds, 'warm-second'), builds);
  assert.deepEqual(first.warmed, ALL_FOUR, 'a first run: no recorded time, a whole warm-up round');
  assert.equal(first.run.plan.warmup, 'whole-round');
  assert.equal(first.run.plan.warmupTimesFrom, undefined);
  assert.ok(
    first.run.notes.includes(
      'a whole warm-up round: round 0 ran every timed task on every build (4 in all), because no quiet run of this machine had recorded the time of any of them for these builds, this mode and harness revision (runner/task-times.ts)',
    ),
    first.run.notes.join('\n'),
  );
  const calls: string[] = [];
  const log = progressLog();
  const p = warmPlan(builds, 'warm-second');
  const { run } = await executeRun(p, builds, [toyBenchmark(calls)], mkdtempSync(join(tmpdir(), 'runs-')), log.cb, [], standInEvidence().recorder, {
    shortWarmup: true,
  });
  assert.deepEqual(log.warmedUp(), ['fast@3.4.1', 'fast@3.5.7'], 'round 0: the first task in run order on each build');
  assert.equal(calls.length, 2 + 2 * 4, 'then every task in each measured round');
  assert.equal(run.plan.warmup, 'short');
  assert.deepEqual(run.plan.warmupTimesFrom, [first.run.runId]);
  assert.ok(
    run.notes.some(
      (n) =>
        n.startsWith('a short warm-up round: round 0 ran 2 of the 4 timed tasks of the builds, counting each task once per build') &&
        n.includes(`the quiet run ${first.run.runId}`),
    ),
    run.notes.join('\n'),
  );
  const fast35 = run.series.find((s) => s.metric === 'fast' && s.buildId === 'b35')!;
  assert.deepEqual(
    fast35.iterations.map((i) => i.warmup),
    [true, false, false],
  );
  const pq35 = run.series.find((s) => s.metric === 'pq' && s.buildId === 'b35')!;
  assert.deepEqual(
    pq35.iterations.map((i) => [i.round, i.warmup]),
    [
      [1, false],
      [2, false],
    ],
    'not warmed: its measured rounds only',
  );
  assert.equal(pq35.status, 'measured');
});

test('after a run that was not quiet the warm-up is a whole round: such a run records no time', async () => {
  const builds = [build('3.4.1', 'b34'), build('3.5.7', 'b35')];
  const noisy = await toyRun(warmPlan(builds, 'warm-noisy'), builds, { noisy: Array(MAX_REPEATED_ROUNDS + 1).fill(1) });
  assert.equal(noisy.run.quiet?.quiet, false);
  assert.ok(!existsSync(taskTimesDir(noisy.run.host.id)), 'nothing recorded');
  const next = await toyRun(warmPlan(builds, 'warm-noisy'), builds);
  assert.deepEqual(next.warmed, ALL_FOUR);
  assert.equal(next.run.plan.warmup, 'whole-round');
  const third = await toyRun(warmPlan(builds, 'warm-noisy'), builds);
  assert.deepEqual([third.warmed, third.run.plan.warmupTimesFrom], [['fast@3.4.1', 'fast@3.5.7'], [next.run.runId]], 'the quiet run after it recorded them');
});

test('a new harness revision warms up with a whole round', async () => {
  const builds = [build('3.4.1', 'b34'), build('3.5.7', 'b35')];
  await toyRun(warmPlan(builds, 'warm-revision', 1), builds);
  const revised = await toyRun(warmPlan(builds, 'warm-revision', 2), builds);
  assert.deepEqual(revised.warmed, ALL_FOUR);
  assert.equal(revised.run.plan.warmup, 'whole-round');
  const back = await toyRun(warmPlan(builds, 'warm-revision', 1), builds);
  assert.deepEqual(back.warmed, ['fast@3.4.1', 'fast@3.5.7'], 'the times of revision 1 are still there for revision 1');
});

test('a new build is warmed with all its tasks, the builds with recorded times with one task each', async () => {
  const [b34, b35, b36] = [build('3.4.1', 'b34'), build('3.5.7', 'b35'), build('3.6.0', 'b36')];
  const first = await toyRun(warmPlan([b34, b35], 'warm-build'), [b34, b35]);
  const next = await toyRun(warmPlan([b34, b36], 'warm-build'), [b34, b36]);
  assert.deepEqual(next.warmed, ['fast@3.4.1', 'fast@3.6.0', 'pq@3.6.0']);
  assert.equal(next.run.plan.warmup, 'short');
  assert.deepEqual(next.run.plan.warmupTimesFrom, [first.run.runId]);
  assert.ok(
    next.run.notes.some((n) => n.startsWith('a short warm-up round: round 0 ran 3 of the 4 timed tasks')),
    next.run.notes.join('\n'),
  );
});

test('--full-warmup: a whole warm-up round even with every time recorded', async () => {
  const builds = [build('3.4.1', 'b34'), build('3.5.7', 'b35')];
  await toyRun(warmPlan(builds, 'warm-full'), builds);
  const full = await toyRun(warmPlan(builds, 'warm-full'), builds, { shortWarmup: false });
  assert.deepEqual(full.warmed, ALL_FOUR);
  assert.equal(full.run.plan.warmup, 'whole-round');
  assert.ok(
    full.run.notes.some((n) => n.startsWith('a whole warm-up round: round 0 ran every timed task on every build (4 in all), as asked (--full-warmup')),
    full.run.notes.join('\n'),
  );
});

test('a run killed in its warm-up round keeps the warm-up it chose when resumed, whatever the records say by then', async () => {
  const builds = [build('3.4.1', 'b34'), build('3.5.7', 'b35')];
  const machine = 'warm-resume';
  const recorder = (await toyRun(warmPlan(builds, machine), builds)).run;
  const killedIn = async (p: RunPlan, shortWarmup: boolean, killAt: string) => {
    const log = progressLog(killAt);
    await assert.rejects(
      executeRun(p, builds, [toyBenchmark([])], mkdtempSync(join(tmpdir(), 'runs-')), log.cb, [], standInEvidence().recorder, { shortWarmup }),
      /SIMULATED KILL/,
    );
    return log.warmedUp();
  };
  const resumed = async (p: RunPlan, shortWarmup: boolean) => {
    const log = progressLog();
    const { run } = await executeRun(
      resumePlan(p, p.harness, false),
      builds,
      [toyBenchmark([])],
      mkdtempSync(join(tmpdir(), 'runs-')),
      log.cb,
      [],
      standInEvidence().recorder,
      { shortWarmup },
    );
    return { run, warmed: log.warmedUp() };
  };

  // short: killed before its second warm-up task; the records are gone when it resumes
  const short = warmPlan(builds, machine);
  assert.deepEqual(await killedIn(short, true, 'warm-up toy/fast 3.5.7'), ['fast@3.4.1']);
  rmSync(taskTimesDir(short.host.id), { recursive: true });
  const r1 = await resumed(short, true);
  assert.deepEqual(r1.warmed, ['fast@3.5.7'], 'the rest of the short warm-up, not a whole round');
  assert.equal(r1.run.plan.warmup, 'short');
  assert.deepEqual(r1.run.plan.warmupTimesFrom, [recorder.runId]);

  // whole (--full-warmup): killed after its first task; resumed by a bench that would warm up short
  const whole = warmPlan(builds, machine);
  assert.ok(findTaskTime(taskTimeKey(whole, 'toy', 'pq', 'b35')), 'r1 was quiet and recorded the times again');
  assert.deepEqual(await killedIn(whole, false, 'warm-up toy/fast 3.5.7'), ['fast@3.4.1']);
  const r2 = await resumed(whole, true);
  assert.deepEqual(r2.warmed, ['fast@3.5.7', 'pq@3.4.1', 'pq@3.5.7'], 'the rest of the whole round');
  assert.equal(r2.run.plan.warmup, 'whole-round');
});

test('a journal written before the warm-up was journaled, with timed tasks in it, resumes as the whole round it was', async () => {
  const builds = [build('3.4.1', 'b34'), build('3.5.7', 'b35')];
  const machine = 'warm-old-journal';
  await toyRun(warmPlan(builds, machine), builds);
  const p = warmPlan(builds, machine);
  mkdirSync(join(journalPath(p), '..'), { recursive: true });
  writeFileSync(journalPath(p), [JSON.stringify({ plan: p }), JSON.stringify({ ...journalTask(0, 'fast'), buildId: 'b34', seconds: 1 })].join('\n') + '\n');
  const log = progressLog();
  const { run } = await executeRun(p, builds, [toyBenchmark([])], mkdtempSync(join(tmpdir(), 'runs-')), log.cb, [], undefined, { shortWarmup: true });
  assert.deepEqual(log.warmedUp(), ['fast@3.5.7', 'pq@3.4.1', 'pq@3.5.7']);
  assert.equal(run.plan.warmup, 'whole-round');
  assert.ok(
    run.notes.some((n) => n.endsWith('the run was resumed from a journal written before the warm-up was chosen')),
    run.notes.join('\n'),
  );
});

test("a night's overrun reads as it was: under a second is not '0 s'", () => {
  assert.equal(howLate(400), 'less than a second');
  assert.equal(howLate(8_400), '8 s');
  assert.equal(howLate(90_000), '1.5 min');
});
