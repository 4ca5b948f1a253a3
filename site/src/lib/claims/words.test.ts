// Claim tests and comparisons in words: expectations exactly as decided, and a change named beside its sign.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { ClaimTest } from './schema.ts';
import { evaluateClaim } from './evaluate.ts';
import { changeWords, expectationText, resultText } from './words.ts';
import { RATE, S, around, claim, cmp, data, run } from './test-data.ts';

test('a change is worded with its sign: fewer handshakes per second is worse, less CPU is better, no change shown says nothing', () => {
  const iv = (low: number, high: number) => ({ low, high, coverage: 0.968, kind: 'order-statistic' as const });
  assert.equal(changeWords({ ratio: 0.697, interval: iv(0.647, 0.769), pairing: 'paired-rounds', higherIsBetter: true }), 'lower (worse)');
  assert.equal(changeWords({ ratio: 0.8, interval: iv(0.7, 0.9), pairing: 'paired-rounds', higherIsBetter: false }), 'lower (better)');
  assert.equal(changeWords({ ratio: 1.2, interval: null, pairing: 'deterministic', higherIsBetter: false }), 'higher (worse)');
  assert.equal(changeWords({ ratio: 0.9, interval: iv(0.8, 1.1), pairing: 'paired-rounds', higherIsBetter: true }), '');
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

test('results in words: paired change with its interval, coverage and rounds', () => {
  const d = data(run('r1', [{ key: RATE, values: { '3.0.2': around(200, 0.01), '1.1.1w': around(100, 0.01) } }]));
  const c = evaluateClaim(claim({ tests: [cmp(RATE, ['3.0.2', '1.1.1w'], 'higher')] }), S, d).hosts[0]!.comparisons[0]!;
  assert.match(resultText(c), /^\+\d+(\.\d+)?% higher \(better\) \(\+\d+(\.\d+)?% to \+\d+(\.\d+)?%; covers 9\d\.\d%; 8 paired rounds\)$/);
});
