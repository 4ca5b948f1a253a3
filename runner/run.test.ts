// The run loop on an in-memory benchmark: interleaving, journal, resume after a kill, unsupported series.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { existsSync, mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { readRunFile, runFileName, type Build } from '../schema/index.ts';
import type { Benchmark, BuildUnderTest, SeriesSpec } from './benchmark.ts';
import { executeRun, journalPath, newRunId, roundOrder, type RunPlan } from './run.ts';
import { describeHost } from './host.ts';

const build = (version: string, id: string): BuildUnderTest => ({
  prefix: '/nonexistent',
  record: {
    id,
    version,
    series: version.split('.').slice(0, 2).join('.'),
    variant: 'default',
    versionString: `OpenSSL ${version}`,
    source: { kind: 'crate', name: 'x.crate', sha256: 'a'.repeat(64) },
    configureArgs: ['no-shared'],
    compiler: 'cc',
    cflags: '-O2',
    builtAt: '2026-01-01T00:00:00.000Z',
    buildSeconds: 1,
  } satisfies Build,
});

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

function plan(builds: BuildUnderTest[]): RunPlan {
  return {
    runId: newRunId('quick'),
    mode: 'quick',
    host: describeHost('test-host'),
    benchmarks: ['toy'],
    rounds: 2,
    warmupRounds: 1,
    builds: builds.map((b) => b.record),
    startedAt: new Date().toISOString(),
    harness: { gitCommit: 'unknown', gitDirty: true, node: process.version },
  };
}

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
  assert.ok(existsSync(path) && !existsSync(journalPath(out, p)), 'journal replaced by the run file');
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
  assert.deepEqual(run.plan.order, [['b34', 'b35'], ['b35', 'b34'], ['b34', 'b35']]);
  assert.equal(path, join(out, runFileName(run)), 'written straight into the layout: <host>/<YYYY>/<MM>/<runId>.json.gz');
  assert.deepEqual(readRunFile(path), run);
});

test('a killed run loses nothing: resuming keeps finished tasks and runs only the rest', async () => {
  const out = mkdtempSync(join(tmpdir(), 'runs-'));
  const builds = [build('3.4.1', 'b34'), build('3.5.7', 'b35')];
  const p = plan(builds);
  // the journal a SIGKILL leaves after five tasks: header, five entries, a torn sixth line
  const at = '2026-01-01T00:00:01.000Z';
  const entry = (round: number, buildId: string, task: string, value: number) =>
    JSON.stringify({ round, buildId, benchmark: 'toy', task, at, outcomes: [buildId === 'b34' && task === 'pq' ? { spec: spec(task), status: 'unsupported', reason: 'no' } : { spec: spec(task), value }] });
  const jpath = journalPath(out, p);
  mkdirSync(join(out, p.host.id), { recursive: true });
  writeFileSync(
    jpath,
    [JSON.stringify({ plan: p }), entry(0, 'b34', 'fast', 1), entry(0, 'b35', 'fast', 2), entry(0, 'b34', 'pq', 3), entry(0, 'b35', 'pq', 4), entry(1, 'b35', 'fast', 5), '{"round":1,"buil'].join('\n'),
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
  assert.deepEqual(run.series[0]!.iterations.map((i) => [i.round, i.warmup]), [[1, false]]);
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
