// Entries for the version modules' tests: the fixture summary's OpenSSL builds, and a builder of one entry.
import { readFileSync } from 'node:fs';
import { Summary, type SummaryEntry } from '../../../../schema/index.ts';
import { openSSLOnly } from '../data.ts';

// the OpenSSL builds' entries: what these pages read (other libraries are on /libraries)
export const fixture = openSSLOnly(Summary.parse(JSON.parse(readFileSync(new URL('../../../tests/fixtures/data/summary.json', import.meta.url), 'utf8'))));

export function entry(over: Partial<SummaryEntry> & { params: SummaryEntry['params'] }): SummaryEntry {
  return {
    host: 'h',
    library: 'openssl',
    version: '3.5.7',
    series: '3.5',
    variant: 'default',
    key: `k${JSON.stringify(over.params)}${over.metric ?? ''}`,
    benchmark: 'handshake',
    metric: 'cpu-per-handshake',
    label: 'Client CPU time per handshake (in-process); TLS 1.3',
    unit: 'us/handshake',
    method: 'cpu-time-client',
    higherIsBetter: false,
    comparability: { acrossVersions: true },
    status: 'measured',
    runId: 'r1',
    stats: null,
    vsPreviousSeries: null,
    vsBaseline: null,
    vsOpenSSL: null,
    ...over,
  };
}
