// From measured blocks and instruction counts to claims, looks, the gap decomposition and the
// conclusion. Pure functions: the command (mlkem-hypothesis.ts), the tests and the site's synthetic
// fixture all go through them.
import type { ClaimOutcome, GapDecomposition, GapPart, HypothesisResult } from '../../schema/index.ts';
import { CERT_NAMES } from '../../schema/index.ts';
import { median } from '../../analysis/stats.ts';
import { CLAIMS, DECOMPOSITION, GAP_PARTS, type Claim, type Side } from './claims.ts';
import { differenceInterval, type CpuLine } from '../../analysis/sequential.ts';
import { EQUIVALENCE_MARGIN, combine, instructionVerdict, signedPct, type LineResult } from '../../analysis/verdict.ts';

type Block = HypothesisResult['blocks'][number];
type InstructionCount = HypothesisResult['instructionCounts'][number];

export const claimKey = (id: string, cert: string) => `${id}/${cert}`;
export const certName = (cert: string) => CERT_NAMES[cert] ?? cert;

export function sideCost(b: Pick<Block, 'clientUs' | 'serverUs'>, side: Side): number {
  return side === 'client' ? b.clientUs : side === 'server' ? b.serverUs : b.clientUs + b.serverUs;
}

/** Measured (non-warm-up) blocks by round, then by configuration, for one certificate. */
function byRound(blocks: readonly Block[], cert: string): Map<number, Map<string, Block>> {
  const out = new Map<number, Map<string, Block>>();
  for (const b of blocks) {
    if (b.warmup || b.cert !== cert) continue;
    if (!out.has(b.round)) out.set(b.round, new Map());
    out.get(b.round)!.set(b.config, b);
  }
  return out;
}

/** Per-round ratios numerator / denominator on one side, from blocks of the same round (paired), in round order. */
export function pairedRatios(blocks: readonly Block[], numerator: string, denominator: string, cert: string, side: Side): number[] {
  return [...byRound(blocks, cert)]
    .sort(([a], [b]) => a - b)
    .flatMap(([, m]) => {
      const n = m.get(numerator);
      const d = m.get(denominator);
      return n && d ? [sideCost(n, side) / sideCost(d, side)] : [];
    });
}

// ------------------------------------------------------------------ instruction line

export function instructionLine(claim: Claim, cert: string, counts: readonly InstructionCount[], margin = EQUIVALENCE_MARGIN): ClaimOutcome['instructions'] {
  const pick = (config: string) => {
    const c = counts.find((x) => x.config === config && x.cert === cert);
    if (!c) return null;
    return claim.side === 'client' ? c.clientInstructions : claim.side === 'server' ? c.serverInstructions : c.totalInstructions;
  };
  const numerator = pick(claim.numerator);
  const denominator = pick(claim.denominator);
  const ratio = numerator !== null && denominator ? numerator / denominator : null;
  const v: LineResult = instructionVerdict(claim.kind, ratio, margin);
  return { numerator, denominator, ratio, verdict: v.verdict, why: v.why };
}

// ------------------------------------------------------------------ claims

/** Median CPU µs per handshake of one configuration on one side, over measured blocks. */
export function medianCost(blocks: readonly Block[], config: string, cert: string, side: Side): number | null {
  const costs = blocks.filter((b) => !b.warmup && b.config === config && b.cert === cert).map((b) => sideCost(b, side));
  return costs.length ? median(costs) : null;
}

const SIDE_WORDS: Record<Side, string> = { client: "the client's CPU", server: "the server's CPU", both: 'client + server CPU' };
export const fmtUs = (us: number) => {
  const a = Math.abs(us);
  const s = a >= 100 ? a.toFixed(0) : a >= 10 ? a.toFixed(1) : a.toFixed(2);
  return `${us < 0 && Number(s) !== 0 ? '-' : ''}${s} µs`;
};
const marginWords = (margin: number, marginUs: number | null) =>
  `within ±${(margin * 100).toFixed(0)}%${marginUs === null ? '' : `, i.e. ±${fmtUs(marginUs)} per handshake`}`;

const BY: Record<NonNullable<ClaimOutcome['decidedBy']>, string> = { both: 'by both lines', 'cpu-time': 'by CPU time', instructions: 'by instructions' };

/** The claim's verdict in one plain sentence, from its fields. */
export function claimSentence(c: Omit<ClaimOutcome, 'sentence'>, margin = EQUIVALENCE_MARGIN): string {
  const cpu =
    c.cpu.interval && c.cpu.ratio !== null
      ? `CPU time ${signedPct(c.cpu.ratio)} (${signedPct(c.cpu.interval.low)} to ${signedPct(c.cpu.interval.high)}, ${SIDE_WORDS[c.side]})`
      : 'CPU time not measured';
  const ins = c.instructions.ratio !== null ? `instructions ${signedPct(c.instructions.ratio)}` : 'instructions not counted';
  const what =
    c.kind === 'same'
      ? c.verdict === 'supported'
        ? `costs the same, ${marginWords(margin, c.marginUs)}`
        : c.verdict === 'refuted'
          ? `does not cost the same: the difference exceeds ±${(margin * 100).toFixed(0)}%${c.marginUs === null ? '' : ` (±${fmtUs(c.marginUs)})`}`
          : `the same cost ${marginWords(margin, c.marginUs)} is not yet decided`
      : c.verdict === 'supported'
        ? 'costs more'
        : c.verdict === 'refuted'
          ? `does not cost more than ${(margin * 100).toFixed(0)}%${c.marginUs === null ? '' : ` (${fmtUs(c.marginUs)})`}`
          : 'whether it costs more is not yet decided';
  const head =
    c.verdict === 'conflicting'
      ? 'The two lines of evidence disagree'
      : c.verdict === 'not-measured'
        ? 'Not measured'
        : `${c.verdict === 'undecided' ? 'Undecided' : c.verdict === 'supported' ? 'Supported' : 'Refuted'}${c.decidedBy ? ` ${BY[c.decidedBy]}` : ''}`;
  return `${head}: ${what}; ${cpu}, ${ins}.`;
}

export function claimOutcome(
  claim: Claim,
  cert: string,
  line: CpuLine | null,
  instructions: ClaimOutcome['instructions'],
  blocks: readonly Block[],
  margin = EQUIVALENCE_MARGIN,
): ClaimOutcome {
  const est = line?.estimate ?? null;
  const cpuLine = line ?? {
    verdict: 'not-measured' as const,
    why: 'a configuration it needs was not measured',
    needs: '',
    estimate: null,
    decidedAtRound: null,
    decidedAfterSeconds: null,
  };
  const overall = combine(cpuLine, instructions);
  const base = medianCost(blocks, claim.denominator, cert, claim.side);
  const c: Omit<ClaimOutcome, 'sentence'> = {
    id: claim.id,
    cert,
    statement: claim.statement,
    kind: claim.kind,
    side: claim.side,
    numerator: claim.numerator,
    denominator: claim.denominator,
    cpu: {
      ratio: est?.ratio ?? null,
      interval: est ? { low: est.low, high: est.high } : null,
      confidence: est?.confidence ?? null,
      pairs: est?.pairs ?? 0,
      noiseCv: est?.sdLog ?? null,
      verdict: cpuLine.verdict,
      why: cpuLine.why,
      decidedAtRound: cpuLine.decidedAtRound,
      decidedAfterSeconds: cpuLine.decidedAfterSeconds,
    },
    instructions,
    verdict: overall.verdict,
    decidedBy: overall.decidedBy,
    why: overall.why.slice(0, 2000),
    marginUs: base === null ? null : base * margin,
  };
  return { ...c, sentence: claimSentence(c, margin) };
}

/** The claims this set of configurations can test, in CLAIMS order, per certificate. */
export function testableClaims(configIds: ReadonlySet<string>, certs: readonly string[]): { claim: Claim; cert: string }[] {
  return CLAIMS.filter((c) => configIds.has(c.numerator) && configIds.has(c.denominator)).flatMap((claim) => certs.map((cert) => ({ claim, cert })));
}

// ------------------------------------------------------------------ gap decomposition

function part(diffs: number[], alpha: number): GapPart | null {
  const d = differenceInterval(diffs, alpha);
  if (!d) return null;
  return { us: d.mean, interval: { low: d.low, high: d.high }, separable: d.low > 0 || d.high < 0 };
}

/**
 * 3.5 defaults vs 3.4, client + server CPU per handshake, split into GAP_PARTS (claims.ts), each from
 * per-round paired differences of its two configurations over the same rounds (so the parts add up to
 * the total) with a t interval at confidence 1 - alpha. A part whose configurations were not measured is null.
 */
export function decompose(blocks: readonly Block[], cert: string, alpha: number): GapDecomposition | null {
  const { defaults, baseline } = DECOMPOSITION;
  const rounds = [...byRound(blocks, cert).values()];
  const has = (id: string) => rounds.some((m) => m.has(id));
  const needed = [...new Set([defaults, baseline, ...GAP_PARTS.flatMap((p) => [p.minuend, p.subtrahend]).filter(has)])];
  const complete = rounds.filter((m) => needed.every((id) => m.has(id)));
  const cost = (m: Map<string, Block>, id: string) => sideCost(m.get(id)!, 'both');
  const diffs = (a: string, b: string) => complete.map((m) => cost(m, a) - cost(m, b));
  const total = part(diffs(defaults, baseline), alpha);
  if (!total) return null;
  const parts = Object.fromEntries(
    GAP_PARTS.map((p) => [p.key, needed.includes(p.minuend) && needed.includes(p.subtrahend) ? part(diffs(p.minuend, p.subtrahend), alpha) : null]),
  );
  return {
    cert,
    baseline,
    defaults,
    pairs: complete.length,
    confidence: 1 - alpha,
    total,
    ...(parts as Pick<GapDecomposition, (typeof GAP_PARTS)[number]['key']>),
  };
}

// ------------------------------------------------------------------ conclusion

const partText = (p: GapPart | null, what: string) =>
  !p
    ? `${what}: not measured`
    : !p.separable
      ? `${what}: not separable from zero at this precision`
      : p.us >= 0
        ? `${what} ${fmtUs(p.us)}`
        : `${what} saves ${fmtUs(-p.us)}`;

/**
 * The plain-language answer, generated from the verdicts and the decomposition: what the gap is, what
 * it is made of, and whether the data say it is the key shares rather than a regression.
 */
export function conclusion(r: Pick<HypothesisResult, 'claims' | 'decomposition' | 'configurations' | 'host' | 'design'>): string {
  const version = (id: string) => r.configurations.find((c) => c.id === id)?.version ?? id;
  const label = (id: string) => r.configurations.find((c) => c.id === id)?.label ?? id;
  const v35 = version(DECOMPOSITION.defaults);
  const v34 = version(DECOMPOSITION.baseline);
  const out: string[] = [];
  for (const d of r.decomposition) {
    // two decimals at most, never rounded up: a 99.95% interval read "100%", which no interval is
    const pctConf = `${Math.floor(d.confidence * 10000) / 100}%`;
    const total = d.total.separable
      ? `${v35} with library defaults costs ${fmtUs(Math.abs(d.total.us))} ${d.total.us >= 0 ? 'more' : 'less'} CPU per handshake (client + server) than ${v34} (${fmtUs(d.total.interval.low)} to ${fmtUs(d.total.interval.high)}, ${pctConf} interval)`
      : `the difference between ${v35} with library defaults and ${v34} is not separable from zero at this precision`;
    const parts = GAP_PARTS.map((p) => partText(d[p.key], `${p.name} ("${label(p.minuend)}" minus "${label(p.subtrahend)}")`));
    out.push(`With ${certName(d.cert)} certificates, ${total}; ${d.total.separable ? 'of that' : 'its parts'}: ${parts.join('; ')}.`);
  }
  const of = (id: string) => r.claims.filter((c) => c.id === id);
  const all = (id: string, v: string) => of(id).length > 0 && of(id).every((c) => c.verdict === v);
  const any = (id: string, v: string) => of(id).some((c) => c.verdict === v);
  const margin = `±${(r.design.equivalenceMargin * 100).toFixed(0)}%`;
  if (all('H1', 'supported') && all('H2', 'supported'))
    out.push(
      `The default key shares explain the slowdown: the defaults cost more than ECDH-only groups on the same build, and with ECDH-only groups ${v35} costs the same as ${v34} within ${margin}, so there is no regression outside key exchange.`,
    );
  else if (any('H2', 'refuted'))
    out.push(
      `Not only the key shares: with ECDH-only groups ${v35} does not cost the same as ${v34} (${of('H2')
        .filter((c) => c.verdict === 'refuted')
        .map((c) => certName(c.cert))
        .join(', ')}), so part of the difference lies outside key exchange.`,
    );
  else if (any('H1', 'refuted'))
    out.push(`The defaults do not cost measurably more than ECDH-only groups on the same build: the key shares do not explain a slowdown here.`);
  if (all('H4a', 'supported') && all('H4b', 'supported'))
    out.push(`Against a server that allows only classic groups, the default client still pays for its ML-KEM share while the server does not.`);
  const open = r.claims.filter((c) => c.verdict === 'undecided' || c.verdict === 'conflicting' || c.verdict === 'not-measured');
  if (open.length)
    out.push(
      `Not settled on this host: ${open.map((c) => `${c.id} (${certName(c.cert)}, ${c.verdict === 'conflicting' ? 'the two lines disagree' : c.verdict === 'undecided' ? 'undecided' : 'not measured'})`).join(', ')}.`,
    );
  const byInstr = r.claims.filter((c) => c.decidedBy === 'instructions');
  if (byInstr.length) out.push(`Decided by instruction counts alone (CPU time undecided): ${byInstr.map((c) => `${c.id} ${certName(c.cert)}`).join(', ')}.`);
  if (!out.length) return 'No claim could be tested: the configurations it needs were not measured.';
  return out.join(' ').slice(0, 3000);
}
