// `node scripts/run-tests.ts unit|integration|e2e`: run one tier of the tests under the folders
// tsconfig.json type-checks (catalogue/, schema/, runner/, analysis/, scripts/, ...), chosen by file name:
//   *.test.ts              unit: fixtures and stand-ins only, no OpenSSL build, no network; about 3
//                          minutes on 2 idle cores. Runs with OBSERVATORY_CACHE on an empty scratch folder,
//                          so a unit test can never reach (or fill) the real build cache.
//   *.integration.test.ts  real OpenSSL builds and the programs compiled against them (npm run
//                          test:integration builds what they need first)
//   *.e2e.test.ts          end to end: the ML-KEM hypothesis test, which builds and measures
// The site's tests (site/) belong to npm run test:site, which builds the site first.
import { spawnSync } from 'node:child_process';
import { mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, relative } from 'node:path';
import { TIER_VARIABLE } from '../runner/integration-needs.ts';

export type Tier = 'unit' | 'integration' | 'e2e';
export const TIERS: Tier[] = ['unit', 'integration', 'e2e'];
/** The folders holding the project's TypeScript (and so its tests): tsconfig.json's include, the one list. */
const ROOTS: string[] = JSON.parse(readFileSync(new URL('../tsconfig.json', import.meta.url), 'utf8')).include;

/** The tier of a test file, or null for a file that is not a test. */
export function tierOf(file: string): Tier | null {
  if (!file.endsWith('.test.ts')) return null;
  if (file.endsWith('.e2e.test.ts')) return 'e2e';
  if (file.endsWith('.integration.test.ts')) return 'integration';
  return 'unit';
}

/** The test files of a tier, relative to the repository, sorted. */
export function testFiles(root: string, tier: Tier): string[] {
  const out: string[] = [];
  const walk = (dir: string) => {
    for (const entry of readdirSync(dir, { withFileTypes: true })) {
      if (entry.name === 'node_modules' || entry.name.startsWith('.')) continue;
      const p = join(dir, entry.name);
      if (entry.isDirectory()) walk(p);
      else if (tierOf(entry.name) === tier) out.push(relative(root, p));
    }
  };
  for (const r of ROOTS) walk(join(root, r));
  return out.sort();
}

function main(): void {
  const tier = process.argv[2] as Tier;
  if (!TIERS.includes(tier)) {
    console.error(`usage: node scripts/run-tests.ts ${TIERS.join('|')}`);
    process.exit(2);
  }
  const root = join(import.meta.dirname, '..');
  const files = testFiles(root, tier);
  // integration tests fail where a build they need is missing (runner/integration-needs.ts)
  const env = { ...process.env, [TIER_VARIABLE]: tier };
  const scratch = tier === 'unit' ? mkdtempSync(join(tmpdir(), 'observatory-unit-cache-')) : null;
  // the host lock too: a unit test never takes the machine's real lock (runner/host-lock.ts)
  if (scratch) Object.assign(env, { OBSERVATORY_CACHE: scratch, OBSERVATORY_LOCK_DIR: join(scratch, 'host-lock') });
  const start = Date.now();
  const r = spawnSync(process.execPath, ['--test', '--test-concurrency=1', ...files], { cwd: root, env, stdio: 'inherit' });
  if (scratch) rmSync(scratch, { recursive: true, force: true });
  console.log(`${tier} tier: ${files.length} test files in ${((Date.now() - start) / 1000).toFixed(1)} s`);
  process.exit(r.status ?? 1);
}

if (import.meta.main) main();
