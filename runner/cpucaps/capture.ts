// Capture real output of cpucaps.c, and of `openssl info -cpusettings` where the version has it (3.0+),
// from cached builds as fixtures: node runner/cpucaps/capture.ts [version ...]
// writes runner/cpucaps/fixtures/<version>.json: { cpucaps, opensslInfo } as printed on this host.
import { execFileSync } from 'node:child_process';
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { appEnv } from '../build/build.ts';
import { requireBuilds } from '../build/cache.ts';
import { programEnv } from '../child-guard.ts';
import { compareSeries } from '../../catalogue/index.ts';
import { compileAgainst } from '../compile.ts';
import { CPUCAPS_SOURCE } from './cpucaps.ts';

export const CPUCAPS_FIXTURES = fileURLToPath(new URL('./fixtures/', import.meta.url));

function main(wanted: string[]) {
  mkdirSync(CPUCAPS_FIXTURES, { recursive: true });
  for (const b of requireBuilds(wanted)) {
    const cpucaps = execFileSync(compileAgainst(b, CPUCAPS_SOURCE, 'cpucaps'), [], { encoding: 'utf8', env: programEnv() });
    const opensslInfo =
      compareSeries(b.record.series, '3.0') >= 0
        ? execFileSync(join(b.prefix, 'bin', 'openssl'), ['info', '-cpusettings'], { encoding: 'utf8', env: programEnv(appEnv(b.prefix)) })
        : null;
    writeFileSync(join(CPUCAPS_FIXTURES, `${b.record.version}.json`), JSON.stringify({ version: b.record.version, cpucaps, opensslInfo }, null, 1) + '\n');
    process.stderr.write(`${b.record.version}: ${cpucaps}`);
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
