import { test } from 'node:test';
import assert from 'node:assert/strict';
import { join } from 'node:path';
import { readFileSync, readdirSync } from 'node:fs';
import { DetailedIterations, HypothesisResult, Summary } from '../../../../schema/index.ts';
import { buildSlug } from '../../../../catalogue/index.ts';
import { allFigures, keyShareNames, recommendations, sameCostClaims } from './advice.ts';
import { compareEntries, decisionText, keyOf } from './figures.ts';
import { supportOf } from './support.ts';

const dir = join(import.meta.dirname, '../../../tests/fixtures/data');
const summary = Summary.parse(JSON.parse(readFileSync(join(dir, 'summary.json'), 'utf8')));
const detailed = DetailedIterations.parse(JSON.parse(readFileSync(join(dir, 'detailed-iterations.json'), 'utf8')));
const hypDir = join(dir, 'hypothesis/obs-fixture-host');
const hypothesis = HypothesisResult.parse(JSON.parse(readFileSync(join(hypDir, readdirSync(hypDir)[0]!), 'utf8')));
const HOST = 'obs-fixture-host';
const TODAY = '2026-11-26';

test('a pair of one run is compared exactly as summary.json compares it (vsPreviousSeries: ratio and verdict)', () => {
  let checked = 0;
  for (const e of summary.entries) {
    const c = e.vsPreviousSeries;
    if (!c) continue;
    const b = summary.entries.find((x) => x.host === e.host && x.key === e.key && x.library === e.library && buildSlug(x) === c.against && x.runId === e.runId);
    if (!b) continue;
    const { comparison } = compareEntries(summary, detailed, e, b);
    assert.ok(comparison, e.key);
    assert.equal(comparison.ratio, c.ratio, `${e.key} ${e.version}`);
    assert.equal(comparison.verdict, c.verdict, e.key);
    assert.equal(comparison.pairing, c.pairing, e.key);
    checked++;
  }
  assert.ok(checked >= 5, `only ${checked} comparisons checked`);
});

test('two runs, a missing entry: no comparison, and the reason says so', () => {
  const key = summary.entries.find((e) => e.version === '3.4.0')!.key;
  const quick = summary.entries.find((e) => e.version === '3.4.0' && e.key === key)!;
  const full = summary.entries.find((e) => e.version === '3.4.1' && e.key === key && e.runId !== quick.runId);
  assert.ok(full, 'the fixture measures 3.4.1 in another run');
  assert.deepEqual(compareEntries(summary, detailed, quick, full), { comparison: null, why: 'measured in different runs: not compared' });
  assert.deepEqual(compareEntries(summary, detailed, quick, undefined), { comparison: null, why: 'not measured' });
});

test('support status from the catalogue on a given day', () => {
  assert.equal(supportOf('1.1.1', TODAY)!.supported, false);
  assert.equal(supportOf('1.1.1', TODAY)!.until, 'support ended 2023-09-11');
  assert.deepEqual(
    [supportOf('3.5', TODAY)!.supported, supportOf('3.5', TODAY)!.lts, supportOf('3.5', TODAY)!.until],
    [true, true, 'supported until 2030-04-08'],
  );
  assert.equal(supportOf('4.0', TODAY)!.until, 'end of support not announced');
  assert.equal(supportOf('3.0', '2026-01-01')!.supported, true);
  assert.equal(supportOf('9.9', TODAY), null);
});

test('the fixture machine: run 3.5.7; upgrades from every older series; 1.1.1 is the best and out of support', () => {
  const r = recommendations(summary, detailed, HOST, TODAY, hypothesis);
  assert.equal(r.pick?.version, '3.5.7');
  assert.equal(r.pick?.reason, 'fastest-supported');
  assert.equal(r.best?.version, '1.1.1w');
  assert.deepEqual(
    r.series.map((s) => [s.version, s.support?.supported]),
    [
      ['1.1.1w', false],
      ['3.0.22', false],
      ['3.4.1', false],
      ['3.5.7', true],
    ],
  );
  // the best is the reference, every other series is compared with it
  assert.equal(r.series[0]!.rate.b, null);
  for (const s of r.series.slice(1)) assert.equal(s.rate.b?.build, '1.1.1w');
  assert.deepEqual(
    r.upgrades.map((u) => u.from),
    ['1.1.1w', '3.0.22', '3.4.1'],
  );
  for (const u of r.upgrades) for (const { figure } of u.figures) assert.equal(figure.a.version, '3.5.7');
});

test('the release to run comes from the run with the most supported series, not the one with the most releases', () => {
  // 3.5.7's handshake rate moved to a run of its own (as a libraries run measures a few builds): the older run
  // keeps three releases, none supported on TODAY; the pick is still made, from the run that has 3.5.7
  const rate = keyOf('rate', 'X25519');
  const main = summary.entries.find((e) => e.host === HOST && e.key === rate && e.version === '3.5.7' && e.variant === 'default')!;
  const others = summary.entries.filter((e) => e.host === HOST && e.key === rate && e.runId === main.runId && e !== main && e.library === 'openssl');
  assert.ok(others.length >= 2, 'the fixture run has more releases than the one moved');
  const moved = { ...summary, entries: summary.entries.map((e) => (e === main ? { ...e, runId: '20261127T000000Z-full-libs' } : e)) };
  const r = recommendations(moved, detailed, HOST, TODAY, hypothesis);
  assert.equal(r.pick?.version, '3.5.7');
  assert.deepEqual(
    r.series.map((s) => s.version),
    ['3.5.7'],
  );
});

test('the newest LTS is recommended unless the data decide it is slower than the fastest supported release', () => {
  // on 2026-01-01, 3.0, 3.4 and 3.5 are supported; the fixture's 3.4.1 is decidedly faster than 3.5.7 with X25519 pinned
  const r = recommendations(summary, detailed, HOST, '2026-01-01', hypothesis);
  assert.equal(r.pick?.fastest.version, '3.4.1');
  assert.equal(r.pick?.lts?.version, '3.5.7');
  assert.equal(r.pick?.ltsVsFastest?.decided, true);
  assert.equal(r.pick?.ltsVsFastest?.tone, 'worse');
  assert.equal(r.pick?.version, '3.4.1');
  assert.equal(r.pick?.reason, 'fastest-supported');
});

test("3.5's default groups: the slowdown, what the groups cost, the setting from the ML-KEM test, and what is undecided", () => {
  const g = recommendations(summary, detailed, HOST, TODAY, hypothesis).groups!;
  assert.deepEqual([g.v35, g.v34, g.negotiated], ['3.5.7', '3.4.1', 'X25519MLKEM768']);
  assert.equal(g.groups, 'X25519:P-256:P-384');
  assert.deepEqual(
    g.hypothesis?.claims.map((c) => [c.cert, c.verdict]),
    [
      ['RSA-2048', 'supported'],
      ['ECDSA P-256', 'supported'],
    ],
  );
  const rate = g.slowdown.find((x) => x.measure === 'rate')!.figure;
  assert.deepEqual([rate.a.build, rate.b?.build, rate.decided, rate.tone], ['3.5.7', '3.4.1', true, 'worse']);
  assert.equal(rate.change, '−33.5%');
  assert.equal(decisionText(rate), 'decided: worse');
  const cost = g.defaultsCost.find((x) => x.measure === 'client')!.figure;
  assert.equal(cost.a.key.includes('clientGroups=default'), true);
  assert.equal(cost.b?.key.includes('clientGroups=X25519,'), true);
  const left = g.pinnedVs34.find((x) => x.measure === 'client')!.figure;
  assert.equal(left.decided, false);
  assert.equal(decisionText(left), 'no difference shown: the data cannot decide');
  // without a hypothesis result, the group the summary pins
  assert.equal(recommendations(summary, detailed, HOST, TODAY, null).groups!.groups, 'X25519');
});

test('the ML-KEM claims: only "3.5 with ECDH-only groups costs the same as 3.4 with defaults", else none', () => {
  assert.equal(sameCostClaims(hypothesis)?.claims.length, 2);
  assert.equal(sameCostClaims({ ...hypothesis, claims: hypothesis.claims.filter((c) => c.kind !== 'same') }), null);
});

test('a library with no figure on the reference handshake or bulk key is left out; every figure is listed once', () => {
  const r = recommendations(summary, detailed, HOST, TODAY, hypothesis);
  for (const l of r.libraries) assert.ok(l.figures.length > 0, l.name);
  const figs = allFigures(r);
  assert.equal(new Set(figs).size, figs.length);
  assert.ok(figs.length >= 15);
  assert.deepEqual(recommendations(summary, detailed, 'no-such-host', TODAY), {
    host: 'no-such-host',
    today: TODAY,
    pick: null,
    best: null,
    series: [],
    upgrades: [],
    groups: null,
    libraries: [],
  });
});

test('key shares as the harness records them, in names', () => {
  assert.deepEqual(keyShareNames('X25519MLKEM768:1216,X25519:32'), ['X25519MLKEM768', 'X25519']);
  assert.deepEqual(keyShareNames(null), []);
});
