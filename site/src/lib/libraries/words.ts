// The libraries page's words for a parameter, a metric and a configuration.
import type { Entry } from '../model.ts';
import { paramWords } from '../../../../catalogue/words.ts';

/** A parameter of an entry as text, undefined where the entry has none. */
export const paramOf = (e: Entry, k: string) => (e.params[k] === undefined ? undefined : String(e.params[k]));

/** Row prefixes where one table holds more than one measure. */
const METRIC_WORDS: Record<string, string> = {
  'handshakes-per-second-wall': 'Handshakes per wall second',
  'cpu-per-handshake': 'CPU per handshake',
  'instructions-per-handshake': 'Instructions per handshake',
  'heap-per-connection': 'Heap per connection',
};
/** A metric in a row label (the cipher and the rest are in configText): AEAD seal metrics by what they divide by. */
export const metricWords = (metric: string): string =>
  METRIC_WORDS[metric] ??
  (metric.endsWith('-seal-cpu')
    ? 'Payload per CPU-second'
    : metric.endsWith('-seal')
      ? 'Payload per wall second'
      : metric.replace(/-/g, ' ').replace(/^./, (c) => c.toUpperCase()));

/** A configuration in words (catalogue/words.ts), parameters the section title already says left out; the AEAD operation and AAD size are in the metric's words. */
export function configText(params: Entry['params'], omit: readonly string[] = []): string {
  return paramWords(params, [...omit, 'operation', 'aadBytes']).join(', ');
}
