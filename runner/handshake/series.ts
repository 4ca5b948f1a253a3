// The series the handshake benchmark produces, and what a reader must be told beside some of them (the
// site shows these notes: it imports this module, not the benchmark).
import type { Params } from '../../schema/index.ts';
import type { Outcome, SeriesSpec } from '../benchmark.ts';
import { configParams, describeConfig, type HandshakeConfig } from './config.ts';
import { describeShares, verificationWords, type HandshakeRunOutput } from './output.ts';

const DEFAULT_NOTE = '"default groups" = each version\'s own (3.5+ sends X25519MLKEM768+X25519)';

function spec(
  c: HandshakeConfig,
  metric: string,
  side: 'client' | 'server' | 'both',
  parts: Omit<SeriesSpec, 'benchmark' | 'metric' | 'params' | 'comparability'>,
  extra: Params = {},
): SeriesSpec {
  const usesDefault = c.clientGroups === 'default' || c.serverGroups === 'default';
  return {
    benchmark: 'handshake',
    metric,
    ...parts,
    label: `${parts.label}; ${describeConfig(c)}${usesDefault ? `; ${DEFAULT_NOTE}` : ''}`,
    params: { ...configParams(c, side), ...extra },
    comparability: { acrossVersions: true },
  };
}

const IN_PROCESS = 'in-process, BIO pair, each side timed around its SSL calls';

/**
 * What the latency-p50/p90/p99 series are. The keys say "latency" and stay (renaming them would cut the
 * committed history); the figures are percentiles over the connections of each one's CPU time, client +
 * server added, and no wall-clock time. Labels of runs recorded before this text said less: the site adds
 * it beside every table and metric of these keys.
 */
export const PERCENTILE_METRICS = ['latency-p50', 'latency-p90', 'latency-p99'] as const;
const PERCENTILE_OF = 'the CPU time per connection, client + server, not wall-clock latency';
export const PERCENTILE_NOTE = `${PERCENTILE_METRICS.join(', ')} are percentiles of ${PERCENTILE_OF}`;

/**
 * What the TLS 1.3 client's heap holds that a client which never read would not. Checked in the 3.1.4,
 * 3.2.1 and 4.0.3 sources: up to 3.1 each side allocates its read buffer when the handshake starts
 * (ssl3_setup_buffers);
 * from 3.2 each key change brings a new record layer whose read buffer is allocated at its first read
 * (tls_get_more_records). A TLS 1.3 client changes to application keys before the handshake ends, so
 * only the harness's SSL_read after it (tickets) allocates that buffer; a TLS 1.2 client reads its last
 * handshake message under the new keys. SSL_MODE_RELEASE_BUFFERS, off by default, would free it.
 */
export const TLS13_CLIENT_HEAP_NOTE =
  "in OpenSSL the TLS 1.3 client's heap includes a read buffer for one maximum-size record, which 3.2 and later allocate at the client's first SSL_read after the handshake (the harness reads once after the handshake, for session tickets; a client that has not read yet holds none) and which 3.1 and earlier allocate when the handshake starts; nothing frees it afterwards unless SSL_MODE_RELEASE_BUFFERS is set, and it is not by default";

/** What every series of a metric needs said beside its key and label (the per-connection CPU percentiles named "latency"); null if nothing. */
export const metricNote = (benchmark: string, metric: string): string | null =>
  benchmark === 'handshake' && (PERCENTILE_METRICS as readonly string[]).includes(metric) ? PERCENTILE_NOTE : null;

/** A plain handshake: TLS 1.3, no resumption, one thread, a shared SSL_CTX, the default cipher (what the version pages open with). */
export const isPlainHandshake = (params: Params): boolean =>
  params.proto === '1.3' && params.resume === 'none' && params.threads === 1 && params.clientCtx === 'shared' && params.cipher === undefined;
/** The metrics of the figures a version page opens with (site/src/lib/version/headlines.ts), of plain handshakes. */
export const HANDSHAKE_HEADLINE_METRICS: readonly string[] = ['cpu-per-handshake', 'instructions-per-handshake', 'heap-per-connection'];
/** A headline series of the handshake: what a version page opens with (a budgeted night puts these and the tracked series first: night-plan.ts isNightHeadline). */
export const isHeadline = (s: { metric: string; params: Params }): boolean => HANDSHAKE_HEADLINE_METRICS.includes(s.metric) && isPlainHandshake(s.params);

/** What a series' key, and the labels runs recorded, do not say and a reader must know; null if nothing. */
export function seriesNote(s: { benchmark: string; metric: string; params: Params; library?: string }): string | null {
  const forMetric = metricNote(s.benchmark, s.metric);
  if (forMetric || s.benchmark !== 'handshake') return forMetric;
  const openssl = s.library === undefined || s.library === 'openssl';
  if (openssl && s.metric === 'heap-per-connection' && s.params.side === 'client' && s.params.proto === '1.3') return TLS13_CLIENT_HEAP_NOTE;
  return null;
}

/** The series a timing run of this configuration produces, in a fixed order. */
export function timingSpecs(c: HandshakeConfig): SeriesSpec[] {
  const specs = [
    spec(c, 'handshakes-per-cpu-second', 'both', {
      label: `Handshakes per second of client + server CPU time (${IN_PROCESS})`,
      unit: 'handshakes/s',
      method: 'cpu-time-both',
      higherIsBetter: true,
    }),
    spec(c, 'cpu-per-handshake', 'client', {
      label: `Client CPU time per handshake (${IN_PROCESS})`,
      unit: 'us/handshake',
      method: 'cpu-time-client',
      higherIsBetter: false,
    }),
    spec(c, 'cpu-per-handshake', 'server', {
      label: `Server CPU time per handshake (${IN_PROCESS})`,
      unit: 'us/handshake',
      method: 'cpu-time-server',
      higherIsBetter: false,
    }),
    spec(c, 'handshakes-per-second-wall', 'both', {
      label: `Handshakes per wall-clock second, all threads together (${IN_PROCESS}, both sides in each thread)`,
      unit: 'handshakes/s',
      method: 'wall-clock-throughput',
      higherIsBetter: true,
    }),
  ];
  if (c.threads !== 1 || c.mode !== 'handshake') return specs;
  for (const metric of PERCENTILE_METRICS)
    specs.push(
      spec(c, metric, 'both', {
        label: `${metric.slice('latency-'.length)} of ${PERCENTILE_OF} (SSL objects, handshake, ticket read, shutdown, free)`,
        unit: 'us/handshake',
        method: 'cpu-time-both',
        higherIsBetter: false,
      }),
    );
  specs.push(
    spec(c, 'bytes-sent', 'client', {
      label: 'Bytes the client sends per handshake (TLS records, all flights)',
      unit: 'bytes',
      method: 'wire-bytes',
      higherIsBetter: false,
    }),
    spec(c, 'bytes-sent', 'server', {
      label: 'Bytes the server sends per handshake (TLS records, all flights, incl. session tickets)',
      unit: 'bytes',
      method: 'wire-bytes',
      higherIsBetter: false,
    }),
    spec(
      c,
      'clienthello-bytes',
      'client',
      {
        label: 'Size of the first ClientHello handshake message, incl. its 4-byte header (what QUIC carries in CRYPTO frames)',
        unit: 'bytes',
        method: 'wire-bytes',
        higherIsBetter: false,
      },
      { layer: 'message' },
    ),
    spec(
      c,
      'clienthello-bytes',
      'client',
      {
        label: 'Size of the TLS record carrying the first ClientHello, incl. the 5-byte record header',
        unit: 'bytes',
        method: 'wire-bytes',
        higherIsBetter: false,
      },
      { layer: 'record' },
    ),
  );
  return specs;
}

export function timingOutcomes(c: HandshakeConfig, o: HandshakeRunOutput): Outcome[] {
  const [rate, cli, srv, wall, ...rest] = timingSpecs(c);
  const n = o.handshakes;
  const observed = observedOf(o);
  const v = (s: SeriesSpec | undefined, value: number): Outcome => ({ spec: s!, value, observed });
  const out = [v(rate, (1e9 * n) / (o.clientCpuNs + o.serverCpuNs)), v(cli, o.clientCpuNs / n / 1000), v(srv, o.serverCpuNs / n / 1000)];
  if (o.wallNs) out.push(v(wall, (1e9 * n) / o.wallNs));
  if (rest.length) {
    const [p50, p90, p99, cb, sb, chm, chr] = rest;
    if (o.latencyNs) out.push(v(p50, o.latencyNs.p50 / 1000), v(p90, o.latencyNs.p90 / 1000), v(p99, o.latencyNs.p99 / 1000));
    out.push(v(cb, o.clientBytes), v(sb, o.serverBytes), v(chm, o.clientHello.messageBytes), v(chr, o.clientHello.recordBytes));
  }
  return out;
}

export function observedOf(o: HandshakeRunOutput): Params {
  return {
    negotiatedProtocol: o.negotiated.protocol,
    negotiatedGroup: o.negotiated.group,
    cipher: o.negotiated.cipher,
    resumed: o.negotiated.resumed,
    resumptionVerified: o.resume !== 'none' && o.negotiated.resumed,
    hrr: o.negotiated.hrr,
    peerVerification: verificationWords(o.verification),
    clientKeyShares: describeShares(o.clientHello.keyShares),
    serverKeyShare: o.serverKeyShare ? describeShares([o.serverKeyShare]) : 'none',
    ...(o.ticketChainLimit
      ? {
          resumptionChain: `a new ticket chain every ${o.ticketChainLimit} resumptions, opened by a full handshake that is not measured (wolfSSL refuses the 256th TLS 1.3 ticket of one chain: SESSION_TICKET_NONCE_OVERFLOW)`,
        }
      : {}),
  };
}

export function memorySpecs(c: HandshakeConfig): SeriesSpec[] {
  // the harness's client reads once after the handshake (tickets); TLS13_CLIENT_HEAP_NOTE says what that adds
  const after = {
    client: `after the handshake and the client's SSL_read of what follows it${c.proto === '1.3' ? " (in OpenSSL 3.2+ that read allocates the client's read buffer)" : ''}`,
    server: 'after the handshake',
  };
  return (['client', 'server'] as const).map((side) =>
    spec(c, 'heap-per-connection', side, {
      label: `Heap bytes the ${side} holds per live connection ${after[side]}, counted through CRYPTO_set_mem_functions (not RSS)`,
      unit: 'bytes',
      method: 'heap-bytes',
      higherIsBetter: false,
    }),
  );
}

export function instructionSpec(c: HandshakeConfig): SeriesSpec {
  return spec(c, 'instructions-per-handshake', 'both', {
    label: 'Instructions per handshake, both sides (valgrind callgrind, fixed-seed RNG; valgrind hides CPU features, see hiddenFeatures)',
    unit: 'instructions',
    method: 'instruction-count',
    higherIsBetter: false,
  });
}

export const ctxNewSpec: SeriesSpec = {
  benchmark: 'handshake',
  metric: 'ssl-ctx-new',
  label: 'CPU time of one SSL_CTX_new(TLS_method()) call, as paid by a client that creates a context per connection',
  unit: 'us/op',
  method: 'cpu-time-client',
  higherIsBetter: false,
  params: { side: 'client' },
  comparability: { acrossVersions: true },
};
