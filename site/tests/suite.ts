// The browser test suite, run against one built site and the summary.json it was built from: the site is
// opened once (suite/site-under-test.ts), then each group of tests (suite/*.ts) runs in this order.
import { openSite, type SuiteOptions } from './suite/site-under-test.ts';
import { homeTests } from './suite/home.ts';
import { versionTests } from './suite/versions.ts';
import { layoutAndWeightTests } from './suite/layout-and-weight.ts';
import { provenanceTests } from './suite/provenance.ts';
import { hypothesisAndKnownIssuesTests } from './suite/hypothesis-and-known-issues.ts';
import { librariesAndServersTests } from './suite/libraries-and-servers.ts';
import { mtuTests } from './suite/mtu.ts';
import { axeAndScreenshotTests } from './suite/axe-and-screenshots.ts';
import { driftTests } from './suite/drift.ts';
import { transferBudgetTests } from './suite/transfer-budgets.ts';

export function siteSuite(options: SuiteOptions): void {
  const suite = openSite(options);
  homeTests(suite);
  versionTests(suite);
  layoutAndWeightTests(suite);
  provenanceTests(suite);
  hypothesisAndKnownIssuesTests(suite);
  librariesAndServersTests(suite);
  mtuTests(suite);
  axeAndScreenshotTests(suite);
  driftTests(suite);
  transferBudgetTests(suite);
}
