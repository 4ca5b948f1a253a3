// Claim verdicts on synthetic data: every verdict is reachable, and the rules (one run, paired rounds,
// coverage, exact deterministic counts, thresholds, CPU features, several hosts) hold.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { DetailedIterations, Run, Summary, runFilePath, type CpuFlags, type Method, type Unit } from '../../../schema/index.ts';
import { aggregate } from '../../../scripts/aggregate/summary.ts';
import * as claimsModule from './claims.ts';
import { TEST_TIME, makeBuild, makeHost, makeRun, makeSeries } from '../../../schema/test-data.ts';
import {
  Claim,
  ClaimTest,
  MEASURED_NUMBER,
  WriteupSeries,
  crossCheck,
  evaluateClaim,
  expectationText,
  changeWords,
  resultText,
  tally,
  type ClaimData,
} from './claims.ts';

// ------------------------------------------------------------------ synthetic runs, aggregated for real

interface SeriesSpec {
  key: string;
  unit?: Unit;
  method?: Method;
  higherIsBetter?: boolean;
  comparability?: { acrossVersions: boolean; group?: string; reason?: string };
  /** measured values per round (round 1, 2, ...) by version; a missing version is not measured */
  values: Record<string, number[]>;
}

function run(runId: string, specs: SeriesSpec[], opts: { host?: string; flags?: CpuFlags; startedAt?: string } = {}): Run {
  const versions = [...new Set(specs.flatMap((s) => Object.keys(s.values)))];
  const startedAt = opts.startedAt ?? TEST_TIME;
  const builds = versions.map((version) => makeBuild({ id: `id-${version.replace(/\./g, '')}`, version, builtAt: startedAt }));
  return makeRun({
    runId,
    startedAt,
    host: makeHost({ id: opts.host ?? 'box', cpuFlags: opts.flags ?? { aesni: true } }),
    plan: { benchmarks: ['toy'] },
    builds,
    series: specs.flatMap((s) =>
      Object.entries(s.values).map(([version, values]) =>
        makeSeries({
          key: s.key,
          metric: s.key.replace(/\W/g, '-'),
          unit: s.unit ?? 'ops/s',
          method: s.method ?? 'cpu-time-both',
          higherIsBetter: s.higherIsBetter ?? true,
          buildId: builds.find((b) => b.version === version)!.id,
          comparability: s.comparability ?? { acrossVersions: true },
          values,
          at: startedAt,
        }),
      ),
    ),
  });
}

function data(...runs: Run[]): ClaimData {
  const { summary, detailed } = aggregate(runs.map((r) => ({ run: r, path: runFilePath(r) })));
  return { summary, detailed, runs: runs.filter((r) => summary.runs.some((x) => x.runId === r.runId)) };
}

/** n values around m, spread by ±spread (a fixed pattern, so each round's ratio differs a little) */
const around = (m: number, spread: number, n = 8) => Array.from({ length: n }, (_, i) => m * (1 + spread * Math.sin(i * 2.1 + m)));

const series = (...keys: string[]): WriteupSeries[] =>
  keys.map((key) => WriteupSeries.parse({ key, id: key.replace(/[^a-z0-9]+/g, '-').replace(/^-|-$/g, '') }));
const claim = (c: Record<string, unknown>) => Claim.parse({ id: 'c', text: 'A claim in words.', ...c });
const cmp = (s: string, builds: string[], expect: string, threshold = 0.05) => ({ series: s, builds, expect, threshold });

const RATE = 'toy/rate';
const S = series(RATE, 'toy/other', 'toy/instructions');

// ------------------------------------------------------------------ verdicts

test('confirmed: the paired interval lies beyond the threshold in the claimed direction', () => {
  const d = data(run('r1', [{ key: RATE, values: { '3.0.2': around(200, 0.02), '1.1.1w': around(100, 0.02) } }]));
  const r = evaluateClaim(claim({ tests: [cmp(RATE, ['3.0.2', '1.1.1w'], 'higher')] }), S, d);
  assert.equal(r.verdict, 'confirmed', r.reason);
  const c = r.hosts[0]!.comparisons[0]!;
  assert.equal(c.pairing, 'paired-rounds');
  assert.equal(c.pairs, 8);
  assert.ok(c.interval!.coverage >= 0.95 && c.interval!.low > 1.05, JSON.stringify(c.interval));
  assert.equal(c.runId, 'r1');
});

test('contradicted: the interval lies entirely on the other side of the threshold (no practical difference)', () => {
  const d = data(run('r1', [{ key: RATE, values: { '3.1.3': around(100, 0.01), '1.1.1w': around(100, 0.01) } }]));
  const r = evaluateClaim(claim({ tests: [cmp(RATE, ['3.1.3', '1.1.1w'], 'higher')] }), S, d);
  assert.equal(r.verdict, 'contradicted', r.reason);
  // the same data confirm an equivalence claim
  assert.equal(evaluateClaim(claim({ tests: [cmp(RATE, ['3.1.3', '1.1.1w'], 'same')] }), S, d).verdict, 'confirmed');
});

test('not shown: an interval across the threshold decides nothing', () => {
  const d = data(run('r1', [{ key: RATE, values: { '3.3.0': around(105, 0.03), '3.0.2': around(100, 0.001) } }]));
  const r = evaluateClaim(claim({ tests: [cmp(RATE, ['3.3.0', '3.0.2'], 'higher')] }), S, d);
  assert.equal(r.verdict, 'not-shown');
  assert.match(r.reason, /both inside and outside/);
});

test('not shown: too few paired rounds for 95% coverage, whatever the medians say', () => {
  const d = data(run('r1', [{ key: RATE, values: { '3.0.2': [300, 301, 299], '1.1.1w': [100, 100, 101] } }]));
  const r = evaluateClaim(claim({ tests: [cmp(RATE, ['3.0.2', '1.1.1w'], 'higher')] }), S, d);
  assert.equal(r.verdict, 'not-shown');
  assert.match(r.reason, /covers only 75\.0% with 3 paired rounds; a verdict needs 95%/);
});

test('figures the summary took from two runs are compared inside a run behind the summary that measured both, and say so', () => {
  // both runs are full and quiet, so the newest one decides every row it measured (summary.statistics.selection):
  // the summary takes 3.4.1 from the newer 3-build run and 3.4.0 from the older 2-build run
  const big = run('big', [{ key: RATE, values: { '3.4.1': around(300, 0.01), '3.5.7': around(100, 0.01), '3.6.3': around(100, 0.01) } }], {
    startedAt: '2026-01-03T00:00:00.000Z',
  });
  const seeds = run('seeds', [{ key: RATE, values: { '3.4.0': around(100, 0.01), '3.4.1': around(100, 0.01) } }], { startedAt: '2026-01-02T00:00:00.000Z' });
  const d = data(big, seeds);
  const entry = (v: string) => d.summary!.entries.find((e) => e.version === v && e.key === RATE)!;
  assert.deepEqual([entry('3.4.1').runId, entry('3.4.0').runId], ['big', 'seeds']);
  const r = evaluateClaim(claim({ tests: [cmp(RATE, ['3.4.1', '3.4.0'], 'same')] }), S, d);
  const c = r.hosts[0]!.comparisons[0]!;
  assert.equal(c.runId, 'seeds');
  assert.equal(r.verdict, 'confirmed', r.reason);
  assert.ok(Math.abs(c.ratio! - 1) < 0.001, `ratio ${c.ratio} is the seeds run's, not 300/100`);
  assert.match(c.reason, /in the run of seeds, which measured both/);
  // without the run files the comparison is not made
  const without = evaluateClaim(claim({ tests: [cmp(RATE, ['3.4.1', '3.4.0'], 'same')] }), S, { summary: d.summary, detailed: d.detailed });
  assert.equal(without.verdict, 'not-shown');
  assert.match(without.reason, /different runs \(the run of big and the run of seeds\) and no run measured both/);
});

test('not shown: figures from different runs are never divided', () => {
  const d = data(
    run('r1', [{ key: RATE, values: { '3.0.2': around(200, 0.01) } }]),
    run('r2', [{ key: RATE, values: { '1.1.1w': around(100, 0.01) } }], { startedAt: '2026-01-02T00:00:00.000Z' }),
  );
  const r = evaluateClaim(claim({ tests: [cmp(RATE, ['3.0.2', '1.1.1w'], 'higher')] }), S, d);
  assert.equal(r.verdict, 'not-shown');
  assert.match(r.reason, /different runs \(the run of r1 and the run of r2\)/);
  assert.equal(r.hosts[0]!.comparisons[0]!.ratio, null);
});

test('not measured yet: no summary, a series nobody measured, or one build missing', () => {
  const c = claim({ tests: [cmp(RATE, ['3.0.2', '1.1.1w'], 'higher')] });
  assert.equal(evaluateClaim(c, S, { summary: null, detailed: null }).verdict, 'not-measured');
  const other = data(run('r1', [{ key: 'toy/other', values: { '3.0.2': around(1, 0.01) } }]));
  assert.equal(evaluateClaim(c, S, other).verdict, 'not-measured');
  const oneSide = data(run('r1', [{ key: RATE, values: { '3.0.2': around(1, 0.01) } }]));
  const r = evaluateClaim(c, S, oneSide);
  assert.equal(r.verdict, 'not-measured');
  assert.match(r.reason, /1\.1\.1w has no result/);
});

test('not shown: a build that cannot run the benchmark (unsupported) is an answer, not a pending measurement', () => {
  const d = data(run('r1', [{ key: RATE, values: { '3.5.7': around(200, 0.01), '3.4.1': around(100, 0.01) } }]));
  const e = d.summary!.entries.find((x) => x.version === '3.4.1')!;
  Object.assign(e, { status: 'unsupported', stats: null, reason: 'this build has no ML-KEM' });
  const r = evaluateClaim(claim({ tests: [cmp(RATE, ['3.5.7', '3.4.1'], 'higher')] }), S, d);
  assert.equal(r.verdict, 'not-shown');
  assert.match(r.hosts[0]!.comparisons[0]!.reason, /3\.4\.1: unsupported \(this build has no ML-KEM\)/);
});

test('unverified: a claim our data cannot test says why, and is never computed', () => {
  const r = evaluateClaim(claim({ unverified: 'Needs a host with many dedicated cores.' }), S, { summary: null, detailed: null });
  assert.equal(r.verdict, 'unverified');
  assert.equal(r.reason, 'Needs a host with many dedicated cores.');
});

test('host-specific: a result that rides on a CPU feature the host has, or whose record is silent about it', () => {
  const specs = [{ key: RATE, values: { '3.0.2': around(200, 0.01), '1.1.1w': around(100, 0.01) } }];
  const c = claim({
    tests: [cmp(RATE, ['3.0.2', '1.1.1w'], 'better')],
    hostSpecific: { flags: ['avx512ifma'], why: 'RSA uses an AVX-512 IFMA path from 3.0 on' },
  });
  const has = evaluateClaim(c, S, data(run('r1', specs, { flags: { avx512ifma: true } })));
  assert.equal(has.verdict, 'host-specific');
  assert.equal(has.hosts[0]!.underlying, 'confirmed');
  assert.match(has.reason, /this host has AVX-512 IFMA/);
  const silent = evaluateClaim(c, S, data(run('r1', specs, { flags: {} })));
  assert.equal(silent.verdict, 'host-specific');
  assert.match(silent.reason, /does not say whether the CPU has AVX-512 IFMA/);
  const lacks = evaluateClaim(c, S, data(run('r1', specs, { flags: { avx512ifma: false } })));
  assert.equal(lacks.verdict, 'confirmed');
  assert.match(lacks.reason, /lacks AVX-512 IFMA/);
});

test('cannot-test: a machine without the feature an experiment needs gets no verdict, and says which feature it lacks', () => {
  const specs = [{ key: RATE, values: { '3.0.2': around(200, 0.01), '1.1.1w': around(100, 0.01) } }];
  const c = claim({
    tests: [cmp(RATE, ['3.0.2', '1.1.1w'], 'better')],
    requires: { flags: ['avx512f', 'vaes'], why: 'hiding AVX-512 changes nothing without it' },
  });
  const lacks = evaluateClaim(c, S, data(run('r1', specs, { flags: { avx512f: false, vaes: true } })));
  assert.equal(lacks.verdict, 'cannot-test');
  assert.match(lacks.reason, /this machine lacks AVX-512F: hiding AVX-512 changes nothing without it/);
  const has = evaluateClaim(c, S, data(run('r1', specs, { flags: { avx512f: true, vaes: true } })));
  assert.equal(has.verdict, 'confirmed');
  // two machines: the one that can test the claim decides it, the other says why it cannot
  const two = evaluateClaim(
    c,
    S,
    data(run('r1', specs, { host: 'a', flags: { avx512f: true, vaes: true } }), run('r2', specs, { host: 'b', flags: { avx512f: false } })),
  );
  assert.equal(two.verdict, 'confirmed');
  assert.deepEqual(
    two.hosts.map((h) => [h.host, h.verdict]),
    [
      ['a', 'confirmed'],
      ['b', 'cannot-test'],
    ],
  );
});

test('host-specific: hosts that disagree', () => {
  const c = claim({ tests: [cmp(RATE, ['3.0.2', '1.1.1w'], 'higher')] });
  const d = data(
    run('r1', [{ key: RATE, values: { '3.0.2': around(200, 0.01), '1.1.1w': around(100, 0.01) } }], { host: 'a' }),
    run('r2', [{ key: RATE, values: { '3.0.2': around(100, 0.01), '1.1.1w': around(100, 0.01) } }], { host: 'b' }),
  );
  const r = evaluateClaim(c, S, d);
  assert.equal(r.verdict, 'host-specific');
  assert.deepEqual(
    r.hosts.map((h) => [h.host, h.verdict]),
    [
      ['a', 'confirmed'],
      ['b', 'contradicted'],
    ],
  );
  // hosts that agree give their common verdict
  const agree = data(
    run('r1', [{ key: RATE, values: { '3.0.2': around(200, 0.01), '1.1.1w': around(100, 0.01) } }], { host: 'a' }),
    run('r2', [{ key: RATE, values: { '3.0.2': around(300, 0.01), '1.1.1w': around(100, 0.01) } }], { host: 'b' }),
  );
  assert.equal(evaluateClaim(c, S, agree).verdict, 'confirmed');
});

test('deterministic metrics compare exactly: equal counts are the same, a zero on one side is a difference', () => {
  const I = 'toy/instructions';
  const d = data(
    run('r1', [
      {
        key: I,
        unit: 'instructions',
        method: 'instruction-count',
        higherIsBetter: false,
        values: { '3.1.2': [2000], '3.1.3': [1000], '3.4.0': [1002], '1.1.1w': [0] },
      },
    ]),
  );
  const ev = (builds: string[], expect: string, threshold = 0.005) => evaluateClaim(claim({ tests: [cmp(I, builds, expect, threshold)] }), S, d);
  const twice = ev(['3.1.2', '3.1.3'], 'higher');
  assert.equal(twice.verdict, 'confirmed');
  assert.equal(twice.hosts[0]!.comparisons[0]!.pairing, 'deterministic');
  assert.equal(twice.hosts[0]!.comparisons[0]!.interval, null);
  assert.equal(ev(['3.4.0', '3.1.3'], 'same').verdict, 'confirmed'); // +0.2%, inside the 0.5% threshold
  assert.equal(ev(['3.4.0', '3.1.3'], 'higher').verdict, 'contradicted');
  const zero = ev(['3.1.3', '1.1.1w'], 'higher');
  assert.equal(zero.verdict, 'confirmed');
  assert.equal(zero.hosts[0]!.comparisons[0]!.zero, 'b');
  assert.equal(ev(['1.1.1w', '3.1.3'], 'lower').verdict, 'confirmed');
  assert.equal(ev(['1.1.1w', '1.1.1w'], 'same').verdict, 'confirmed');
});

test('two series on one build are paired by round, like two builds', () => {
  const d = data(
    run('r1', [
      { key: RATE, values: { '3.5.7': around(600, 0.01), '3.4.1': around(900, 0.01) } },
      { key: 'toy/other', values: { '3.5.7': around(900, 0.01), '3.4.1': around(900, 0.01) } },
    ]),
  );
  const r = evaluateClaim(claim({ tests: [{ series: [RATE, 'toy/other'], builds: ['3.5.7', '3.4.1'], expect: 'lower', threshold: 0.05 }] }), S, d);
  assert.deepEqual(
    r.hosts[0]!.comparisons.map((c) => [c.label, c.verdict]),
    [
      ['toy-rate vs toy-other, on 3.5.7', 'confirmed'],
      ['toy-rate vs toy-other, on 3.4.1', 'contradicted'],
    ],
  );
  assert.equal(r.verdict, 'contradicted', 'every comparison must hold');
});

test('one contradiction decides; a part of the claim with nothing measured leaves it open, and is named', () => {
  const d = data(
    run('r1', [{ key: RATE, values: { '3.0.2': around(200, 0.01), '1.1.1w': around(100, 0.01), '3.1.3': around(100, 0.01), '3.3.0': around(102, 0.03) } }]),
  );
  const ev = (...tests: object[]) => evaluateClaim(claim({ tests }), S, d);
  const ok = cmp(RATE, ['3.0.2', '1.1.1w'], 'higher');
  const bad = cmp(RATE, ['3.1.3', '1.1.1w'], 'higher');
  const unsure = cmp(RATE, ['3.3.0', '1.1.1w'], 'higher');
  const missing = cmp(RATE, ['3.5.7', '1.1.1w'], 'higher');
  assert.equal(ev(ok, bad, missing).verdict, 'contradicted');
  const partly = ev(ok, missing);
  assert.equal(partly.verdict, 'not-measured');
  assert.match(partly.reason, /^not measured yet: toy-rate on 3\.5\.7; the other comparisons are shown/);
  assert.deepEqual(
    partly.hosts[0]!.comparisons.map((c) => c.verdict),
    ['confirmed', 'not-measured'],
  );
  assert.equal(ev(ok, unsure).verdict, 'not-shown');
  assert.equal(ev(missing).verdict, 'not-measured');
  assert.equal(ev(ok, ok).verdict, 'confirmed');
});

test('per build: a claim over several builds is decided on the builds measured, naming the missing one', () => {
  const two = 'toy/two-threads';
  const one = 'toy/one-thread';
  const versions = ['1.1.1w', '3.0.22', '3.1.4', '3.5.7'];
  const d = data(
    run('r1', [
      { key: two, values: Object.fromEntries(versions.map((v) => [v, around(190, 0.01)])) },
      { key: one, values: Object.fromEntries(versions.map((v) => [v, around(100, 0.01)])) },
    ]),
  );
  const s2 = series(two, one);
  const builds = ['3.0.2', ...versions];
  const r = evaluateClaim(claim({ tests: [{ series: [two, one], builds, expect: 'higher', threshold: 0.5 }] }), s2, d);
  assert.equal(r.verdict, 'confirmed', r.reason);
  assert.deepEqual(
    r.hosts[0]!.comparisons.map((c) => [c.label.replace(/.*on /, ''), c.verdict]),
    [['3.0.2', 'not-measured'], ...versions.map((v) => [v, 'confirmed'])],
  );
  assert.match(r.reason, /decided on 4 of 5 comparisons; 3\.0\.2 not measured yet$/);
  // a measured build that contradicts still decides
  const slow = data(
    run('r1', [
      { key: two, values: { ...Object.fromEntries(versions.map((v) => [v, around(190, 0.01)])), '3.1.4': around(100, 0.01) } },
      { key: one, values: Object.fromEntries(versions.map((v) => [v, around(100, 0.01)])) },
    ]),
  );
  assert.equal(evaluateClaim(claim({ tests: [{ series: [two, one], builds, expect: 'higher', threshold: 0.5 }] }), s2, slow).verdict, 'contradicted');
});

test('a build the summary has no entry for is looked up in a run behind it that measured both sides', () => {
  // the newer run measures 3.0.8 only, so the summary takes 3.0.8 from it and has 3.0.2 from nowhere:
  // the older run measured both and is not the source of any summary row for 3.0.2 (it is dropped below)
  const old = run('both', [{ key: RATE, values: { '3.0.2': around(100, 0.01), '3.0.8': around(101, 0.01) } }], { startedAt: '2026-01-02T00:00:00.000Z' });
  const d = data(old);
  d.summary = { ...d.summary!, entries: d.summary!.entries.filter((e) => !(e.key === RATE && e.version === '3.0.2')) };
  const t = cmp(RATE, ['3.0.2', '3.0.8'], 'same', 0.15);
  const r = evaluateClaim(claim({ tests: [t] }), S, d);
  assert.equal(r.verdict, 'confirmed', r.reason);
  const c = r.hosts[0]!.comparisons[0]!;
  assert.equal(c.runId, 'both');
  assert.match(c.reason, /in the run of both, which measured both; the summary has no entry for 3\.0\.2/);
  // without the run files it is not measured yet, and says which build is missing
  const without = evaluateClaim(claim({ tests: [t] }), S, { summary: d.summary, detailed: d.detailed });
  assert.equal(without.verdict, 'not-measured');
  assert.deepEqual(without.hosts[0]!.comparisons[0]!.missing, ['3.0.2']);
  // a run of another machine is no substitute
  const elsewhere = data(
    run('other', [{ key: RATE, values: { '3.0.2': around(100, 0.01), '3.0.8': around(101, 0.01) } }], { host: 'b' }),
    run('here', [{ key: RATE, values: { '3.0.8': around(101, 0.01) } }], { host: 'a' }),
  );
  const here = evaluateClaim(claim({ tests: [t] }), S, elsewhere).hosts.find((h) => h.host === 'a')!;
  assert.equal(here.verdict, 'not-measured');
});

test('a quoted size is tested as quoted, the same tolerance both ways: reproduced, smaller or larger than reported, direction apart', () => {
  const I = 'toy/instructions';
  const d = data(
    run('r1', [
      {
        key: I,
        unit: 'instructions',
        method: 'instruction-count',
        higherIsBetter: false,
        values: { '3.0.2': [1000], '3.1.4': [2180], '3.2.1': [1000], '1.1.1w': [1940], '3.4.0': [5200], '3.5.7': [900] },
      },
    ]),
  );
  const study = (tests: object[]) => evaluateClaim(claim({ by: 'pr', quote: 'approx. 5 times faster', tests }), S, d);
  const mag = (builds: string[], value: number, tolerance = 0.25) => ({ series: I, builds, expect: 'magnitude', value, tolerance });
  // "5 times faster" (3.2.1 costs a fifth of 3.1.4), measured 2.18 times: smaller than reported, the reported way
  const smaller = study([mag(['3.2.1', '3.1.4'], 0.2)]);
  assert.equal(smaller.verdict, 'smaller-than-reported', smaller.reason);
  assert.equal(smaller.hosts[0]!.comparisons[0]!.direction, 'as-reported');
  assert.match(smaller.reason, /short of the tolerance around the reported size, in the direction reported/);
  // the same quote written the other way round (3.1.4 costs five times 3.2.1) says the same
  assert.equal(study([mag(['3.1.4', '3.2.1'], 5)]).verdict, 'smaller-than-reported');
  // larger: a reported rise of 2x, measured 5.2x
  const larger = study([mag(['3.4.0', '3.0.2'], 2)]);
  assert.equal(larger.verdict, 'larger-than-reported');
  assert.equal(larger.hosts[0]!.comparisons[0]!.direction, 'as-reported');
  // a reported fall, measured 5.2x the other way: larger than the band on the other side of no change is still "smaller", and opposite
  const opposite = study([mag(['3.4.0', '3.0.2'], 0.5)]);
  assert.equal(opposite.verdict, 'smaller-than-reported');
  assert.equal(opposite.hosts[0]!.comparisons[0]!.direction, 'opposite');
  // reproduced inside the band, on either side of the quoted value
  assert.equal(study([mag(['1.1.1w', '3.0.2'], 2)]).verdict, 'reproduced');
  assert.equal(study([mag(['3.1.4', '3.0.2'], 2)]).verdict, 'reproduced');
  // symmetric: 2 / 1.25 = 1.6 and 2 * 1.25 = 2.5 are the edges
  const t = ClaimTest.parse(mag(['1.1.1w', '3.0.2'], 2));
  assert.deepEqual(claimsModule.band(t, true), [1.6, 2.5]);
  assert.equal(expectationText(t), 'as reported, 2 times the second, within 25% either way: from 1.6 times the second to 2.5 times the second');
  // smaller on one comparison and larger on another: undecided, and the reason says which
  const both = study([mag(['3.2.1', '3.1.4'], 0.2), mag(['3.4.0', '3.0.2'], 2)]);
  assert.equal(both.verdict, 'not-shown');
  assert.match(
    both.reason,
    /differs from the report both ways: smaller than reported on toy-instructions, 3\.2\.1 vs 3\.1\.4, larger on toy-instructions, 3\.4\.0 vs 3\.0\.2/,
  );
  // never "contradicted" where a quoted size differs
  assert.ok([smaller, larger, opposite].every((r) => r.verdict !== 'contradicted'));
  // a band that reaches no change, or a magnitude in our own words, is refused
  assert.throws(() => ClaimTest.parse(mag(['3.1.4', '3.2.1'], 1.1, 0.2)), /must not reach 1/);
  assert.throws(() => Claim.parse({ id: 'x', text: 'Ours.', tests: [mag(['3.1.4', '3.2.1'], 5)] }), /our own claims/);
  assert.throws(
    () =>
      Claim.parse({
        id: 'x',
        text: 'Theirs.',
        by: 's',
        quote: 'q',
        tests: [{ series: I, builds: ['3.1.4', '3.2.1'], expect: 'between', range: [0.02, 0.08] }],
      }),
    /tested with `magnitude`/,
  );
});

test('paired rounds against a quoted size: an interval that cannot exclude it is not shown, one beyond it is larger than reported', () => {
  const d = data(
    run('r1', [
      { key: RATE, unit: 'us/op', higherIsBetter: false, values: { '3.3.0': around(220, 0.02), '3.3.2': around(106, 0.001), '3.0.2': around(100, 0.001) } },
    ]),
  );
  const q = (a: string) =>
    evaluateClaim(
      claim({ by: 'article', quote: 'about 6% faster', tests: [{ series: RATE, builds: [a, '3.0.2'], expect: 'magnitude', value: 1.06, tolerance: 0.02 }] }),
      S,
      d,
    );
  const far = q('3.3.0');
  assert.equal(far.verdict, 'larger-than-reported');
  assert.equal(far.hosts[0]!.comparisons[0]!.pairing, 'paired-rounds');
  assert.equal(q('3.3.2').verdict, 'reproduced');
});

test('supporting tests are shown beside the verdict and do not decide it', () => {
  const I = 'toy/instructions';
  const d = data(
    run('r1', [
      { key: RATE, unit: 'us/op', higherIsBetter: false, values: { '3.0.22': around(195, 0.2), '1.1.1w': around(100, 0.001) } },
      { key: I, unit: 'instructions', method: 'instruction-count', higherIsBetter: false, values: { '3.0.22': [1940], '1.1.1w': [1000] } },
    ]),
  );
  const tests = (role: string) => [
    { series: RATE, builds: ['3.0.22', '1.1.1w'], expect: 'magnitude', value: 2, tolerance: 0.02 },
    { series: I, builds: ['3.0.22', '1.1.1w'], expect: 'magnitude', value: 2, tolerance: 0.02, role },
  ];
  const c = (role: string) => evaluateClaim(claim({ by: 's', quote: 'more than 2x slower', tests: tests(role) }), S, d);
  // the instructions alone would say smaller than reported (1.94 < 2 / 1.02); CPU time cannot exclude 2x
  const decides = c('decides');
  assert.equal(decides.verdict, 'smaller-than-reported');
  const supports = c('supports');
  assert.equal(supports.verdict, 'not-shown', supports.reason);
  assert.deepEqual(
    supports.hosts[0]!.comparisons.map((x) => [x.test.role, x.verdict]),
    [
      ['decides', 'not-shown'],
      ['supports', 'smaller-than-reported'],
    ],
  );
  // a supporting test alone decides nothing: a claim needs a deciding test
  assert.throws(
    () => Claim.parse({ id: 'x', text: 'T.', tests: [{ series: I, builds: ['3.0.22', '1.1.1w'], expect: 'higher', threshold: 1, role: 'supports' }] }),
    /at least one test must decide/,
  );
  // only supporting data measured: not measured yet
  const onlyI = data(
    run('r1', [{ key: I, unit: 'instructions', method: 'instruction-count', higherIsBetter: false, values: { '3.0.22': [1940], '1.1.1w': [1000] } }]),
  );
  assert.equal(evaluateClaim(claim({ by: 's', quote: 'q', tests: tests('supports') }), S, onlyI).verdict, 'not-measured');
});

test('better and worse follow the metric: lower CPU time is better', () => {
  const d = data(run('r1', [{ key: RATE, unit: 'us/handshake', higherIsBetter: false, values: { '3.0.2': around(200, 0.01), '1.1.1w': around(100, 0.01) } }]));
  assert.equal(evaluateClaim(claim({ tests: [cmp(RATE, ['3.0.2', '1.1.1w'], 'worse')] }), S, d).verdict, 'confirmed');
  assert.equal(evaluateClaim(claim({ tests: [cmp(RATE, ['3.0.2', '1.1.1w'], 'better')] }), S, d).verdict, 'contradicted');
});

test('between: a claimed range of change, e.g. "+3.5% to +6%"', () => {
  const d = data(run('r1', [{ key: RATE, values: { '3.3.0': around(200, 0.01), '3.0.2': around(100, 0.01), '3.3.2': around(104.7, 0.002) } }]));
  const between = (a: string) =>
    evaluateClaim(claim({ tests: [{ series: RATE, builds: [a, '3.0.2'], expect: 'between', range: [0.035, 0.06] }] }), S, d).verdict;
  assert.equal(between('3.3.0'), 'contradicted');
  assert.equal(between('3.3.2'), 'confirmed');
});

test("share: one function's instructions as a fraction of the whole handshake", () => {
  const I = 'toy/instructions';
  const d = data(
    run('r1', [
      { key: I, unit: 'instructions', method: 'instruction-count', higherIsBetter: false, values: { '3.1.2': [250], '3.4.0': [10] } },
      { key: 'toy/other', unit: 'instructions', method: 'instruction-count', higherIsBetter: false, values: { '3.1.2': [1000], '3.4.0': [1000] } },
    ]),
  );
  const r = evaluateClaim(claim({ tests: [{ series: [I, 'toy/other'], builds: ['3.1.2', '3.4.0'], expect: 'share', range: [0.1, 1] }] }), S, d);
  assert.deepEqual(
    r.hosts[0]!.comparisons.map((c) => [c.verdict, resultText(c)]),
    [
      ['confirmed', '25% of the second (exact counts)'],
      ['contradicted', '1% of the second (exact counts)'],
    ],
  );
  assert.throws(() => ClaimTest.parse({ series: [I, 'b'], builds: ['3.1.2'], expect: 'share', range: [-0.1, 1] }), /must not be negative/);
});

test('results in words: paired change with its interval, coverage and rounds', () => {
  const d = data(run('r1', [{ key: RATE, values: { '3.0.2': around(200, 0.01), '1.1.1w': around(100, 0.01) } }]));
  const c = evaluateClaim(claim({ tests: [cmp(RATE, ['3.0.2', '1.1.1w'], 'higher')] }), S, d).hosts[0]!.comparisons[0]!;
  assert.match(resultText(c), /^\+\d+(\.\d+)?% higher \(better\) \(\+\d+(\.\d+)?% to \+\d+(\.\d+)?%; covers 9\d\.\d%; 8 paired rounds\)$/);
});

test('a change is worded with its sign: fewer handshakes per second is worse, less CPU is better, no change shown says nothing', () => {
  const iv = (low: number, high: number) => ({ low, high, coverage: 0.968, kind: 'order-statistic' as const });
  assert.equal(changeWords({ ratio: 0.697, interval: iv(0.647, 0.769), pairing: 'paired-rounds', higherIsBetter: true }), 'lower (worse)');
  assert.equal(changeWords({ ratio: 0.8, interval: iv(0.7, 0.9), pairing: 'paired-rounds', higherIsBetter: false }), 'lower (better)');
  assert.equal(changeWords({ ratio: 1.2, interval: null, pairing: 'deterministic', higherIsBetter: false }), 'higher (worse)');
  assert.equal(changeWords({ ratio: 0.9, interval: iv(0.8, 1.1), pairing: 'paired-rounds', higherIsBetter: true }), '');
});

test('figures marked not comparable across versions are compared only when the test says so on purpose', () => {
  const d = data(
    run('r1', [
      {
        key: RATE,
        comparability: { acrossVersions: false, group: 'x', reason: 'speed changed its AEAD loop' },
        values: { '3.4.0': around(300, 0.01), '3.4.1': around(100, 0.01) },
      },
    ]),
  );
  // groups are per entry: make 3.4.1 another group by hand
  d.summary!.entries.find((e) => e.version === '3.4.1')!.comparability.group = 'y';
  const t = cmp(RATE, ['3.4.1', '3.4.0'], 'lower');
  const plain = evaluateClaim(claim({ tests: [t] }), S, d);
  assert.equal(plain.verdict, 'not-shown');
  assert.match(plain.reason, /not comparable: speed changed its AEAD loop/);
  assert.equal(evaluateClaim(claim({ tests: [{ ...t, acrossMethodChange: true }] }), S, d).verdict, 'confirmed');
});

test('series of different units are an authoring error, named', () => {
  const d = data(
    run('r1', [
      { key: RATE, values: { '3.5.7': around(1, 0.01) } },
      { key: 'toy/other', unit: 'bytes', values: { '3.5.7': around(1, 0.01) } },
    ]),
  );
  assert.throws(
    () => evaluateClaim(claim({ tests: [{ series: [RATE, 'toy/other'], builds: ['3.5.7'], expect: 'same', threshold: 0.1 }] }), S, d),
    /ops\/s with bytes/,
  );
});

test('tally counts verdicts in a fixed order', () => {
  assert.deepEqual(tally([{ verdict: 'not-measured' }, { verdict: 'confirmed' }, { verdict: 'not-measured' }]), [
    { verdict: 'confirmed', count: 1 },
    { verdict: 'not-measured', count: 2 },
  ]);
  assert.deepEqual(
    tally([{ verdict: 'contradicted' }, { verdict: 'smaller-than-reported' }, { verdict: 'reproduced' }]).map((t) => t.verdict),
    ['reproduced', 'smaller-than-reported', 'contradicted'],
  );
});

// ------------------------------------------------------------------ the format

test('claim text carries no measured number; versions, algorithm names and parameter sizes pass', () => {
  for (const bad of [
    '3.0.2 is 5% slower',
    'it takes 31 ms',
    'a 2x gain',
    'about 12 µs more',
    'holds 94 KB',
    '1,216 bytes',
    '3 times faster',
    'reaches 5.3 GB/s',
  ])
    assert.ok(MEASURED_NUMBER.test(bad), bad);
  for (const good of [
    'TLS 1.3 handshakes on 3.0.2 cost more than on 1.1.1w',
    'RSA-2048 and X25519',
    '16-byte records',
    'ML-KEM-768 in 3.5',
    'P-256 and P-384',
    'the 3.0.x and 3.1.x releases',
  ])
    assert.ok(!MEASURED_NUMBER.test(good), good);
  assert.throws(() => Claim.parse({ id: 'x', text: 'It is 5% slower.', unverified: 'why' }), /measured number/);
});

test('the claim format says what is missing', () => {
  assert.throws(() => ClaimTest.parse({ series: 'a', builds: ['3.0.2', '1.1.1w'], expect: 'higher' }), /practical threshold/);
  assert.throws(() => ClaimTest.parse({ series: 'a', builds: ['3.0.2'], expect: 'higher', threshold: 0.05 }), /exactly two builds/);
  assert.throws(() => ClaimTest.parse({ series: 'a', builds: ['3.0.2', '1.1.1w'], expect: 'between' }), /range/);
  assert.throws(() => ClaimTest.parse({ series: 'a', builds: ['3.0', '1.1.1w'], expect: 'same', threshold: 0.05 }), /OpenSSL release/);
  assert.throws(() => Claim.parse({ id: 'x', text: 'Words.', by: 'study' }), /quotes the study/);
  assert.throws(() => Claim.parse({ id: 'x', text: 'Words.' }), /needs tests, or `unverified`/);
  assert.throws(
    () => Claim.parse({ id: 'x', text: 'Words.', unverified: 'why', tests: [{ series: 'a', builds: ['3.0.2', '1.1.1w'], expect: 'same', threshold: 0.1 }] }),
    /no tests/,
  );
  assert.ok(ClaimTest.parse({ series: ['a', 'b'], builds: ['3.5.7+no-ml-kem'], expect: 'same', threshold: 0.05 }));
  assert.throws(() => ClaimTest.parse({ series: 'a', builds: ['3.0.2', '1.1.1w'], expect: 'magnitude', value: 5 }), /needs value .* and tolerance/);
  assert.throws(() => ClaimTest.parse({ series: 'a', builds: ['3.0.2', '1.1.1w'], expect: 'higher', threshold: 1, value: 5 }), /belong to `magnitude` only/);
  assert.equal(ClaimTest.parse({ series: 'a', builds: ['3.0.2', '1.1.1w'], expect: 'higher', threshold: 1 }).role, 'decides');
});

test('crossCheck finds references to unknown series and studies', () => {
  const issues = crossCheck({
    claims: [claim({ by: 'nobody', quote: 'q', tests: [cmp('missing', ['3.0.2', '1.1.1w'], 'higher')] })],
    studies: [],
    series: series(RATE),
  });
  assert.deepEqual(
    issues.map((i) => i.message),
    ['"nobody" is neither "ours" nor a study id of this write-up', '"missing" is not a series of this write-up (give it in `series` so the page charts it)'],
  );
});

test('expectations in words, exactly as decided', () => {
  const t = (x: object, hib: boolean | null = null) => expectationText(ClaimTest.parse(x), hib);
  assert.equal(t(cmp(RATE, ['3.0.2', '1.1.1w'], 'higher')), 'higher: by more than 5%');
  assert.equal(t(cmp(RATE, ['3.0.2', '1.1.1w'], 'lower')), 'lower: by more than 4.76%');
  assert.equal(t(cmp(RATE, ['3.0.2', '1.1.1w'], 'higher', 1)), 'higher: more than 2 times the second');
  assert.equal(t(cmp(RATE, ['3.0.2', '1.1.1w'], 'lower', 4)), 'lower: less than 20% of the second');
  assert.equal(t(cmp(RATE, ['3.0.2', '1.1.1w'], 'same', 0.1)), 'the same: between −9.09% and +10%');
  assert.equal(t(cmp(RATE, ['3.0.2', '1.1.1w'], 'better')), 'better, by a threshold of 5%');
  assert.equal(t(cmp(RATE, ['3.0.2', '1.1.1w'], 'better'), false), 'better (lower): by more than 4.76%');
  assert.equal(t({ series: RATE, builds: ['3.3.0', '3.0.2'], expect: 'between', range: [0.035, 0.0625] }), 'a change between +3.5% and +6.25%');
  assert.equal(t({ series: [RATE, 'b'], builds: ['3.1.2'], expect: 'share', range: [0.1, 1] }), 'a share between 10% and 100% of the second');
});

// ------------------------------------------------------------------ other libraries (issue 18)

test('a claim names another library by its slug, a variant after "+"; OpenSSL refs are unchanged', () => {
  const { parseBuild, buildName, BuildRef } = claimsModule;
  assert.deepEqual(parseBuild('aws-lc-5.12.0'), { library: 'aws-lc', version: '5.12.0', variant: 'default' });
  assert.deepEqual(parseBuild('wolfssl-5.9.4+no-perf-options'), { library: 'wolfssl', version: '5.9.4', variant: 'no-perf-options' });
  assert.deepEqual(parseBuild('boringssl-44-boring-sys-5.4.0'), { library: 'boringssl', version: '44-boring-sys-5.4.0', variant: 'default' });
  assert.deepEqual(parseBuild('3.5.7+no-ml-kem'), { library: 'openssl', version: '3.5.7', variant: 'no-ml-kem' });
  assert.equal(buildName(parseBuild('aws-lc-5.12.0')), 'AWS-LC 5.12.0');
  assert.equal(buildName(parseBuild('3.5.7+no-ml-kem')), '3.5.7 built without ML-KEM');
  for (const ok of ['aws-lc-5.12.0', 'wolfssl-5.9.4+no-perf-options', 'boringssl-44-boring-sys-5.4.0', '3.5.7']) assert.ok(BuildRef.safeParse(ok).success, ok);
  // libraries the catalogue does not have (no real one's name: this must not break when one is added)
  for (const bad of ['no-such-tls-4.0.0', 'aws-lc', 'aws-lc-x', 'other-tls-0.23.37']) assert.ok(!BuildRef.safeParse(bad).success, bad);
});

test('claims compare another library with OpenSSL, paired by round in their run (the site fixture)', () => {
  const dir = new URL('../../tests/fixtures/data/', import.meta.url);
  const fixture: ClaimData = {
    summary: Summary.parse(JSON.parse(readFileSync(new URL('summary.json', dir), 'utf8'))),
    detailed: DetailedIterations.parse(JSON.parse(readFileSync(new URL('detailed-iterations.json', dir), 'utf8'))),
  };
  const key = (resume: string) =>
    `handshake/cpu-per-handshake[cert=ecdsa-p256,clientCtx=shared,clientGroups=X25519MLKEM768,proto=1.3,resume=${resume},serverGroups=X25519MLKEM768,side=client,threads=1]`;
  const series = [
    WriteupSeries.parse({ id: 'new', key: key('none'), caption: 'c' }),
    WriteupSeries.parse({ id: 'stateful', key: key('session-id'), caption: 'c' }),
  ];
  const claim = (builds: string[], s = 'new') => Claim.parse({ id: 'c', text: 'a claim', tests: [{ series: s, builds, expect: 'lower', threshold: 0.05 }] });
  const aws = evaluateClaim(claim(['aws-lc-5.12.0', '3.5.7']), series, fixture);
  assert.equal(aws.verdict, 'confirmed', aws.reason);
  assert.equal(aws.hosts[0]!.comparisons[0]!.pairing, 'paired-rounds');
  assert.equal(evaluateClaim(claim(['wolfssl-5.9.4+no-perf-options', '3.5.7']), series, fixture).verdict, 'contradicted');
  const boring = evaluateClaim(claim(['boringssl-44-boring-sys-5.4.0', '3.5.7'], 'stateful'), series, fixture);
  assert.equal(boring.verdict, 'not-shown', 'unsupported leaves the claim undecided');
  assert.match(boring.hosts[0]!.comparisons[0]!.reason, /unsupported \(BoringSSL does not implement TLS 1\.3 stateful/);
  assert.equal(evaluateClaim(claim(['aws-lc-9.9.9', '3.5.7']), series, fixture).verdict, 'not-measured');
});
