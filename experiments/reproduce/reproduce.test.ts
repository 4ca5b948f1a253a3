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
import type { JournalEntry, RunPlan } from '../../runner/run/journal.ts';
import { seededRandom } from '../../analysis/stats.ts';
import type { Build } from '../../site/src/lib/claims/schema.ts';
import { ALPHA, tCritical } from '../../analysis/sequential.ts';
import { buildSpec, needsOf, parseWriteup, planTasks, reproduceCommand, standIn, wantedKeys } from './plan.ts';
import { isLookRound, MAX_ROUNDS, Stopper } from './stopping.ts';
import { PROJECTION_LIMIT, Reproduction, reachable, roundsToDecide } from './comparisons.ts';
import type { TestVerdict } from '../../site/src/lib/claims/verdicts.ts';
import { claimOutcomes, comparisonLine, verdictReport } from './verdicts.ts';

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
  /** the cost of size 1024 (full mode), when not 64 times size 16's */
  cost1024?: Record<string, number>;
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
          run: async () => (
            tick(`cpu-${size}`),
            [{ spec: cpuSpec(size), value: (size === 1024 && opts.cost1024 ? opts.cost1024[v]! : opts.cost[v]! * (size / 16)) * noise() }]
          ),
        })),
        { id: 'instr', oncePerRun: true, produces: [instrSpec], run: async () => (tick('instr'), [{ spec: instrSpec, value: opts.instr[v]! }]) },
        { id: 'blind', run: async () => (tick('blind'), []) },
      ];
    },
  };
}

const writeup = (claims: string, studies = '') =>
  parseWriteup(
    `---
title: "A stand-in write-up"
summary: "Two releases compared on a stand-in benchmark."
versions: ["3.4.1", "3.5.7"]
${studies}series:
  - { key: "toy/cpu[size=16]", id: cpu, label: "CPU time" }
  - { key: "toy/cpu[size=1024]", id: cpu1024, label: "CPU time, 1024" }
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
  });
  const out = mkdtempSync(join(tmpdir(), 'reproduce-test-'));
  const { run } = await executeRun(plan, builds, [bench], out, { progress: () => {} }, [], undefined, {
    wanted: wantedKeys(needs.keys),
    retired: stopper.retired,
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

test('a clear difference is decided at the first look (round 6) and the run stops there; the look spends alpha for the time it took', async () => {
  const clock = { ms: 0 };
  const calls: string[] = [];
  const bench = toy({ cost: { '3.4.1': 10, '3.5.7': 15 }, cv: 0.02, instr: {}, clock, taskMs: () => 1000, calls });
  const { run, stopper, outcomes } = await reproduce(writeup(CPU_CLAIM), bench, clock, 60);
  assert.equal(stopper.stoppedBecause, 'all-decided');
  assert.equal(stopper.measuredRounds, 6);
  assert.equal(stopper.test.looks.length, 1);
  assert.equal(run.plan.rounds, 6, 'the run file records the rounds measured');
  assert.ok(!calls.some((c) => c.startsWith('instr')), 'the unwanted once-per-run task never ran');
  assert.equal(outcomes[0]!.verdict, 'confirmed');
  const c = outcomes[0]!.comparisons[0]!;
  assert.equal(c.pairs, 6);
  assert.ok(c.interval!.low > 1.1 && c.interval!.high < 2, `${c.interval!.low} .. ${c.interval!.high}`);
  // the warm-up round (the wanted task and the undeclared one on two builds) took 4 s of the 60, so the
  // measured rounds had 56 s; six rounds of 4 s spend 24/56 of alpha
  assert.ok(Math.abs(c.interval!.alpha - (ALPHA * 24) / 56) < 1e-12, `alpha ${c.interval!.alpha}`);
});

test('an undecidable difference runs to the budget, and the final look spends all the alpha left', async () => {
  const clock = { ms: 0 };
  // the warm-up round (four tasks: the wanted one and the undeclared one on two builds) takes 4 s, later rounds 6 s
  const bench = toy({ cost: { '3.4.1': 10, '3.5.7': 11 }, cv: 0.05, instr: {}, clock, taskMs: () => (clock.ms < 4000 ? 1000 : 1500), calls: [] });
  const { stopper, outcomes, run } = await reproduce(writeup(CPU_CLAIM), bench, clock, 60);
  assert.equal(stopper.stoppedBecause, 'budget');
  assert.ok(clock.ms / 1000 <= 60, `stayed within the budget: ${clock.ms / 1000} s`);
  assert.deepEqual(
    stopper.test.looks.map((l) => l.round),
    [6, 8, 9],
    'looks after rounds 6 and 8, and the final one when the next round would overrun',
  );
  const last = stopper.test.looks.at(-1)!;
  assert.ok(last.final);
  assert.ok(Math.abs(stopper.alphaSpent - ALPHA) < 1e-12, `alpha spent ${stopper.alphaSpent}`);
  assert.equal(outcomes[0]!.verdict, 'not-shown');
  assert.equal(run.plan.rounds, stopper.measuredRounds);
});

test('when the budget ends at a scheduled look, that round has one look, the final one, with all the alpha left', async () => {
  const clock = { ms: 0 };
  // warm-up 4 s, rounds of 6 s: round 8 ends at 52 s of the 52, a round of the schedule
  const bench = toy({ cost: { '3.4.1': 10, '3.5.7': 11 }, cv: 0.05, instr: {}, clock, taskMs: () => (clock.ms < 4000 ? 1000 : 1500), calls: [] });
  const { stopper } = await reproduce(writeup(CPU_CLAIM), bench, clock, 52);
  assert.equal(stopper.stoppedBecause, 'budget');
  assert.deepEqual(
    stopper.test.looks.map((l) => [l.round, l.final]),
    [
      [6, false],
      [8, true],
    ],
  );
  assert.ok(Math.abs(stopper.alphaSpent - ALPHA) < 1e-12, `alpha spent ${stopper.alphaSpent}`);
});

test('a task whose comparisons are decided leaves the rounds; the one still open goes on', async () => {
  const clock = { ms: 0 };
  const calls: string[] = [];
  // size 16: +50%, decided at the first look; size 1024: +5% against a claim of more than +10%, undecidable here
  const bench = toy({ cost: { '3.4.1': 10, '3.5.7': 15 }, cost1024: { '3.4.1': 100, '3.5.7': 110 }, cv: 0.05, instr: {}, clock, taskMs: () => 1000, calls });
  const w = writeup(`${CPU_CLAIM}
  - id: large
    text: "3.5.7 spends more CPU time than 3.4.1 on size 1024."
    tests:
      - { series: cpu1024, builds: ["3.5.7", "3.4.1"], expect: higher, threshold: 0.1 }`);
  const { stopper, outcomes } = await reproduce(w, bench, clock, 120);
  assert.equal(outcomes[0]!.verdict, 'confirmed');
  const decidedAt = outcomes[0]!.comparisons[0]!.round!;
  const runs = (task: string) => calls.filter((c) => c.startsWith(`${task}@`)).length;
  // the warm-up round and the measured rounds up to the deciding look, on two builds
  assert.equal(runs('cpu-16'), 2 * (1 + decidedAt), 'size 16 stopped after the look that decided it');
  assert.equal(runs('cpu-1024'), 2 * (1 + stopper.measuredRounds), 'size 1024 ran in every round');
  assert.ok(stopper.measuredRounds > decidedAt);
});

/** A claim quoting a study's size on both sizes, and the study. */
const QUOTED_CLAIM = `  - id: quoted
    by: study
    quote: "5% slower"
    text: "3.5.7 is a few percent slower on both sizes."
    tests:
      - { series: cpu, builds: ["3.5.7", "3.4.1"], expect: magnitude, value: 1.05, tolerance: 0.03 }
      - { series: cpu1024, builds: ["3.5.7", "3.4.1"], expect: magnitude, value: 1.05, tolerance: 0.03 }`;
const STAND_IN_STUDY = `studies:
  - { id: study, title: "A stand-in study", short: "the study", by: "nobody", setup: "none" }
`;

test('a claim is settled when no verdict its open comparisons may reach changes it', () => {
  const w = writeup(
    `${QUOTED_CLAIM}
  - id: both
    text: "3.5.7 spends more CPU time on both sizes."
    tests:
      - { series: cpu, builds: ["3.5.7", "3.4.1"], expect: higher, threshold: 0.1 }
      - { series: cpu1024, builds: ["3.5.7", "3.4.1"], expect: higher, threshold: 0.1 }`,
    STAND_IN_STUDY,
  );
  const r = new Reproduction(needsOf(w).comparisons, (b) => b.version);
  const [q16, q1024, b16, b1024] = r.states;
  const decideAs = (s: (typeof r.states)[number], verdict: TestVerdict) => Object.assign(s, { decided: true, verdict, kind: 'cpu-time' });
  for (const s of r.states) s.kind = 'cpu-time';
  assert.ok(!r.settled(q16!.claim) && !r.settled(b16!.claim), 'nothing decided: open');
  decideAs(q16!, 'smaller-than-reported');
  assert.ok(!r.settled(q16!.claim), 'smaller on one size, and the other may still come out larger (then both ways: not shown)');
  decideAs(q1024!, 'larger-than-reported');
  assert.ok(r.settled(q16!.claim), 'all decided');
  decideAs(b16!, 'confirmed');
  assert.ok(!r.settled(b16!.claim), 'confirmed on one size; the other may still contradict it');
  b16!.verdict = 'contradicted';
  assert.ok(r.settled(b16!.claim), 'a contradiction decides the claim however the other comparison ends');
  assert.equal(r.openSides().size, 0, 'no side is needed once every claim is settled');
  b16!.verdict = 'confirmed';
  assert.equal(r.openSides().size, 2, 'the open comparison needs both its sides');
  assert.ok(!b1024!.decided);
});

test("a look's interval narrows what an open comparison may still reach, so a claim settles as soon as its outcome cannot change", () => {
  const w = writeup(QUOTED_CLAIM, STAND_IN_STUDY);
  const r = new Reproduction(needsOf(w).comparisons, (b) => b.version);
  const [q16, q1024] = r.states;
  for (const s of r.states) Object.assign(s, { kind: 'cpu-time', higherIsBetter: false });
  const at = (low: number, high: number) => ({ low, high, confidence: 0.99, alpha: 0.01, sdLog: 0.05 });
  // the band of "5% slower, +-3%" is [1.05/1.03, 1.05*1.03] = [1.019, 1.082]
  assert.deepEqual(reachable(q1024!).sort(), ['larger-than-reported', 'not-shown', 'reproduced', 'smaller-than-reported'], 'no look yet: anything');
  q1024!.interval = at(0.958, 1.061);
  assert.deepEqual(reachable(q1024!).sort(), ['not-shown', 'reproduced', 'smaller-than-reported'], 'below 1.082 throughout: never larger');
  q1024!.interval = at(0.95, 1.01);
  assert.deepEqual(reachable(q1024!).sort(), ['not-shown', 'smaller-than-reported'], 'below the band throughout: smaller or undecided');
  q1024!.interval = at(1.03, 1.2);
  assert.deepEqual(reachable(q1024!).sort(), ['larger-than-reported', 'not-shown', 'reproduced']);

  Object.assign(q16!, { decided: true, verdict: 'smaller-than-reported' });
  q1024!.interval = at(1.03, 1.2);
  assert.ok(!r.settled(q16!.claim), 'smaller on one size, and the other may still come out larger (then both ways)');
  assert.equal(r.openSides().size, 2, 'so its comparison goes on');
  q1024!.interval = at(0.958, 1.061);
  assert.ok(r.settled(q16!.claim), 'smaller on one size, and the other can no longer come out larger: the claim is smaller whatever happens');
  assert.equal(r.openSides().size, 0, "a settled claim's open comparison needs no more rounds");
  q1024!.interval = null;
  assert.ok(!r.settled(q16!.claim), 'without a look, larger is still possible');
});

test('a comparison left open says how many paired rounds its spread would need to decide it', () => {
  const w = writeup(QUOTED_CLAIM, STAND_IN_STUDY);
  const r = new Reproduction(needsOf(w).comparisons, (b) => b.version);
  const s = r.states[1]!;
  // "5% slower, +-3%": band [1.019, 1.082]; a mean ratio of 1.00 is 1.9% (in logs) below its lower edge
  Object.assign(s, { kind: 'cpu-time', higherIsBetter: false, ratio: 1.0, pairs: 14, round: 14 });
  const room = Math.log(1.05 / 1.03);
  for (const sdLog of [0.02, 0.08]) {
    s.interval = { low: 0.9, high: 1.1, confidence: 0.998, alpha: 0.002, sdLog };
    const n = roundsToDecide(s)!;
    const half = (k: number) => (tCritical(0.002, k - 1) * sdLog) / Math.sqrt(k);
    assert.ok(half(n) < room && half(n - 1) >= room, `sd ${sdLog}: ${n} rounds is the first narrow enough`);
  }
  assert.ok(roundsToDecide(s)! > 100, 'a spread of 8% per round needs hundreds of rounds for a 1.9% margin');
  assert.match(
    comparisonLine(s),
    /spread by 8% per round here: at that spread and mean, an interval at this alpha would decide it after about \d+ paired rounds$/,
  );
  s.ratio = 1.05 / 1.03; // on the band's edge: no number of rounds decides it
  assert.equal(roundsToDecide(s), PROJECTION_LIMIT + 1);
  assert.match(comparisonLine(s), /no number of rounds up to 10,000 would decide it$/);
  Object.assign(s, { decided: true, verdict: 'smaller-than-reported' });
  assert.doesNotMatch(comparisonLine(s), /spread/, 'a decided comparison needs no projection');
});

test("simulation: a true ratio on the claim's threshold is decided (wrongly, either way) in at most 5% of runs", () => {
  // every decision at the boundary is an interval that missed the true ratio: the union bound caps them at alpha
  const w = writeup(CPU_CLAIM);
  const rnd = seededRandom(11);
  const gauss = () => Math.sqrt(-2 * Math.log(1 - rnd())) * Math.cos(2 * Math.PI * rnd());
  const runs = 400;
  let decided = 0;
  for (let k = 0; k < runs; k++) {
    const r = new Reproduction(needsOf(w).comparisons, (b) => b.version);
    let now = 0;
    const stopper = new Stopper(r, { warmupRounds: 1, budgetSeconds: 100, now: () => now, start: 0, timed: true });
    const entries: JournalEntry[] = [];
    for (let round = 0; ; round++) {
      now += 2;
      for (const [v, cost] of [
        ['3.4.1', 10],
        ['3.5.7', 11],
      ] as const)
        entries.push({
          round,
          buildId: v,
          benchmark: 'toy',
          task: 'cpu-16',
          at: '',
          seconds: 1,
          outcomes: [{ spec: cpuSpec(16), value: cost * Math.exp(0.05 * gauss()) }],
        });
      if (stopper.afterRound(round, entries, 2)) break;
    }
    if (r.states[0]!.decided) decided++;
  }
  assert.ok(decided / runs <= ALPHA, `${decided} of ${runs} runs decided`);
});

test('looks come after measured rounds 6, 8, 10, 13 and so on, each about 30% more rounds than the last', () => {
  assert.deepEqual(Array.from({ length: 40 }, (_, i) => i + 1).filter(isLookRound), [6, 8, 10, 13, 17, 22, 29, 38]);
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
    /looks after measured rounds 6, 8, 10, 13 .*; the warm-up round took 4\.0 s and left 594 s of the 10-minute budget; looks taken: after round 6 alpha .*stopped after 6 measured round\(s\) because every claim was settled/,
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
