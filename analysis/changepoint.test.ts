import assert from 'node:assert/strict';
import { test } from 'node:test';
import { agrees, detectSteps, errorRates, noiseModel, simulate, simulateNight, tune, welchT, type NoiseModel } from './changepoint.ts';
import { seededRandom } from './stats.ts';

const quiet: NoiseModel = { roundResiduals: Array.from({ length: 200 }, (_, i) => ((i % 21) - 10) / 1000), roundsPerNight: 6, betweenNights: 0.003 };
const loud: NoiseModel = { roundResiduals: Array.from({ length: 200 }, (_, i) => ((i % 21) - 10) / 40), roundsPerNight: 6, betweenNights: 0.05 };
const small = { nights: 40, trials: 60, sizes: [0.02, 0.1], seed: 3 };

test("Welch's t: sign follows the second sample, infinite for two different constants, 0 for equal ones", () => {
  assert.ok(welchT([1, 2, 3], [4, 5, 6]) > 0);
  assert.ok(welchT([4, 5, 6], [1, 2, 3]) < 0);
  assert.equal(welchT([2, 2, 2], [3, 3, 3]), Infinity);
  assert.equal(welchT([2, 2, 2], [2, 2, 2]), 0);
});

test('a clear step is found at its night and in its direction; two steps far apart are both found; flat series give none', () => {
  const r = seededRandom(5);
  const noise = () => 1 + (r() - 0.5) * 0.01;
  const values = Array.from({ length: 50 }, (_, i) => 100 * noise() * (i >= 20 ? 0.9 : 1) * (i >= 35 ? 1.2 : 1));
  const steps = detectSteps(values, { window: 5, t: 6, minChange: 0.01 });
  assert.deepEqual(
    steps.map((s) => s.at),
    [20, 35],
  );
  assert.ok(steps[0]!.after < steps[0]!.before && steps[1]!.after > steps[1]!.before);
  assert.deepEqual(
    detectSteps(
      Array.from({ length: 50 }, () => 100 * noise()),
      { window: 5, t: 6, minChange: 0.01 },
    ),
    [],
  );
  // a change below the minimum is not a step, however consistent
  const tiny = Array.from({ length: 30 }, (_, i) => (i >= 15 ? 100.5 : 100));
  assert.deepEqual(detectSteps(tiny, { window: 5, t: 6, minChange: 0.01 }), []);
});

test('simulation: on quiet noise 10% steps are found and false alarms are rare; on loud noise 2% steps mostly are not', () => {
  const q = errorRates(simulate(quiet, small), { window: 5, t: 6, minChange: 0.01 });
  assert.ok(q.falseAlarmsPer100Nights < 0.5, `quiet false alarms ${q.falseAlarmsPer100Nights}`);
  assert.ok(q.found.find((f) => f.size === 0.1)!.share > 0.95);
  const l = errorRates(simulate(loud, small), { window: 5, t: 6, minChange: 0.01 });
  assert.ok(l.found.find((f) => f.size === 0.02)!.share < 0.2, `loud 2% found ${l.found[0]!.share}`);
  // a lower threshold trades false alarms for finds
  const eager = errorRates(simulate(loud, small), { window: 5, t: 2, minChange: 0.01 });
  assert.ok(eager.falseAlarmsPer100Nights > l.falseAlarmsPer100Nights);
});

test('the noise model recovers the spread between nights that the rounds do not explain', () => {
  const r = seededRandom(11);
  const residuals = Array.from({ length: 300 }, () => (r() - 0.5) * 0.2);
  const truth: NoiseModel = { roundResiduals: residuals, roundsPerNight: 6, betweenNights: 0.04 };
  const nights = Array.from({ length: 40 }, () => Array.from({ length: 8 }, () => simulateNight(truth, r)));
  const series = Array.from({ length: 20 }, () => Array.from({ length: 6 }, () => 1 + residuals[Math.floor(r() * residuals.length)]!));
  const m = noiseModel(series, nights, 6)!;
  assert.ok(Math.abs(m.betweenNights - 0.04) < 0.01, `estimated ${m.betweenNights}`);
  const none = noiseModel(
    series,
    nights.map((n) => n.map(() => 1)),
    6,
  )!;
  assert.equal(none.betweenNights, 0, 'identical nights: nothing between nights');
  assert.equal(noiseModel([[1, 2]], [], 6), null, 'too few rounds: no model');
});

test('tuning keeps the false-alarm budget', () => {
  const t = tune(quiet, small);
  assert.ok(t && t.rates.falseAlarmsPer100Nights <= 1);
});

test('confirmation: a step counts once the next measurement agrees; a later value back at the old level, or none yet, does not', () => {
  const base = Array.from({ length: 10 }, (_, i) => 100 + (i % 2) * 0.2);
  const stepped = [...base, ...Array.from({ length: 5 }, (_, i) => 90 + (i % 2) * 0.2)];
  const o = { window: 5, t: 6, minChange: 0.01, confirm: true };
  // the fore window ends with the series: nothing measured after it yet
  assert.deepEqual(
    detectSteps(stepped, o).map((s) => [s.at, s.confirmation]),
    [[10, 'awaiting']],
  );
  assert.deepEqual(
    detectSteps([...stepped, 90.1], o).map((s) => s.confirmation),
    ['confirmed'],
  );
  assert.deepEqual(
    detectSteps([...stepped, 99.9], o).map((s) => s.confirmation),
    ['not-confirmed'],
  );
  // the midpoint decides: 95.1 is on the old side of a 100 -> 90 step, 94.9 on the new
  assert.equal(agrees({ before: 100, after: 90 }, 95.1, 0.01), false);
  assert.equal(agrees({ before: 100, after: 90 }, 94.9, 0.01), true);
  assert.equal(agrees({ before: 100, after: 101 }, 100.6, 0.01), false, 'past the midpoint but within the minimum change');
});

test('confirmation: on loud noise the same threshold gives fewer false alarms with it than without, and tuning over both finds at least as many steps within the budget', () => {
  const sim = simulate(loud, small);
  const plain = errorRates(sim, { window: 5, t: 3, minChange: 0.01 });
  const confirmed = errorRates(sim, { window: 5, t: 3, minChange: 0.01, confirm: true });
  assert.ok(confirmed.falseAlarmsPer100Nights < plain.falseAlarmsPer100Nights, `${confirmed.falseAlarmsPer100Nights} vs ${plain.falseAlarmsPer100Nights}`);
  assert.equal(confirmed.candidatesPer100Nights, plain.falseAlarmsPer100Nights, 'every unconfirmed step is a candidate that needed a re-measurement');
  const withFives = { ...small, sizes: [0.05, 0.1] };
  const without = tune(loud, withFives, false);
  const any = tune(loud, withFives);
  const found = (r: typeof any) => (r ? r.rates.found.reduce((s, f) => s + f.share, 0) : 0);
  assert.ok(found(any) >= found(without) && found(any) > 0, `steps found: ${found(any)} with the choice, ${found(without)} without confirmation`);
  assert.ok(!any || any.rates.falseAlarmsPer100Nights <= 1);
});
