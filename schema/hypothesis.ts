// Results of `npm run test:mlkem-hypothesis` (data/hypothesis/<host>/<runId>.json).
import { z } from 'zod';
import { Build, Host, Interval, RunMode, finite, nonNegative, safeId, shortText } from './base.ts';

export const HypothesisConfig = z.object({
  id: safeId.describe('short name used by the hypotheses, e.g. "v35-default"'),
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
  clientInstructions: nonNegative.nullable(),
  serverInstructions: nonNegative.nullable(),
  totalInstructions: nonNegative.describe('instructions per handshake, both sides'),
});

export const Verdict = z.enum(['supported', 'refuted', 'not-shown', 'not-measured']);
export type Verdict = z.infer<typeof Verdict>;

export const HypothesisOutcome = z.object({
  id: z.string().regex(/^H\d[a-z]?$/),
  cert: safeId,
  statement: shortText(500),
  kind: z.enum(['slower', 'equivalent', 'client-only']),
  numerator: safeId,
  denominator: safeId,
  /** CPU-time ratios numerator/denominator per side: > 1 means the numerator costs more */
  sides: z.array(
    z.object({
      side: z.enum(['client', 'server', 'both']),
      ratio: finite.nullable(),
      ci95: Interval.nullable(),
      pairs: z.int().nonnegative(),
      instructionRatio: finite.nullable(),
    }),
  ),
  verdict: Verdict,
  why: shortText(1000),
});

export const GapDecomposition = z.object({
  cert: safeId,
  baseline: safeId,
  defaults: safeId,
  totalUs: finite.describe('defaults minus baseline, client + server CPU per handshake'),
  unusedShareUs: finite.nullable().describe('client pays for an ML-KEM share the server ignores (classic-only server vs ECDH-only)'),
  negotiatedHybridUs: finite.nullable().describe('the rest of the hybrid cost when it is negotiated (both sides)'),
  otherUs: finite.nullable().describe('ECDH-only on the new version vs the old version: anything not due to key exchange'),
});

export const HypothesisResult = z.object({
  schemaVersion: z.literal(1),
  kind: z.literal('mlkem-hypothesis'),
  runId: safeId,
  mode: RunMode,
  startedAt: z.iso.datetime({ offset: true }),
  finishedAt: z.iso.datetime({ offset: true }),
  host: Host,
  harness: z.object({ gitCommit: z.string(), gitDirty: z.boolean(), node: z.string() }),
  builds: z.array(Build),
  design: z.object({
    protocol: z.literal('TLS 1.3'),
    resumption: z.literal('none'),
    handshakesPerBlock: z.int().positive(),
    rounds: z.int().positive(),
    warmupRounds: z.int().nonnegative(),
    equivalenceMargin: finite.describe('H2/H3 count as equivalent when the whole 95% interval lies within 1±margin'),
    ciMethod: shortText(300),
    order: shortText(300),
  }),
  configurations: z.array(HypothesisConfig),
  blocks: z.array(HypothesisBlock),
  instructionCounts: z.array(InstructionCount),
  hypotheses: z.array(HypothesisOutcome),
  decomposition: z.array(GapDecomposition),
  notes: z.array(shortText(2000)),
});
export type HypothesisResult = z.infer<typeof HypothesisResult>;
export type HypothesisOutcome = z.infer<typeof HypothesisOutcome>;
