// What the project has on the cause of a headline figure's change: the write-ups and bisections to link to.
import type { Entry } from '../model.ts';

/** What the project has on the cause of a headline figure's change: write-ups naming its series and version, bisections of it (by its metric and side, or by its series key) into the series. */
export interface Cause {
  kind: 'write-up' | 'bisection';
  id: string;
  text: string;
}

/** Bisection metrics ("handshake-instructions:client:...") by the summary metric they follow. */
const BISECT_METRIC: Record<string, string> = { 'handshake-instructions': 'instructions-per-handshake', 'handshake-heap': 'heap-per-connection' };

export function causesOf(
  entry: Entry,
  writeups: readonly { id: string; title: string; versions: readonly string[]; seriesKeys: readonly string[] }[],
  bisections: readonly { machine: string; slug: string; title: string; metricId: string }[],
): Cause[] {
  const side = entry.params.side;
  return [
    ...writeups
      .filter((w) => w.seriesKeys.includes(entry.key) && w.versions.includes(entry.version))
      .map((w) => ({ kind: 'write-up' as const, id: w.id, text: w.title })),
    ...bisections
      .filter((b) => {
        if (b.metricId === entry.key) return true; // a series bisected by its own key
        const [metric, bSide] = b.metricId.split(':');
        return BISECT_METRIC[metric ?? ''] === entry.metric && (side === undefined || side === 'both' || bSide === side);
      })
      .map((b) => ({ kind: 'bisection' as const, id: `${b.machine}/${b.slug}`, text: b.title })),
  ];
}
