// How the pages sit on a screen and what they weigh: every page at 390 px (no sideways scrolling; each table's runs and hosts), the version pages' transfer budget, the navigation on one line at 1280 px.
import assert from 'node:assert/strict';
import { benchmarkPagePath, versionBenchmarkPages, versionPages } from '../../src/lib/model.ts';
import { crawl, tableRuns, transferSize } from '../browser.ts';
import { PHONE, DESKTOP, type Suite } from './site-under-test.ts';

/** issue 13: a version page, with everything it loads */
const VERSION_BUDGET = 250 * 1024;

export function layoutAndWeightTests({ name, needSummary, test, walkingTest }: Suite): void {
  walkingTest(
    `[${name}] every page at 390 px: no sideways scrolling, and no table or chart holds timing values of two runs or rows of two hosts`,
    async ({ page, server }) => {
      await page.setViewportSize(PHONE);
      const wide: string[] = [];
      const mixed: string[] = [];
      let tables = 0;
      let apart = 0;
      const { pages, problems } = await crawl(page, server.origin, async (path) => {
        const over = await page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth);
        if (over > 1) wide.push(`${path} is ${over}px wider than the screen`);
        apart += await page.locator('[data-runs][data-apart]').count();
        for (const t of await tableRuns(page)) {
          tables++;
          if (t.runs.length === 0) mixed.push(`${path}: ${t.caption} names no run`);
          if (t.unlisted.length) mixed.push(`${path}: ${t.caption} has rows of runs it does not list: ${t.unlisted.join(', ')}`);
          // a deliberate side-by-side of per-machine ratios (/machines): every cell names its one machine and run
          if (t.crossMachine) for (const p of t.crossMachine) mixed.push(`${path}: ${t.caption} (per-machine ratios): ${p}`);
          else {
            if (t.hosts.length !== 1) mixed.push(`${path}: ${t.caption} holds rows of ${t.hosts.length} hosts (${t.hosts.join(', ')})`);
            if (t.timing && t.timingRuns.length !== 1)
              mixed.push(`${path}: ${t.caption} holds timing values of ${t.timingRuns.length} runs (${t.timingRuns.join(', ')})`);
            if (t.timingRuns.some((r) => !t.runs.includes(r))) mixed.push(`${path}: ${t.caption} has timing runs its data-runs does not list`);
            if (t.rowsWithoutRun > 0) mixed.push(`${path}: ${t.caption} holds rows of ${t.runs.length} runs, and ${t.rowsWithoutRun} rows do not name theirs`);
          }
        }
      });
      await page.setViewportSize(DESKTOP);
      assert.deepEqual(problems, []);
      assert.deepEqual(wide, []);
      assert.deepEqual(mixed, []);
      // the fixture measures a series in two runs: its other run must have a table of its own somewhere
      if (name === 'fixture') assert.ok(apart > 0, 'no table or chart of another run: the split by run is not exercised');
      console.log(`[${name}] ${pages.length} pages at 390 px, ${tables} tables and charts checked for runs and hosts (${apart} of a run apart)`);
    },
  );

  walkingTest(`[${name}] version pages and their benchmark pages transfer at most 250 KB each, everything they load included`, async ({ page, server }) => {
    const s = needSummary();
    let largest = { path: '', total: 0 };
    const paths = [
      ...versionPages(s).map((p) => `/versions/${p.slug}`),
      ...versionBenchmarkPages(s).map((p) => benchmarkPagePath({ slug: p.page.slug, host: p.host, benchmark: p.benchmark })),
    ];
    for (const path of paths) {
      const { total, parts } = await transferSize(page, server.origin + path);
      if (total > largest.total) largest = { path, total };
      assert.ok(total <= VERSION_BUDGET, `${path} transfers ${total} bytes: ${parts.map(([u, n]) => `${u} ${n}`).join(', ')}`);
    }
    console.log(`[${name}] ${paths.length} pages; largest transfer: ${largest.path} ${largest.total} bytes (${(largest.total / 1024).toFixed(1)} KiB)`);
  });

  test(`[${name}] the main navigation fits one line at 1280 px`, async ({ page, server }) => {
    await page.setViewportSize(DESKTOP);
    await page.goto(`${server.origin}/methodology`, { waitUntil: 'networkidle' });
    const tops = await page.$$eval('header.site nav a', (as) => as.map((a) => Math.round(a.getBoundingClientRect().top)));
    assert.ok(tops.length >= 8, `only ${tops.length} links in the navigation`);
    assert.equal(new Set(tops).size, 1, `navigation wraps: link tops ${tops.join(', ')}`);
  });
}
