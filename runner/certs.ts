// The keys and self-signed certificates every TLS program loads: one set in the cache for every library
// and version, made by an OpenSSL build (handshake.c gen-certs, c-common/certs.c), so that every build
// puts the same certificate bytes on the wire.
import { existsSync, mkdirSync, mkdtempSync, renameSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import type { BuildUnderTest } from './benchmark.ts';
import { listCached } from './build.ts';
import { runGuarded, stderrTail } from './child-guard.ts';
import { cacheRoot } from './sources.ts';
import { compareSeries } from '../catalogue/index.ts';

export const CERTS = ['rsa2048', 'ecdsa-p256', 'mldsa65'] as const;
export type Cert = (typeof CERTS)[number];

/** Where they are. */
export const certDir = () => join(cacheRoot(), 'handshake-certs');

const haveCert = (kind: Cert) => existsSync(join(certDir(), `${kind}.crt`)) && existsSync(join(certDir(), `${kind}.key`));

/** Run a gen-certs program (handshake.c) into a temporary directory and move in what the cache lacks. */
async function genCerts(binary: string): Promise<void> {
  mkdirSync(certDir(), { recursive: true });
  const tmp = mkdtempSync(join(certDir(), '.gen-'));
  try {
    const r = await runGuarded(binary, ['gen-certs', tmp], { timeoutMs: 120_000 });
    if (r.code !== 0 && !r.stdout) throw new Error(`handshake gen-certs failed (exit ${r.code}): ${stderrTail(r.stderr)}`);
    // key before certificate: a certificate's presence means its key is in place
    for (const kind of CERTS) {
      if (haveCert(kind) || !existsSync(join(tmp, `${kind}.crt`))) continue;
      renameSync(join(tmp, `${kind}.key`), join(certDir(), `${kind}.key`));
      renameSync(join(tmp, `${kind}.crt`), join(certDir(), `${kind}.crt`));
    }
  } finally {
    rmSync(tmp, { recursive: true, force: true });
  }
}

/**
 * Make the missing certificates. Only OpenSSL builds make them (every library then loads the same
 * bytes); ML-DSA needs 3.5+. Builds are taken from the cache when the one under test cannot.
 * `makerBinary`: the gen-certs program (handshake.c) compiled against a build.
 */
export async function ensureCerts(build: BuildUnderTest, makerBinary: (b: BuildUnderTest) => string): Promise<void> {
  if (CERTS.every(haveCert)) return;
  if (build.record.library === 'openssl') await genCerts(makerBinary(build));
  if (CERTS.every(haveCert)) return;
  const newest = listCached()
    .filter((b) => (b.record.library ?? 'openssl') === 'openssl' && compareSeries(b.record.series, '3.5') >= 0)
    .sort((a, b) => compareSeries(b.record.series, a.record.series))[0];
  if (newest) await genCerts(makerBinary({ record: newest.record, prefix: newest.prefix }));
  if (!haveCert('ecdsa-p256') || !haveCert('rsa2048'))
    throw new Error(`no certificates in ${certDir()}: they are made by an OpenSSL 3.5+ build (none cached), run the handshake benchmark on one first`);
}

