// What the hypothesis page shows of a results file (schema/hypothesis.ts), precomputed at build time.
import { CERT_NAMES, type ClaimOutcome, type GapPart, type HypothesisResult } from '../../../schema/index.ts';
import { median } from '../../../analysis/stats.ts';
import { num, pct } from './format.ts';

/** Verdict words as the page prints them; GLOSSARY explains each. */
export const VERDICT_LABEL: Record<ClaimOutcome['verdict'], string> = {
  supported: 'supported',
  refuted: 'refuted',
  undecided: 'undecided',
  conflicting: 'lines disagree',
  'not-measured': 'not measured',
};

export const DECIDED_BY_LABEL: Record<NonNullable<ClaimOutcome['decidedBy']>, string> = {
  both: 'by CPU time and instructions',
  'cpu-time': 'by CPU time',
  instructions: 'by instructions',
};

export const GLOSSARY: [string, string][] = [
  ['supported', 'the measurements show the claim holds, with the error rate the test states.'],
  ['refuted', 'the measurements show the claim does not hold.'],
  ['undecided', 'the measurements are still too noisy to say either; more rounds would be needed.'],
  [
    'lines disagree',
    'CPU time and instruction counts reached opposite verdicts (for example where the native run uses a CPU feature valgrind cannot emulate); neither is picked silently.',
  ],
  ['by CPU time / by instructions', 'which line of evidence decided the verdict; "by CPU time and instructions" means both reached it.'],
  ['same cost within ±x%', 'the whole interval of the ratio lies inside that band, so any difference is smaller than x% (the page gives the band in µs too).'],
  ['not separable at this precision', 'a part of the gap whose interval includes zero: the data cannot tell it from no cost at all.'],
];

export const tone = (v: ClaimOutcome['verdict']) => (v === 'supported' ? 'better' : v === 'refuted' ? 'worse' : 'neutral');
export const certName = (cert: string) => CERT_NAMES[cert] ?? cert;
export const sideName = (side: ClaimOutcome['side']) => (side === 'both' ? 'client + server' : side);

/** How much a result says about the machine being quiet while it measured; results are ranked by it. */
export type QuietEvidence = 'quiet' | 'not-quiet' | 'none';
export const quietEvidence = (r: HypothesisResult): QuietEvidence => (r.quiet === undefined ? 'none' : r.quiet.quiet ? 'quiet' : 'not-quiet');
// a loud host is still evidence: it says what the machine did; a result without any says nothing about it
const EVIDENCE_RANK: Record<QuietEvidence, number> = { quiet: 2, 'not-quiet': 1, none: 0 };
export const EVIDENCE_LABEL: Record<QuietEvidence, string> = {
  quiet: 'quiet host',
  'not-quiet': 'host not quiet',
  none: 'no quiet evidence (recorded before the quiet-host protocol)',
};

/**
 * Per host, the result to publish. Ranked by quiet evidence first (quiet > not quiet > none: a result
 * without evidence is never published ahead of one with), then a sequential result before a quick one,
 * then the newest.
 */
export function pickPublished<T extends { result: HypothesisResult }>(files: readonly T[]): T[] {
  const byHost = new Map<string, T>();
  const rank = (f: T) => [EVIDENCE_RANK[quietEvidence(f.result)], f.result.mode === 'sequential' ? 1 : 0, Date.parse(f.result.finishedAt)];
  const better = (a: number[], b: number[]) => {
    for (let i = 0; i < a.length; i++) if (a[i] !== b[i]) return a[i]! > b[i]!;
    return false;
  };
  for (const f of files) {
    const cur = byHost.get(f.result.host.id);
    if (!cur || better(rank(f), rank(cur))) byHost.set(f.result.host.id, f);
  }
  return [...byHost.values()].sort((a, b) => a.result.host.id.localeCompare(b.result.host.id));
}

const medianOrNull = (values: number[]): number | null => (values.length ? median(values) : null);

export interface ConfigCost {
  config: string;
  cert: string;
  clientUs: number | null;
  serverUs: number | null;
  blocks: number;
}

/** Median client and server CPU per handshake of each configuration and certificate, over measured (non-warm-up) blocks. */
export function configCosts(r: HypothesisResult): ConfigCost[] {
  const out: ConfigCost[] = [];
  const certs = [...new Set(r.blocks.map((b) => b.cert))].sort();
  for (const c of r.configurations) {
    for (const cert of certs) {
      const blocks = r.blocks.filter((b) => b.config === c.id && b.cert === cert && !b.warmup);
      out.push({
        config: c.id,
        cert,
        clientUs: medianOrNull(blocks.map((b) => b.clientUs)),
        serverUs: medianOrNull(blocks.map((b) => b.serverUs)),
        blocks: blocks.length,
      });
    }
  }
  return out;
}

export const us = (v: number | null) => (v === null ? 'not measured' : `${num(v)} µs`);
/** A fraction as a percentage to 3 significant digits: 0.1106 -> "11.1%", 0.9942 -> "99.4%". */
export const percent = (fraction: number) => `${Number((fraction * 100).toPrecision(3))}%`;

/** "within ±5%, i.e. ±9.1 µs": an equivalence margin in words and in µs. */
export function marginText(r: HypothesisResult, c: ClaimOutcome): string {
  return `±${percent(r.design.equivalenceMargin)}${c.marginUs === null ? '' : `, i.e. ±${us(c.marginUs)}`}`;
}

export const intervalText = (i: { low: number; high: number } | null) => (i ? `${pct(i.low)} to ${pct(i.high)}` : 'no interval');

/** A part of the gap: its cost, "saves", or "not separable" when its interval includes zero; never a negative cost. */
export function gapText(p: GapPart | null): { main: string; detail: string; separable: boolean } {
  if (!p) return { main: 'not measured', detail: '', separable: false };
  const range = `${num(p.interval.low)} to ${num(p.interval.high)} µs`;
  if (!p.separable) return { main: 'not separable at this precision', detail: `interval ${range} includes zero`, separable: false };
  return { main: p.us >= 0 ? us(p.us) : `saves ${us(-p.us)}`, detail: `interval ${range}`, separable: true };
}

export interface ForestRow {
  id: string;
  label: string;
  ratio: number;
  low: number;
  high: number;
  verdict: string;
  /** a second, deterministic estimate drawn on the same row (the instruction ratio), or null */
  marker: number | null;
}

/** One row per claim and certificate with a CPU interval; the instruction ratio as the row's marker. */
export function forestRows(r: HypothesisResult): ForestRow[] {
  return r.claims
    .filter((c) => c.cpu.ratio !== null && c.cpu.interval !== null)
    .map((c) => ({
      id: `${c.id}-${c.cert}`,
      label: `${c.id} ${certName(c.cert)}, ${sideName(c.side)}`,
      ratio: c.cpu.ratio!,
      low: c.cpu.interval!.low,
      high: c.cpu.interval!.high,
      verdict: VERDICT_LABEL[c.verdict],
      marker: c.instructions.ratio,
    }));
}

export const STOPPED: Record<HypothesisResult['progress']['stoppedBecause'], string> = {
  'all-decided': 'every claim was decided by CPU time',
  budget: 'the time budget ran out',
  'last-look': 'the last pre-declared look was reached',
  'fixed-rounds': 'quick mode runs a fixed number of rounds',
};

/** "3 min 05 s" */
export function duration(seconds: number): string {
  const m = Math.floor(seconds / 60);
  const s = Math.round(seconds % 60);
  return m ? `${m} min ${String(s).padStart(2, '0')} s` : `${s} s`;
}
