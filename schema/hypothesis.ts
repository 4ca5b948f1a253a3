// Results of `npm run test:mlkem-hypothesis` (data/hypothesis/<host>/<runId>.json).
// schemaVersion 2: a sequential design (looks, alpha spent, why it stopped), one claim per side with a
// CPU-time line and an instruction-count line and an overall verdict naming the deciding line, per-side
// instruction counts, a gap decomposition with an interval per part, and a plain-language conclusion.
// Version 1 files (fixed rounds, one verdict from CPU time only) are not read: none is published.
import { z } from 'zod';
import { finite, nonNegative, safeId, shortText } from './primitives.ts';
import { Host } from './host.ts';
import { Build } from './build.ts';
import { QuietEvidence } from './quiet.ts';
import { Interval } from './summary.ts';

export const HypothesisConfig = z.object({
  id: safeId.describe('short name used by the claims, e.g. "v35-default"'),
  label: shortText(300),
  version: z.string(),
  variant: safeId,
  buildId: safeId,
  clientGroups: shortText(200),
  serverGroups: shortText(200),
  status: z.enum(['measured', 'unsupported', 'failed']),
  reason: shortText(2000).optional(),
  /** per certificate type: what the library reported on the last handshake */
  observed: z.record(z.string(), z.record(z.string(), z.union([shortText(200), finite, z.boolean()]))),
});

export const HypothesisBlock = z.object({
  config: safeId,
  cert: safeId,
  round: z.int().nonnegative(),
  warmup: z.boolean(),
  at: z.iso.datetime({ offset: true }),
  handshakes: z.int().positive(),
  clientUs: nonNegative.describe('client CPU microseconds per handshake in this block'),
  serverUs: nonNegative.describe('server CPU microseconds per handshake in this block'),
});

export const InstructionCount = z.object({
  config: safeId,
  cert: safeId,
  handshakes: z.int().positive(),
  clientInstructions: nonNegative.describe("per handshake, collected only during the client's SSL calls"),
  serverInstructions: nonNegative.describe("per handshake, collected only during the server's SSL calls"),
  totalInstructions: nonNegative.describe('client + server per handshake'),
});

/** One line of evidence's verdict on a claim. */
export const LineVerdict = z.enum(['supported', 'refuted', 'undecided', 'not-measured']);
export type LineVerdict = z.infer<typeof LineVerdict>;
/** The claim's verdict: "conflicting" when the two lines reached opposite verdicts. */
export const Verdict = z.enum(['supported', 'refuted', 'undecided', 'conflicting', 'not-measured']);
export type Verdict = z.infer<typeof Verdict>;
export const Side = z.enum(['client', 'server', 'both']);

export const ClaimOutcome = z.object({
  id: z.string().regex(/^H\d[a-z]?$/),
  cert: safeId,
  statement: shortText(500),
  kind: z.enum(['more', 'same']).describe('more: the numerator costs more; same: the two cost the same within the margin'),
  side: Side.describe('whose CPU time the claim is about'),
  numerator: safeId,
  denominator: safeId,
  /** CPU time per handshake, from paired blocks */
  cpu: z.object({
    ratio: finite.nullable().describe('geometric mean of the paired ratios numerator/denominator: > 1 means the numerator costs more'),
    interval: Interval.nullable(),
    confidence: finite.nullable().describe('of the interval: 1 - the alpha the look that produced it spent'),
    pairs: z.int().nonnegative(),
    noiseCv: finite.nullable().describe('standard deviation of the log paired ratios: the noise of one paired ratio on this host'),
    verdict: LineVerdict,
    why: shortText(1000),
    decidedAtRound: z.int().positive().nullable().describe('the look that decided it; null while undecided'),
    decidedAfterSeconds: nonNegative.nullable().describe('wall time from the first measured round to that look'),
  }),
  /** instructions per handshake under valgrind: deterministic, no interval */
  instructions: z.object({
    numerator: nonNegative.nullable(),
    denominator: nonNegative.nullable(),
    ratio: finite.nullable(),
    verdict: LineVerdict,
    why: shortText(1000),
  }),
  verdict: Verdict,
  decidedBy: z.enum(['cpu-time', 'instructions', 'both']).nullable(),
  why: shortText(2000),
  marginUs: nonNegative.nullable().describe("the equivalence margin in µs: margin × the denominator's median CPU per handshake on the claim's side"),
  sentence: shortText(1000).describe('the verdict in plain language, generated from the fields above'),
});
export type ClaimOutcome = z.infer<typeof ClaimOutcome>;

export const GapPart = z.object({
  us: finite.describe('mean of the per-round paired differences, CPU µs per handshake (client + server)'),
  interval: Interval,
  separable: z.boolean().describe('false when the interval contains zero: not separable from no cost at this precision'),
});
export type GapPart = z.infer<typeof GapPart>;

export const GapDecomposition = z.object({
  cert: safeId,
  baseline: safeId,
  defaults: safeId,
  pairs: z.int().nonnegative().describe('rounds in which all four configurations were measured'),
  confidence: finite,
  total: GapPart.describe('defaults minus baseline'),
  unusedShare: GapPart.nullable().describe(
    "the client's ML-KEM share: generating and sending it, paid whether or not the server takes it (a default client against a classic-only server minus ECDH-only groups on both sides; the key name predates this wording)",
  ),
  negotiatedHybrid: GapPart.nullable().describe(
    'what negotiating the hybrid adds on top: encapsulation, decapsulation, larger messages (defaults on both sides minus a default client against a classic-only server)',
  ),
  other: GapPart.nullable().describe('ECDH-only on the new version vs the old version: anything not due to key exchange'),
});
export type GapDecomposition = z.infer<typeof GapDecomposition>;

/** The certificate types in prose (the files use the short ids). */
export const CERT_NAMES: Record<string, string> = { rsa2048: 'RSA-2048', 'ecdsa-p256': 'ECDSA P-256' };

export const HypothesisMode = z.enum(['sequential', 'quick']);
export type HypothesisMode = z.infer<typeof HypothesisMode>;

export const HypothesisResult = z.object({
  schemaVersion: z.literal(2),
  kind: z.literal('mlkem-hypothesis'),
  runId: safeId,
  mode: HypothesisMode.describe('sequential: rounds until every claim is decided or the budget ends; quick: a few fixed rounds for CI'),
  startedAt: z.iso.datetime({ offset: true }),
  finishedAt: z.iso.datetime({ offset: true }),
  host: Host,
  harness: z.object({ gitCommit: z.string(), gitDirty: z.boolean(), node: z.string(), revision: z.int().positive().optional() }),
  quiet: QuietEvidence.optional().describe(
    'how quiet the host was before the test and in every round (runner/quiet/); absent in results recorded before it was kept',
  ),
  builds: z.array(Build),
  conclusion: shortText(3000).describe('plain language, generated from the verdicts and the decomposition'),
  design: z.object({
    protocol: z.literal('TLS 1.3'),
    resumption: z.literal('none'),
    handshakesPerBlock: z.record(safeId, z.int().positive()).describe('per certificate, from the calibration (or --handshakes)'),
    blockTargetSeconds: nonNegative.describe('CPU time a block was sized to last'),
    calibration: shortText(500),
    pinnedCpu: z.int().nonnegative().nullable().describe('the CPU the measuring thread was pinned to; null when not pinned'),
    pinning: shortText(500),
    warmupRounds: z.int().nonnegative(),
    equivalenceMargin: finite.describe('same-cost claims hold when the whole interval lies within 1 ± margin'),
    instructionThreshold: finite.describe('an instruction ratio above 1 + this counts as costing more'),
    alpha: finite.describe('error rate allowed per claim over the whole run'),
    stopping: shortText(1000),
    looks: z.array(z.int().positive()).min(1).describe('pre-declared rounds after which the data were examined'),
    alphaPerLook: z.array(finite).min(1),
    budgetSeconds: nonNegative.nullable(),
    ciMethod: shortText(300),
    order: shortText(300),
  }),
  progress: z.object({
    rounds: z.int().nonnegative().describe('measured rounds run'),
    seconds: nonNegative.describe('wall time of the measured rounds'),
    totalSeconds: nonNegative.describe('wall time of the whole test after the builds: instruction counts, calibration, warm-up, rounds'),
    stoppedBecause: z.enum(['all-decided', 'budget', 'last-look', 'fixed-rounds']),
    looksTaken: z.array(z.object({ round: z.int().positive(), alpha: finite, final: z.boolean(), undecided: z.int().nonnegative() })),
    noiseCv: finite.nullable().describe('median over the claims of the noise of one paired ratio'),
  }),
  configurations: z.array(HypothesisConfig),
  blocks: z.array(HypothesisBlock),
  instructionCounts: z.array(InstructionCount),
  claims: z.array(ClaimOutcome),
  decomposition: z.array(GapDecomposition),
  notes: z.array(shortText(2000)),
});
export type HypothesisResult = z.infer<typeof HypothesisResult>;
