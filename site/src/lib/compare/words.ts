// A comparison row's relation and change in words: the tables, the download and the forest say the same.
import { INDEPENDENT_TEXT, PAIRING_TEXT, VERDICT_TEXT, coverageText, pct, pctRange } from '../format.ts';
import type { CompareRow, Relation } from './rows.ts';

/** How a row's two values relate, in words (the change column where there is no ratio, the download's relation). */
export const RELATION_WORDS: Record<Relation, string> = {
  paired: PAIRING_TEXT['paired-rounds'],
  independent: INDEPENDENT_TEXT,
  'not-comparable': 'not comparable: the measurement method differs',
  'one-side': 'measured in one build only',
  'not-measured': 'measured in neither build',
};

/** A row's change (main) and its interval, pairing and verdict (sub); the relation's words where it has no pair. */
export function changeText(r: CompareRow): { main: string; sub: string } {
  if (r.relation !== 'paired' || !r.paired) return { main: RELATION_WORDS[r.relation], sub: '' };
  const p = r.paired;
  const iv =
    p.low !== null && p.high !== null ? `${pctRange({ low: p.low, high: p.high })}${p.coverage !== null ? ` (covers ${coverageText(p.coverage)})` : ''}, ` : '';
  return { main: pct(p.ratio), sub: `${iv}${p.deterministic ? 'exact count' : `${p.pairs} rounds paired`}: ${VERDICT_TEXT[p.verdict]}` };
}
