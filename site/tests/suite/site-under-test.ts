// What every group of browser tests is given: the built site's options, the server, browser page and
// summaries the suite opens before its first test (and closes after its last), and the test wrappers with
// their deadlines, which hand each test that open site.
import { after, before, test as nodeTest, type TestContext } from 'node:test';
import assert from 'node:assert/strict';
import type { Browser, Page } from 'playwright-core';
import type { Summary } from '../../../schema/index.ts';
import { openSSLOnly } from '../../src/lib/data.ts';
import { serve, type StaticServer } from '../server.ts';
import { launch, readSummary } from '../browser.ts';

export interface SuiteOptions {
  name: string;
  dist: string;
  summaryFile: string;
  /** the write-ups the site was built with */
  writeupsDir: string;
}

/** What a test's body works with, once the suite's `before` has run. */
export interface OpenSite {
  server: StaticServer;
  page: Page;
  /** the OpenSSL builds' entries: what the journey, version, compare and known-issues pages show */
  summary: Summary | null;
  /** every library's entries (the libraries page) */
  full: Summary | null;
}

type SiteTest = (name: string, fn: (site: OpenSite, t: TestContext) => Promise<void>) => void;

export interface Suite {
  name: string;
  summaryFile: string;
  test: SiteTest;
  walkingTest: SiteTest;
  needSummary: () => Summary;
  skipWithoutEntries: (t: TestContext) => boolean;
}

export const PHONE = { width: 390, height: 844 };
export const DESKTOP = { width: 1280, height: 900 };

/** Opens the site before the suite's first test and closes it after its last; the tests are registered on what it returns. */
export function openSite({ name, dist, summaryFile }: SuiteOptions): Suite {
  let server: StaticServer;
  let browser: Browser;
  let page: Page;
  let summary: Summary | null = null;
  let full: Summary | null = null;
  let summaryError = '';

  before(async () => {
    server = await serve(dist);
    browser = await launch();
    page = await browser.newPage();
    page.setDefaultTimeout(30_000);
    try {
      full = readSummary(summaryFile);
      summary = openSSLOnly(full);
    } catch (e) {
      summaryError = (e as Error).message;
    }
  });
  after(async () => {
    await browser?.close();
    await server?.close();
  });
  const needSummary = (): Summary => {
    if (!summary) assert.fail(`[${name}] ${summaryError}`);
    return summary;
  };
  /** A summary with no measured entry (no quiet run committed yet) has nothing for a data check to compare:
   * the test says so and skips; the fixture suite checks the same rendering on synthetic data. */
  const skipWithoutEntries = (t: TestContext): boolean => {
    if (!summary || summary.entries.length > 0) return false;
    t.skip(`data/summary.json holds no measured entry yet (no quiet run is committed); the fixture suite covers this`);
    return true;
  };
  const withDeadline =
    (timeout: number): SiteTest =>
    (testName, fn) =>
      nodeTest(testName, { timeout }, (t) => fn({ server, page, summary, full }, t));
  return {
    name,
    summaryFile,
    /** Every browser test gets a deadline: a hung page must fail the run, not stall CI. */
    test: withDeadline(180_000),
    /**
     * A test that visits every page: the site grows with machines x versions x benchmarks (256 pages and 164 s
     * for the crawl alone on 2 idle cores after a fourth machine's night), so its deadline is 15 minutes; a hung
     * page still fails at once, at its own navigation timeout.
     */
    walkingTest: withDeadline(900_000),
    needSummary,
    skipWithoutEntries,
  };
}
