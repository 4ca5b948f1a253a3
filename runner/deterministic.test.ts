// The deterministic phase (issue 32, item 3): oncePerRun tasks run before the timed rounds, several at
// once and never beside a timed task, and are reused by a later run with the same binary, benchmark
// sources, harness revision and mode; the run file says so per series and records each phase's time.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { standInBuild, standInPlan } from './stand-in-build.ts';
import type { Benchmark, BuildUnderTest, SeriesSpec } from './benchmark.ts';
import { executeRun } from './run.ts';
import { journalPath, type RunPlan } from './run/journal.ts';
import { benchmarkSources } from './deterministic.ts';
import { seededRandom } from '../analysis/stats.ts';
import { standInEvidence } from './quiet/stand-in-evidence.ts';

process.env.OBSERVATORY_CACHE ??= mkdtempSync(join(tmpdir(), 'deterministic-test-cache-'));

const spec = (metric: string, method: SeriesSpec['method']): SeriesSpec => ({
  benchmark: 'toy',
  metric,
  label: metric,
  unit: method === 'instruction-count' ? 'instructions' : method === 'call-count' ? 'count' : 'us/handshake',
  method,
  higherIsBetter: false,
  params: {},
  comparability: { acrossVersions: true },
});

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/** A benchmark module on disk (its source keys the reuse), with two deterministic tasks and one timed one. */
function toy(dir: string, log: { task: string; build: string; start: number; end: number }[], opts: { seed?: number } = {}): Benchmark {
  const src = join(dir, 'toy', 'toy.ts');
  mkdirSync(join(dir, 'toy'), { recursive: true });
  try {
    writeFileSync(src, "export const toy = 'v1';\n", { flag: 'wx' });
  } catch {
    // kept as the test left it
  }
  const rand = seededRandom(opts.seed ?? 1);
  const timed = (id: string, b: BuildUnderTest, ms: number, value: () => number, method: SeriesSpec['method'], once: boolean) => ({
    id,
    oncePerRun: once || undefined,
    run: async () => {
      const start = performance.now();
      await sleep(ms);
      log.push({ task: id, build: b.record.version, start, end: performance.now() });
      return [{ spec: spec(id, method), value: value() }];
    },
  });
  return {
    id: 'toy',
    description: 'a toy',
    source: pathToFileURL(src).href,
    tasks: (b) => [
      timed('instr', b, 40, () => 1_000_000 + Math.floor(rand() * 1000) + 0.1, 'instruction-count', true),
      timed('calls', b, 40, () => 17 + rand(), 'call-count', true),
      timed('cpu', b, 5, () => 100 * (1 + 0.05 * rand()), 'cpu-time-both', false),
    ],
  };
}

const plan = (builds: BuildUnderTest[], revision = 2): RunPlan => standInPlan(builds, { hostName: 'det-host', revision });

const builds = (binary: string): BuildUnderTest[] => [
  { ...standInBuild('3.4.1', 'b34'), binarySha256: binary.repeat(64) },
  { ...standInBuild('3.5.7', 'b35'), binarySha256: (binary + 'e').repeat(32) },
];

test('deterministic tasks run first, several at once, and never while a timed task runs; the phases are timed', async () => {
  const dir = mkdtempSync(join(tmpdir(), 'det-src-'));
  const log: { task: string; build: string; start: number; end: number }[] = [];
  const b = builds('a');
  const { run } = await executeRun(plan(b), b, [toy(dir, log)], mkdtempSync(join(tmpdir(), 'runs-')), { progress: () => {} }, [], undefined, {
    deterministicJobs: 2,
    reuse: false,
  });
  const det = log.filter((l) => l.task !== 'cpu');
  const timed = log.filter((l) => l.task === 'cpu');
  assert.equal(det.length, 4, 'each deterministic task once per build');
  assert.equal(timed.length, 6, 'the timed task in the warm-up and 2 measured rounds, on both builds');
  for (const d of det) for (const t of timed) assert.ok(d.end <= t.start || t.end <= d.start, `${d.task}@${d.build} overlaps cpu@${t.build}`);
  assert.ok(Math.max(...det.map((d) => d.end)) <= Math.min(...timed.map((t) => t.start)), 'the deterministic phase comes first');
  const overlapping = det.some((x) => det.some((y) => x !== y && x.start < y.end && y.start < x.end));
  assert.ok(overlapping, 'with 2 jobs, two deterministic tasks run at once');
  const instr = run.series.find((s) => s.metric === 'instr' && s.buildId === 'b35')!;
  assert.deepEqual(
    instr.iterations.map((i) => [i.round, i.warmup]),
    [[1, false]],
    'recorded in the first measured round, as before',
  );
  assert.equal(instr.reusedFrom, undefined);
  assert.ok(run.phases, 'the run file records the phases');
  assert.equal(run.phases.deterministic.tasks, 4);
  assert.equal(run.phases.deterministic.reused, 0);
  assert.equal(run.phases.deterministic.jobs, 2);
  assert.equal(run.phases.timed.rounds, 3);
  assert.ok(
    run.phases.deterministic.seconds >= 0.07 && run.phases.deterministic.seconds < 0.16 + 0.5,
    `4 tasks of 40 ms, 2 at a time: ${run.phases.deterministic.seconds}`,
  );
  assert.ok(run.phases.timed.seconds > 0);
  // the timed task's own seconds, per benchmark: 2 builds x 5 ms in the warm-up round, twice that in the 2 measured rounds
  const toyTime = run.phases.timed.benchmarks?.toy;
  assert.ok(toyTime, 'the timed phase per benchmark');
  assert.ok(toyTime.warmupSeconds >= 0.01 && toyTime.measuredSeconds >= 0.02, JSON.stringify(toyTime));
  assert.ok(toyTime.warmupSeconds + toyTime.measuredSeconds <= run.phases.timed.seconds);
});

test('a later run with the same key reuses the stored outcomes byte for byte and says so; another binary, harness revision or benchmark source measures again', async () => {
  const dir = mkdtempSync(join(tmpdir(), 'det-src-'));
  const out = mkdtempSync(join(tmpdir(), 'runs-'));
  const go = async (b: BuildUnderTest[], p: RunPlan, seed: number, reuse = true, noisy: number[] = []) => {
    const log: { task: string; build: string; start: number; end: number }[] = [];
    const { run } = await executeRun(p, b, [toy(dir, log, { seed })], out, { progress: () => {} }, [], standInEvidence(noisy).recorder, {
      deterministicJobs: 2,
      reuse,
    });
    return {
      run,
      measured: log
        .filter((l) => l.task !== 'cpu')
        .map((l) => `${l.task}@${l.build}`)
        .sort(),
    };
  };
  // a run that is not quiet is not data: its counts are not offered for reuse
  const noisyPlan = plan(builds('d'));
  const noisy = await go(builds('d'), noisyPlan, 1, true, [noisyPlan.warmupRounds]);
  assert.equal(noisy.run.quiet?.quiet, false);
  const first = await go(builds('d'), plan(builds('d')), 1);
  assert.equal(first.measured.length, 4, 'nothing was stored by the run that was not quiet');
  const firstInstr = first.run.series.find((s) => s.metric === 'instr' && s.buildId === 'b34')!;

  // same key: nothing deterministic runs; values identical; the series name the run they came from
  const p2 = plan(builds('d'));
  const second = await go(builds('d'), p2, 99);
  assert.deepEqual(second.measured, [], 'nothing deterministic measured again');
  const instr = second.run.series.find((s) => s.metric === 'instr' && s.buildId === 'b34')!;
  assert.equal(JSON.stringify(instr.iterations.map((i) => i.value)), JSON.stringify(firstInstr.iterations.map((i) => i.value)), 'byte-identical');
  assert.equal(instr.reusedFrom?.runId, first.run.runId);
  assert.equal(instr.reusedFrom?.binarySha256, 'd'.repeat(64));
  assert.equal(instr.reusedFrom?.harnessRevision, 2);
  assert.match(instr.reusedFrom?.key ?? '', /^[0-9a-f]{64}$/);
  assert.ok(Date.parse(instr.iterations[0]!.at) >= Date.parse(p2.startedAt), 'the iteration is dated within this run; the measurement time is in reusedFrom');
  assert.equal(second.run.series.find((s) => s.metric === 'cpu')!.reusedFrom, undefined, 'timed series are always measured');
  assert.equal(second.run.phases?.deterministic.reused, 4);

  // --no-reuse measures all
  assert.equal((await go(builds('d'), plan(builds('d')), 3, false)).measured.length, 4);
  // another binary of 3.4.1: that build is measured again, 3.5.7 still reused
  const other = builds('d').map((x) => (x.record.id === 'b34' ? { ...x, binarySha256: 'b'.repeat(64) } : x));
  const rebuilt = await go(other, plan(other), 4);
  assert.deepEqual(rebuilt.measured, ['calls@3.4.1', 'instr@3.4.1']);
  assert.equal(rebuilt.run.series.find((s) => s.metric === 'instr' && s.buildId === 'b34')!.reusedFrom, undefined);
  assert.ok(rebuilt.run.series.find((s) => s.metric === 'instr' && s.buildId === 'b35')!.reusedFrom);
  // another harness revision: everything again
  assert.equal((await go(builds('d'), plan(builds('d'), 3), 5)).measured.length, 4);
  // a change of the benchmark's own code: everything again, then reused under the new code
  writeFileSync(join(dir, 'toy', 'toy.ts'), "export const toy = 'v2';\n");
  assert.equal((await go(builds('d'), plan(builds('d')), 6)).measured.length, 4);
  assert.equal((await go(builds('d'), plan(builds('d')), 7)).measured.length, 0);
  // a build without a recorded binary identity is never reused
  const unknown = builds('d').map((b) => ({ ...b, binarySha256: undefined }));
  assert.equal((await go(unknown, plan(unknown), 8)).measured.length, 4);
});

test('a run killed in the deterministic phase resumes without running its finished deterministic tasks again', async () => {
  const dir = mkdtempSync(join(tmpdir(), 'det-src-'));
  const b = builds('c');
  const p = plan(b);
  const at = new Date().toISOString();
  mkdirSync(join(journalPath(p), '..'), { recursive: true });
  const entry = {
    round: 1,
    buildId: 'b34',
    benchmark: 'toy',
    task: 'instr',
    at,
    deterministic: true,
    outcomes: [{ spec: spec('instr', 'instruction-count'), value: 123 }],
  };
  writeFileSync(
    journalPath(p),
    [JSON.stringify({ plan: p }), JSON.stringify({ kind: 'phase', phase: 'prepare', seconds: 0.5 }), JSON.stringify(entry), '{"round":1,"buildId":"b3'].join(
      '\n',
    ),
  );
  const log: { task: string; build: string; start: number; end: number }[] = [];
  const { run } = await executeRun(p, b, [toy(dir, log)], mkdtempSync(join(tmpdir(), 'runs-')), { progress: () => {} }, [], undefined, {
    deterministicJobs: 2,
    reuse: false,
  });
  assert.deepEqual(
    log
      .filter((l) => l.task !== 'cpu')
      .map((l) => `${l.task}@${l.build}`)
      .sort(),
    ['calls@3.4.1', 'calls@3.5.7', 'instr@3.5.7'],
  );
  assert.deepEqual(
    run.series.find((s) => s.metric === 'instr' && s.buildId === 'b34')!.iterations.map((i) => i.value),
    [123],
  );
  assert.equal(run.phases?.deterministic.tasks, 4);
  assert.ok(run.phases!.prepare.seconds >= 0.5, "the sessions' phase times add up");
});

test("a benchmark's sources: its module, what it imports under runner/, their folders, the C helpers; not tests, fixtures or docs", () => {
  const root = mkdtempSync(join(tmpdir(), 'det-root-'));
  const files: Record<string, string> = {
    'bench/bench.ts': "import { x } from '../shared.ts';\nimport type { Y } from './y.ts';\nexport const b = 1;",
    'bench/y.ts': 'export type Y = 1;',
    'bench/prog.c': 'int main(void) { return 0; }',
    'bench/bench.test.ts': 'test',
    'bench/README.md': 'docs',
    'bench/fixtures/out.txt': 'fixture',
    'shared.ts': 'export const x = 1;',
    'other/unrelated.ts': 'export const z = 1;',
    'c-common/json.c': '/* */',
  };
  for (const [rel, text] of Object.entries(files)) {
    mkdirSync(join(root, rel, '..'), { recursive: true });
    writeFileSync(join(root, rel), text);
  }
  assert.deepEqual(
    benchmarkSources(pathToFileURL(join(root, 'bench/bench.ts')).href, root).map((f) => f.slice(root.length + 1)),
    ['bench/bench.ts', 'bench/prog.c', 'bench/y.ts', 'c-common/json.c', 'shared.ts'],
  );
});
