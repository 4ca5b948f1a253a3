// Browser tests against a build from the synthetic fixture (site/tests/fixtures/data): proves the pages'
// mechanics (chart = data, toggle, verdict marking) whatever the real data holds today.
import { before } from 'node:test';
import { spawnSync } from 'node:child_process';
import { join } from 'node:path';
import { REPO, ARTIFACTS } from './browser.ts';
import { siteSuite } from './suite.ts';

const data = join(REPO, 'site/tests/fixtures/data');
const dist = join(ARTIFACTS, 'fixture-dist');

before(() => {
  // a fixture build that fails is an error of the site, reported with astro's own output
  const r = spawnSync(join(REPO, 'node_modules/.bin/astro'), ['build', '--root', 'site', '--silent'], {
    cwd: REPO,
    env: {
      ...process.env,
      OBSERVATORY_DATA_DIR: data,
      OBSERVATORY_OUT_DIR: dist,
      OBSERVATORY_WRITEUPS_DIR: join(REPO, 'site/tests/fixtures/writeups'),
      ASTRO_TELEMETRY_DISABLED: '1',
    },
    encoding: 'utf8',
    timeout: 300_000,
  });
  if (r.status !== 0) throw new Error(`fixture site build failed:\n${r.stdout}\n${r.stderr}`);
});

siteSuite({ name: 'fixture', dist, summaryFile: join(data, 'summary.json'), writeupsDir: join(REPO, 'site/tests/fixtures/writeups') });
