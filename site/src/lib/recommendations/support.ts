// A release series' support status on a day, from the catalogue (upstream's release policy).
import { SERIES, type ReleaseSeries } from '../../../../catalogue/index.ts';

export interface Support {
  series: string;
  lts: boolean;
  released: string;
  endOfLife: string | null;
  /** supported on the given day (no end-of-life date yet, or one not reached) */
  supported: boolean;
  /** "long-term support" / "standard support" */
  kind: string;
  /** "supported until 2030-04-08", "support ended 2023-09-11", "end of support not announced" */
  until: string;
}

/** A series' support status on a day (YYYY-MM-DD), from the catalogue (upstream's release policy). */
export function supportOf(series: string, today: string, catalogue: readonly ReleaseSeries[] = SERIES): Support | null {
  const s = catalogue.find((x) => x.series === series);
  if (!s) return null;
  const ended = s.endOfLife !== null && s.endOfLife < today;
  return {
    series,
    lts: s.support === 'lts',
    released: s.released,
    endOfLife: s.endOfLife,
    supported: !ended,
    kind: s.support === 'lts' ? 'long-term support' : 'standard support',
    until: s.endOfLife === null ? 'end of support not announced' : `${ended ? 'support ended' : 'supported until'} ${s.endOfLife}`,
  };
}

export const supportText = (s: Support | null): string => (s ? `${s.kind}, ${s.until}` : 'not in the catalogue');
