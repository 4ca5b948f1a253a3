// Browser tests against the real site: site/dist, built by `npm run site:build` from the repository's data/.
// Without data/summary.json the data-dependent tests fail and say so.
import { join } from 'node:path';
import { REPO } from './browser.ts';
import { siteSuite } from './suite.ts';

siteSuite({ name: 'site', dist: join(REPO, 'site/dist'), summaryFile: join(REPO, 'data/summary.json'), writeupsDir: join(REPO, 'site/src/content/writeups') });
