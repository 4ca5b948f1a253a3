// The order a version page reads in: benchmarks and their titles, metrics, then parameters and their values
// (TLS 1.3 before 1.2, new sessions before resumption, one thread before many, library defaults before pinned groups).
import type { Params } from '../../../../schema/index.ts';
import type { Entry } from '../model.ts';

const BENCHMARK_ORDER = ['handshake', 'servers', 'aead', 'known-issues', 'speed', 's-time'];
export const BENCHMARK_TITLE: Record<string, string> = {
  handshake: 'TLS handshakes, in one process',
  aead: 'AEAD throughput, one EVP program for every version',
  'known-issues': 'Known issues: the operations behind reported complaints',
  speed: "Primitives, each version's own openssl speed",
  's-time': 'openssl s_time over loopback',
  servers: 'Real servers: nginx and HAProxy built against this version',
};
export const benchmarkTitle = (b: string): string => BENCHMARK_TITLE[b] ?? `Benchmark ${b}`;

const METRIC_ORDER = [
  'cpu-per-handshake',
  'handshakes-per-cpu-second',
  'instructions-per-handshake',
  'heap-per-connection',
  'ssl-ctx-new',
  'latency-p50',
  'latency-p90',
  'latency-p99',
  'handshakes-per-second-wall',
  'clienthello-bytes',
  'bytes-sent',
  'instructions-in-function',
];

/** Parameters in the order they sort rows, and the preferred order of their values (others follow, sorted). */
const PARAM_ORDER = [
  'side',
  'layer',
  'function',
  'algorithm',
  'operation',
  'proto',
  'resume',
  'clientCtx',
  'threads',
  'cert',
  'clientGroups',
  'serverGroups',
  'cipher',
  'bytes',
];
export const VALUE_ORDER: Record<string, string[]> = {
  side: ['client', 'server', 'both'],
  layer: ['message', 'record'],
  function: ['all'],
  proto: ['1.3', '1.2'],
  resume: ['none', 'ticket', 'session-id', 'reuse'],
  clientCtx: ['shared', 'per-connection'],
  cert: ['ecdsa-p256', 'rsa2048'],
  clientGroups: ['default', 'X25519'],
  serverGroups: ['default', 'X25519'],
};

export const rank = (list: readonly string[], v: string) => {
  const i = list.indexOf(v);
  return i < 0 ? list.length : i;
};

function compareValue(name: string, a: Params[string] | undefined, b: Params[string] | undefined): number {
  if (a === b) return 0;
  if (a === undefined) return -1; // rows without the parameter (the plain case) first
  if (b === undefined) return 1;
  if (typeof a === 'number' && typeof b === 'number') return a - b;
  const pref = VALUE_ORDER[name] ?? [];
  return rank(pref, String(a)) - rank(pref, String(b)) || String(a).localeCompare(String(b), 'en', { numeric: true });
}

export function compareParams(a: Params, b: Params): number {
  const names = [...PARAM_ORDER, ...[...new Set([...Object.keys(a), ...Object.keys(b)])].filter((k) => !PARAM_ORDER.includes(k)).sort()];
  for (const n of names) {
    const d = compareValue(n, a[n], b[n]);
    if (d) return d;
  }
  return 0;
}

export function compareEntries(a: Entry, b: Entry): number {
  return (
    rank(BENCHMARK_ORDER, a.benchmark) - rank(BENCHMARK_ORDER, b.benchmark) ||
    a.benchmark.localeCompare(b.benchmark) ||
    rank(METRIC_ORDER, a.metric) - rank(METRIC_ORDER, b.metric) ||
    // "x-cpu" (CPU time, the primary measure) before its wall-clock twin "x"
    a.metric.replace(/-cpu$/, '').localeCompare(b.metric.replace(/-cpu$/, '')) ||
    Number(!a.metric.endsWith('-cpu')) - Number(!b.metric.endsWith('-cpu')) ||
    compareParams(a.params, b.params) ||
    a.key.localeCompare(b.key)
  );
}
