// Benchmark 'handshake': runner/handshake/handshake.c, compiled against every version, runs client and
// server in one process over a BIO pair and measures each side's CPU time per handshake, the bytes each
// side sends, the ClientHello, heap per connection and (under valgrind) instructions per handshake.
// Every handshake is checked by the program itself (protocol, pinned group, resumption); a configuration
// a version cannot do comes back 'unsupported' with the library's reason.
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { Library, type Params, type RunMode } from '../../schema/index.ts';
import { median } from '../../analysis/stats.ts';
import { certName, groupsWords, resumeWords } from '../../catalogue/words.ts';
import { defaultWindow, type Benchmark, type BuildUnderTest, type Outcome, type SeriesSpec, type Task, type WindowLength, type Windows } from '../benchmark.ts';
import { CERTS, CERT_HOSTNAME, certDir, ensureCerts as ensureSharedCerts, type Cert } from '../certs.ts';
import { runGuarded, stderrTail, type ProgramResult } from '../child-guard.ts';
import { libraryMismatch } from '../library-id.ts';
import { compileAgainst, type Linkable } from '../compile.ts';
import { annotate, type Profile, type ProfileKind } from '../causes/callgrind.ts';
import {
  describeShares,
  hiddenFeatures,
  hiddenFeaturesText,
  parseHandshakeOutput,
  verificationWords,
  type HandshakeRunOutput,
  type ParsedOutput,
} from './output.ts';

const here = (f: string) => fileURLToPath(new URL(f, import.meta.url));
export const HANDSHAKE_SOURCE = here('./handshake.c');

export { CERTS, certDir, type Cert };
export type Proto = '1.2' | '1.3';
export type Resume = 'none' | 'ticket' | 'session-id';

export interface HandshakeConfig {
  proto: Proto;
  cert: Cert;
  /** "default" (the library's own list) or a list as for SSL_CTX_set1_groups_list */
  clientGroups: string;
  serverGroups: string;
  resume: Resume;
  threads: number;
  /** ctx-per-conn: the client creates and configures a new SSL_CTX for every connection */
  mode: 'handshake' | 'ctx-per-conn' | 'memory';
  cipher?: string;
  /**
   * chain (the default): the client verifies the server's leaf and intermediate up to the root CA it
   * trusts, and the leaf's name (runner/certs.ts). none: the control that verifies nothing, so that
   * chain minus none is what verification costs a library.
   */
  verify?: 'chain' | 'none';
}

export const baseConfig = (over: Partial<HandshakeConfig> = {}): HandshakeConfig => ({
  proto: '1.3',
  cert: 'ecdsa-p256',
  clientGroups: 'default',
  serverGroups: 'default',
  resume: 'none',
  threads: 1,
  mode: 'handshake',
  ...over,
});

// ------------------------------------------------------------------ binary and certificates

export function handshakeBinary(build: Linkable): string {
  return compileAgainst(build, HANDSHAKE_SOURCE, 'handshake');
}

/** Make the missing shared certificates (runner/certs.ts) with handshake.c's gen-certs. */
export const ensureCerts = (build: BuildUnderTest): Promise<void> => ensureSharedCerts(build, handshakeBinary);

// ------------------------------------------------------------------ running one invocation

export function configArgs(cfg: HandshakeConfig, count: number): string[] {
  const args = ['run', '--cert-dir', certDir(), '--cert', cfg.cert, '--proto', cfg.proto, '--client-groups', cfg.clientGroups];
  args.push('--server-groups', cfg.serverGroups, '--resume', cfg.resume, '--count', String(count), '--threads', String(cfg.threads));
  args.push('--mode', cfg.mode, ...(cfg.cipher ? ['--cipher', cfg.cipher] : []), ...(cfg.verify === 'none' ? ['--verify', 'none'] : []));
  return args;
}

/** Run a harness program (programEnv: no library tuning variables); never throws (exit -1: killed or not started). */
export function exec(cmd: string, args: string[], timeoutMs: number): Promise<ProgramResult> {
  return runGuarded(cmd, args, { timeoutMs });
}

/**
 * Run one configuration once (the function the hypothesis test and the MTU analysis call). A crash or
 * unreadable output becomes 'failed' with what the process said; the result names the library it ran.
 */
export async function runHandshake(
  binary: string,
  cfg: HandshakeConfig,
  count: number,
  timeoutMs = 600_000,
  opts: { cpu?: number } = {},
): Promise<ParsedOutput> {
  const r = await exec(binary, [...configArgs(cfg, count), ...(opts.cpu === undefined ? [] : ['--cpu', String(opts.cpu)])], timeoutMs);
  const where = `handshake ${describeConfig(cfg)}`;
  if (r.code === -1 || !r.stdout.trim()) return { kind: 'failed', reason: `${where}: exit ${r.code}: ${stderrTail(r.stderr)}`, openssl: 'unknown' };
  return checkVerification(cfg, parseHandshakeOutput(r.stdout, r.code, where), where);
}

/** The chain every verifying client must have checked: leaf and intermediate against their issuers, up to the root. */
export const CHAIN_DEPTH = 2;

/**
 * A run whose client verified other than asked is a failure, whatever it measured: every library must
 * report the same verification (depth CHAIN_DEPTH, CHAIN_DEPTH certificates checked, the hostname), or
 * nothing at all in the control.
 */
export function checkVerification(cfg: HandshakeConfig, parsed: ParsedOutput, where: string): ParsedOutput {
  if (parsed.kind !== 'run') return parsed;
  const v = parsed.out.verification;
  const asked = cfg.verify ?? 'chain';
  const wrong =
    v.mode !== asked
      ? `asked the client to verify ${asked}, it reports ${v.mode}`
      : v.mode === 'chain' && (v.depth !== CHAIN_DEPTH || v.certsChecked !== CHAIN_DEPTH || v.hostname !== CERT_HOSTNAME)
        ? `the client verified to depth ${v.depth} (${v.certsChecked} certificates checked, hostname ${v.hostname}), not the chain of depth ${CHAIN_DEPTH} to ${CERT_HOSTNAME}`
        : null;
  return wrong ? { kind: 'failed', reason: `${where}: ${wrong}`, openssl: parsed.out.openssl } : parsed;
}

export type InstructionResult =
  | {
      kind: 'measured';
      instructionsPerHandshake: number;
      totalInstructions: number;
      out: HandshakeRunOutput;
      /** null: not known (no capability vector) */ hiddenFeatures: string[] | null;
      /** the per-function profiles asked for (instructions over every measured handshake) */
      profiles: Partial<Record<ProfileKind, Profile>>;
    }
  | { kind: 'unsupported' | 'failed'; reason: string };

/**
 * Why handshake.c cannot count instructions for this configuration, or null when it can: one thread, in
 * handshake mode or with a new client context per connection (both count the whole loop); one side
 * alone only in handshake mode.
 */
export function notCountable(cfg: HandshakeConfig, side?: 'client' | 'server'): string | null {
  if (cfg.threads === 1 && (cfg.mode === 'handshake' || (cfg.mode === 'ctx-per-conn' && !side))) return null;
  return `instruction counts are for one thread in handshake mode (or ctx-per-conn, both sides), not ${cfg.threads} thread(s) in ${cfg.mode} mode${side ? ` counting the ${side}` : ''}`;
}

/**
 * Instructions per handshake (client + server): the same invocation under callgrind with collection
 * only around the measured handshakes and handshake.c's fixed-seed RNG, so the count is reproducible.
 * With `side`, only that side's SSL calls are collected (handshake.c --count-side); `profiles` asks for
 * callgrind_annotate's per-function costs of the same run.
 */
export async function countInstructions(
  binary: string,
  cfg: HandshakeConfig,
  count: number,
  side?: 'client' | 'server',
  profiles: readonly ProfileKind[] = [],
): Promise<InstructionResult> {
  const why = notCountable(cfg, side);
  if (why) throw new Error(why);
  const dir = mkdtempSync(join(tmpdir(), 'hs-callgrind-'));
  try {
    const outFile = join(dir, 'callgrind.out');
    const args = [
      '--tool=callgrind',
      '--collect-atstart=no',
      `--callgrind-out-file=${outFile}`,
      binary,
      ...configArgs(cfg, count),
      '--deterministic',
      ...(side ? ['--count-side', side] : []),
    ];
    const r = await exec('valgrind', args, 1_200_000);
    if (/ENOENT|failed to execute valgrind/.test(r.stderr) && !r.stdout.trim())
      return { kind: 'failed', reason: 'valgrind is not installed (apt-get install valgrind)' };
    if (!r.stdout.trim()) return { kind: 'failed', reason: `valgrind exit ${r.code}: ${r.stderr.trim().slice(-1500)}` };
    const where = `callgrind ${describeConfig(cfg)}`;
    const parsed = checkVerification(cfg, parseHandshakeOutput(r.stdout, r.code, where), where);
    if (parsed.kind === 'unsupported' || parsed.kind === 'failed') return { kind: parsed.kind, reason: parsed.reason };
    if (parsed.kind !== 'run' || !parsed.out.underValgrind || !(parsed.out.deterministicRng || parsed.out.rngNotFixed))
      return { kind: 'failed', reason: 'the program did not report running under valgrind with the fixed-seed RNG (or why the library has none)' };
    if (parsed.out.countSide !== side)
      return { kind: 'failed', reason: `asked to count ${side ?? 'both sides'}, the program counted ${parsed.out.countSide ?? 'both sides'}` };
    const totals = /^totals:\s+(\d+)/m.exec(readFileSync(outFile, 'utf8'));
    if (!totals) return { kind: 'failed', reason: `no "totals:" line in ${outFile}` };
    const total = Number(totals[1]);
    const annotated: Partial<Record<ProfileKind, Profile>> = {};
    try {
      for (const kind of profiles) annotated[kind] = await annotate(outFile, kind);
    } catch (e) {
      return { kind: 'failed', reason: (e as Error).message };
    }
    const native = await exec(binary, ['run', '--mode', 'ctx-new', '--count', '1'], 60_000);
    const nativeCap = /"ia32cap":"([0-9a-f:]+)"/.exec(native.stdout)?.[1];
    return {
      kind: 'measured',
      instructionsPerHandshake: total / parsed.out.handshakes,
      totalInstructions: total,
      out: parsed.out,
      hiddenFeatures: hiddenFeatures(nativeCap, parsed.out.ia32cap),
      profiles: annotated,
    };
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

// ------------------------------------------------------------------ series

/** "TLS 1.3 ECDSA P-256, default groups, full handshake": the configuration in a label's words (catalogue/words.ts). */
export function describeConfig(c: HandshakeConfig): string {
  const extra = [
    c.threads > 1 ? `${c.threads} threads, shared SSL_CTX` : '',
    c.mode === 'ctx-per-conn' ? 'new client SSL_CTX per connection' : '',
    c.verify === 'none' ? 'client verifies nothing (control)' : '',
  ]
    .filter(Boolean)
    .join(', ');
  return `TLS ${c.proto} ${certName(c.cert)}, ${groupsWords(c.clientGroups, c.serverGroups)}, ${resumeWords(c.resume)}${extra ? `, ${extra}` : ''}`;
}

const DEFAULT_NOTE = '"default groups" = each version\'s own (3.5+ sends X25519MLKEM768+X25519)';

export function configParams(c: HandshakeConfig, side: 'client' | 'server' | 'both'): Params {
  return {
    proto: c.proto,
    cert: c.cert,
    clientGroups: c.clientGroups,
    serverGroups: c.serverGroups,
    resume: c.resume,
    threads: c.threads,
    clientCtx: c.mode === 'ctx-per-conn' ? 'per-connection' : 'shared',
    ...(c.cipher ? { cipher: c.cipher } : {}),
    // only the control names it: the chain is what every other series verifies
    ...(c.verify === 'none' ? { verify: 'none' } : {}),
    side,
  };
}

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

/** What a series' key, and the labels runs recorded, do not say and a reader must know; null if nothing. */
/** A plain handshake: TLS 1.3, no resumption, one thread, a shared SSL_CTX, the default cipher (what the version pages open with). */
export const isPlainHandshake = (params: Params): boolean =>
  params.proto === '1.3' && params.resume === 'none' && params.threads === 1 && params.clientCtx === 'shared' && params.cipher === undefined;
/** The metrics of the figures a version page opens with (site/src/lib/version/headlines.ts), of plain handshakes. */
export const HANDSHAKE_HEADLINE_METRICS: readonly string[] = ['cpu-per-handshake', 'instructions-per-handshake', 'heap-per-connection'];
/** A headline series of the handshake: what a version page opens with (a budgeted night puts these and the tracked series first: night-plan.ts isNightHeadline). */
export const isHeadline = (s: { metric: string; params: Params }): boolean => HANDSHAKE_HEADLINE_METRICS.includes(s.metric) && isPlainHandshake(s.params);

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

// ------------------------------------------------------------------ the matrix

export type TaskDef =
  | { kind: 'timing'; cfg: HandshakeConfig; count: number }
  | { kind: 'memory'; cfg: HandshakeConfig; count: number }
  | { kind: 'instructions'; cfg: HandshakeConfig; count: number }
  | { kind: 'ctx-new'; count: number };

const G = (groups: string) => ({ clientGroups: groups, serverGroups: groups });
/**
 * Pin one group. TLS 1.2 only allows an ECDSA certificate whose curve the client offers, so there the
 * client also offers P-256 and the server (which allows only the pinned group) makes the choice.
 */
export function pin(proto: Proto, cert: Cert, group: string): Pick<HandshakeConfig, 'clientGroups' | 'serverGroups'> {
  if (proto === '1.2' && cert === 'ecdsa-p256' && group !== 'P-256') return { clientGroups: `${group}:P-256`, serverGroups: group };
  return G(group);
}
const PQ_GROUPS = ['X25519MLKEM768', 'SecP256r1MLKEM768', 'MLKEM768'];

/** Handshake shapes: new handshakes for every cert x group setting, resumption, TLS 1.2. */
export function handshakeShapes(mode: RunMode): HandshakeConfig[] {
  const c = baseConfig;
  if (mode === 'quick')
    return [
      c(),
      c(G('X25519')),
      c({ serverGroups: 'X25519' }),
      c(G('X25519MLKEM768')),
      c({ cert: 'rsa2048', ...G('X25519') }),
      c({ resume: 'ticket' }),
      c({ proto: '1.2', ...pin('1.2', 'ecdsa-p256', 'X25519') }),
      c({ proto: '1.2', resume: 'session-id' }),
    ];
  const shapes: HandshakeConfig[] = [];
  for (const cert of CERTS) {
    shapes.push(c({ cert }), c({ cert, ...G('X25519') }), c({ cert, ...G('P-256') }), c({ cert, serverGroups: 'X25519' }));
    for (const g of PQ_GROUPS) shapes.push(c({ cert, ...G(g) }));
  }
  for (const cert of ['rsa2048', 'ecdsa-p256'] as const) {
    for (const groups of ['default', 'X25519']) shapes.push(c({ cert, resume: 'ticket', ...G(groups) }));
    shapes.push(c({ proto: '1.2', cert }));
    for (const group of ['X25519', 'P-256']) shapes.push(c({ proto: '1.2', cert, ...pin('1.2', cert, group) }));
    shapes.push(c({ proto: '1.2', cert, resume: 'ticket' }), c({ proto: '1.2', cert, resume: 'session-id' }));
  }
  return shapes;
}

/** Handshakes per timed window (resumed ones and SSL_CTX_new calls are cheaper: more of them per window); runner/windows.ts chooses. */
export const HANDSHAKE_WINDOWS: Record<WindowLength, { new: number; resumed: number; ctxNew: number }> = {
  short: { new: 300, resumed: 1000, ctxNew: 300 },
  long: { new: 1000, resumed: 3000, ctxNew: 2000 },
};

export function handshakeMatrix(mode: RunMode, window: WindowLength = defaultWindow(mode)): TaskDef[] {
  const quick = mode === 'quick';
  const per = HANDSHAKE_WINDOWS[window];
  const n = (cfg: HandshakeConfig) => (cfg.resume === 'none' ? per.new : per.resumed);
  const shapes = handshakeShapes(mode);
  const defs: TaskDef[] = shapes.map((cfg) => ({ kind: 'timing', cfg, count: n(cfg) }));
  const pinned = baseConfig(G('X25519'));
  for (const threads of quick ? [2] : [2, 4]) defs.push({ kind: 'timing', cfg: { ...pinned, threads }, count: n(pinned) });
  if (!quick) defs.push({ kind: 'timing', cfg: { ...baseConfig({ cert: 'rsa2048', ...G('X25519') }), threads: 2 }, count: n(pinned) });
  defs.push({ kind: 'ctx-new', count: per.ctxNew });
  for (const proto of quick ? (['1.3'] as const) : (['1.3', '1.2'] as const))
    defs.push({ kind: 'timing', cfg: { ...pinned, proto, ...pin(proto, 'ecdsa-p256', 'X25519'), mode: 'ctx-per-conn' }, count: n(pinned) });
  for (const proto of ['1.3', '1.2'] as const)
    for (const cert of quick ? (['ecdsa-p256'] as const) : (['ecdsa-p256', 'rsa2048'] as const))
      defs.push({ kind: 'memory', cfg: { ...baseConfig({ proto, cert, ...pin(proto, cert, 'X25519') }), mode: 'memory' }, count: quick ? 50 : 200 });
  // what verifying the chain costs each library: the same handshake with a client that verifies nothing
  const controls = (quick ? (['ecdsa-p256'] as const) : (['ecdsa-p256', 'rsa2048'] as const)).map((cert) =>
    baseConfig({ cert, ...G('X25519'), verify: 'none' }),
  );
  for (const cfg of controls) defs.push({ kind: 'timing', cfg, count: n(cfg) });
  const counted = quick ? [baseConfig(), pinned] : [...shapes];
  for (const cfg of [...counted, ...controls]) defs.push({ kind: 'instructions', cfg, count: quick ? 5 : 10 });
  return defs;
}

export function taskId(d: TaskDef): string {
  if (d.kind === 'ctx-new') return 'ctx-new';
  const c = d.cfg;
  const g = c.clientGroups === c.serverGroups ? c.clientGroups : `${c.clientGroups}-vs-${c.serverGroups}`;
  return [d.kind, `tls${c.proto}`, c.cert, g, c.resume, `t${c.threads}`, c.mode, ...(c.verify === 'none' ? ['verify-none'] : [])].join('/');
}

export function specsOf(d: TaskDef): SeriesSpec[] {
  if (d.kind === 'ctx-new') return [ctxNewSpec];
  if (d.kind === 'memory') return memorySpecs(d.cfg);
  if (d.kind === 'instructions') return [instructionSpec(d.cfg)];
  return timingSpecs(d.cfg);
}

const all = (d: TaskDef, status: 'unsupported' | 'failed', reason: string): Outcome[] =>
  specsOf(d).map((spec) => ({ spec, status, reason: reason.slice(0, 2000) }));

/** Callgrind counts per configuration on a library whose RNG cannot be fixed (median reported, spread observed). */
export const UNFIXED_RNG_COUNTS = 3;

export async function runTask(d: TaskDef, binary: string, build: Pick<BuildUnderTest['record'], 'library' | 'version'>): Promise<Outcome[]> {
  const checkVersion = (reported: string) => {
    const wrong = libraryMismatch(reported, build);
    if (wrong) throw new Error(`handshake: ${wrong}`);
  };
  if (d.kind === 'instructions') {
    const r = await countInstructions(binary, d.cfg, d.count);
    if (r.kind !== 'measured') return all(d, r.kind, r.reason);
    checkVersion(r.out.openssl);
    const observed = { ...observedOf(r.out), hiddenFeatures: hiddenFeaturesText(r.hiddenFeatures) };
    if (r.out.deterministicRng) return [{ spec: instructionSpec(d.cfg), value: r.instructionsPerHandshake, observed }];
    // the library's RNG cannot be fixed: count UNFIXED_RNG_COUNTS times, report the median and the spread
    const counts = [r.instructionsPerHandshake];
    while (counts.length < UNFIXED_RNG_COUNTS) {
      const again = await countInstructions(binary, d.cfg, d.count);
      if (again.kind !== 'measured') return all(d, again.kind, again.reason);
      counts.push(again.instructionsPerHandshake);
    }
    counts.sort((a, b) => a - b);
    const mid = median(counts);
    return [
      {
        spec: instructionSpec(d.cfg),
        value: mid,
        observed: {
          ...observed,
          rng: `not fixed: ${r.out.rngNotFixed}`.slice(0, 200),
          instructionCounts: counts.map((c) => Math.round(c)).join(','),
          instructionSpread: (counts.at(-1)! - counts[0]!) / mid,
        },
      },
    ];
  }
  const cfg = d.kind === 'ctx-new' ? baseConfig() : d.cfg;
  const r = d.kind === 'ctx-new' ? await execCtxNew(binary, d.count) : await runHandshake(binary, cfg, d.count);
  if (r.kind === 'unsupported' || r.kind === 'failed') return all(d, r.kind, r.reason);
  checkVersion(r.out.openssl);
  if (r.kind === 'ctx-new') return [{ spec: ctxNewSpec, value: r.out.ctxNewCpuNs / r.out.count / 1000 }];
  if (d.kind === 'memory') {
    const h = r.out.heap;
    if (!h) throw new Error('memory mode output without heap counts');
    const [c, s] = memorySpecs(cfg);
    const observed = observedOf(r.out);
    return [
      { spec: c!, value: h.clientBytesPerConnection, observed },
      { spec: s!, value: h.serverBytesPerConnection, observed },
    ];
  }
  return timingOutcomes(cfg, r.out);
}

async function execCtxNew(binary: string, count: number): Promise<ParsedOutput> {
  const r = await exec(binary, ['run', '--mode', 'ctx-new', '--count', String(count)], 600_000);
  return parseHandshakeOutput(r.stdout, r.code, 'handshake ctx-new');
}

/** The handshake benchmark over a matrix of configurations; `windows` where the matrix sizes its windows by the window it is given (runner/windows.ts chooses). */
export function createHandshakeBenchmark(matrix: (mode: RunMode, window?: WindowLength) => TaskDef[], windows?: Windows): Benchmark {
  return {
    id: 'handshake',
    libraries: Library.options, // handshake.c compiles against every library c-common/library.h knows
    source: import.meta.url,
    description:
      'TLS 1.2/1.3 handshakes in-process over a BIO pair: client and server CPU per handshake, bytes, ClientHello, heap per connection, instruction counts, thread scaling, SSL_CTX_new cost',
    async prepare(build) {
      handshakeBinary(build);
      await ensureCerts(build);
    },
    ...(windows ? { windows } : {}),
    tasks(build: BuildUnderTest, mode: RunMode, window?: WindowLength): Task[] {
      return matrix(mode, window).map((d) => ({
        id: taskId(d),
        run: () => runTask(d, handshakeBinary(build), build.record),
        oncePerRun: d.kind === 'instructions',
        produces: specsOf(d),
      }));
    },
  };
}

export const handshakeBenchmark: Benchmark = createHandshakeBenchmark(handshakeMatrix, {
  unit: 'new handshakes per window',
  short: HANDSHAKE_WINDOWS.short.new,
  long: HANDSHAKE_WINDOWS.long.new,
});
