// SYNTHETIC hypothesis runs: blocks drawn from a model with known true costs, machine drift and noise,
// run through the same stopping rule and analysis as the real command. For the tests (does the rule
// stop, keep its error rate, say "undecided" when the budget ends) and for the site's rendering fixture
// (site/tests/fixtures/make-hypothesis-fixture.ts). Nothing here is a measurement.
import { HypothesisResult } from '../../schema/index.ts';
import { fixtureHost } from '../../schema/test-data.ts';
import { seededRandom } from '../../analysis/stats.ts';
import { claimKey, claimOutcome, conclusion, decompose, instructionLine, pairedRatios, testableClaims } from './analysis.ts';
import { ALPHA, SequentialTest, SPENDING_METHOD, lookSchedule } from '../../analysis/sequential.ts';
import { EQUIVALENCE_MARGIN, INSTRUCTION_THRESHOLD } from '../../analysis/verdict.ts';

type Block = HypothesisResult['blocks'][number];

export interface CostModel {
  /** true CPU µs per handshake, per configuration and certificate */
  costs: Record<string, Record<string, { client: number; server: number }>>;
  /** instructions per µs of CPU, per side: the counts are the costs times this (deterministic) */
  instructionsPerUs?: number;
  /** standard deviation of one block's multiplicative noise */
  noise: number;
  /** amplitude of the machine's speed swing shared by all blocks of a round (what pairing cancels) */
  drift: number;
  seed: number;
}

/** A standard normal draw from a uniform generator (Box-Muller). */
export function normal(rand: () => number): number {
  const u = Math.max(rand(), 1e-12);
  return Math.sqrt(-2 * Math.log(u)) * Math.cos(2 * Math.PI * rand());
}

/** One round of blocks: every configuration once per certificate, with a shared drift and its own noise. */
export function syntheticRound(model: CostModel, round: number, rand: () => number, at: string): Block[] {
  const drift = 1 + model.drift * Math.sin(round / 3);
  const out: Block[] = [];
  for (const [config, perCert] of Object.entries(model.costs))
    for (const [cert, c] of Object.entries(perCert)) {
      const f = drift * Math.exp(model.noise * normal(rand));
      out.push({ config, cert, round, warmup: round === 0, at, handshakes: 200, clientUs: c.client * f, serverUs: c.server * f });
    }
  return out;
}

/** The story the site fixture tells: 3.5 defaults cost more by the two ML-KEM parts, nothing else. */
export const FIXTURE_MODEL: CostModel = {
  costs: {
    'v34-default': { rsa2048: { client: 300, server: 1000 }, 'ecdsa-p256': { client: 200, server: 150 } },
    'v35-ecdh': { rsa2048: { client: 301, server: 1002 }, 'ecdsa-p256': { client: 201, server: 151 } },
    'v35-no-ml-kem': { rsa2048: { client: 300, server: 1001 }, 'ecdsa-p256': { client: 200, server: 150 } },
    'v35-classic-server': { rsa2048: { client: 360, server: 1003 }, 'ecdsa-p256': { client: 262, server: 152 } },
    'v35-default': { rsa2048: { client: 400, server: 1030 }, 'ecdsa-p256': { client: 300, server: 180 } },
  },
  instructionsPerUs: 3000,
  noise: 0.03,
  drift: 0.3,
  seed: 42,
};

/**
 * A whole SYNTHETIC result file: the model's rounds through the sequential test (at most maxRounds),
 * outcomes, decomposition and conclusion, as the command would write them.
 */
export function syntheticResult(model: CostModel, maxRounds: number): HypothesisResult {
  const rand = seededRandom(model.seed);
  const start = Date.parse('2026-11-22T00:00:00Z');
  const stamp = (s: number) => new Date(start + s * 1000).toISOString();
  const blocks: Block[] = syntheticRound(model, 0, rand, stamp(60));
  const ids = new Set(Object.keys(model.costs));
  const certs = [...new Set(Object.values(model.costs).flatMap((c) => Object.keys(c)))];
  const claims = testableClaims(ids, certs);
  const schedule = lookSchedule(maxRounds);
  const test = new SequentialTest(schedule, new Map(claims.map(({ claim, cert }) => [claimKey(claim.id, cert), claim.kind])));
  const claimOf = new Map(claims.map((x) => [claimKey(x.claim.id, x.cert), x]));
  const ratiosOf = (key: string) => {
    const { claim, cert } = claimOf.get(key)!;
    return pairedRatios(blocks, claim.numerator, claim.denominator, cert, claim.side);
  };
  let round = 0;
  let stoppedBecause: HypothesisResult['progress']['stoppedBecause'] = 'last-look';
  while (!test.exhausted) {
    round++;
    blocks.push(...syntheticRound(model, round, rand, stamp(60 + round * 5)));
    const look = test.afterRound(round, ratiosOf, round * 5);
    if (look && test.undecided().length === 0) {
      stoppedBecause = 'all-decided';
      break;
    }
  }
  const k = model.instructionsPerUs ?? 3000;
  const instructionCounts = Object.entries(model.costs).flatMap(([config, perCert]) =>
    Object.entries(perCert).map(([cert, c]) => ({
      config,
      cert,
      handshakes: 10,
      clientInstructions: c.client * k,
      serverInstructions: c.server * k,
      totalInstructions: (c.client + c.server) * k,
    })),
  );
  const outcomes = claims.map(({ claim, cert }) =>
    claimOutcome(claim, cert, test.lines.get(claimKey(claim.id, cert))!, instructionLine(claim, cert, instructionCounts), blocks),
  );
  const decomposition = certs.flatMap((cert) => decompose(blocks, cert, test.looks.at(-1)!.alpha) ?? []);
  const version = (id: string) => (id.startsWith('v34') ? '3.4.1' : '3.5.7');
  const configurations = [...ids].map((id) => ({
    id,
    label: `${version(id)} (synthetic ${id})`,
    version: version(id),
    variant: id === 'v35-no-ml-kem' ? 'no-ml-kem' : 'default',
    buildId: `b-${id}`,
    clientGroups: id.endsWith('ecdh') ? 'X25519:P-256:P-384' : 'default',
    serverGroups: id.endsWith('ecdh') || id.endsWith('classic-server') ? 'X25519:P-256:P-384' : 'default',
    status: 'measured' as const,
    observed: Object.fromEntries(
      certs.map((c) => [
        c,
        {
          negotiatedGroup: id === 'v35-default' ? 'X25519MLKEM768' : 'X25519',
          clientKeyShares: id.startsWith('v35') && id !== 'v35-ecdh' && id !== 'v35-no-ml-kem' ? 'X25519MLKEM768:1216,X25519:32' : 'X25519:32',
        },
      ]),
    ),
  }));
  const host = fixtureHost({ aesni: true, avx2: true });
  const design: HypothesisResult['design'] = {
    protocol: 'TLS 1.3',
    resumption: 'none',
    handshakesPerBlock: Object.fromEntries(certs.map((c) => [c, 200])),
    blockTargetSeconds: 0.25,
    calibration: 'synthetic: no calibration',
    pinnedCpu: null,
    pinning: 'synthetic: not pinned',
    warmupRounds: 1,
    equivalenceMargin: EQUIVALENCE_MARGIN,
    instructionThreshold: INSTRUCTION_THRESHOLD,
    alpha: ALPHA,
    stopping: `synthetic sequential run: ${SPENDING_METHOD}`,
    looks: schedule.looks,
    alphaPerLook: schedule.alpha,
    budgetSeconds: 600,
    ciMethod: "geometric mean of per-round paired ratios, t interval on the log ratios at the look's confidence",
    order: 'synthetic',
  };
  const cvs = outcomes
    .map((o) => o.cpu.noiseCv)
    .filter((x): x is number => x !== null)
    .sort((a, b) => a - b);
  return HypothesisResult.parse({
    schemaVersion: 2,
    kind: 'mlkem-hypothesis',
    runId: `20261122T000000Z-sequential-5e${String(model.seed % 100).padStart(2, '0')}`,
    mode: 'sequential',
    startedAt: stamp(0),
    finishedAt: stamp(60 + round * 5 + 1),
    host,
    harness: { gitCommit: 'unknown', gitDirty: true, node: 'v24' },
    builds: [],
    conclusion: conclusion({ claims: outcomes, decomposition, configurations, host, design }),
    design,
    progress: {
      rounds: round,
      seconds: round * 5,
      totalSeconds: 60 + round * 5,
      stoppedBecause,
      looksTaken: test.looks,
      noiseCv: cvs.length ? cvs[cvs.length >> 1]! : null,
    },
    configurations,
    blocks,
    instructionCounts,
    claims: outcomes,
    decomposition,
    notes: ['SYNTHETIC: drawn from a model with known costs (experiments/hypothesis/synthetic.ts), not a measurement'],
  });
}
