// The known-regressions tracker: OpenSSL's most reported performance complaints, the operation that
// isolates each, and the series the benchmark emits for it. Pure definitions (no I/O): the benchmark
// module builds its tasks from them and the site's "Known issues" page finds its series through them.
// Every upstream reference here was checked against the upstream thread (README.md says how).
import type { Params } from '../../schema/index.ts';
import { seriesKey, type SeriesSpec } from '../benchmark.ts';
import { baseConfig, pin, type HandshakeConfig } from '../handshake/config.ts';
import { instructionSpec, timingSpecs } from '../handshake/series.ts';
import { LOCK_CLASS_TEXT, type ClassedKind, type LockClass } from './lock-classes.ts';
import { PROGRAM_OPS, type ProgramOp } from './output.ts';

/**
 * Operations of known_issues.c (output.ts PROGRAM_OPS; dtls-heap is the DTLS handshake's heap, a complaint
 * of its own below, not an operation of the tracker), plus three handshakes run by the handshake program.
 */
export const OPS = [
  ...PROGRAM_OPS.filter((op): op is Exclude<ProgramOp, 'dtls-heap'> => op !== 'dtls-heap'),
  'tls13-handshake',
  'tls13-resumed-handshake',
  'tls12-aes128-sha-handshake',
] as const;
export type OpId = (typeof OPS)[number];

export interface OpDef {
  id: OpId;
  /** what one repetition does, in words (the series labels start with it) */
  what: string;
  per: 'call' | 'record' | 'handshake';
  /** series parameters beside op: what a reader needs to know to repeat it */
  params: Params;
  /** the handshake program runs this configuration; otherwise known_issues.c runs the operation */
  handshake?: HandshakeConfig;
}

/** TLS 1.3 full handshake, ECDSA P-256 certificate, X25519 pinned: the handshake benchmark's pinned configuration. */
export const TLS13_PINNED = baseConfig(pin('1.3', 'ecdsa-p256', 'X25519'));
/** The same configuration resumed from session tickets (the client resumes from the newest ticket it holds). */
export const TLS13_PINNED_RESUMED: HandshakeConfig = { ...TLS13_PINNED, resume: 'ticket' };
/** TLS 1.2 AES128-SHA (RSA key transport), the configuration of openssl/openssl#23388. */
export const TLS12_AES128_SHA = baseConfig({ proto: '1.2', cert: 'rsa2048', cipher: 'AES128-SHA' });

/** Decoding a PKCS#8 private key: one definition for every key and encoding the tracker reads. */
function pkcs8Decode(id: OpId, key: 'rsa2048' | 'ecdsa-p256', encoding: 'pkcs8-pem' | 'pkcs8-der'): OpDef {
  const keyWords = key === 'rsa2048' ? 'an RSA-2048 key' : 'an ECDSA P-256 key';
  const what =
    encoding === 'pkcs8-pem' ? `PEM_read_bio_PrivateKey of ${keyWords} in PKCS#8 PEM, from a memory BIO` : `d2i_AutoPrivateKey of ${keyWords} in PKCS#8 DER`;
  return { id, what, per: 'call', params: { key, encoding } };
}

export const OP_DEFS: Record<OpId, OpDef> = {
  'pkey-pem': pkcs8Decode('pkey-pem', 'rsa2048', 'pkcs8-pem'),
  'pkey-der': pkcs8Decode('pkey-der', 'rsa2048', 'pkcs8-der'),
  'pkey-pem-p256': pkcs8Decode('pkey-pem-p256', 'ecdsa-p256', 'pkcs8-pem'),
  'pkey-der-p256': pkcs8Decode('pkey-der-p256', 'ecdsa-p256', 'pkcs8-der'),
  'x509-der': { id: 'x509-der', what: 'd2i_X509 of a self-signed RSA-2048 CA certificate (DER) and X509_free', per: 'call', params: { key: 'rsa2048' } },
  'ctx-new': { id: 'ctx-new', what: 'SSL_CTX_new(TLS_method()) and SSL_CTX_free', per: 'call', params: {} },
  'ca-bundle': {
    id: 'ca-bundle',
    what: 'SSL_CTX_load_verify_locations of a PEM bundle of 200 self-signed CA certificates (RSA-2048 and ECDSA P-256 alternating) into a new SSL_CTX',
    per: 'call',
    params: { certificates: 200 },
  },
  'aead-reinit': {
    id: 'aead-reinit',
    what: 'AES-128-GCM seal of a 16-byte record with 13 bytes of AAD on a context keyed once: EVP_EncryptInit_ex with a new IV, AAD, update, final, tag',
    per: 'record',
    params: { cipher: 'aes-128-gcm', bytes: 16, aadBytes: 13, context: 'keyed-once' },
  },
  'aead-new-ctx': {
    id: 'aead-new-ctx',
    what: 'AES-128-GCM seal of a 16-byte record with 13 bytes of AAD on a new EVP_CIPHER_CTX keyed for the record (EVP_aes_128_gcm())',
    per: 'record',
    params: { cipher: 'aes-128-gcm', bytes: 16, aadBytes: 13, context: 'new-per-record' },
  },
  'dtls-handshake': {
    id: 'dtls-handshake',
    what: 'a full DTLS 1.2 handshake with a pre-shared key (PSK-AES128-GCM-SHA256, link MTU 1435), client and server in one process over a BIO pair',
    per: 'handshake',
    params: { proto: 'dtls1.2', cipher: 'PSK-AES128-GCM-SHA256' },
  },
  'tls13-handshake': {
    id: 'tls13-handshake',
    what: 'a full TLS 1.3 handshake, ECDSA P-256 certificate, X25519 pinned, both sides, one shared SSL_CTX per side',
    per: 'handshake',
    params: { proto: '1.3', cert: 'ecdsa-p256', group: 'X25519' },
    handshake: TLS13_PINNED,
  },
  'tls13-resumed-handshake': {
    id: 'tls13-resumed-handshake',
    what: 'a resumed TLS 1.3 handshake (session ticket, X25519 key share), ECDSA P-256 certificate, both sides, one shared SSL_CTX per side',
    per: 'handshake',
    params: { proto: '1.3', cert: 'ecdsa-p256', group: 'X25519', resume: 'ticket' },
    handshake: TLS13_PINNED_RESUMED,
  },
  'tls12-aes128-sha-handshake': {
    id: 'tls12-aes128-sha-handshake',
    what: 'a full TLS 1.2 handshake with AES128-SHA (RSA key transport, RSA-2048 certificate), both sides, one shared SSL_CTX per side',
    per: 'handshake',
    params: { proto: '1.2', cert: 'rsa2048', cipher: 'AES128-SHA' },
    handshake: TLS12_AES128_SHA,
  },
};

/**
 * Call counts per operation (callgrind), by what they count. library-locks is the sum of the library's
 * lock acquisitions (read-lock + write-lock + rcu-lock), the figure the tracker's status uses.
 */
export const LOCK_KINDS = ['library-locks', 'read-lock', 'write-lock', 'rcu-lock', 'atomic', 'pthread-lock'] as const;
export type LockKind = (typeof LOCK_KINDS)[number];
export const LOCK_TEXT: Record<LockKind, string> = {
  'library-locks': 'Library lock acquisitions (CRYPTO_THREAD_read/write_lock + ossl_rcu_read/write_lock calls)',
  'read-lock': 'CRYPTO_THREAD_read_lock calls',
  'write-lock': 'CRYPTO_THREAD_write_lock calls',
  'rcu-lock': 'ossl_rcu_read_lock + ossl_rcu_write_lock calls',
  atomic: 'CRYPTO_atomic_* and RCU pointer load/store calls (inline atomics are not calls: not counted)',
  'pthread-lock': 'pthread rwlock and mutex lock calls (any caller)',
};

// ------------------------------------------------------------------ series

const BENCH = 'known-issues';
const opParams = (op: OpDef): Params => ({ op: op.id, ...op.params });
const perText = (op: OpDef) => (op.per === 'handshake' ? 'per handshake, client + server' : `per ${op.per}`);

export function instructionsSpec(op: OpDef): SeriesSpec {
  if (op.handshake) return instructionSpec(op.handshake);
  return {
    benchmark: BENCH,
    metric: 'instructions-per-op',
    label: `Instructions ${perText(op)}: ${op.what} (valgrind callgrind, fixed-seed RNG; valgrind hides some CPU features)`,
    unit: 'instructions',
    method: 'instruction-count',
    higherIsBetter: false,
    params: opParams(op),
    comparability: { acrossVersions: true },
  };
}

/** CPU time per operation of known_issues.c (the handshakes have the handshake benchmark's per-side series: cpuKeys). */
export function cpuSpec(op: OpDef): SeriesSpec {
  if (op.handshake) throw new Error(`${op.id} is run by the handshake program: its CPU time series are the handshake benchmark's (cpuKeys)`);
  const handshake = op.per === 'handshake';
  return {
    benchmark: BENCH,
    metric: 'cpu-per-op',
    label: `CPU time ${perText(op)}: ${op.what}`,
    unit: handshake ? 'us/handshake' : 'us/op',
    method: handshake ? 'cpu-time-both' : 'cpu-time-thread',
    higherIsBetter: false,
    params: opParams(op),
    comparability: { acrossVersions: true },
  };
}

export function lockSpec(op: OpDef, kind: LockKind): SeriesSpec {
  return {
    benchmark: BENCH,
    metric: 'lock-calls-per-op',
    label: `${LOCK_TEXT[kind]} ${perText(op)}: ${op.what} (callgrind call counts)`,
    unit: 'count',
    method: 'call-count',
    higherIsBetter: false,
    params: { ...opParams(op), lock: kind },
    comparability: { acrossVersions: true },
  };
}

/** The operations whose lock and atomic calls are also counted by class of caller (lock-classes.ts): a full and a resumed TLS 1.3 handshake. */
export const LOCK_CLASS_OPS = ['tls13-handshake', 'tls13-resumed-handshake'] as const satisfies OpId[];

/**
 * Calls of one kind (library-locks or atomic) whose immediate caller is in one class. The classes of a
 * kind sum to that kind's lockSpec value for the same operation.
 */
export function lockClassSpec(op: OpDef, kind: ClassedKind, cls: LockClass): SeriesSpec {
  const calls = kind === 'library-locks' ? 'Library lock calls (read, write, RCU)' : 'Library atomic calls';
  return {
    benchmark: BENCH,
    metric: 'lock-calls-by-class',
    label: `${calls} ${perText(op)} by class of immediate caller: ${LOCK_CLASS_TEXT[cls]}, in ${op.id} (callgrind; inline atomics, e.g. most refcounts, are not calls: not counted)`,
    unit: 'count',
    method: 'call-count',
    higherIsBetter: false,
    params: { ...opParams(op), lock: kind, class: cls },
    comparability: { acrossVersions: true },
  };
}

export function heapSpec(side: 'client' | 'server'): SeriesSpec {
  const op = OP_DEFS['dtls-handshake'];
  return {
    benchmark: BENCH,
    metric: 'heap-per-connection',
    label: `Heap bytes the DTLS ${side} holds per live connection after ${op.what}, counted through CRYPTO_set_mem_functions (not RSS)`,
    unit: 'bytes',
    method: 'heap-bytes',
    higherIsBetter: false,
    params: { ...opParams(op), side },
    comparability: { acrossVersions: true },
  };
}

/** CPU time series of an operation: for the TLS handshakes, the handshake benchmark's client and server series. */
export function cpuKeys(op: OpDef): string[] {
  if (!op.handshake) return [seriesKey(cpuSpec(op))];
  return timingSpecs(op.handshake)
    .filter((s) => s.metric === 'cpu-per-handshake')
    .map(seriesKey);
}

// ------------------------------------------------------------------ the complaints

export interface UpstreamRef {
  /** "openssl/openssl#15199" */
  ref: string;
  url: string;
  /** the thread's subject, as upstream spells it */
  subject: string;
}

export interface Complaint {
  id: string;
  title: string;
  upstream: UpstreamRef[];
  /** what the benchmark does to reproduce it, in words */
  measures: string;
  ops: OpId[];
  /** the series the status is computed from (deterministic: instruction counts, call counts, heap bytes) */
  statusKey: string;
  statusWhat: string;
  /** the write-up (site/src/content/writeups/<id>.md) */
  writeup: string;
  /** operations whose lock and atomic calls the page also shows by class of caller (lockClassSpec) */
  lockClassOps?: OpId[];
}

const gh = (repo: string, n: number, subject: string, kind: 'issues' | 'pull' = 'issues'): UpstreamRef => ({
  ref: `${repo}#${n}`,
  url: `https://github.com/${repo}/${kind}/${n}`,
  subject,
});
const key = (s: SeriesSpec) => seriesKey(s);

/** RSA-2048 as in openssl#15199, and ECDSA P-256, the key behind an ECDSA P-256 certificate. */
const PKEY_OPS = ['pkey-pem', 'pkey-der', 'pkey-pem-p256', 'pkey-der-p256'] as const satisfies OpId[];

/** The umbrella issue that indexes the 3.0 performance reports. */
export const UMBRELLA = gh('openssl/openssl', 17627, '3.0 Performance problems');

export const COMPLAINTS: Complaint[] = [
  {
    id: 'pkey-decode',
    title: 'Decoding private keys (PKCS#8, PEM and DER)',
    upstream: [
      gh('openssl/openssl', 15199, 'PEM/DER decoding of PKCS8 RSA private keys are 80 times slower in 3.0'),
      gh('openssl/openssl', 21426, 'Optimise PKEY decoders', 'pull'),
    ],
    measures: `${PKEY_OPS.map((id) => OP_DEFS[id].what).join('; ')}.`,
    ops: [...PKEY_OPS],
    statusKey: key(instructionsSpec(OP_DEFS['pkey-pem'])),
    statusWhat: 'instructions per PEM read of the RSA-2048 key',
    writeup: 'known-issue-pkey-decode',
  },
  {
    id: 'ca-bundle',
    title: 'Loading a large CA bundle (SSL_CTX_load_verify_locations)',
    upstream: [gh('openssl/openssl', 16878, 'Performance degradation of SSL_CTX_load_verify_locations() in v3.0.0')],
    measures: `${OP_DEFS['ca-bundle'].what}.`,
    ops: ['ca-bundle'],
    statusKey: key(instructionsSpec(OP_DEFS['ca-bundle'])),
    statusWhat: 'instructions per bundle load',
    writeup: 'known-issue-ca-bundle',
  },
  {
    id: 'x509-decode',
    title: 'Decoding certificates (d2i_X509), and the decoder lookups behind it',
    upstream: [
      gh('openssl/openssl', 19119, 'Performance issue with d2i_x509 from OpenSSL 3.0'),
      gh('openssl/openssl', 17950, 'Performance issue with Openssl 3.0 in multi threaded application when using d2i_x509'),
      gh('openssl/openssl', 20698, 'Disastrous threaded (and not) performance'),
    ],
    measures: `${OP_DEFS['x509-der'].what}; the library's lock calls per call alongside.`,
    ops: ['x509-der'],
    statusKey: key(instructionsSpec(OP_DEFS['x509-der'])),
    statusWhat: 'instructions per d2i_X509',
    writeup: 'known-issue-x509-decode',
  },
  {
    id: 'ctx-per-connection',
    title: 'A new SSL_CTX per connection',
    upstream: [
      gh('grpc/grpc', 32839, 'gRPC calling `SSL_CTX_new()` 25 times per connection; `SSL_CTX_new()` should be called only once.'),
      gh('openssl/openssl', 17064, 'Massive performance degradation in OpenSsl 3.0 if used in a heavy multi threaded server application'),
    ],
    measures: `${OP_DEFS['ctx-new'].what}.`,
    ops: ['ctx-new'],
    statusKey: key(instructionsSpec(OP_DEFS['ctx-new'])),
    statusWhat: 'instructions per SSL_CTX_new + SSL_CTX_free',
    writeup: 'known-issue-ctx-per-connection',
  },
  {
    id: 'lock-contention',
    title: 'Lock operations in multi-threaded servers (library context, method store, name map)',
    upstream: [
      gh('openssl/openssl', 17064, 'Massive performance degradation in OpenSsl 3.0 if used in a heavy multi threaded server application'),
      gh('openssl/openssl', 20286, '3.0 performance degraded due to locking'),
      gh('openssl/openssl', 23388, 'The performance of Haproxy drops a lot when using OpenSSL 3.0 for higher number of threads'),
      gh('openssl/openssl', 23370, 'crypto/core_namemap.c locking excessively'),
    ],
    measures:
      "The library's lock, RCU and atomic calls and pthread's lock calls per handshake (TLS 1.3 ECDSA P-256 X25519, full and resumed from a ticket, and #23388's TLS 1.2 AES128-SHA), counted by callgrind: the closest a 2-core machine gets to the contention these reports describe. For the TLS 1.3 handshakes the library's lock and atomic calls are also split by the part of the library that makes them (the calling function's name). Inline atomics, such as most reference counts in 3.x, are not function calls: callgrind does not count them. The handshake benchmark's thread-scaling series show the contention itself where a host has more cores.",
    ops: ['tls13-handshake', 'tls12-aes128-sha-handshake'],
    statusKey: key(lockSpec(OP_DEFS['tls13-handshake'], 'library-locks')),
    statusWhat: 'library lock acquisitions per TLS 1.3 handshake',
    writeup: 'known-issue-lock-contention',
    lockClassOps: [...LOCK_CLASS_OPS],
  },
  {
    id: 'aead-tiny-records',
    title: 'AEAD on tiny records: the per-record EVP overhead',
    upstream: [gh('openssl/openssl', 20625, 'Performance issue with OpenSSL 3 and libsrtp')],
    measures: `${OP_DEFS['aead-reinit'].what}; and ${OP_DEFS['aead-new-ctx'].what}.`,
    ops: ['aead-reinit', 'aead-new-ctx'],
    statusKey: key(instructionsSpec(OP_DEFS['aead-reinit'])),
    statusWhat: 'instructions per 16-byte record on a context keyed once',
    writeup: 'known-issue-aead-tiny-records',
  },
  {
    id: 'dtls-heap',
    title: 'DTLS heap per connection',
    upstream: [gh('openssl/openssl', 31492, 'DTLS server: ~68 KB/conn heap regression in 3.5.x vs 3.0.x (97% increase)')],
    measures: `Heap held per live DTLS server connection after ${OP_DEFS['dtls-handshake'].what}; instructions and CPU time per handshake beside it.`,
    ops: ['dtls-handshake'],
    statusKey: key(heapSpec('server')),
    statusWhat: 'heap bytes per live DTLS server connection',
    writeup: 'known-issue-dtls-heap',
  },
];

/**
 * The series a complaint's write-up tables show, in order: per operation its instructions, CPU time and
 * lock calls (every lock kind for the lock complaint, the library's acquisitions and atomics otherwise),
 * and the DTLS heap for the DTLS complaint.
 */
export function writeupSeries(c: Complaint): { key: string; caption: string }[] {
  const out: { key: string; caption: string }[] = [];
  if (c.id === 'dtls-heap')
    out.push(
      { key: key(heapSpec('server')), caption: 'Heap bytes per live DTLS server connection (allocator hooks)' },
      { key: key(heapSpec('client')), caption: 'Heap bytes per live DTLS client connection (allocator hooks)' },
    );
  for (const id of c.ops) {
    const op = OP_DEFS[id];
    const name = `${id} (${op.per === 'handshake' ? 'per handshake' : `per ${op.per}`})`;
    out.push({ key: key(instructionsSpec(op)), caption: `Instructions, ${name}: callgrind, deterministic` });
    for (const k of cpuKeys(op))
      out.push({
        key: k,
        caption: `CPU time, ${name}${k.includes('side=client') ? ', client side' : k.includes('side=server') ? ', server side' : ''}: native`,
      });
    const kinds: LockKind[] = c.id === 'lock-contention' ? [...LOCK_KINDS] : ['library-locks', 'atomic'];
    for (const k of kinds) out.push({ key: key(lockSpec(op, k)), caption: `Calls, ${name}: ${LOCK_TEXT[k]}` });
  }
  return out;
}
