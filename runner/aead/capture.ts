// Capture real output of aead.c from cached builds as parser fixtures:
//   node runner/aead/capture.ts [spec ...]     (default: every cached build of the default variant)
// compiles aead.c against each build and writes runner/aead/fixtures/<build slug>/<cipher>.json (its stdout),
// or <cipher>.unsupported.txt (its stderr) for a cipher the library does not have.
import { spawnSync } from 'node:child_process';
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { buildsForCapture } from '../library-id.ts';
import { EXIT } from '../exit-codes.ts';
import { buildSlug } from '../../catalogue/index.ts';
import { AEAD_CIPHERS, AEAD_PLAN, aeadArgs, aeadBinary } from './aead.ts';
import { pinnableCpu } from '../host.ts';

export const AEAD_FIXTURES_DIR = fileURLToPath(new URL('./fixtures/', import.meta.url));
/** The full plan's sizes and repetitions with short windows: fixtures prove the format, not the speed. */
export const FIXTURE_PLAN = { ...AEAD_PLAN.full, cpuSeconds: 0.01 };

function main(wanted: string[]) {
  const builds = buildsForCapture(wanted);
  for (const b of builds) {
    const bin = aeadBinary(b);
    const dir = join(AEAD_FIXTURES_DIR, buildSlug(b.record));
    mkdirSync(dir, { recursive: true });
    for (const cipher of AEAD_CIPHERS) {
      // a cipher the library lacks exits EXIT.unsupported with the reason on stderr: kept as <cipher>.unsupported.txt
      const r = spawnSync(bin, aeadArgs(cipher, FIXTURE_PLAN, pinnableCpu()), { encoding: 'utf8' });
      if (r.status === EXIT.unsupported) writeFileSync(join(dir, `${cipher}.unsupported.txt`), r.stderr);
      else if (r.status === EXIT.ok) writeFileSync(join(dir, `${cipher}.json`), r.stdout);
      else throw new Error(`aead ${cipher} on ${buildSlug(b.record)} exited ${r.status}: ${r.stderr.slice(-1500)}`);
      process.stderr.write(`${buildSlug(b.record)} ${cipher}: exit ${r.status}\n`);
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
