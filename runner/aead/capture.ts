// Capture real output of aead.c from cached builds as parser fixtures:
//   node runner/aead/capture.ts [version ...]     (default: every cached build of the default variant)
// compiles aead.c against each build and writes runner/aead/fixtures/<version>/<cipher>.json (its stdout).
import { execFileSync } from 'node:child_process';
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { requireBuilds } from '../build.ts';
import { AEAD_CIPHERS, AEAD_PLAN, aeadArgs, aeadBinary } from './aead.ts';

export const AEAD_FIXTURES_DIR = fileURLToPath(new URL('./fixtures/', import.meta.url));
/** The full plan's sizes and repetitions with short windows: fixtures prove the format, not the speed. */
export const FIXTURE_PLAN = { ...AEAD_PLAN.full, cpuSeconds: 0.01 };

function main(wanted: string[]) {
  const builds = requireBuilds(wanted);
  for (const b of builds) {
    const bin = aeadBinary(b);
    const dir = join(AEAD_FIXTURES_DIR, b.record.version);
    mkdirSync(dir, { recursive: true });
    for (const cipher of AEAD_CIPHERS) {
      const out = execFileSync(bin, aeadArgs(cipher, FIXTURE_PLAN), { encoding: 'utf8' });
      writeFileSync(join(dir, `${cipher}.json`), out);
      process.stderr.write(`${b.record.version} ${cipher}: ${out.length} bytes\n`);
    }
  }
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  try {
    main(process.argv.slice(2));
  } catch (e) {
    console.error((e as Error).message);
    process.exit(1);
  }
}
