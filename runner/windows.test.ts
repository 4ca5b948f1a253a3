import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { makeBuild, makeQuietEvidence, makeRun, makeSeries } from '../schema/test-data.ts';
import { writeRunFile, type Run, type RunMode } from '../schema/index.ts';
import { MIN_PAIRED_SERIES, askedWindows, chooseWindows, machineRuns, windowOf } from './windows.ts';
import { HANDSHAKE_WINDOWS, handshakeMatrix } from './handshake/handshake.ts';
import { AEAD_PLAN, aeadPlanOf, createAeadBenchmark } from './aead/aead.ts';
import { sTimeBenchmark } from './s-time/s-time.ts';

const toy = { id: 'toy', windows: { unit: 'items per window', short: 3, long: 10 } };
const fixed = { id: 'fixed' };
const build = makeBuild();

/** Values around 100 whose CV is about `cv` (alternating +/-), `n` measured rounds. */
const spread = (cv: number, n: number, shift = 0) => Array.from({ length: n }, (_, i) => 100 * (1 + (i % 2 === 0 ? cv : -cv) * (1 + shift * i)));

/** A quiet run of `mode` with `series` series of benchmark toy whose rounds have the given CV. */
function toyRun(
  mode: RunMode,
  cv: number,
  o: { series?: number; revision?: number; runId?: string; quiet?: boolean; windows?: Run['plan']['windows'] } = {},
): Run {
  const rounds = mode === 'quick' ? 3 : 6;
  return makeRun({
    runId: o.runId ?? `run-${mode}`,
    mode,
    startedAt: mode === 'quick' ? '2026-01-01T00:00:00.000Z' : '2026-01-02T00:00:00.000Z',
    harness: { gitCommit: 'abcdef1', gitDirty: false, node: 'v24', revision: o.revision ?? 3 },
    builds: [build],
    series: Array.from({ length: o.series ?? 12 }, (_, i) => makeSeries({ key: `toy/rate[n=${i}]`, buildId: build.id, values: spread(cv, rounds, i / 100) })),
    ...(o.windows ? { plan: { windows: o.windows } } : {}),
    ...(o.quiet === false ? { quiet: makeQuietEvidence('2026-01-01T00:00:00.000Z', { rounds: [1, 2, 3, 4, 5, 6], busyRounds: [2] }) } : {}),
  });
}

test('quick mode measures every benchmark that has a choice with its short windows', () => {
  const c = chooseWindows('quick', [toy, fixed], [], 3);
  assert.deepEqual(
    c.map((w) => [w.benchmark, w.window, w.size]),
    [['toy', 'short', 3]],
  );
});

test('a full run without evidence from this machine keeps the long windows and says why', () => {
  const [c] = chooseWindows('full', [toy], [], 3);
  assert.equal(c!.window, 'long');
  assert.match(c!.basis, /0 series measured quietly with both windows/);
});

test('short windows when their CV is about the long ones (less variance per second), long when it is twice', () => {
  const same = chooseWindows('full', [toy], [toyRun('quick', 0.05), toyRun('full', 0.05)], 3)[0]!;
  assert.equal(same.window, 'short');
  assert.equal(same.pairedSeries, 12);
  assert.ok(Math.abs(same.cvRatio! - 1) < 0.15, `ratio ${same.cvRatio}`);
  assert.deepEqual(same.runs, ['run-full', 'run-quick']);
  // CV twice as large: 4x the variance per round at 0.3 of the time = 1.2x the variance per second
  const noisy = chooseWindows('full', [toy], [toyRun('quick', 0.1), toyRun('full', 0.05)], 3)[0]!;
  assert.equal(noisy.window, 'long');
  assert.match(noisy.basis, /above 0.8: long/);
});

test('only quiet runs of this harness revision count, and too few series decide nothing', () => {
  const choose = (runs: Run[]) => chooseWindows('full', [toy], runs, 3)[0]!.window;
  assert.equal(choose([toyRun('quick', 0.05, { quiet: false }), toyRun('full', 0.05)]), 'long');
  assert.equal(choose([toyRun('quick', 0.05, { revision: 2 }), toyRun('full', 0.05)]), 'long');
  assert.equal(choose([toyRun('quick', 0.05, { series: MIN_PAIRED_SERIES - 1 }), toyRun('full', 0.05)]), 'long');
  assert.equal(choose([toyRun('quick', 0.05, { series: MIN_PAIRED_SERIES }), toyRun('full', 0.05)]), 'short');
});

test('a full run measured with short windows counts as short-window evidence, not long', () => {
  const shortFull = toyRun('full', 0.05, {
    windows: [{ benchmark: 'toy', window: 'short', size: 3, unit: 'items per window', basis: 'asked for (--windows short)' }],
  });
  assert.equal(windowOf(shortFull, 'toy'), 'short');
  assert.equal(windowOf(shortFull, 'other'), 'long');
  // two short-window runs and no long one: no pair
  assert.equal(chooseWindows('full', [toy], [toyRun('quick', 0.05), shortFull], 3)[0]!.window, 'long');
});

test('--windows short|long applies to every benchmark that has a choice', () => {
  assert.deepEqual(
    askedWindows('long', [toy, fixed]).map((w) => [w.benchmark, w.window, w.size, w.basis]),
    [['toy', 'long', 10, 'asked for (--windows long)']],
  );
});

test("machineRuns reads this machine's folder only", () => {
  const dir = mkdtempSync(join(tmpdir(), 'windows-'));
  try {
    assert.deepEqual(machineRuns(dir, 'nobody.x'), []);
    const run = toyRun('quick', 0.05);
    writeRunFile(join(dir, run.host.id), run);
    writeRunFile(join(dir, 'other.machine'), { ...run, runId: 'elsewhere' });
    assert.deepEqual(
      machineRuns(dir, run.host.id).map((r) => r.runId),
      ['run-quick'],
    );
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});

test("the benchmarks' windows change only their timed windows' length", () => {
  const counts = (w: 'short' | 'long') => handshakeMatrix('full', w).map((d) => `${d.kind}:${d.count}`);
  const short = handshakeMatrix('full', 'short');
  const long = handshakeMatrix('full', 'long');
  assert.equal(short.length, long.length, 'the same tasks');
  assert.deepEqual(handshakeMatrix('full'), long, "full mode's default is the long window");
  assert.deepEqual(handshakeMatrix('quick'), handshakeMatrix('quick', 'short'), "quick mode's default is the short window");
  for (const [i, d] of short.entries()) {
    const l = long[i]!;
    assert.equal(d.kind, l.kind);
    if (d.kind === 'timing') assert.ok([HANDSHAKE_WINDOWS.short.new, HANDSHAKE_WINDOWS.short.resumed].includes(d.count));
    if (d.kind === 'ctx-new') assert.equal(d.count, HANDSHAKE_WINDOWS.short.ctxNew);
    if (d.kind === 'instructions' || d.kind === 'memory') assert.equal(d.count, l.count, 'counted tasks keep their counts');
  }
  assert.notDeepEqual(counts('short'), counts('long'));
  // AEAD: full mode's sizes with quick mode's CPU-seconds and repetitions; s_time: 2-s sections
  assert.deepEqual(aeadPlanOf('full', 'short'), {
    sizes: AEAD_PLAN.full.sizes,
    cpuSeconds: AEAD_PLAN.quick.cpuSeconds,
    repetitions: AEAD_PLAN.quick.repetitions,
  });
  assert.deepEqual(aeadPlanOf('full', 'long'), AEAD_PLAN.full);
  assert.deepEqual(aeadPlanOf('quick', 'short'), AEAD_PLAN.quick);
  const aead = createAeadBenchmark(() => 'aead-binary');
  assert.deepEqual([aead.windows!.short, aead.windows!.long], [0.3, 1]);
  assert.deepEqual([sTimeBenchmark.windows!.short, sTimeBenchmark.windows!.long], [2, 3]);
});
