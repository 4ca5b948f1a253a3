// One figure of the recommendations: a build's value and its change against another build of the same
// run, paired by round exactly as scripts/aggregate/summary.ts pairs them (compareRounds over the rounds
// in detailed-iterations.json), so it carries the summary's verdict words; a pair measured in different
// runs, or differently, is not compared and says so. Pure functions: no file access here.
import type { Comparison, DetailedIterations, Summary, SummaryEntry } from '../../../../schema/index.ts';
import { buildLabel, buildSlug } from '../../../../catalogue/index.ts';
import { SUMMARY_DIGITS, compareRounds, significant as toDigits } from '../../../../analysis/stats.ts';
import { comparable } from '../claims/judge.ts';
import { entryRounds } from '../claims/compare.ts';
import { BULK_KEY, handshakeKey } from '../reference-keys.ts';
import { pct, pctRange, quantity, significant, verdictTone, verdictWords } from '../format.ts';

/** One build's entry, as a figure names it. */
export interface Ref {
  key: string;
  library: SummaryEntry['library'];
  version: string;
  variant: string;
  /** "3.5.7", "aws-lc-5.12.0" (catalogue buildSlug) */
  build: string;
  /** "OpenSSL 3.5.7", "AWS-LC 5.12.0" as readers know it */
  name: string;
}

/** One figure of the recommendations: a's value, and a against b (paired within one run) where there is a b. */
export interface Figure {
  host: string;
  a: Ref;
  b: Ref | null;
  /** a's median as the page prints it */
  value: string;
  unit: string;
  method: string;
  higherIsBetter: boolean;
  /** a against b, paired by round in one run (or exact counts); null where they cannot be compared */
  comparison: Comparison | null;
  /** the change as printed ("+31.8%"), null without a comparison */
  change: string | null;
  /** the interval of the change ("+20.1% to +40.2%"), null for exact counts or without a comparison */
  interval: string | null;
  /** the data decide the difference: the whole interval on one side of no change (or an exact count beyond the threshold) */
  decided: boolean;
  tone: 'better' | 'worse' | 'neutral';
  /** the verdict in words: "higher (worse)", "no difference shown", or why there is no comparison */
  verdict: string;
}

/** The questions a figure answers, one row each, in reading order. */
export const MEASURES = [
  { id: 'client', metric: 'cpu-per-handshake', side: 'client', label: 'Client CPU per handshake' },
  { id: 'server', metric: 'cpu-per-handshake', side: 'server', label: 'Server CPU per handshake' },
  { id: 'rate', metric: 'handshakes-per-cpu-second', side: 'both', label: 'Handshakes per CPU second (both sides)' },
] as const;
export type MeasureId = (typeof MEASURES)[number]['id'] | 'bulk';
export const BULK_LABEL = 'AES-128-GCM bulk encryption, 16-KiB records, per CPU second';
export const MEASURE_LABEL: Record<MeasureId, string> = { ...Object.fromEntries(MEASURES.map((m) => [m.id, m.label])), bulk: BULK_LABEL } as Record<
  MeasureId,
  string
>;
/** The configuration the handshake figures are read on, in words (the keys are handshakeKey's). */
export const REFERENCE_TEXT = 'TLS 1.3, new sessions, ECDSA P-256 certificate, one thread';

export const keyOf = (m: MeasureId, groups: string) => {
  if (m === 'bulk') return BULK_KEY;
  const d = MEASURES.find((x) => x.id === m)!;
  return handshakeKey(d.metric, d.side, groups);
};

const refOf = (e: SummaryEntry): Ref => ({ key: e.key, library: e.library, version: e.version, variant: e.variant, build: buildSlug(e), name: buildLabel(e) });

/** Why two entries have no comparison, or null when they have one. */
function noComparison(a: SummaryEntry | undefined, b: SummaryEntry | undefined): string | null {
  if (!a || !b) return 'not measured';
  for (const e of [a, b]) if (e.status !== 'measured' || !e.stats) return `${buildLabel(e)}: ${e.status === 'measured' ? 'no measured value' : e.status}`;
  if (a.runId !== b.runId) return 'measured in different runs: not compared';
  if (!comparable(a.comparability, b.comparability, false) && a.key !== b.key) return 'measured differently: not comparable';
  return null;
}

/**
 * a against b, as scripts/aggregate/summary.ts compares two builds of one run: paired by round over the values of
 * detailed-iterations.json (exact ratio for deterministic counts). The reason where there is none.
 */
export function compareEntries(
  summary: Pick<Summary, 'builds'>,
  detailed: DetailedIterations | null,
  a: SummaryEntry | undefined,
  b: SummaryEntry | undefined,
): { comparison: Comparison | null; why: string | null } {
  const why = noComparison(a, b);
  if (why) return { comparison: null, why };
  const ra = entryRounds(a!, summary, detailed);
  const rb = entryRounds(b!, summary, detailed);
  if (!ra || !rb) return { comparison: null, why: 'the per-round values are missing' };
  // published like summary.json's comparisons (and compare/data.ts), so all agree to the digit
  const c = toDigits(compareRounds(ra, rb, buildSlug(b!), Boolean(a!.stats!.deterministic)), SUMMARY_DIGITS);
  return c ? { comparison: c, why: null } : { comparison: null, why: 'no round measured both' };
}

/** A figure: a's value, and a against b where b is given. */
export function figure(summary: Pick<Summary, 'builds'>, detailed: DetailedIterations | null, a: SummaryEntry, b: SummaryEntry | undefined | null): Figure {
  const { comparison, why } = b === null ? { comparison: null, why: null } : compareEntries(summary, detailed, a, b);
  return {
    host: a.host,
    a: refOf(a),
    b: b ? refOf(b) : null,
    value: a.stats ? quantity(a.stats.median, a.unit, a.method) : a.status,
    unit: a.unit,
    method: a.method,
    higherIsBetter: a.higherIsBetter,
    comparison,
    change: comparison ? pct(comparison.ratio) : null,
    interval: comparison?.interval ? pctRange(comparison.interval) : null,
    decided: significant(comparison),
    tone: comparison ? verdictTone(comparison, a.higherIsBetter) : 'neutral',
    verdict: comparison ? verdictWords(comparison, a.higherIsBetter) : (why ?? ''),
  };
}

/** A figure's verdict for a sentence: better or worse where the data decide, else what they cannot say. */
export function decisionText(f: Figure): string {
  if (!f.comparison) return f.verdict;
  if (f.decided) return `decided: ${f.tone}`;
  if (f.comparison.verdict === 'within-threshold') return 'unchanged within the threshold';
  return `${f.verdict}: the data cannot decide`;
}
