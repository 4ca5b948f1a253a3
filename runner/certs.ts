// The certificate chains every TLS program loads: one set in the cache for every library and version,
// made by an OpenSSL build (handshake.c gen-certs, c-common/certs.c), so that every build puts the same
// certificate bytes on the wire. Per key kind: a root CA the client trusts, an intermediate CA, and the
// server's leaf for CERT_HOSTNAME; the server sends leaf + intermediate, the client verifies both.
import { existsSync, mkdirSync, mkdtempSync, renameSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import type { BuildUnderTest } from './benchmark.ts';
import { listCached } from './build/cache.ts';
import { runGuarded, stderrTail } from './child-guard.ts';
import { cacheRoot } from './sources.ts';
import { compareSeries } from '../catalogue/index.ts';

export const CERTS = ['rsa2048', 'ecdsa-p256', 'mldsa65'] as const;
export type Cert = (typeof CERTS)[number];

/** The name the leaf is issued to and every verifying client checks (c-common/certs.h CERT_HOSTNAME). */
export const CERT_HOSTNAME = 'observatory.test';

/**
 * Where they are. A new folder for the chains (the self-signed certificates of before were in
 * handshake-certs/): a cache holding the old files must not pass for the new ones.
 */
export const certDir = () => join(cacheRoot(), 'tls-chains');

/** The files of one kind (c-common/certs.h) by their suffixes, the key last: it is written last and moved last. */
const SUFFIXES = { root: '-root.crt', intermediate: '-intermediate.crt', chain: '.crt', key: '.key' } as const;
const FILE_SUFFIXES = Object.values(SUFFIXES);

export const certFiles = (kind: Cert) => {
  const at = (suffix: string) => join(certDir(), `${kind}${suffix}`);
  return { root: at(SUFFIXES.root), intermediate: at(SUFFIXES.intermediate), chain: at(SUFFIXES.chain), key: at(SUFFIXES.key) };
};

const haveCert = (kind: Cert) => Object.values(certFiles(kind)).every((f) => existsSync(f));

/** Run a gen-certs program (handshake.c) into a temporary directory and move in what the cache lacks. */
async function genCerts(binary: string): Promise<void> {
  mkdirSync(certDir(), { recursive: true });
  const tmp = mkdtempSync(join(certDir(), '.gen-'));
  try {
    const r = await runGuarded(binary, ['gen-certs', tmp], { timeoutMs: 120_000 });
    if (r.code !== 0 && !r.stdout) throw new Error(`handshake gen-certs failed (exit ${r.code}): ${stderrTail(r.stderr)}`);
    // the key file last: its presence means the rest of the kind is in place
    for (const kind of CERTS) {
      if (haveCert(kind) || !FILE_SUFFIXES.every((s) => existsSync(join(tmp, `${kind}${s}`)))) continue;
      for (const s of FILE_SUFFIXES) renameSync(join(tmp, `${kind}${s}`), join(certDir(), `${kind}${s}`));
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
