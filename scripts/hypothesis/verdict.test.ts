// Verdict logic on synthetic paired measurements: supported, refuted and inconclusive cases.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { clientOnlyVerdict, equivalentVerdict, sideRatio, slowerVerdict } from './verdict.ts';
import { seededRandom } from '../stats.ts';

/** n paired blocks whose true ratio is `ratio`, each block with multiplicative noise of ±noise and a
 * machine-wide drift that hits both sides of a pair alike (what pairing is for). */
function pairs(ratio: number, noise: number, n = 30, seed = 1) {
  const rand = seededRandom(seed);
  const numerator: number[] = [];
  const denominator: number[] = [];
  for (let i = 0; i < n; i++) {
    const drift = 1 + 0.5 * Math.sin(i / 3); // the machine speeds up and slows down by 1.5x
    denominator.push(100 * drift * (1 + (rand() - 0.5) * 2 * noise));
    numerator.push(100 * ratio * drift * (1 + (rand() - 0.5) * 2 * noise));
  }
  return { numerator, denominator };
}

test('a clear slowdown is supported despite a 1.5x machine drift, because blocks are paired', () => {
  const r = sideRatio(pairs(1.2, 0.03));
  assert.ok(Math.abs(r.ratio! - 1.2) < 0.02, `ratio ${r.ratio}`);
  assert.equal(slowerVerdict(r.ci95).verdict, 'supported');
  assert.equal(equivalentVerdict(r.ci95).verdict, 'refuted');
});

test('no difference: the slowdown claim is refuted and equivalence is supported', () => {
  const r = sideRatio(pairs(1.0, 0.02));
  assert.equal(slowerVerdict(r.ci95).verdict, 'refuted');
  assert.equal(equivalentVerdict(r.ci95).verdict, 'supported');
});

test('too noisy or too few pairs: not shown, whatever the point estimate says', () => {
  const noisy = sideRatio(pairs(1.04, 0.4, 8, 7));
  assert.equal(slowerVerdict(noisy.ci95).verdict, 'not-shown');
  assert.equal(equivalentVerdict(noisy.ci95).verdict, 'not-shown');
  assert.equal(slowerVerdict(sideRatio(pairs(1.5, 0.01, 2)).ci95).verdict, 'not-measured');
  assert.equal(sideRatio({ numerator: [], denominator: [] }).pairs, 0);
});

test('a faster numerator refutes "slower"', () => {
  assert.equal(slowerVerdict(sideRatio(pairs(0.8, 0.02)).ci95).verdict, 'refuted');
});

test('H4 needs both: client slower and server unchanged', () => {
  const slower = sideRatio(pairs(1.15, 0.02)).ci95;
  const same = sideRatio(pairs(1.0, 0.02, 30, 3)).ci95;
  assert.equal(clientOnlyVerdict(slower, same).verdict, 'supported');
  assert.equal(clientOnlyVerdict(slower, slower).verdict, 'refuted', 'the server pays too');
  assert.equal(clientOnlyVerdict(same, same).verdict, 'refuted', 'the client does not pay');
  assert.equal(clientOnlyVerdict(null, same).verdict, 'not-measured');
});
