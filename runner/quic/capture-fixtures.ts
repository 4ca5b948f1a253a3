// node runner/quic/capture-fixtures.ts <version> [...]: saves the programs' real output for the tests.
// Each fixture is exactly what the program printed against that build.
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { requireBuilds } from '../build/cache.ts';
import { runQuicSizes, runTlsSizes } from './probe.ts';

export const FIXTURE_DIR = join(import.meta.dirname, 'fixtures');

/** name -> what to run; quic handshakes only where the version has a QUIC server */
export const FIXTURES: { name: string; tls?: [string, string, string]; quic?: string[] }[] = [
  { name: 'tls-default-ecdsa', tls: ['default', 'default', 'ecdsa-p256'] },
  { name: 'tls-hrr-default-vs-p256', tls: ['default', 'P-256', 'ecdsa-p256'] },
  { name: 'tls-x25519mlkem768', tls: ['X25519MLKEM768', 'X25519MLKEM768', 'ecdsa-p256'] },
  { name: 'quic-client-only-default', quic: ['client-only', 'default'] },
  { name: 'quic-handshake-default-ecdsa', quic: ['handshake', 'default', 'ecdsa-p256', 'no-retry'] },
  { name: 'quic-handshake-x25519-mldsa65', quic: ['handshake', 'X25519', 'mldsa65', 'no-retry'] },
];

async function capture(version: string): Promise<void> {
  const build = requireBuilds([version])[0]!;
  const dir = join(FIXTURE_DIR, build.record.version);
  mkdirSync(dir, { recursive: true });
  for (const f of FIXTURES) {
    const out = f.tls ? await runTlsSizes(build, ...f.tls) : await runQuicSizes(build, f.quic!);
    writeFileSync(join(dir, `${f.name}.json`), JSON.stringify(out) + '\n');
    process.stderr.write(`${build.record.version} ${f.name}: ${out.status}\n`);
  }
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  for (const v of process.argv.slice(2)) await capture(v);
}
