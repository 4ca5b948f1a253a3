// Benchmark 'speed': each build's own `openssl speed -mr`, one invocation per algorithm (and per buffer
// size in quick mode), parsed by the parser of that version's output format (formats.ts).
//
// speed divides by the process's user CPU time unless -elapsed is given (usertime = 1 in apps/speed.c of
// every release here), so its rates are per CPU second, not per wall second: params.timeBase says so.
import { join } from 'node:path';
import type { RunMode } from '../../schema/index.ts';
import { type Benchmark, type BuildUnderTest, type Outcome, type SeriesSpec, type Task } from '../benchmark.ts';
import { appEnv } from '../build/build.ts';
import { runGuarded } from '../child-guard.ts';
import { compareSeries, compareVersions } from '../../catalogue/index.ts';
import { parseSpeed, rsaFromProgress, SpeedParseError, type FormatName, type SpeedRecord } from './formats.ts';

export type Algorithm =
  | { id: string; kind: 'symmetric'; evp: string; operation: 'encrypt' | 'digest' }
  | { id: string; kind: 'rsa' | 'ecdsa' | 'ecdh'; arg: string; bits: number }
  | { id: string; kind: 'kem' | 'signature'; arg: string };

export const ALGORITHMS: Algorithm[] = [
  { id: 'aes-128-gcm', kind: 'symmetric', evp: 'aes-128-gcm', operation: 'encrypt' },
  { id: 'aes-256-gcm', kind: 'symmetric', evp: 'aes-256-gcm', operation: 'encrypt' },
  { id: 'chacha20-poly1305', kind: 'symmetric', evp: 'chacha20-poly1305', operation: 'encrypt' },
  { id: 'sha256', kind: 'symmetric', evp: 'sha256', operation: 'digest' },
  { id: 'sha512', kind: 'symmetric', evp: 'sha512', operation: 'digest' },
  { id: 'rsa2048', kind: 'rsa', arg: 'rsa2048', bits: 2048 },
  { id: 'rsa3072', kind: 'rsa', arg: 'rsa3072', bits: 3072 },
  { id: 'rsa4096', kind: 'rsa', arg: 'rsa4096', bits: 4096 },
  { id: 'ecdsa-p256', kind: 'ecdsa', arg: 'ecdsap256', bits: 256 },
  { id: 'ecdsa-p384', kind: 'ecdsa', arg: 'ecdsap384', bits: 384 },
  { id: 'ecdh-p256', kind: 'ecdh', arg: 'ecdhp256', bits: 256 },
  { id: 'ecdh-x25519', kind: 'ecdh', arg: 'ecdhx25519', bits: 253 },
  { id: 'ml-kem-512', kind: 'kem', arg: 'ML-KEM-512' },
  { id: 'ml-kem-768', kind: 'kem', arg: 'ML-KEM-768' },
  { id: 'ml-kem-1024', kind: 'kem', arg: 'ML-KEM-1024' },
  { id: 'ml-dsa-44', kind: 'signature', arg: 'ML-DSA-44' },
  { id: 'ml-dsa-65', kind: 'signature', arg: 'ML-DSA-65' },
  { id: 'ml-dsa-87', kind: 'signature', arg: 'ML-DSA-87' },
];

/** speed's own default buffer sizes (lengths_list in apps/speed.c, the same in every release here). */
export const DEFAULT_SIZES = [16, 64, 256, 1024, 8192, 16384];

/**
 * Quick: one second per measurement (speed's -seconds is a whole number), two buffer sizes, one key size
 * per family. Full: speed's six default sizes and every algorithm.
 */
export const SPEED_PLAN: Record<RunMode, { seconds: number; sizes: number[] | 'default'; algorithms: string[] }> = {
  quick: {
    seconds: 1,
    sizes: [16, 16384],
    algorithms: [
      'aes-128-gcm',
      'aes-256-gcm',
      'chacha20-poly1305',
      'sha256',
      'sha512',
      'rsa2048',
      'ecdsa-p256',
      'ecdh-p256',
      'ecdh-x25519',
      'ml-kem-768',
      'ml-dsa-65',
    ],
  },
  full: { seconds: 1, sizes: 'default', algorithms: ALGORITHMS.map((a) => a.id) },
};

export function operationsOf(a: Algorithm): string[] {
  switch (a.kind) {
    case 'symmetric':
      return [a.operation];
    case 'rsa':
    case 'ecdsa':
      return ['sign', 'verify'];
    case 'ecdh':
      return ['derive'];
    case 'kem':
      return ['keygen', 'encaps', 'decaps'];
    case 'signature':
      return ['keygen', 'sign', 'verify'];
  }
}

// ---------------------------------------------------------------- what each release's speed does

/** Which parser reads a version's -mr output (see formats.ts for what changed). */
export function speedFormat(series: string): FormatName {
  if (compareSeries(series, '4.0') >= 0) return 'mr-4.0';
  if (compareSeries(series, '3.2') >= 0) return 'mr-3.2';
  if (compareSeries(series, '3.0') >= 0) return 'mr-3.0';
  return 'mr-1.1.1';
}

/**
 * How `speed -evp aes-*-gcm` loops, read from apps/speed.c of each release (speed-sources.integration.test.ts checks
 * this table against every source archive in the cache):
 *  'stream':     key and IV set once; every buffer is one more EVP_EncryptUpdate of a single long GCM
 *                message; EVP_EncryptFinal (the tag) once per measurement.
 *  'per-buffer': for every buffer: set the IV length, EVP_CipherInit_ex with key AND IV (a fresh key
 *                schedule and GHASH key each time), EVP_EncryptUpdate, EVP_EncryptFinal (the tag).
 * The change ("apps/speed.c: Fix the benchmarking for AEAD ciphers", PR #25823, master commit 607a46d)
 * is in 3.5.0 and was backported to patch releases of older series, so the series alone does not decide
 * it. 3.0.16 and 3.4.1 as first releases are confirmed by openssl/openssl#28063 (a maintainer's git log of
 * apps/speed.c between 3.0.15 and 3.0.16) and #27513 (3.3.1 vs 3.4.1, bisected to 607a46d); 3.1.8, 3.2.4
 * and 3.3.3 are inferred (the same-day patch releases of the other branches the PR was labelled for) and
 * decide nothing in the catalogue, which has no release of those series at or after them. Every
 * catalogue version is checked against its own source by speed-sources.integration.test.ts.
 */
export const GCM_PER_BUFFER_SINCE: Record<string, string | null> = {
  '1.1.1': null,
  '3.0': '3.0.16',
  '3.1': '3.1.8',
  '3.2': '3.2.4',
  '3.3': '3.3.3',
  '3.4': '3.4.1',
  '3.5': '3.5.0',
  '3.6': '3.6.0',
  '4.0': '4.0.0',
};

export type GcmLoop = 'stream' | 'per-buffer';
export function gcmLoop(version: string, series: string): GcmLoop {
  if (!(series in GCM_PER_BUFFER_SINCE))
    throw new Error(`no record of how openssl speed ${version} measures AES-GCM: read its apps/speed.c and add series ${series} to GCM_PER_BUFFER_SINCE`);
  const since = GCM_PER_BUFFER_SINCE[series];
  return since !== null && since !== undefined && compareVersions(version, since) >= 0 ? 'per-buffer' : 'stream';
}

const GCM_REASON =
  'openssl speed -evp changed its AES-GCM loop in 3.5.0 and in patch releases of 3.0-3.4 (3.0.16, 3.4.1; commit 607a46d): before, one long GCM message is streamed and the tag computed once per measurement; after, key and IV are re-initialised and the tag computed for every buffer. Compare only within a group; the aead benchmark is comparable across versions.';

export function comparabilityOf(a: Algorithm, version: string, series: string): SeriesSpec['comparability'] {
  if (a.kind === 'symmetric' && a.id.endsWith('-gcm')) {
    const loop = gcmLoop(version, series);
    return { acrossVersions: false, reason: GCM_REASON, group: `speed-gcm-${loop}` };
  }
  return { acrossVersions: true };
}

function describe(a: Algorithm, operation: string, bytes: number | undefined, version: string, series: string): string {
  if (a.kind === 'symmetric') {
    const how =
      a.operation === 'digest'
        ? 'EVP_Digest per buffer'
        : a.id.endsWith('-gcm')
          ? gcmLoop(version, series) === 'stream'
            ? 'one streamed message, tag once per measurement'
            : 're-keyed, new IV and tag per buffer'
          : 'one streamed message, tag once per measurement';
    return `openssl speed -evp ${a.evp} on ${bytes}-byte buffers (${how}): bytes per second of user CPU time`;
  }
  return `openssl speed ${a.arg}: ${operation} operations per second of user CPU time`;
}

export function speedSpec(a: Algorithm, operation: string, bytes: number | undefined, version: string, series: string): SeriesSpec {
  return {
    benchmark: 'speed',
    metric: `${a.id}-${operation}`,
    label: describe(a, operation, bytes, version, series),
    unit: bytes === undefined ? 'ops/s' : 'bytes/s',
    method: 'openssl-speed',
    higherIsBetter: true,
    params: { algorithm: a.id, operation, ...(bytes === undefined ? {} : { bytes }), timeBase: 'user-cpu' },
    comparability: comparabilityOf(a, version, series),
  };
}

// ---------------------------------------------------------------- one invocation

export interface Invocation {
  algorithm: Algorithm;
  args: string[];
  /** buffer sizes this invocation must report (symmetric only) */
  sizes?: number[];
  /** stop speed once its stderr matches: everything read is measured (RSA, see RSA_READ) */
  stopAfter?: RegExp;
}

/**
 * RSA is read from speed's progress lines (rsaFromProgress), so speed is stopped once it has printed the
 * verify loop's: from 3.2 it would go on with encrypt, decrypt and six loops of the generic KEM and
 * signature tables (RSA key generation among them): about 9 of the 11 s an RSA size took, none of it read.
 */
const RSA_READ = /^\+R2:[^\n]*\n/m;

export function invocations(a: Algorithm, mode: RunMode): Invocation[] {
  const { seconds, sizes } = SPEED_PLAN[mode];
  const base = ['speed', '-mr', '-seconds', String(seconds)];
  if (a.kind === 'rsa') return [{ algorithm: a, args: [...base, a.arg], stopAfter: RSA_READ }];
  if (a.kind !== 'symmetric') return [{ algorithm: a, args: [...base, a.arg] }];
  if (sizes === 'default') return [{ algorithm: a, args: [...base, '-evp', a.evp], sizes: DEFAULT_SIZES }];
  return sizes.map((n) => ({ algorithm: a, args: [...base, '-bytes', String(n), '-evp', a.evp], sizes: [n] }));
}

export interface Captured {
  exitCode: number | null;
  /** stopped by us once it had printed what the invocation reads (Invocation.stopAfter) */
  stopped?: boolean;
  stdout: string;
  stderr: string;
}

const eq = (x: string, y: string) => x.toLowerCase() === y.toLowerCase();

/**
 * Turn what one invocation printed into outcomes, checking that it measured exactly what was asked.
 * Throws SpeedParseError (naming version and line) on output it does not understand.
 */
export function outcomesOf(inv: Invocation, got: Captured, build: { version: string; series: string; variant?: string }, where: string): Outcome[] {
  const a = inv.algorithm;
  const specs = (inv.sizes ?? [undefined]).flatMap((bytes) =>
    operationsOf(a).map((op) => ({ op, bytes, spec: speedSpec(a, op, bytes, build.version, build.series) })),
  );
  if (got.exitCode !== 0 && !got.stopped) {
    const msg = got.stderr.trim().split('\n').slice(0, 5).join(' | ').slice(0, 1500);
    // speed's own words when the library lacks the algorithm (e.g. ML-KEM before 3.5 or in a no-ml-kem build)
    const status = /Unknown algorithm/i.test(got.stderr) ? 'unsupported' : 'failed';
    const reason = `openssl speed ${inv.args.slice(1).join(' ')} on ${build.version} exited with ${got.exitCode ?? 'no status (killed, timed out or not started)'}: ${msg}`;
    return specs.map(({ spec }) => ({ spec, status, reason }));
  }
  // a stopped speed may have begun a line it did not finish
  const stderr = got.stopped ? got.stderr.slice(0, got.stderr.lastIndexOf('\n') + 1) : got.stderr;
  const rate = pickRates(inv, parseSpeed(speedFormat(build.series), got.stdout, stderr, where), stderr, where);
  return specs.map(({ op, bytes, spec }) => {
    const v = rate(op, bytes);
    // speed prints 0 when an operation ran zero times or was skipped after a failure
    return v > 0
      ? { spec, value: v }
      : { spec, status: 'failed' as const, reason: `openssl speed reported 0 ${spec.unit} for ${a.id} ${op} on ${build.version}` };
  });
}

/** Check the records are exactly what the invocation asked for; return a lookup of its rates. */
function pickRates(inv: Invocation, records: SpeedRecord[], stderr: string, where: string): (op: string, bytes: number | undefined) => number {
  const a = inv.algorithm;
  const fail = (why: string) => new SpeedParseError(`${where}: ${why}`);
  const others = records.filter((r) => r.kind === 'other');
  if (others.length) throw fail(`unexpected ${others.map((o) => (o as { what: string }).what).join(', ')} results for ${a.id}`);
  const mine = records.filter((r) => !isSideEffect(a, r));
  if (a.kind === 'symmetric') {
    const sym = mine.filter((r): r is Extract<SpeedRecord, { kind: 'symmetric' }> => r.kind === 'symmetric');
    if (sym.length !== mine.length) throw fail(`results other than ${a.evp} in its output`);
    const bad = sym.find((r) => !eq(r.name, a.evp));
    if (bad) throw fail(`measured ${bad.name}, asked for ${a.evp}`);
    const sizes = sym.map((r) => r.bytes).join(',');
    if (sizes !== (inv.sizes ?? []).join(',')) throw fail(`measured sizes ${sizes}, asked for ${(inv.sizes ?? []).join(',')}`);
    return (_op, bytes) => sym.find((r) => r.bytes === bytes)!.bytesPerSecond;
  }
  // RSA's +F2 line is missing when speed was stopped after its verify loop (RSA_READ)
  if (mine.some((x) => x.kind !== a.kind) || mine.length > 1 || (a.kind !== 'rsa' && mine.length !== 1))
    throw fail(`expected one ${a.kind} result for ${a.id}, found ${mine.map((x) => x.kind).join(', ') || 'none'}`);
  // parseSpeed has checked a printed +F2 line against the progress lines
  const r = a.kind === 'rsa' ? rsaFromProgress(stderr, where) : mine[0]!;
  if ('bits' in a && 'bits' in r && r.bits !== a.bits) throw fail(`${a.id} result is for ${r.bits} bits, not ${a.bits}`);
  if ((r.kind === 'kem' || r.kind === 'signature') && 'arg' in a && r.name !== a.arg) throw fail(`${a.kind} result is for ${r.name}, not ${a.arg}`);
  return (op) => {
    const v = (r as unknown as Record<string, number | undefined>)[op];
    if (v === undefined) throw fail(`no ${op} rate for ${a.id}`);
    return v;
  };
}

/**
 * From 3.2 on, naming an RSA size also selects speed's generic KEM and signature loops for the RSA key
 * of that size (their lists include "rsa2048"...). Those extra lines are expected and not used.
 */
function isSideEffect(a: Algorithm, r: SpeedRecord): boolean {
  return a.kind === 'rsa' && (r.kind === 'kem' || r.kind === 'signature') && r.name === a.arg;
}

export async function runOpenssl(prefix: string, args: string[], timeoutMs: number, stopAfter?: RegExp): Promise<Captured> {
  const stopWhen = stopAfter && ((o: { stderr: string }) => stopAfter.test(o.stderr));
  const r = await runGuarded(join(prefix, 'bin', 'openssl'), args, { timeoutMs, env: appEnv(prefix), maxBuffer: 4 << 20, ...(stopWhen ? { stopWhen } : {}) });
  return { exitCode: r.code === -1 ? null : r.code, ...(r.stopped ? { stopped: true } : {}), stdout: r.stdout, stderr: r.stderr };
}

export const speedBenchmark: Benchmark = {
  id: 'speed',
  libraries: ['openssl'], // needs the openssl speed app
  description: "each version's own `openssl speed -mr`: AEAD ciphers, SHA-2, RSA, ECDSA, ECDH, ML-KEM and ML-DSA",
  tasks(build: BuildUnderTest, mode: RunMode): Task[] {
    const { version, series, variant } = build.record;
    return SPEED_PLAN[mode].algorithms.map((id) => {
      const a = ALGORITHMS.find((x) => x.id === id);
      if (!a) throw new Error(`SPEED_PLAN names unknown algorithm ${id}`);
      return {
        id,
        produces: invocations(a, mode).flatMap((inv) =>
          (inv.sizes ?? [undefined]).flatMap((bytes) => operationsOf(a).map((op) => speedSpec(a, op, bytes, version, series))),
        ),
        async run(): Promise<Outcome[]> {
          const out: Outcome[] = [];
          for (const inv of invocations(a, mode)) {
            const got = await runOpenssl(build.prefix, inv.args, 600_000, inv.stopAfter);
            const where = `OpenSSL ${version} (${variant}), openssl ${inv.args.join(' ')}`;
            out.push(...outcomesOf(inv, got, { version, series, variant }, where));
          }
          return out;
        },
      };
    });
  },
};
