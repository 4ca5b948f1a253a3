// The stopping rule on synthetic noisy data: it stops when the effect is clear, its error rate stays
// at alpha however many looks it takes (Monte Carlo, fixed seed), and it reports "undecided" when the
// budget runs out. Also the t quantiles and the schedule it rests on.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { seededRandom } from './stats.ts';
import { ALPHA, SequentialTest, lookSchedule, ratioInterval, tCritical } from './sequential.ts';
import { normal } from '../experiments/hypothesis/synthetic.ts';
import { cpuVerdict, type ClaimKind, type LineVerdict } from './verdict.ts';

test('t critical values match the tables', () => {
  for (const [alpha, df, want] of [
    [0.05, 4, 2.776],
    [0.05, 10, 2.228],
    [0.05, 30, 2.042],
    [0.01, 5, 4.032],
    [0.001, 20, 3.85],
    [0.05, 100000, 1.96],
  ] as const)
    assert.ok(Math.abs(tCritical(alpha, df) - want) < 0.002, `t(${alpha}, ${df}) = ${tCritical(alpha, df)}, table ${want}`);
});

test('the schedule is declared up front: increasing looks ending at the maximum, alpha summing to 5%', () => {
  const s = lookSchedule(120);
  assert.equal(s.looks[0], 6);
  assert.equal(s.looks.at(-1), 120);
  assert.ok(s.looks.every((n, i) => i === 0 || n > s.looks[i - 1]!));
  assert.ok(s.looks.length < 20, 'geometric spacing keeps the looks few');
  assert.ok(Math.abs(s.alpha.reduce((a, b) => a + b, 0) - ALPHA) < 1e-12);
  assert.throws(() => lookSchedule(2), /at least 3 rounds/);
});

interface Sim {
  kind: ClaimKind;
  truth: number;
  sigma: number;
  maxRounds: number;
  /** the budget ends after this round (a final look spends what is left) */
  budgetRounds?: number;
}

/** One simulated run of one claim through the real SequentialTest: per-round paired ratios with log-normal noise. */
function simulate(s: Sim, rand: () => number) {
  const t = new SequentialTest(lookSchedule(s.maxRounds), new Map([['x', s.kind]]));
  const ratios: number[] = [];
  for (let round = 1; ; round++) {
    ratios.push(s.truth * Math.exp(s.sigma * normal(rand)));
    t.afterRound(round, () => ratios, round);
    if (t.undecided().length === 0 || t.exhausted) break;
    if (round === s.budgetRounds) {
      t.finalLook(round, () => ratios, round);
      break;
    }
  }
  return { line: t.lines.get('x')!, spent: t.spent, rounds: ratios.length };
}

/** The design the issue warned about: a 95% interval after every round, stop at the first verdict. */
function simulateNaive(s: Sim, rand: () => number): LineVerdict {
  const ratios: number[] = [];
  for (let round = 1; round <= s.maxRounds; round++) {
    ratios.push(s.truth * Math.exp(s.sigma * normal(rand)));
    const e = ratioInterval(ratios, ALPHA);
    if (!e) continue;
    const v = cpuVerdict(s.kind, e).verdict;
    if (v !== 'undecided') return v;
  }
  return 'undecided';
}

const RUNS = 2000;
/** Monte Carlo tolerance: three standard errors of a rate near alpha over RUNS runs */
const TOLERANCE = 3 * Math.sqrt((ALPHA * (1 - ALPHA)) / RUNS);

function wrongRate(s: Sim, wrong: LineVerdict, seed: number) {
  const rand = seededRandom(seed);
  let n = 0;
  for (let i = 0; i < RUNS; i++) if (simulate(s, rand).line.verdict === wrong) n++;
  return n / RUNS;
}

test('it stops as soon as the effect is clear', () => {
  const rand = seededRandom(11);
  const clear = simulate({ kind: 'more', truth: 1.25, sigma: 0.05, maxRounds: 100 }, rand);
  assert.equal(clear.line.verdict, 'supported');
  assert.equal(clear.line.decidedAtRound, 6, 'decided at the first look');
  assert.equal(clear.rounds, 6, 'and measured no further');
  const same = simulate({ kind: 'same', truth: 1.0, sigma: 0.03, maxRounds: 100 }, rand);
  assert.equal(same.line.verdict, 'supported');
  assert.ok(same.rounds <= 20, `an equivalence with 3% noise needed ${same.rounds} rounds`);
});

test('its error rate stays at alpha under repeated looks (Monte Carlo, fixed seed), where looking every round does not', () => {
  // "costs more" when there is no extra cost: a wrong "supported"
  const noCost = { kind: 'more' as const, truth: 1.0, sigma: 0.06, maxRounds: 100 };
  const rate = wrongRate(noCost, 'supported', 1);
  assert.ok(rate <= ALPHA + TOLERANCE, `false "costs more" in ${(rate * 100).toFixed(1)}% of runs`);
  // "costs the same" when the truth lies just outside the margin: a wrong "supported"
  const outside = wrongRate({ kind: 'same', truth: 1.052, sigma: 0.04, maxRounds: 100 }, 'supported', 2);
  assert.ok(outside <= ALPHA + TOLERANCE, `false "the same" in ${(outside * 100).toFixed(1)}% of runs`);
  // "costs more" refuted although the extra cost is just above the margin
  const above = wrongRate({ kind: 'more', truth: 1.052, sigma: 0.04, maxRounds: 100 }, 'refuted', 3);
  assert.ok(above <= ALPHA + TOLERANCE, `false refutation in ${(above * 100).toFixed(1)}% of runs`);
  // the same data, a 95% interval after every round: the check above would catch this design
  const rand = seededRandom(1);
  let naive = 0;
  for (let i = 0; i < RUNS; i++) if (simulateNaive(noCost, rand) === 'supported') naive++;
  assert.ok(naive / RUNS > ALPHA + TOLERANCE, `looking every round gave false "costs more" in only ${((naive / RUNS) * 100).toFixed(1)}% of runs`);
  console.log(`false decisions: no cost ${rate}, outside the margin ${outside}, above the margin ${above}; looking every round ${naive / RUNS}`);
});

test('when the budget runs out first it says "undecided", after one final look that spends the alpha left', () => {
  const r = simulate({ kind: 'same', truth: 1.05, sigma: 0.05, maxRounds: 100, budgetRounds: 10 }, seededRandom(4));
  assert.equal(r.rounds, 10);
  assert.equal(r.line.verdict, 'undecided');
  assert.equal(r.line.decidedAtRound, null);
  assert.match(r.line.needs, /both ends within ±5%/);
  assert.ok(Math.abs(r.spent - ALPHA) < 1e-12, `spent ${r.spent}`);
});
