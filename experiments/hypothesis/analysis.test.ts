// The gap decomposition and the conclusion, on SYNTHETIC runs with known true costs: parts add up,
// a part whose interval spans zero is "not separable", never a negative cost, and the conclusion
// follows the verdicts.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { seededRandom } from '../../analysis/stats.ts';
import { conclusion, decompose } from './analysis.ts';
import { DECOMPOSITION, GAP_PARTS } from './claims.ts';
import { FIXTURE_MODEL, syntheticResult, syntheticRound, type CostModel } from './synthetic.ts';

const blocksOf = (model: CostModel, rounds: number) => {
  const rand = seededRandom(model.seed);
  return Array.from({ length: rounds + 1 }, (_, r) => syntheticRound(model, r, rand, '2026-11-22T00:00:00Z')).flat();
};

test('the parts of the gap add up to the total, each with its own interval', () => {
  const d = decompose(blocksOf(FIXTURE_MODEL, 20), 'ecdsa-p256', 0.05)!;
  assert.equal(d.pairs, 20);
  const sum = d.unusedShare!.us + d.negotiatedHybrid!.us + d.other!.us;
  assert.ok(Math.abs(sum - d.total.us) < 1e-9, `${sum} vs ${d.total.us}`);
  // true values: unused share 62 µs, negotiated hybrid 66 µs, other 2 µs (within the noise)
  assert.ok(d.unusedShare!.separable && d.unusedShare!.interval.low < 62 && d.unusedShare!.interval.high > 62, JSON.stringify(d.unusedShare));
  assert.ok(d.negotiatedHybrid!.separable);
  for (const p of [d.total, d.unusedShare!, d.negotiatedHybrid!, d.other!]) assert.ok(p.interval.low <= p.us && p.us <= p.interval.high);
});

test('a part whose interval spans zero is "not separable", never a negative cost', () => {
  let spanning = 0;
  for (let seed = 1; seed <= 40; seed++) {
    const model = { ...FIXTURE_MODEL, seed };
    const d = decompose(blocksOf(model, 8), 'rsa2048', 0.05)!;
    for (const p of [d.unusedShare!, d.negotiatedHybrid!, d.other!]) {
      const spans = p.interval.low <= 0 && p.interval.high >= 0;
      assert.equal(p.separable, !spans);
      if (spans) spanning++;
    }
  }
  assert.ok(spanning > 0, 'the model puts a part near zero: some runs must fail to separate it');
  const r = syntheticResult({ ...FIXTURE_MODEL, seed: 3 }, 12);
  for (const d of r.decomposition)
    if (!d.other!.separable) assert.match(r.conclusion, /outside key exchange \(".*?" minus ".*?"\): not separable from zero at this precision/);
  assert.doesNotMatch(r.conclusion, /-\d[\d.]* µs/, 'no negative cost in the conclusion');
});

test('the conclusion follows the verdicts: key shares, not a regression', () => {
  const r = syntheticResult(FIXTURE_MODEL, 60);
  assert.equal(r.progress.stoppedBecause, 'all-decided');
  for (const id of ['H1', 'H2', 'H3', 'H4a', 'H4b'])
    for (const c of r.claims.filter((x) => x.id === id)) assert.equal(c.verdict, 'supported', `${id} ${c.cert}: ${c.why}`);
  assert.match(r.conclusion, /^With RSA-2048 certificates, 3\.5\.7 with library defaults costs \d+ µs more CPU per handshake/);
  assert.match(r.conclusion, /The default key shares explain the slowdown/);
  assert.match(r.conclusion, /the default client still pays for its ML-KEM share while the server does not/);
  assert.doesNotMatch(r.conclusion, /Not settled/);
});

test('the conclusion says so when 3.5 is slower outside key exchange too', () => {
  const costs = structuredClone(FIXTURE_MODEL.costs);
  for (const id of ['v35-ecdh', 'v35-no-ml-kem', 'v35-classic-server', 'v35-default'])
    for (const c of Object.values(costs[id]!)) ((c.client *= 1.15), (c.server *= 1.15));
  const r = syntheticResult({ ...FIXTURE_MODEL, costs }, 60);
  assert.ok(r.claims.filter((c) => c.id === 'H2').every((c) => c.verdict === 'refuted'));
  assert.match(r.conclusion, /Not only the key shares/);
  assert.doesNotMatch(r.conclusion, /explain the slowdown/);
});

test("the site's synthetic fixture is what synthetic.ts makes today (regenerate: node site/tests/fixtures/make-hypothesis-fixture.ts)", () => {
  const r = syntheticResult(FIXTURE_MODEL, 60);
  const file = new URL(`../../site/tests/fixtures/data/hypothesis/${r.host.id}/${r.runId}.json`, import.meta.url);
  assert.equal(readFileSync(file, 'utf8'), JSON.stringify(r, null, 1) + '\n');
});

test('each part of the gap is the difference of the two configurations its sentence names', () => {
  const blocks = blocksOf(FIXTURE_MODEL, 20);
  const d = decompose(blocks, 'ecdsa-p256', 0.05)!;
  // recompute every part from its own configuration pair, by round
  const cost = new Map<string, number>();
  for (const b of blocks) if (!b.warmup && b.cert === 'ecdsa-p256') cost.set(`${b.round}|${b.config}`, b.clientUs + b.serverUs);
  const rounds = [...new Set(blocks.filter((b) => !b.warmup).map((b) => b.round))];
  const r = syntheticResult(FIXTURE_MODEL, 60);
  const label = (id: string) => r.configurations.find((c) => c.id === id)!.label;
  for (const part of GAP_PARTS) {
    const diffs = rounds.map((round) => cost.get(`${round}|${part.minuend}`)! - cost.get(`${round}|${part.subtrahend}`)!);
    const mean = diffs.reduce((a, b) => a + b, 0) / diffs.length;
    assert.ok(Math.abs(d[part.key]!.us - mean) < 1e-6, `${part.key}: ${d[part.key]!.us} is not ${part.minuend} minus ${part.subtrahend} (${mean})`);
    // the conclusion names the part and both of its configurations, in that order
    const said = `${part.name} ("${label(part.minuend)}" minus "${label(part.subtrahend)}")`;
    assert.ok(r.conclusion.includes(said), `the conclusion does not say "${said}": ${r.conclusion}`);
  }
  // with library defaults on both sides the share is used: no part may call it unused
  assert.doesNotMatch(r.conclusion, /unused/i);
  assert.equal(GAP_PARTS.find((p) => p.key === 'unusedShare')!.minuend, DECOMPOSITION.classicServer, 'the share is measured where the server does not take it');
});

test('the conclusion names the interval it gives: 99.95% stays 99.95%, never "100%"', () => {
  const r = syntheticResult(FIXTURE_MODEL, 60);
  const d = r.decomposition[0]!;
  for (const [confidence, words] of [
    [0.9995, '99.95% interval'],
    [0.95, '95% interval'],
    [0.99999, '99.99% interval'],
  ] as const) {
    const text = conclusion({ ...r, decomposition: [{ ...d, confidence }] });
    assert.ok(text.includes(words), `${confidence}: ${text}`);
    assert.doesNotMatch(text, /100% interval/);
  }
});
