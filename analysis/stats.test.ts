import { test } from 'node:test';
import assert from 'node:assert/strict';
import {
  binomialHalfCdf,
  compareRounds,
  describe,
  median,
  medianInterval,
  orderStatisticCoverage,
  pairedRatio,
  seededRandom,
  significant,
  valuesByRound,
} from './stats.ts';

test('descriptive statistics of a known sample', () => {
  const s = describe([10, 12, 11, 13, 9]);
  assert.equal(s.n, 5);
  assert.equal(s.median, 11);
  assert.equal(s.mean, 11);
  assert.equal(s.min, 9);
  assert.equal(s.max, 13);
  assert.ok(Math.abs(s.stdev! - Math.sqrt(2.5)) < 1e-12);
  assert.ok(Math.abs(s.cv! - Math.sqrt(2.5) / 11) < 1e-12);
  assert.equal(median([4, 1, 3, 2]), 2.5);
});

test('exact coverage of order-statistic intervals (binomial, p = 1/2)', () => {
  assert.equal(binomialHalfCdf(5, 0), 1 / 32);
  assert.equal(orderStatisticCoverage(5, 1), 1 - 2 / 32); // [min, max] of 5: 93.75%
  assert.equal(orderStatisticCoverage(6, 1), 1 - 2 / 64); // 96.875%
  assert.ok(Math.abs(orderStatisticCoverage(9, 2) - (1 - (2 * 10) / 512)) < 1e-12); // [x2, x8] of 9
  assert.equal(orderStatisticCoverage(3, 1), 0.75);
});

test('below n = 6 the interval is the range and says its coverage; from 6 on it is a real 95% interval', () => {
  const five = describe([5, 1, 4, 2, 3]);
  assert.deepEqual(five.interval, { low: 1, high: 5, coverage: 0.9375, kind: 'range' });
  const six = describe([6, 1, 5, 2, 4, 3]);
  assert.deepEqual(six.interval, { low: 1, high: 6, coverage: 0.96875, kind: 'order-statistic' });
  const twelve = describe([12, 1, 11, 2, 10, 3, 9, 4, 8, 5, 7, 6]);
  assert.equal(twelve.interval!.kind, 'order-statistic');
  assert.ok(twelve.interval!.coverage >= 0.95);
  assert.ok(twelve.interval!.low > 1 && twelve.interval!.high < 12, 'n = 12 trims the extremes');
  assert.equal(describe([7]).interval, null);
});

test('deterministic metrics carry no interval', () => {
  const s = describe([1000, 1000, 1000], true);
  assert.equal(s.deterministic, true);
  assert.equal(s.interval, null);
});

test('the stated coverage is the real coverage (simulation on a skewed distribution)', () => {
  const rand = seededRandom(42);
  const trueMedian = Math.LN2; // median of Exp(1)
  for (const n of [6, 9, 15]) {
    let covered = 0;
    let stated = 0;
    const trials = 4000;
    for (let t = 0; t < trials; t++) {
      const xs = Array.from({ length: n }, () => -Math.log(1 - rand()));
      const iv = medianInterval(xs)!;
      stated = iv.coverage;
      if (iv.low <= trueMedian && trueMedian <= iv.high) covered++;
    }
    assert.ok(Math.abs(covered / trials - stated) < 0.015, `n=${n}: covered ${covered / trials}, stated ${stated}`);
  }
});

const rounds = (values: number[]) => new Map(values.map((v, i) => [i + 1, [v]]));

test('paired comparison: per-round ratios cancel drift that independent medians would not', () => {
  const drift = [100, 140, 90, 160, 110, 130];
  const a = rounds(drift.map((d) => d * 1.05));
  const b = rounds(drift);
  const c = compareRounds(a, b, 'x', false)!;
  assert.equal(c.pairing, 'paired-rounds');
  assert.equal(c.pairs, 6);
  assert.ok(Math.abs(c.ratio - 1.05) < 1e-9);
  assert.equal(c.verdict, 'higher');
  assert.equal(compareRounds(b, a, 'x', false)!.verdict, 'lower');
});

test('paired comparison: overlap is no difference; too few rounds for 95% is not enough data', () => {
  const b = rounds([100, 100, 100, 100, 100, 100]);
  assert.equal(compareRounds(rounds([97, 103, 99, 104, 98, 101]), b, 'x', false)!.verdict, 'no-difference-shown');
  const five = compareRounds(rounds([110, 111, 112, 113, 114]), rounds([100, 100, 100, 100, 100]), 'x', false)!;
  assert.equal(five.verdict, 'not-enough-data', '5 rounds: the range covers only 93.75%');
  assert.equal(five.interval!.kind, 'range');
  assert.equal(compareRounds(rounds([1, 2, 3]), rounds([0, 0, 0]), 'x', false), null, 'no ratio to zero');
  assert.equal(compareRounds(new Map([[1, [5]]]), new Map([[2, [5]]]), 'x', false), null, 'no common round');
});

test('deterministic comparison: changed only beyond the threshold', () => {
  const base = rounds([1_000_000]);
  assert.equal(compareRounds(rounds([1_004_000]), base, 'x', true)!.verdict, 'within-threshold');
  assert.equal(compareRounds(rounds([1_006_000]), base, 'x', true)!.verdict, 'higher');
  assert.equal(compareRounds(rounds([990_000]), base, 'x', true)!.verdict, 'lower');
  assert.equal(compareRounds(rounds([990_000]), base, 'x', true)!.interval, null);
});

test('paired ratios: interval around the geometric mean, excludes 1 only when consistent', () => {
  const r = pairedRatio([1.2, 1.21, 1.19, 1.2, 1.22, 1.18]);
  assert.ok(Math.abs(r.ratio - 1.2) < 0.01);
  assert.ok(r.ci95!.low > 1.15 && r.ci95!.high < 1.25);
  const mixed = pairedRatio([0.9, 1.1, 1.0, 0.95, 1.05]);
  assert.ok(mixed.ci95!.low < 1 && mixed.ci95!.high > 1);
});

test('significant digits: non-integers are cut, integers and everything else stay; order is kept', () => {
  const stats = {
    n: 6,
    median: 624353742.8084635,
    cv: 0.04196291449834516,
    interval: { low: 584297871.2733281, high: 654528520.6716466, kind: 'order-statistic' },
    deterministic: false,
    ratios: [1.1124748339033934, null],
  };
  assert.deepEqual(significant(stats, 6), {
    n: 6,
    median: 624354000,
    cv: 0.0419629,
    interval: { low: 584298000, high: 654529000, kind: 'order-statistic' },
    deterministic: false,
    ratios: [1.11247, null],
  });
  assert.equal(significant(123456789, 6), 123456789, 'a count stays exact');
  assert.equal(significant(null, 6), null);
  const random = seededRandom(7);
  for (let i = 0; i < 1000; i++) {
    const [a, b] = [random() * 10 ** (random() * 12), random() * 10 ** (random() * 12)].sort((x, y) => x - y);
    assert.ok(significant(a!, 6) <= significant(b!, 6), `${a} <= ${b}`);
  }
});

test('values by round from the parallel lists of a detailed-iterations row', () => {
  assert.deepEqual(
    [...valuesByRound([1, 2, 2, 3], [10, 20, 21, 30])],
    [
      [1, [10]],
      [2, [20, 21]],
      [3, [30]],
    ],
  );
});
