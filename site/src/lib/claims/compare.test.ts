// How one comparison is found and judged (one run, paired rounds, coverage, exact deterministic counts,
// thresholds, comparability), seen through evaluateClaim on synthetic runs and on the site fixture.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { DetailedIterations, Summary } from '../../../../schema/index.ts';
import { Claim, ClaimTest, WriteupSeries } from './schema.ts';
import type { ClaimData } from './compare.ts';
import { evaluateClaim } from './evaluate.ts';
import { resultText } from './words.ts';
import { RATE, S, around, claim, cmp, data, run } from './test-data.ts';

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

test('claims compare another library with OpenSSL, paired by round in their run (the site fixture)', () => {
  const dir = new URL('../../../tests/fixtures/data/', import.meta.url);
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
