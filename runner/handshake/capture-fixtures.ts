// Capture real output of handshake.c from every built version into fixtures/<build slug>/<case>.json,
// the material the parser tests are proven on:  node runner/handshake/capture-fixtures.ts [SPEC...]
// (SPEC as for the bench: 3.5.7, aws-lc, boringssl, wolfssl). OpenSSL's slug is its version.
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { buildsForCapture } from '../library-id.ts';
import { runGuarded } from '../child-guard.ts';
import { buildSlug } from '../../catalogue/index.ts';
import type { Library } from '../../schema/index.ts';
import { baseConfig, pin, type HandshakeConfig } from './config.ts';
import { configArgs, ensureCerts, handshakeBinary } from './invoke.ts';

export const FIXTURE_DIR = fileURLToPath(new URL('./fixtures/', import.meta.url));

/** Each case: a configuration (or a raw argv) and what every version must do with it is checked in the tests. */
export const CASES: Record<string, HandshakeConfig | string[]> = {
  'tls13-default': baseConfig(),
  'tls13-x25519': baseConfig({ clientGroups: 'X25519', serverGroups: 'X25519' }),
  'tls13-p256-rsa': baseConfig({ cert: 'rsa2048', clientGroups: 'P-256', serverGroups: 'P-256' }),
  'tls13-default-client-x25519-server': baseConfig({ serverGroups: 'X25519' }),
  'tls13-hrr': baseConfig({ clientGroups: 'P-256:X25519', serverGroups: 'X25519' }),
  'tls13-x25519mlkem768': baseConfig({ clientGroups: 'X25519MLKEM768', serverGroups: 'X25519MLKEM768' }),
  'tls13-mlkem768': baseConfig({ clientGroups: 'MLKEM768', serverGroups: 'MLKEM768' }),
  'tls13-mldsa65': baseConfig({ cert: 'mldsa65', clientGroups: 'X25519', serverGroups: 'X25519' }),
  'tls13-ticket': baseConfig({ resume: 'ticket' }),
  'tls12-x25519': baseConfig({ proto: '1.2', ...pin('1.2', 'ecdsa-p256', 'X25519') }),
  'tls12-session-id': baseConfig({ proto: '1.2', cert: 'rsa2048', resume: 'session-id' }),
  'tls12-ticket': baseConfig({ proto: '1.2', resume: 'ticket' }),
  'tls12-ecdsa-without-p256': baseConfig({ proto: '1.2', clientGroups: 'X25519', serverGroups: 'X25519' }),
  'tls13-threads2': baseConfig({ clientGroups: 'X25519', serverGroups: 'X25519', threads: 2 }),
  'tls13-ctx-per-conn': baseConfig({ clientGroups: 'X25519', serverGroups: 'X25519', mode: 'ctx-per-conn' }),
  'tls13-memory': baseConfig({ clientGroups: 'X25519', serverGroups: 'X25519', mode: 'memory' }),
  'tls12-memory': baseConfig({ proto: '1.2', mode: 'memory', ...pin('1.2', 'ecdsa-p256', 'X25519') }),
  'tls13-verify-none': baseConfig({ clientGroups: 'X25519', serverGroups: 'X25519', verify: 'none' }),
  // a client that expects another name must refuse the server: proves the hostname is checked
  'tls13-wrong-hostname': [...configArgs(baseConfig({ clientGroups: 'X25519', serverGroups: 'X25519' }), 20), '--verify-host', 'other.test'],
  'ctx-new': ['run', '--mode', 'ctx-new', '--count', '50'],
};

export interface Fixture {
  /** absent in fixtures captured before other libraries: OpenSSL */
  library?: Library;
  version: string;
  argv: string[];
  exitCode: number;
  stdout: string;
}

if (import.meta.url === `file://${process.argv[1]}`) {
  const versions = process.argv.slice(2);
  for (const build of buildsForCapture(versions)) {
    await ensureCerts(build);
    const bin = handshakeBinary(build);
    const dir = join(FIXTURE_DIR, buildSlug(build.record));
    mkdirSync(dir, { recursive: true });
    for (const [name, c] of Object.entries(CASES)) {
      const argv = Array.isArray(c) ? c : configArgs(c, 20);
      const r = await runGuarded(bin, argv, { timeoutMs: 120_000 });
      if (r.code === -1) throw new Error(`${build.record.version} ${name}: did not run`);
      // the certificate directory is machine-specific: keep the argv readable and portable
      const library = build.record.library === 'openssl' ? {} : { library: build.record.library };
      const fixture: Fixture = {
        ...library,
        version: build.record.version,
        argv: argv.map((a) => (a.startsWith('/') ? '<cert-dir>' : a)),
        exitCode: r.code,
        stdout: r.stdout,
      };
      writeFileSync(join(dir, `${name}.json`), JSON.stringify(fixture, null, 2) + '\n');
      console.log(`${build.record.version} ${name}: exit ${r.code}`);
    }
  }
}
