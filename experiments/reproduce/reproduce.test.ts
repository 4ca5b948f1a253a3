// npm run reproduce on stand-in benchmarks (no builds): the task filter, the stopping rule, the verdicts;
// and every write-up: its frontmatter parses, its claims' series are produced by some task, its
// `reproduce` field is the command.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, readFileSync, readdirSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { standInBuild, standInPlan } from '../../runner/stand-in-build.ts';
import { seriesKey, wantedTasks, type Benchmark, type BuildUnderTest, type SeriesSpec, type Task } from '../../runner/benchmark.ts';
import { BENCHMARKS } from '../../runner/benchmarks.ts';
import { executeRun } from '../../runner/run.ts';
import type { RunPlan } from '../../runner/run/journal.ts';
import { seededRandom } from '../../analysis/stats.ts';
import type { Build } from '../../site/src/lib/claims/schema.ts';
import { ALPHA } from '../../analysis/sequential.ts';
import { buildSpec, needsOf, parseWriteup, planTasks, reproduceCommand, standIn, wantedKeys } from './plan.ts';
import { MAX_ROUNDS, Reproduction, Stopper } from './stopping.ts';
import { claimOutcomes, verdictReport } from './verdicts.ts';

const WRITEUPS = join(import.meta.dirname, '..', '..', 'site', 'src', 'content', 'writeups');

const build = (version: string): BuildUnderTest => standInBuild(version);

const cpuSpec = (size: number): SeriesSpec => ({
  benchmark: 'toy',
  metric: 'cpu',
  label: 'toy CPU time',
  unit: 'us/op',
  method: 'cpu-time-client',
  higherIsBetter: false,
  params: { size },
  comparability: { acrossVersions: true },
});
const instrSpec: SeriesSpec = { ...cpuSpec(16), metric: 'instructions', label: 'toy instructions', unit: 'instructions', method: 'instruction-count' };

/**
 * A stand-in benchmark: CPU time per size (mean `cost[version]`, noise `cv`), an instruction count once per
 * run, and a task that declares nothing. Every task advances `clock` by `taskMs()` and is logged in `calls`.
 */
function toy(opts: {
  cost: Record<string, number>;
  cv: number;
  instr: Record<string, number>;
  clock: { ms: number };
  taskMs: () => number;
  calls: string[];
}): Benchmark {
  const rnd = seededRandom(7);
  const noise = () => 1 + opts.cv * (rnd() * 2 - 1);
  return {
    id: 'toy',
    description: 'a stand-in',
    tasks: (b, mode): Task[] => {
      const v = b.record.version;
      const sizes = mode === 'full' ? [16, 1024] : [16];
      const tick = (id: string) => {
        opts.calls.push(`${id}@${v}`);
        opts.clock.ms += opts.taskMs();
      };
      return [
        ...sizes.map((size): Task => ({
          id: `cpu-${size}`,
          produces: [cpuSpec(size)],
          run: async () => (tick(`cpu-${size}`), [{ spec: cpuSpec(size), value: opts.cost[v]! * noise() * (size / 16) }]),
        })),
        { id: 'instr', oncePerRun: true, produces: [instrSpec], run: async () => (tick('instr'), [{ spec: instrSpec, value: opts.instr[v]! }]) },
        { id: 'blind', run: async () => (tick('blind'), []) },
      ];
    },
  };
}

const writeup = (claims: string) =>
  parseWriteup(
    `---
title: "A stand-in write-up"
summary: "Two releases compared on a stand-in benchmark."
versions: ["3.4.1", "3.5.7"]
series:
  - { key: "toy/cpu[size=16]", id: cpu, label: "CPU time" }
  - { key: "toy/instructions[size=16]", id: instr, label: "instructions" }
claims:
${claims}
reproduce: "npm run reproduce -- stand-in"
---
text
`,
    'stand-in',
  );

const planOf = (builds: BuildUnderTest[], mode: 'quick' | 'full', timed: boolean): RunPlan =>
  standInPlan(builds, { mode, rounds: timed ? MAX_ROUNDS : 1, warmupRounds: timed ? 1 : 0 });

/** Run a reproduction of `w` on the stand-in benchmark with a driven clock; budget in seconds. */
async function reproduce(w: ReturnType<typeof writeup>, bench: Benchmark, clock: { ms: number }, budget: number) {
  const needs = needsOf(w);
  const tp = planTasks(needs.keys, needs.builds, [bench]);
  const builds = needs.builds.map((b) => build(b.version));
  const plan = planOf(builds, tp.mode, tp.timed);
  const r = new Reproduction(needs.comparisons, (b: Build) => builds.find((x) => x.record.version === b.version)?.record.id);
  const stopper = new Stopper(r, {
    warmupRounds: plan.warmupRounds,
    budgetSeconds: budget,
    now: () => clock.ms / 1000,
    start: 0,
    timed: tp.timed,
    declared: (s) => (plan.rounds = s.looks.at(-1)!),
  });
  const out = mkdtempSync(join(tmpdir(), 'reproduce-test-'));
  const { run } = await executeRun(plan, builds, [bench], out, { progress: () => {} }, [], undefined, {
    wanted: wantedKeys(needs.keys),
    afterRound: stopper.afterRound,
    clock: () => clock.ms,
  });
  return { run, stopper, r, tp, outcomes: claimOutcomes(w.claims, r, {}) };
}

// ------------------------------------------------------------------ the task filter

test('wantedTasks keeps the tasks declaring a wanted key and those declaring nothing', () => {
  const t = (id: string, produces?: SeriesSpec[]): Task => ({ id, run: async () => [], ...(produces ? { produces } : {}) });
  const tasks = [t('a', [cpuSpec(16)]), t('b', [cpuSpec(1024), instrSpec]), t('blind')];
  assert.deepEqual(
    wantedTasks(tasks, (k) => k === seriesKey(instrSpec)).map((x) => x.id),
    ['b', 'blind'],
  );
  assert.deepEqual(
    wantedTasks(tasks).map((x) => x.id),
    ['a', 'b', 'blind'],
    'no filter: every task',
  );
});

test('the run loop runs only the wanted tasks (and the undeclared), and skips a benchmark with none wanted', async () => {
  const calls: string[] = [];
  const clock = { ms: 0 };
  const bench = toy({ cost: { '3.4.1': 10, '3.5.7': 10 }, cv: 0, instr: { '3.4.1': 1, '3.5.7': 1 }, clock, taskMs: () => 1000, calls });
  let prepared = 0;
  const other: Benchmark = {
    id: 'other',
    description: 'never wanted',
    prepare: async () => void prepared++,
    tasks: () => [{ id: 'o', produces: [{ ...instrSpec, benchmark: 'other', metric: 'x', params: {} }], run: async () => (calls.push('o'), []) }],
  };
  const builds = [build('3.4.1'), build('3.5.7')];
  const plan = { ...planOf(builds, 'quick', false), benchmarks: ['toy', 'other'] };
  const out = mkdtempSync(join(tmpdir(), 'reproduce-test-'));
  const { run } = await executeRun(plan, builds, [bench, other], out, { progress: () => {} }, [], undefined, { wanted: (k) => k === seriesKey(instrSpec) });
  assert.deepEqual(calls, ['instr@3.4.1', 'instr@3.5.7', 'blind@3.4.1', 'blind@3.5.7']);
  assert.equal(prepared, 0, 'a benchmark with no wanted task is not prepared');
  assert.deepEqual([...new Set(run.series.map((s) => s.key))], [seriesKey(instrSpec)]);
});

test('planTasks: quick mode when its tasks declare every key, full when only full does; undeclared keys run a benchmark whole', () => {
  const bench = toy({ cost: {}, cv: 0, instr: {}, clock: { ms: 0 }, taskMs: () => 0, calls: [] });
  const b: Build[] = [{ library: 'openssl', version: '3.4.1', variant: 'default' }];
  const quick = planTasks(new Set([seriesKey(cpuSpec(16))]), b, [bench]);
  assert.equal(quick.mode, 'quick');
  assert.ok(quick.timed);
  assert.deepEqual(quick.benchmarks, ['toy']);
  assert.equal(planTasks(new Set([seriesKey(cpuSpec(1024))]), b, [bench]).mode, 'full', 'size 1024 exists in full mode only');
  const instr = planTasks(new Set([seriesKey(instrSpec)]), b, [bench]);
  assert.equal(instr.timed, false, 'once-per-run counts need no rounds');
  const blind = planTasks(new Set(['toy/unknown']), b, [bench]);
  assert.deepEqual([blind.undeclared, blind.missing], [['toy/unknown'], []]);
  assert.deepEqual(planTasks(new Set(['nobody/x']), b, [bench]).missing, ['nobody/x']);
  assert.equal(buildSpec({ library: 'openssl', version: '3.5.7', variant: 'no-ml-kem' }), '3.5.7:no-ml-kem');
  assert.equal(buildSpec({ library: 'wolfssl', version: '5.9.4', variant: 'no-perf-options' }), 'wolfssl@5.9.4:no-perf-options');
});

// ------------------------------------------------------------------ the stopping rule

const CPU_CLAIM = `  - id: slower
    text: "3.5.7 spends more CPU time than 3.4.1."
    tests:
      - { series: cpu, builds: ["3.5.7", "3.4.1"], expect: higher, threshold: 0.1 }`;

test('a clear difference is decided at the first look and the run stops there', async () => {
  const clock = { ms: 0 };
  const calls: string[] = [];
  const bench = toy({ cost: { '3.4.1': 10, '3.5.7': 15 }, cv: 0.02, instr: {}, clock, taskMs: () => 1000, calls });
  const { run, stopper, outcomes } = await reproduce(writeup(CPU_CLAIM), bench, clock, 600);
  assert.equal(stopper.stoppedBecause, 'all-decided');
  const first = stopper.schedule!.looks[0]!;
  assert.equal(stopper.measuredRounds, first);
  assert.equal(stopper.test.looks.length, 1);
  assert.equal(run.plan.rounds, first, 'the run file records the rounds measured');
  assert.ok(!calls.some((c) => c.startsWith('instr')), 'the unwanted once-per-run task never ran');
  assert.equal(outcomes[0]!.verdict, 'confirmed');
  const c = outcomes[0]!.comparisons[0]!;
  assert.equal(c.pairs, first);
  assert.ok(c.interval!.low > 1.1 && c.interval!.high < 2, `${c.interval!.low} .. ${c.interval!.high}`);
  assert.ok(Math.abs(c.interval!.alpha - stopper.schedule!.alpha[0]!) < 1e-12, 'the first look spends its share of alpha');
});

test('an undecidable difference runs to the budget, and the final look spends all the alpha left', async () => {
  const clock = { ms: 0 };
  // the warm-up round (four tasks: the wanted one and the undeclared one on two builds) takes 4 s, later
  // rounds 6 s: the budget ends before the last declared look
  const bench = toy({ cost: { '3.4.1': 10, '3.5.7': 11 }, cv: 0.05, instr: {}, clock, taskMs: () => (clock.ms < 4000 ? 1000 : 1500), calls: [] });
  const { stopper, outcomes, run } = await reproduce(writeup(CPU_CLAIM), bench, clock, 60);
  assert.equal(stopper.stoppedBecause, 'budget');
  assert.ok(clock.ms / 1000 <= 60, `stayed within the budget: ${clock.ms / 1000} s`);
  assert.ok(stopper.measuredRounds < stopper.schedule!.looks.at(-1)!, 'stopped before the last declared look');
  const last = stopper.test.looks.at(-1)!;
  assert.ok(last.final);
  assert.ok(Math.abs(stopper.alphaSpent - ALPHA) < 1e-12, `alpha spent ${stopper.alphaSpent}`);
  assert.equal(outcomes[0]!.verdict, 'not-shown');
  assert.equal(run.plan.rounds, stopper.measuredRounds);
});

test('deterministic claims: one measured round, no warm-up, exact comparison', async () => {
  const clock = { ms: 0 };
  const calls: string[] = [];
  const bench = toy({ cost: { '3.4.1': 10, '3.5.7': 10 }, cv: 0, instr: { '3.4.1': 100, '3.5.7': 130 }, clock, taskMs: () => 1000, calls });
  const w = writeup(`  - id: more-instructions
    text: "3.5.7 executes more instructions than 3.4.1."
    tests:
      - { series: instr, builds: ["3.5.7", "3.4.1"], expect: higher, threshold: 0.5 }`);
  const { stopper, outcomes, run } = await reproduce(w, bench, clock, 600);
  assert.equal(stopper.stoppedBecause, 'deterministic-only');
  assert.deepEqual(calls.sort(), ['blind@3.4.1', 'blind@3.5.7', 'instr@3.4.1', 'instr@3.5.7'], 'each task once');
  assert.equal(run.plan.warmupRounds, 0);
  assert.equal(outcomes[0]!.verdict, 'contradicted', '+30% is not more than +50%');
  assert.equal(outcomes[0]!.comparisons[0]!.ratio, 1.3);
});

// ------------------------------------------------------------------ verdicts in words

test('the report prints a verdict per claim and, per comparison, ratio, interval, confidence, alpha and rounds', async () => {
  const clock = { ms: 0 };
  const bench = toy({ cost: { '3.4.1': 10, '3.5.7': 15 }, cv: 0.02, instr: { '3.4.1': 100, '3.5.7': 101 }, clock, taskMs: () => 1000, calls: [] });
  const w = writeup(`${CPU_CLAIM}
  - id: same-instructions
    text: "The two execute the same instructions, within a tenth."
    tests:
      - { series: instr, builds: ["3.5.7", "3.4.1"], expect: same, threshold: 0.1 }
  - id: why
    text: "Because of the stand-in."
    unverified: "Nothing here can test it."`);
  const { outcomes, stopper } = await reproduce(w, bench, clock, 600);
  const lines = verdictReport('stand-in', 'test-host', outcomes);
  const text = lines.join('\n');
  assert.match(lines[0]!, /verdicts of write-up stand-in on test-host/);
  assert.match(text, /slower: CONFIRMED/);
  assert.match(
    text,
    /3\.5\.7 vs 3\.4\.1: expected higher: by more than 10%; measured \+\d+(\.\d+)?% \(\+\d+(\.\d+)?% to \+\d+(\.\d+)?%; \d+(\.\d+)?% t interval, alpha [\d.e-]+; \d+ paired rounds, decided at round \d+\) -> confirmed/,
  );
  assert.match(text, /same-instructions: CONFIRMED/);
  assert.match(text, /measured \+1% \(exact counts\) -> confirmed/);
  assert.match(text, /why: UNVERIFIED \(Nothing here can test it\.\)/);
  assert.match(text, /2 confirmed, 1 unverified/);
  assert.match(
    stopper.record(10),
    /looks declared after the warm-up round .* after measured rounds 6, .*looks taken: after round 6 alpha .*stopped after 6 measured round\(s\) because every CPU-time comparison was decided/,
  );
});

// ------------------------------------------------------------------ the write-ups

test('every write-up parses, its series are produced by some task, and its reproduce field is the command', () => {
  const files = readdirSync(WRITEUPS).filter((f) => f.endsWith('.md'));
  assert.ok(files.length > 10);
  for (const f of files) {
    const slug = f.replace(/\.md$/, '');
    const w = parseWriteup(readFileSync(join(WRITEUPS, f), 'utf8'), f);
    assert.equal(w.reproduce, reproduceCommand(slug), `${f}: reproduce`);
    const needs = needsOf(w);
    const tp = planTasks(needs.keys, needs.builds, BENCHMARKS);
    assert.deepEqual(tp.missing, [], `${f}: series no benchmark produces`);
    assert.ok(tp.benchmarks.length > 0, f);
  }
});

test('every registered benchmark declares the series of every task (none has to run whole)', () => {
  for (const b of [
    { library: 'openssl', version: '3.5.7', variant: 'default' },
    { library: 'wolfssl', version: '5.9.4', variant: 'default' },
  ] as Build[])
    for (const mode of ['quick', 'full'] as const)
      for (const bench of BENCHMARKS.filter((x) => (x.libraries ?? ['openssl']).includes(b.library)))
        for (const t of bench.tasks(standIn(b), mode)) assert.ok(t.produces?.length, `${bench.id}/${t.id} (${mode}) declares no series`);
});
