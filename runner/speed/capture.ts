// Capture real `openssl speed -mr` output from cached builds as parser fixtures:
//   node runner/speed/capture.ts [version ...]     (default: every cached build of the default variant)
// writes runner/speed/fixtures/<version>/<name>.json. Each invocation runs for 1 s per measurement.
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { requireBuilds } from '../build/cache.ts';
import { ALGORITHMS, invocations, runOpenssl, type Invocation } from './speed.ts';

export const FIXTURES_DIR = fileURLToPath(new URL('./fixtures/', import.meta.url));

export interface Fixture {
  version: string;
  series: string;
  variant: string;
  versionString: string;
  algorithm: string;
  args: string[];
  exitCode: number | null;
  stdout: string;
  stderr: string;
  capturedAt: string;
}

/** Which invocations prove the parser: every output shape the benchmark produces, kept cheap. */
export function fixtureInvocations(): { name: string; inv: Invocation }[] {
  const pick = (id: string, mode: 'quick' | 'full', bytes?: number) => {
    const a = ALGORITHMS.find((x) => x.id === id)!;
    const inv = invocations(a, mode).find((i) => bytes === undefined || i.sizes?.[0] === bytes)!;
    return { name: inv.sizes ? `${id}-${inv.sizes.length > 1 ? 'default-sizes' : inv.sizes[0]}` : id, inv };
  };
  return [
    pick('aes-128-gcm', 'full'), // all six default sizes in one +H/+F pair
    pick('aes-256-gcm', 'quick', 16),
    pick('chacha20-poly1305', 'quick', 16),
    pick('sha256', 'quick', 16384),
    pick('sha512', 'quick', 16),
    pick('rsa2048', 'full'),
    pick('ecdsa-p256', 'full'),
    pick('ecdsa-p384', 'full'),
    pick('ecdh-p256', 'full'),
    pick('ecdh-x25519', 'full'),
    pick('ml-kem-768', 'full'),
    pick('ml-dsa-65', 'full'),
  ];
}

async function main(wanted: string[]) {
  const builds = requireBuilds(wanted);
  for (const b of builds) {
    const dir = join(FIXTURES_DIR, b.record.version);
    mkdirSync(dir, { recursive: true });
    for (const { name, inv } of fixtureInvocations()) {
      process.stderr.write(`${b.record.version} ${name} ... `);
      const got = await runOpenssl(b.prefix, inv.args, 600_000);
      const fx: Fixture = {
        version: b.record.version,
        series: b.record.series,
        variant: b.record.variant,
        versionString: b.record.versionString,
        algorithm: inv.algorithm.id,
        args: inv.args,
        ...got,
        capturedAt: new Date().toISOString(),
      };
      writeFileSync(join(dir, `${name}.json`), JSON.stringify(fx, null, 1) + '\n');
      process.stderr.write(`exit ${got.exitCode}\n`);
    }
  }
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  main(process.argv.slice(2)).catch((e) => {
    console.error((e as Error).message);
    process.exit(1);
  });
}
