// Verdict logic: each line of evidence on its own, their combination, and per-side claims (H4a/H4b)
// on synthetic paired blocks.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { claimKey, claimOutcome, fmtUs, instructionLine, medianCost, pairedRatios } from '../experiments/hypothesis/analysis.ts';
import { CLAIMS } from '../experiments/hypothesis/claims.ts';
import { SequentialTest, fixedSchedule } from './sequential.ts';
import { syntheticRound, type CostModel } from '../experiments/hypothesis/synthetic.ts';
import { seededRandom } from './stats.ts';
import { combine, cpuVerdict, instructionVerdict, signedPct } from './verdict.ts';

const ci = (low: number, high: number) => ({ low, high });

test('CPU line, "costs more": above 1 supports; at most the margin above 1 refutes; otherwise undecided', () => {
  assert.equal(cpuVerdict('more', ci(1.02, 1.3)).verdict, 'supported');
  assert.equal(cpuVerdict('more', ci(0.97, 1.04)).verdict, 'refuted', 'any extra cost is below the margin');
  assert.equal(cpuVerdict('more', ci(0.8, 0.9)).verdict, 'refuted', 'it costs less');
  const open = cpuVerdict('more', ci(0.99, 1.2));
  assert.equal(open.verdict, 'undecided');
  assert.match(open.needs, /lower end above 0% \(now -1\.0%\) or upper end at most \+5% \(now \+20\.0%\)/);
  assert.equal(cpuVerdict('more', null).verdict, 'not-measured');
});

test('CPU line, "costs the same": inside ±5% supports, wholly outside refutes, straddling is undecided', () => {
  assert.equal(cpuVerdict('same', ci(0.97, 1.04)).verdict, 'supported');
  assert.equal(cpuVerdict('same', ci(1.06, 1.2)).verdict, 'refuted');
  assert.equal(cpuVerdict('same', ci(0.8, 0.94)).verdict, 'refuted');
  const open = cpuVerdict('same', ci(1.01, 1.07));
  assert.equal(open.verdict, 'undecided');
  assert.match(open.needs, /both ends within ±5%/);
});

test('instruction line: deterministic, decided by the stated thresholds', () => {
  assert.equal(instructionVerdict('more', 1.18).verdict, 'supported');
  assert.equal(instructionVerdict('more', 1.004).verdict, 'refuted', 'below the 0.5% threshold is no difference');
  assert.equal(instructionVerdict('same', 1.001).verdict, 'supported');
  assert.equal(instructionVerdict('same', 0.93).verdict, 'refuted');
  assert.equal(instructionVerdict('same', null).verdict, 'not-measured');
});

test('the overall verdict names the deciding line and flags disagreement instead of picking one', () => {
  const cpu = (v: 'supported' | 'refuted' | 'undecided') => ({ verdict: v, why: `cpu ${v}` });
  const ins = (v: 'supported' | 'refuted' | 'not-measured') => ({ verdict: v, why: `instr ${v}` });
  assert.deepEqual(combine(cpu('supported'), ins('supported')).decidedBy, 'both');
  const byInstr = combine(cpu('undecided'), ins('supported'));
  assert.equal(byInstr.verdict, 'supported');
  assert.equal(byInstr.decidedBy, 'instructions');
  assert.match(byInstr.why, /^by instructions/);
  const byCpu = combine(cpu('refuted'), ins('not-measured'));
  assert.equal(byCpu.verdict, 'refuted');
  assert.equal(byCpu.decidedBy, 'cpu-time');
  const clash = combine(cpu('supported'), ins('refuted'));
  assert.equal(clash.verdict, 'conflicting');
  assert.equal(clash.decidedBy, null);
  assert.match(clash.why, /disagree/);
  assert.equal(combine(cpu('undecided'), ins('not-measured')).verdict, 'undecided');
});

test('percentages carry their sign and never read "-0.0%"', () => {
  assert.equal(signedPct(1.2), '+20.0%');
  assert.equal(signedPct(0.95), '-5.0%');
  assert.equal(signedPct(0.99996), '0.0%');
  assert.equal(signedPct(1.00004), '0.0%');
});

/** Blocks where the classic-only server configuration costs the client `clientRatio` and the server `serverRatio` of ECDH-only. */
function h4Blocks(clientRatio: number, serverRatio: number, rounds = 12) {
  const model: CostModel = {
    costs: {
      'v35-ecdh': { 'ecdsa-p256': { client: 200, server: 150 } },
      'v35-classic-server': { 'ecdsa-p256': { client: 200 * clientRatio, server: 150 * serverRatio } },
    },
    noise: 0.02,
    drift: 0.4,
    seed: 5,
  };
  const rand = seededRandom(model.seed);
  return Array.from({ length: rounds + 1 }, (_, r) => syntheticRound(model, r, rand, '2026-11-22T00:00:00Z')).flat();
}

function h4(clientRatio: number, serverRatio: number) {
  const blocks = h4Blocks(clientRatio, serverRatio);
  const claims = CLAIMS.filter((c) => c.id === 'H4a' || c.id === 'H4b');
  const t = new SequentialTest(fixedSchedule(12), new Map(claims.map((c) => [claimKey(c.id, 'ecdsa-p256'), c.kind])));
  t.afterRound(
    12,
    (key) => {
      const c = claims.find((x) => claimKey(x.id, 'ecdsa-p256') === key)!;
      return pairedRatios(blocks, c.numerator, c.denominator, 'ecdsa-p256', c.side);
    },
    60,
  );
  const counts = [
    { config: 'v35-ecdh', cert: 'ecdsa-p256', handshakes: 10, clientInstructions: 6e5, serverInstructions: 4.5e5, totalInstructions: 10.5e5 },
    {
      config: 'v35-classic-server',
      cert: 'ecdsa-p256',
      handshakes: 10,
      clientInstructions: 6e5 * clientRatio,
      serverInstructions: 4.5e5 * serverRatio,
      totalInstructions: 6e5 * clientRatio + 4.5e5 * serverRatio,
    },
  ];
  return Object.fromEntries(
    claims.map((c) => [c.id, claimOutcome(c, 'ecdsa-p256', t.lines.get(claimKey(c.id, 'ecdsa-p256'))!, instructionLine(c, 'ecdsa-p256', counts), blocks)]),
  );
}

test('H4 is two claims, one per side: the client pays, the server does not', () => {
  const r = h4(1.3, 1.0);
  assert.equal(r.H4a!.side, 'client');
  assert.equal(r.H4a!.verdict, 'supported');
  assert.equal(r.H4a!.decidedBy, 'both');
  assert.equal(r.H4b!.side, 'server');
  assert.equal(r.H4b!.verdict, 'supported');
  // the equivalence verdict states its margin in words and in µs: 5% of the server's median cost
  const serverMedian = medianCost(h4Blocks(1.3, 1.0), 'v35-ecdh', 'ecdsa-p256', 'server')!;
  assert.ok(serverMedian > 140 && serverMedian < 220, `median ${serverMedian}`);
  assert.equal(r.H4b!.marginUs, 0.05 * serverMedian);
  assert.ok(r.H4b!.sentence.includes(`within ±5%, i.e. ±${fmtUs(0.05 * serverMedian)} per handshake`), r.H4b!.sentence);
  // a server that pays too refutes the server's claim, not the client's
  const both = h4(1.3, 1.3);
  assert.equal(both.H4a!.verdict, 'supported');
  assert.equal(both.H4b!.verdict, 'refuted');
  // a client that does not pay refutes the client's claim only
  const neither = h4(1.0, 1.0);
  assert.equal(neither.H4a!.verdict, 'refuted');
  assert.equal(neither.H4b!.verdict, 'supported');
});
