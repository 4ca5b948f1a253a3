// Change detection for the nightly CPU-time series of the drift view, with its error rates measured on this
// project's own noise. The detector is a windowed Welch t-test: the W nights before a night against the W
// nights from it on (the kind of test continuous-benchmarking systems run on their nightly series; Mozilla's
// Perfherder compares a back window with a fore window the same way). A night is a step when |t| passes a
// threshold and the means differ by more than a minimum relative change; of steps closer than W nights, the
// one with the larger |t| is kept. A step is visible once W nights after it are measured.
//
// Confirmation (`confirm`): a step is published only once the next measurement after it became visible
// agrees with it (past the midpoint of the two levels, on the new side, by more than the minimum change):
// re-measuring before alerting. A false step from a few unlucky nights then needs one more unlucky
// measurement, so the threshold can be lower for the same false-alarm budget.
//
// The error rates come from simulation: nightly series built by resampling the rounds of committed runs
// (each night the median of as many rounds as a full run measures) plus the spread between nights of one
// build that the committed nights show beyond that, with a step of known size injected at a known night.
import { mean, median, seededRandom, variance } from './stats.ts';

export interface DetectorOptions {
  /** nights on each side of the compared boundary */
  window: number;
  /** |t| from which a difference counts */
  t: number;
  /** relative change of the means below which no step is reported, whatever t says */
  minChange: number;
  /** a step counts only once the measurement after its fore window agrees with it (re-measuring before alerting) */
  confirm?: boolean;
}

/** confirmed / not-confirmed: the measurement after the fore window agrees or not; awaiting: there is none yet */
export type Confirmation = 'confirmed' | 'not-confirmed' | 'awaiting';

export interface DetectedStep {
  /** index of the first night after the step */
  at: number;
  before: number;
  after: number;
  t: number;
  /** what the measurement after the fore window (index at + window) says of the step */
  confirmation: Confirmation;
}

/** Whether a later measurement agrees with a step: past the midpoint of its two levels on the new side, and further from `before` than the minimum change. */
export function agrees(step: Pick<DetectedStep, 'before' | 'after'>, value: number, minChange: number): boolean {
  const mid = (step.before + step.after) / 2;
  const onNewSide = step.after > step.before ? value > mid : value < mid;
  return onNewSide && Math.abs(value - step.before) > minChange * Math.abs(step.before);
}

/** Welch's t of b against a (positive when b's mean is higher); infinite when both are constant and differ. */
export function welchT(a: readonly number[], b: readonly number[]): number {
  const ma = mean(a);
  const mb = mean(b);
  const se = Math.sqrt(variance(a, ma) / a.length + variance(b, mb) / b.length);
  if (se === 0) return mb === ma ? 0 : mb > ma ? Infinity : -Infinity;
  return (mb - ma) / se;
}

export function detectSteps(values: readonly number[], o: DetectorOptions): DetectedStep[] {
  if (o.window < 2) throw new Error('the window needs at least two nights on each side');
  const candidates: DetectedStep[] = [];
  for (let i = o.window; i + o.window <= values.length; i++) {
    const a = values.slice(i - o.window, i);
    const b = values.slice(i, i + o.window);
    const t = welchT(a, b);
    const before = mean(a);
    const after = mean(b);
    if (Math.abs(t) >= o.t && Math.abs(after - before) > o.minChange * Math.abs(before)) {
      const next = values[i + o.window];
      const confirmation: Confirmation = next === undefined ? 'awaiting' : agrees({ before, after }, next, o.minChange) ? 'confirmed' : 'not-confirmed';
      candidates.push({ at: i, before, after, t, confirmation });
    }
  }
  // the strongest first; a weaker candidate within one window of a kept step is the same step
  const kept: DetectedStep[] = [];
  for (const c of [...candidates].sort((x, y) => Math.abs(y.t) - Math.abs(x.t) || x.at - y.at))
    if (!kept.some((k) => Math.abs(k.at - c.at) < o.window)) kept.push(c);
  return kept.sort((x, y) => x.at - y.at);
}

/** What a night of one series looks like on a machine, relative to its true value (1 = no error). */
export interface NoiseModel {
  /** round values relative to their run's median of the same series and build, pooled */
  roundResiduals: number[];
  /** rounds a night's median is taken over (a full run's) */
  roundsPerNight: number;
  /** relative standard deviation between nights beyond what the rounds explain (0 when none is seen) */
  betweenNights: number;
}

/** One simulated night: the median of resampled rounds, times a between-night factor. */
export function simulateNight(model: NoiseModel, random: () => number): number {
  const rounds = Array.from({ length: model.roundsPerNight }, () => 1 + model.roundResiduals[Math.floor(random() * model.roundResiduals.length)]!);
  // Box-Muller: one normal deviate from two uniforms
  const z = Math.sqrt(-2 * Math.log(1 - random())) * Math.cos(2 * Math.PI * random());
  return median(rounds) * (1 + model.betweenNights * z);
}

/**
 * The noise model of one machine from its committed runs: `series` holds, per run, series and build, the
 * measured round values; `nights` holds, per series and build, the nightly medians of quiet nights.
 */
export function noiseModel(series: readonly (readonly number[])[], nights: readonly (readonly number[])[], roundsPerNight: number): NoiseModel | null {
  const roundResiduals = series
    .filter((v) => v.length >= 3)
    .flatMap((v) => {
      const m = median(v);
      return m > 0 ? v.map((x) => x / m - 1) : [];
    });
  if (roundResiduals.length < 30) return null;
  // the spread of a night's median that resampled rounds alone give, against the spread of real nights
  const random = seededRandom(1);
  const simulated = Array.from({ length: 2000 }, () => simulateNight({ roundResiduals, roundsPerNight, betweenNights: 0 }, random));
  const within = variance(simulated);
  const deviations = nights
    .filter((v) => v.length >= 2)
    .flatMap((v) => {
      const m = mean(v);
      // n/(n-1): deviations from a mean of n nights understate the spread
      return v.map((x) => (x / m - 1) * Math.sqrt(v.length / (v.length - 1)));
    });
  const observed = deviations.length >= 2 ? deviations.reduce((s, d) => s + d * d, 0) / deviations.length : 0;
  return { roundResiduals, roundsPerNight, betweenNights: Math.sqrt(Math.max(0, observed - within)) };
}

export interface ErrorRates {
  /** steps reported per 100 nights of series without a step (with confirmation: confirmed ones) */
  falseAlarmsPer100Nights: number;
  /** with confirmation: candidate steps per 100 nights of series without a step, each needing a measurement after it */
  candidatesPer100Nights: number;
  /** per injected relative step size: the share of series in which the step was found (within one night, right direction) */
  found: { size: number; share: number }[];
}

export interface EvaluationOptions {
  nights: number;
  trials: number;
  sizes: readonly number[];
  seed: number;
}

export const EVALUATION: EvaluationOptions = { nights: 60, trials: 300, sizes: [0.02, 0.05, 0.1, 0.2], seed: 7 };

/** Simulated series: without a step, and with a slowdown of each size from the middle night on. */
export interface Simulation {
  flat: number[][];
  stepped: { size: number; series: number[][] }[];
  stepAt: number;
  nights: number;
}

/** One set of simulated series, reused for every detector setting (the settings are compared on the same noise). */
export function simulate(model: NoiseModel, o: EvaluationOptions = EVALUATION): Simulation {
  const random = seededRandom(o.seed);
  const night = () => simulateNight(model, random);
  const stepAt = Math.floor(o.nights / 2);
  const series = (size: number) => Array.from({ length: o.trials }, () => Array.from({ length: o.nights }, (_, i) => night() * (i >= stepAt ? 1 - size : 1)));
  return { flat: series(0), stepped: o.sizes.map((size) => ({ size, series: series(size) })), stepAt, nights: o.nights };
}

/** The steps a detector reports: with confirmation, only those the next measurement confirmed. */
export const reported = (steps: readonly DetectedStep[], o: DetectorOptions): DetectedStep[] =>
  o.confirm ? steps.filter((s) => s.confirmation === 'confirmed') : [...steps];

export function errorRates(sim: Simulation, detector: DetectorOptions): ErrorRates {
  const perNight = (n: number) => (100 * n) / (sim.flat.length * sim.nights);
  const flat = sim.flat.map((v) => detectSteps(v, detector));
  const found = sim.stepped.map(({ size, series }) => ({
    size,
    share:
      series.filter((v) => reported(detectSteps(v, detector), detector).some((s) => Math.abs(s.at - sim.stepAt) <= 1 && s.after < s.before)).length /
      series.length,
  }));
  return {
    falseAlarmsPer100Nights: perNight(flat.reduce((n, steps) => n + reported(steps, detector).length, 0)),
    candidatesPer100Nights: perNight(flat.reduce((n, steps) => n + steps.length, 0)),
    found,
  };
}

/** The detector settings tried, and the false-alarm budget the chosen one must keep. */
export const TUNING = {
  windows: [3, 4, 5, 6, 8],
  thresholds: [2, 2.5, 3, 4, 5, 6, 7, 8, 10],
  confirm: [false, true],
  minChange: 0.01,
  maxFalseAlarmsPer100Nights: 1,
} as const;

/**
 * The settings that find the most steps (the mean share found over the simulated sizes; then the shorter
 * window, then without confirmation) while keeping false alarms within the budget; null when none does.
 * `confirm` limits the search to settings with or without confirmation.
 */
export function tune(model: NoiseModel, o: EvaluationOptions = EVALUATION, confirm?: boolean): { detector: DetectorOptions; rates: ErrorRates } | null {
  const sim = simulate(model, o);
  let best: { detector: DetectorOptions; rates: ErrorRates } | null = null;
  const score = (r: ErrorRates) => mean(r.found.map((f) => f.share));
  const settings = TUNING.confirm
    .filter((c) => confirm === undefined || c === confirm)
    .flatMap((c) => TUNING.windows.flatMap((window) => TUNING.thresholds.map((t) => ({ window, t, minChange: TUNING.minChange, confirm: c }))));
  for (const detector of settings) {
    const rates = errorRates(sim, detector);
    if (rates.falseAlarmsPer100Nights > TUNING.maxFalseAlarmsPer100Nights) continue;
    const [a, b] = [score(rates), best ? score(best.rates) : -1];
    if (a > b || (a === b && detector.window < best!.detector.window)) best = { detector, rates };
  }
  return best;
}
