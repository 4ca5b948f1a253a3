// The experiments behind the commit-cause write-ups and the seed reproductions
// (site/src/content/writeups/). Two benchmarks, both driving runner/handshake/handshake.c:
// - 'causes': the handshake configurations the write-ups and reproductions need that the main matrix
//   does not run (seed 003's TLS 1.2 AES256-GCM-SHA384 with and without resumption, TLS 1.3 with RSA
//   certificates, P-256 / P-384 key exchange, a new client SSL_CTX per connection with RSA, heap per
//   connection). Series keys are the handshake benchmark's, so the same configuration is one series.
// - 'fn-cost': instructions per handshake spent inside named library functions (inclusive, valgrind
//   callgrind, fixed-seed RNG), which attributes a version difference to a code path:
//   EVP_PKEY_public_check (peer key validation in EVP_PKEY_derive_set_peer since 3.0), SSL_CTX_new,
//   ossl_method_construct (building a method from a provider when a fetch misses the store),
//   ossl_sa_doall_arg (walks over a method store: decoder and keymgmt enumeration, query-cache flush),
//   OSSL_DECODER_CTX_new_for_pkey (decoder chains built for each peer key until 3.2 cached them),
//   EC_POINT_mul, RSA_private_decrypt and ossl_bn_rsa_do_unblind (3.0.8's constant-time unblinding).
import { execFileSync } from 'node:child_process';
import type { RunMode } from '../../schema/index.ts';
import { seriesKey, type Benchmark, type Outcome, type SeriesSpec } from '../benchmark.ts';
import { baseConfig, describeConfig, configParams, type HandshakeConfig, pin } from '../handshake/config.ts';
import { countInstructions, handshakeBinary } from '../handshake/invoke.ts';
import { createHandshakeBenchmark, type TaskDef, handshakeMatrix, specsOf } from '../handshake/handshake.ts';
import { gcmMaskBenchmark } from './gcm-mask.ts';

const X = pin('1.3', 'rsa2048', 'X25519');
const c = baseConfig;

/**
 * Timing and memory configurations (new handshakes count N, resumed 3N), minus those the handshake
 * benchmark's own matrix runs in the same mode: a run of both would otherwise put two measurements of one
 * series into each round. Run `--benchmarks handshake,causes` to get every configuration listed here.
 */
export function causesMatrix(mode: RunMode): TaskDef[] {
  const theirs = new Set(handshakeMatrix(mode).flatMap(specsOf).map(seriesKey));
  return allCauses(mode).filter((d) => !specsOf(d).some((s) => theirs.has(seriesKey(s))));
}

export function allCauses(mode: RunMode): TaskDef[] {
  const n = mode === 'quick' ? 300 : 1000;
  const t = (cfg: HandshakeConfig): TaskDef => ({ kind: 'timing', cfg, count: cfg.resume === 'none' ? n : 3 * n });
  const m = (cfg: HandshakeConfig): TaskDef => ({ kind: 'memory', cfg: { ...cfg, mode: 'memory' }, count: mode === 'quick' ? 50 : 200 });
  const aes256 = { proto: '1.2' as const, cert: 'rsa2048' as const, cipher: 'AES256-GCM-SHA384' };
  return [
    // the 3.5 default key shares: default groups vs X25519 pinned (the same build, a configuration toggle)
    t(c()),
    // seed 002: client connection setup with a new SSL_CTX per connection vs a shared one (RSA server)
    t(c({ cert: 'rsa2048', ...X, mode: 'ctx-per-conn' })),
    t(c({ cert: 'rsa2048', ...X })),
    { kind: 'ctx-new', count: mode === 'quick' ? 300 : 2000 },
    // seed 003 TC1-TC4: TLS 1.2 AES256-GCM-SHA384 (RSA key transport) and TLS 1.3 with RSA certificates
    t(c({ ...aes256, resume: 'session-id' })),
    t(c(aes256)),
    t(c({ cert: 'rsa2048', ...X, resume: 'ticket' })),
    // EVP_PKEY_public_check: ECDHE with NIST curves (full public-key check) vs X25519
    t(c({ ...pin('1.3', 'ecdsa-p256', 'P-256') })),
    t(c({ ...pin('1.3', 'ecdsa-p256', 'P-384') })),
    t(c({ ...pin('1.3', 'ecdsa-p256', 'X25519') })),
    t(c({ proto: '1.2', cert: 'rsa2048', ...pin('1.2', 'rsa2048', 'P-256') })),
    // seed 000: TLS 1.2 ECDHE-RSA-AES256-GCM-SHA384 new and resumed
    t(c({ proto: '1.2', cert: 'rsa2048', ...pin('1.2', 'rsa2048', 'X25519'), cipher: 'ECDHE-RSA-AES256-GCM-SHA384' })),
    t(c({ proto: '1.2', cert: 'rsa2048', ...pin('1.2', 'rsa2048', 'X25519'), cipher: 'ECDHE-RSA-AES256-GCM-SHA384', resume: 'session-id' })),
    // thread scaling on one shared SSL_CTX pair
    t(c({ ...pin('1.3', 'ecdsa-p256', 'X25519'), threads: 2 })),
    // seed 003 per-session memory (TLS 1.2 AES256-GCM-SHA384) and TC5-TC8's RSA/ECDSA x TLS 1.2/1.3
    m(c(aes256)),
    ...(['1.2', '1.3'] as const).flatMap((proto) => (['rsa2048', 'ecdsa-p256'] as const).map((cert) => m(c({ proto, cert, ...pin(proto, cert, 'X25519') })))),
  ];
}

// its configurations keep their counts per mode (causesMatrix): no windows to choose
const base = createHandshakeBenchmark(causesMatrix);
export const causesBenchmark: Benchmark = {
  ...base,
  id: 'causes',
  source: import.meta.url,
  libraries: ['openssl'], // the configurations behind the write-ups on OpenSSL releases
  description:
    'Handshake configurations behind the write-ups and seed reproductions (TLS 1.2 AES256-GCM-SHA384, RSA certs, P-256/P-384, SSL_CTX per connection, heap per connection)',
};

// ------------------------------------------------------------------ fn-cost

export const FUNCTIONS = [
  'EVP_PKEY_public_check',
  'SSL_CTX_new',
  'ossl_method_construct',
  'ossl_sa_doall_arg',
  'EC_POINT_mul',
  'RSA_private_decrypt',
  'ossl_bn_rsa_do_unblind',
  'OSSL_DECODER_CTX_new_for_pkey',
] as const;

export function fnCostConfigs(): HandshakeConfig[] {
  return [
    c(pin('1.3', 'ecdsa-p256', 'P-256')),
    c(pin('1.3', 'ecdsa-p256', 'P-384')),
    c(pin('1.3', 'ecdsa-p256', 'X25519')),
    c({ proto: '1.2', cert: 'rsa2048', cipher: 'AES256-GCM-SHA384' }),
    c({ cert: 'rsa2048', ...X }),
    c({ cert: 'rsa2048', ...X, mode: 'ctx-per-conn' }),
  ];
}

export function fnSpec(cfg: HandshakeConfig, fn: string): SeriesSpec {
  return {
    benchmark: 'handshake',
    metric: 'instructions-in-function',
    label: `Instructions per handshake inside ${fn} and its callees, both sides (valgrind callgrind inclusive cost, fixed-seed RNG; 0 = the function exists but did not run); ${describeConfig(cfg)}`,
    unit: 'instructions',
    method: 'instruction-count',
    higherIsBetter: false,
    params: { ...configParams(cfg, 'both'), function: fn },
    comparability: { acrossVersions: true },
  };
}

export function totalSpec(cfg: HandshakeConfig): SeriesSpec {
  return { ...fnSpec(cfg, 'all'), label: `Instructions per handshake, both sides, all code (valgrind callgrind, fixed-seed RNG); ${describeConfig(cfg)}` };
}

/** Defined function symbols of a binary (static build: every libcrypto/libssl function that survived inlining). */
export function definedFunctions(binary: string): Set<string> {
  const out = execFileSync('nm', ['--defined-only', binary], { encoding: 'utf8', maxBuffer: 1 << 26 });
  const names = out.split('\n').map((l) => /^[0-9a-f]+ [tT] (\S+)$/.exec(l)?.[1]);
  return new Set(names.filter((x): x is string => x !== undefined));
}

export async function fnCost(binary: string, cfg: HandshakeConfig, count: number, version: string): Promise<Outcome[]> {
  const specs = [totalSpec(cfg), ...FUNCTIONS.map((f) => fnSpec(cfg, f))];
  const fail = (status: 'failed' | 'unsupported', reason: string): Outcome[] => specs.map((spec) => ({ spec, status, reason: reason.slice(0, 2000) }));
  const r = await countInstructions(binary, cfg, count, undefined, ['inclusive']);
  if (r.kind !== 'measured') return fail(r.kind, r.reason);
  if (!r.out.deterministicRng) return fail('failed', 'the program did not report running with the fixed-seed RNG');
  if (!r.out.openssl.startsWith(`OpenSSL ${version} `)) throw new Error(`the handshake binary reports "${r.out.openssl}", not OpenSSL ${version}`);
  const prof = r.profiles.inclusive!;
  const defined = definedFunctions(binary);
  const n = r.out.handshakes;
  const observed = {
    negotiatedProtocol: r.out.negotiated.protocol,
    negotiatedGroup: r.out.negotiated.group,
    cipher: r.out.negotiated.cipher,
    handshakesCounted: n,
  };
  return [
    { spec: specs[0]!, value: prof.total / n, observed },
    ...FUNCTIONS.map((f, i): Outcome => {
      const spec = specs[i + 1]!;
      const ir = prof.functions.get(f);
      if (ir !== undefined) return { spec, value: ir / n, observed };
      if (!defined.has(f)) return { spec, status: 'unsupported', reason: `OpenSSL ${version} has no function ${f} (absent or inlined in this build)` };
      return { spec, value: 0, observed };
    }),
  ];
}

const fnTaskId = (cfg: HandshakeConfig) => ['fn', `tls${cfg.proto}`, cfg.cert, cfg.clientGroups, cfg.cipher ?? 'default-cipher', cfg.mode].join('/');

export function createFnCostBenchmark(configs: () => HandshakeConfig[] = fnCostConfigs): Benchmark {
  return {
    id: 'fn-cost',
    source: import.meta.url,
    libraries: ['openssl'], // needs OpenSSL's function names (callgrind costs of its internal functions)
    description: `Instructions per handshake inside ${FUNCTIONS.join(', ')} (callgrind inclusive cost, deterministic)`,
    prepare: async (build) => {
      handshakeBinary(build);
      await base.prepare!(build, 'quick');
    },
    tasks: (build, mode) =>
      configs().map((cfg) => ({
        id: fnTaskId(cfg),
        oncePerRun: true,
        run: () => fnCost(handshakeBinary(build), cfg, mode === 'quick' ? 5 : 10, build.record.version),
        produces: [totalSpec(cfg), ...FUNCTIONS.map((f) => fnSpec(cfg, f))],
      })),
  };
}

export const fnCostBenchmark = createFnCostBenchmark();
export const CAUSE_BENCHMARKS = [causesBenchmark, fnCostBenchmark, gcmMaskBenchmark];
