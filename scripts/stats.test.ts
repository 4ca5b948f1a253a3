import { test } from 'node:test';
import assert from 'node:assert/strict';
import { compareMedians, describe, median, pairedRatio } from './stats.ts';

test('descriptive statistics of a known sample', () => {
  const s = describe([10, 12, 11, 13, 9]);
  assert.equal(s.n, 5);
  assert.equal(s.median, 11);
  assert.equal(s.mean, 11);
  assert.equal(s.min, 9);
  assert.equal(s.max, 13);
  assert.ok(Math.abs(s.stdev! - Math.sqrt(2.5)) < 1e-12);
  assert.ok(Math.abs(s.cv! - Math.sqrt(2.5) / 11) < 1e-12);
  assert.ok(s.ci95 && s.ci95.low <= 11 && s.ci95.high >= 11 && s.ci95.low >= 9 && s.ci95.high <= 13);
});

test('intervals are deterministic and absent below three values', () => {
  assert.deepEqual(describe([1, 5, 3, 8, 2, 9]), describe([1, 5, 3, 8, 2, 9]));
  assert.equal(describe([1, 2]).ci95, null);
  assert.equal(median([4, 1, 3, 2]), 2.5);
});

test('a comparison follows its interval: clear difference, overlap, too little data', () => {
  const fast = [100, 101, 99, 102, 100, 98];
  const slow = [80, 81, 79, 82, 80, 78];
  assert.equal(compareMedians(fast, slow, 'x')!.verdict, 'higher');
  assert.equal(compareMedians(slow, fast, 'x')!.verdict, 'lower');
  const noisy = [90, 110, 100, 95, 105, 99];
  assert.equal(compareMedians(noisy, [100, 101, 99, 102, 100, 98], 'x')!.verdict, 'no-difference-shown');
  assert.equal(compareMedians([1, 2], [1, 2, 3], 'x')!.verdict, 'not-enough-data');
  assert.equal(compareMedians([1, 2, 3], [0, 0, 0], 'x'), null, 'no ratio to zero');
});

test('paired ratios: interval around the geometric mean, excludes 1 only when consistent', () => {
  const r = pairedRatio([1.2, 1.21, 1.19, 1.2, 1.22, 1.18]);
  assert.ok(Math.abs(r.ratio - 1.2) < 0.01);
  assert.ok(r.ci95!.low > 1.15 && r.ci95!.high < 1.25);
  const mixed = pairedRatio([0.9, 1.1, 1.0, 0.95, 1.05]);
  assert.ok(mixed.ci95!.low < 1 && mixed.ci95!.high > 1);
});
