// Claim verdicts on synthetic data: every verdict is reachable, and the rules (one run, paired rounds,
// coverage, exact deterministic counts, thresholds, CPU features, several hosts) hold.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { Claim, ClaimTest } from './schema.ts';
import { band } from './judge.ts';
import { evaluateClaim, tally } from './evaluate.ts';
import { expectationText } from './words.ts';
import { RATE, S, around, claim, cmp, data, run, series } from './test-data.ts';

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
  assert.deepEqual(band(t, true), [1.6, 2.5]);
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
