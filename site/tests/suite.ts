// The browser test suite, run against one built site and the summary.json it was built from.
import { after, before, test as nodeTest, type TestContext } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import type { Browser, Page } from 'playwright-core';
import { HypothesisResult, MtuResults, Timeseries, type Summary } from '../../schema/index.ts';
import { resolveSelection, shardsFor, type DriftSelection } from '../src/lib/drift/selection.ts';
import { driftShards } from '../src/lib/drift/shards.ts';
import { driftView } from '../src/lib/drift/view.ts';
import { pickPublished } from '../src/lib/hypothesis.ts';
import { conclusion } from '../../experiments/hypothesis/analysis.ts';
import { helloBytes } from '../src/lib/mtu.ts';
import { benchmarkPagePath, versionBenchmarkPages, versionPages, versionSlug } from '../src/lib/model.ts';
import { keyId } from '../src/lib/version/key-id.ts';
import { reasonText, writeupOnly } from '../src/lib/version/groups.ts';
import { num, quantity, quantityRange, runWords, VERDICT_SHORT, VERDICT_TEXT } from '../src/lib/format.ts';
import { CPU_FLAG_TEXT, CPU_FLAGS } from '../src/lib/cpu-flags.ts';
import { knownIssueRows } from '../src/lib/known-issues.ts';
import { openSSLOnly } from '../src/lib/data.ts';
import { librariesView } from '../src/lib/libraries/view.ts';
import { MEASURE_COMMAND, serversView } from '../src/lib/servers.ts';
import { serve, type StaticServer } from './server.ts';
import { pagesFor } from '../src/lib/pages.ts';
import {
  ARTIFACTS,
  axe,
  crawl,
  entryRows,
  resultFiles,
  expectedEntries,
  expectedMedians,
  launch,
  plotted,
  readSummary,
  screenshots,
  selection,
  tableRuns,
  transferSize,
} from './browser.ts';

export interface SuiteOptions {
  name: string;
  dist: string;
  summaryFile: string;
  /** the write-ups the site was built with */
  writeupsDir: string;
}

const HOME_BUDGET = 200 * 1024;
/** issue 13: a version page, with everything it loads */
const VERSION_BUDGET = 250 * 1024;
/** the libraries page: every measure of up to seven builds in one static page, no script data */
const LIBRARIES_BUDGET = 400 * 1024;
const PHONE = { width: 390, height: 844 };
const DESKTOP = { width: 1280, height: 900 };
/** Every browser test gets a deadline: a hung page must fail the run, not stall CI. */
const test = (name: string, fn: (t: TestContext) => Promise<void>) => nodeTest(name, { timeout: 180_000 }, fn);
/**
 * A test that visits every page: the site grows with machines x versions x benchmarks (256 pages and 164 s
 * for the crawl alone on 2 idle cores after a fourth machine's night), so its deadline is 15 minutes; a hung
 * page still fails at once, at its own navigation timeout.
 */
const walkingTest = (name: string, fn: (t: TestContext) => Promise<void>) => nodeTest(name, { timeout: 900_000 }, fn);

export function siteSuite({ name, dist, summaryFile }: SuiteOptions): void {
  let server: StaticServer;
  let browser: Browser;
  let page: Page;
  /** the OpenSSL builds' entries: what the journey, version, compare and known-issues pages show */
  let summary: Summary | null = null;
  /** every library's entries (the libraries page) */
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

  walkingTest(`[${name}] every page loads without console errors, failed requests or broken internal links`, async () => {
    const { pages, problems } = await crawl(page, server.origin);
    assert.deepEqual(problems, []);
    for (const must of pagesFor('reachable'))
      assert.ok(
        pages.some((p) => p.url.replace(/\/$/, '') === must.replace(/\/$/, '') || (must === '/' && p.url === '/')),
        `${must} not reachable from home`,
      );
    console.log(`[${name}] crawled ${pages.length} pages`);
  });

  test(`[${name}] where nothing was measured the home page says so in words, never with a number`, async () => {
    await page.goto(`${server.origin}/`, { waitUntil: 'networkidle' });
    if (!summary || summary.entries.length === 0) {
      assert.match(await page.locator('main').innerText(), /Not measured yet/);
      return;
    }
    await plotted(page);
    // the chart's table; versions another run measured are in tables of their own (data-apart), never plotted
    const apart = await page.$$eval('[data-journey-root] table[data-apart] tbody tr', (trs) => trs.map((tr) => tr.getAttribute('data-version')!));
    const rows = await page.$$eval('[data-journey-root] table:not([data-apart]) tbody tr', (trs) =>
      trs.map((tr) => ({ version: tr.getAttribute('data-version')!, measured: !!tr.querySelector('td[data-median]'), text: (tr as HTMLElement).innerText })),
    );
    const points = new Set((await plotted(page)).map((p) => p.version));
    for (const v of apart) assert.ok(rows.some((r) => r.version === v && r.measured) || !points.has(v), `${v}, measured in another run, is plotted`);
    for (const r of rows) {
      if (r.measured) assert.ok(points.has(r.version), `${r.version} is in the table but not on the chart`);
      else {
        assert.match(r.text, /not measured|unsupported|failed/, `${r.version}: ${r.text}`);
        assert.ok(!points.has(r.version), `${r.version} is plotted although not measured`);
      }
    }
  });

  test(`[${name}] home chart values equal summary.json, for each line drawn`, async (t) => {
    if (skipWithoutEntries(t)) return;
    const s = needSummary();
    await page.goto(`${server.origin}/`, { waitUntil: 'networkidle' });
    await plotted(page);
    const sel = await selection(page);
    const groups = sel.groups.split(' ');
    assert.deepEqual(groups, ['default', 'X25519'], 'library defaults and pinned X25519 are overlaid');
    for (const g of groups) {
      const expected = expectedMedians(s, { ...sel, groups: g });
      const points = await plotted(page, g);
      assert.ok(points.length > 0, `no point plotted for ${g}`);
      assert.deepEqual(new Map(points.map((p) => [p.version, p.median])), expected, g);
      const tableMedians = await page.$$eval(`[data-journey-root] table:not([data-apart]) tbody td[data-median][data-groups="${g}"]`, (tds) =>
        tds.map((td) => [td.closest('tr')!.getAttribute('data-version')!, Number(td.getAttribute('data-median'))] as [string, number]),
      );
      assert.deepEqual(new Map(tableMedians), expected, `the table shows the same values (${g})`);
    }
  });

  test(`[${name}] the line toggles show one group mode or both`, async (t) => {
    if (skipWithoutEntries(t)) return;
    const s = needSummary();
    await page.goto(`${server.origin}/`, { waitUntil: 'networkidle' });
    await plotted(page);
    const defaults = page.getByRole('button', { name: 'Library defaults' });
    const pinned = page.getByRole('button', { name: 'Pinned X25519' });
    if ((await pinned.isDisabled()) || (await defaults.isDisabled()))
      assert.fail(
        `[${name}] the home chart's configuration lacks library defaults or pinned X25519: summary.json has no handshake configuration measured both ways`,
      );
    assert.equal(await defaults.getAttribute('aria-pressed'), 'true');
    assert.equal(await pinned.getAttribute('aria-pressed'), 'true');
    await defaults.click();
    await page.waitForFunction(() => (document.querySelector('[data-journey-root]') as HTMLElement).dataset.groups === 'X25519');
    const sel = await selection(page);
    assert.equal(await defaults.getAttribute('aria-pressed'), 'false');
    const after = await plotted(page);
    assert.deepEqual(new Map(after.map((p) => [p.version, p.key])), new Map([...expectedEntries(s, sel)].map(([v, e]) => [v, e.key])));
    assert.deepEqual(new Map(after.map((p) => [p.version, p.median])), expectedMedians(s, sel));
    assert.match(page.url(), /groups=X25519(&|$)/, 'the selection is in the URL for sharing');
  });

  test(`[${name}] choosing another measure plots its values`, async (t) => {
    if (skipWithoutEntries(t)) return;
    const s = needSummary();
    await page.goto(`${server.origin}/`, { waitUntil: 'networkidle' });
    await plotted(page);
    const first = await selection(page);
    // the other measurements load when their section is opened
    await page.locator('details[data-more] summary').click();
    await page.waitForSelector('select[name=metric] option', { state: 'attached' });
    const other = await page.$$eval(
      'select[name=metric] option',
      (os, cur) => os.map((o) => (o as HTMLOptionElement).value).find((v) => v.split('\u0000')[0] !== cur),
      first.metric,
    );
    if (!other) {
      t.skip('this data has one metric on the home chart (the fixture suite checks switching)');
      return;
    }
    await page.selectOption('select[name=metric]', other);
    await page.waitForFunction((m) => (document.querySelector('[data-journey-root]') as HTMLElement).dataset.metric === m, other.split('\u0000')[0]!);
    const sel = await selection(page);
    for (const g of sel.groups.split(' '))
      assert.deepEqual(new Map((await plotted(page, g)).map((p) => [p.version, p.median])), expectedMedians(s, { ...sel, groups: g }));
  });

  test(`[${name}] chart points are reachable by keyboard and named`, async (t) => {
    if (skipWithoutEntries(t)) return;
    needSummary();
    await page.goto(`${server.origin}/`, { waitUntil: 'networkidle' });
    await plotted(page);
    const label = await page.$eval('[data-journey-root] svg circle.point', (c) => c.querySelector('title')?.textContent ?? null);
    assert.match(label ?? '', /median .+ n=\d+/);
    await page.focus('circle.point');
    assert.equal(await page.evaluate(() => document.activeElement?.getAttribute('class')), 'point');
  });

  test(`[${name}] a per-version table marks a non-significant difference`, async (t) => {
    const s = needSummary();
    const e = s.entries.find(
      (x) => !writeupOnly(x) && (x.vsPreviousSeries?.verdict === 'no-difference-shown' || x.vsBaseline?.verdict === 'no-difference-shown'),
    );
    if (!e) {
      t.skip('this data has no comparison whose interval includes no change (the fixture suite checks the marking)');
      return;
    }
    await page.goto(server.origin + benchmarkPagePath({ slug: versionSlug(e.version, e.variant), host: e.host, benchmark: e.benchmark }), {
      waitUntil: 'networkidle',
    });
    const rows = page.locator(`table.entries[data-host="${e.host}"] tr[data-k="${keyId(e.key)}"]`);
    assert.ok((await rows.count()) > 0, `no row of ${e.key} on the benchmark page`);
    assert.match(await rows.first().innerText(), new RegExp(VERDICT_SHORT['no-difference-shown']));
  });

  test(`[${name}] a version page opens with its headline figures in the order of a visitor's questions, and links a page per benchmark whose filter narrows the rows`, async (t) => {
    if (skipWithoutEntries(t)) return;
    const s = needSummary();
    const v = versionPages(s).find((p) => p.variant === 'default' && s.entries.some((e) => e.version === p.version && e.vsPreviousSeries))!;
    assert.ok(v, 'no version with a comparison against a previous series');
    await page.setViewportSize(DESKTOP);
    await page.goto(`${server.origin}/versions/${v.slug}`, { waitUntil: 'networkidle' });
    const headline = page.locator('section[data-version-host] table.entries').first();
    const rows = await headline.locator('tbody tr th').evaluateAll((ths) => ths.map((th) => th.textContent ?? ''));
    assert.ok(rows.length > 0, 'no headline row');
    // issue 28: handshake CPU per side first (lib/version/headlines.ts), never "SSL_CTX_new, one call"
    assert.match(rows[0]!, /^Handshake CPU time/, `the first headline row is ${rows[0]}`);
    const top = await headline.evaluate((el) => el.getBoundingClientRect().top + window.scrollY);
    assert.ok(top < 900, `the headline table starts at ${top}px, below the first screen`);
    // one link per benchmark the version has entries of, each to its page
    const links = await page.$$eval('table[data-benchmark-index] tbody th a', (as) => as.map((a) => a.getAttribute('href')!));
    const expected = versionBenchmarkPages(s)
      .filter((p) => p.page.slug === v.slug)
      .map((p) => benchmarkPagePath({ slug: v.slug, host: p.host, benchmark: p.benchmark }));
    assert.deepEqual([...new Set(links)].sort(), expected.sort());
    const target = links.find((l) => l.endsWith('/handshake')) ?? links[0]!;
    await page.goto(server.origin + target, { waitUntil: 'networkidle' });
    // the filter narrows the rows
    const controls = page.locator('[data-filter-for]').first();
    assert.equal(await controls.isVisible(), true, 'the filter is shown once its script runs');
    const firstRow = (await page.locator('[data-groups] tbody tr th').first().textContent())!.trim().split(/\s+/)[0]!;
    await controls.locator('input[name=q]').fill(firstRow);
    const shown = await page.locator('[data-groups] tbody tr:not([hidden])').count();
    const total = await page.locator('[data-groups] tbody tr').count();
    assert.ok(shown > 0 && shown <= total, `filter "${firstRow}" shows ${shown} of ${total}`);
    // rows are not walls of text: the tallest row of the tables stays well under 300 px on a desktop
    await controls.locator('input[name=q]').fill('');
    const tallest = await page.$$eval('[data-groups] tbody tr', (trs) => Math.max(...trs.map((r) => r.getBoundingClientRect().height)));
    assert.ok(tallest < 160, `the tallest row is ${tallest}px`);
  });

  test(`[${name}] the compare page takes its selection from the URL and shows the paired comparison`, async (t) => {
    if (skipWithoutEntries(t)) return;
    const s = needSummary();
    const b = s.entries.find((e) => e.vsPreviousSeries && e.variant === 'default' && !e.vsPreviousSeries.against.includes('+'));
    if (!b) assert.fail(`[${name}] no entry with a comparison against a previous series to check`);
    const a = s.entries.find((e) => e.key === b.key && e.host === b.host && e.version === b.vsPreviousSeries!.against && e.variant === 'default');
    if (!a) assert.fail(`[${name}] summary.json compares ${b.key} with ${b.vsPreviousSeries!.against}, which has no entry`);
    const id = (e: typeof a) => `${e.host}/${versionSlug(e.version, e.variant)}`;
    await page.goto(`${server.origin}/compare?a=${encodeURIComponent(id(a))}&b=${encodeURIComponent(id(b))}`, { waitUntil: 'networkidle' });
    await page.waitForSelector('[data-compare-root][data-drawn] tbody tr');
    assert.equal(await page.inputValue('select[name=a]'), id(a));
    assert.equal(await page.inputValue('select[name=b]'), id(b));
    const text = await page.locator(`[data-compare-root] tr[data-key="${b.key.replace(/"/g, '\\"')}"]`).innerText();
    if (a.stats) assert.match(text, new RegExp(`n=${a.stats.n}`));
    const verdict = VERDICT_TEXT[b.vsPreviousSeries!.verdict];
    assert.match(text, new RegExp(verdict));
  });

  test(`[${name}] raw downloads are the committed files, byte for byte`, async () => {
    needSummary();
    const res = await fetch(`${server.origin}/data/summary.json`);
    assert.equal(res.status, 200);
    assert.equal(await res.text(), readFileSync(summaryFile, 'utf8'));
  });

  walkingTest(`[${name}] every median in the version and write-up tables equals summary.json, and each table names the runs of its rows`, async (t) => {
    if (skipWithoutEntries(t)) return;
    const s = needSummary();
    const byId = new Map(s.entries.map((e) => [`${e.host}|${e.version}|${e.variant}|${keyId(e.key)}`, e]));
    await page.goto(`${server.origin}/writeups`, { waitUntil: 'networkidle' });
    const writeups = await page.$$eval('main a[href^="/writeups/"]', (as) => as.map((a) => a.getAttribute('href')!));
    const pages = [
      ...versionPages(s).map((p) => `/versions/${p.slug}`),
      ...versionBenchmarkPages(s).map((p) => benchmarkPagePath({ slug: p.page.slug, host: p.host, benchmark: p.benchmark })),
      ...writeups,
    ];
    let checked = 0;
    for (const p of [...new Set(pages)]) {
      await page.goto(server.origin + p, { waitUntil: 'networkidle' });
      for (const r of await entryRows(page)) {
        const id = `${r.host}|${r.version}|${r.variant}|${r.k}`;
        const e = byId.get(id);
        assert.ok(e, `${p}: row ${id} is not in summary.json`);
        assert.ok(r.tableRuns.includes(e.runId), `${p}: ${e.key} comes from run ${e.runId}, which its table does not name (${r.tableRuns.join(', ')})`);
        if (e.status === 'measured' && e.stats) {
          assert.equal(r.value, quantity(e.stats.median, e.unit, e.method), `${p}: ${e.key}`);
          checked++;
        } else assert.equal(r.value, null, `${p}: ${e.key} is ${e.status} but shows a value`);
      }
    }
    assert.ok(checked > 0, 'no median was found in any table');
    console.log(`[${name}] ${checked} table medians checked on ${new Set(pages).size} pages (${writeups.length} write-ups)`);
  });

  walkingTest(`[${name}] every page at 390 px: no sideways scrolling, and no table or chart holds timing values of two runs or rows of two hosts`, async () => {
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
  });

  walkingTest(`[${name}] version pages and their benchmark pages transfer at most 250 KB each, everything they load included`, async () => {
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

  test(`[${name}] the main navigation fits one line at 1280 px`, async () => {
    await page.setViewportSize(DESKTOP);
    await page.goto(`${server.origin}/methodology`, { waitUntil: 'networkidle' });
    const tops = await page.$$eval('header.site nav a', (as) => as.map((a) => Math.round(a.getBoundingClientRect().top)));
    assert.ok(tops.length >= 8, `only ${tops.length} links in the navigation`);
    assert.equal(new Set(tops).size, 1, `navigation wraps: link tops ${tops.join(', ')}`);
  });

  test(`[${name}] /runs and its yearly pages list every result file and label those that are not quiet`, async () => {
    const dir = dirname(summaryFile);
    await page.goto(`${server.origin}/runs`, { waitUntil: 'networkidle' });
    const runFiles = resultFiles(dir, 'runs').map((f) => f.value as { runId: string });
    const rowsOf = () =>
      page.$$eval('tr[data-run-file]', (trs) =>
        trs.map((tr) => ({ id: tr.getAttribute('data-run-file')!, quiet: tr.getAttribute('data-quiet') === 'true', text: (tr as HTMLElement).innerText })),
      );
    const recent = await rowsOf();
    const s = summary;
    for (const r of s?.runs ?? [])
      assert.ok(
        recent.some((x) => x.id === r.runId),
        `${r.runId} feeds the tables and is not on /runs`,
      );
    // every run file is on the page of its host and year, linked from /runs
    const archive = await page.$$eval('[data-run-archive] a', (as) => as.map((a) => (a as HTMLAnchorElement).href));
    const listed: Awaited<ReturnType<typeof rowsOf>> = [];
    for (const href of archive) {
      await page.goto(href, { waitUntil: 'networkidle' });
      listed.push(...(await rowsOf()));
    }
    assert.deepEqual(listed.map((r) => r.id).sort(), runFiles.map((r) => r.runId).sort());
    assert.ok(
      recent.every((r) => listed.some((x) => x.id === r.id && x.quiet === r.quiet)),
      'a run on /runs is on its yearly page, with the same status',
    );
    await page.goto(`${server.origin}/runs`, { waitUntil: 'networkidle' });
    for (const r of listed) {
      const expected = s?.runs.find((x) => x.runId === r.id);
      if (expected) assert.equal(r.quiet, expected.quiet, r.id);
      if (!r.quiet) assert.match(r.text, /not quiet: \S/, `${r.id} is not quiet and must say why`);
    }
    const others = [...resultFiles(dir, 'hypothesis'), ...resultFiles(dir, 'mtu')].map((f) => f.path.slice(dir.length + 1));
    const shown = await page.$$eval('tr[data-result-file]', (trs) => trs.map((tr) => tr.getAttribute('data-result-file')!));
    assert.deepEqual(shown.sort(), others.sort());
  });

  test(`[${name}] the methodology shows every CPU flag of each host, the glossary of verdicts and the build capability vectors`, async () => {
    await page.goto(`${server.origin}/methodology`, { waitUntil: 'networkidle' });
    const s = summary;
    if (!s || s.hosts.length === 0) {
      assert.match(await page.locator('main').innerText(), /Not measured yet|None recorded/);
      return;
    }
    const x86 = CPU_FLAGS.filter((f) => CPU_FLAG_TEXT[f].arch === 'x86_64');
    const rows = await page.$$eval('table[data-cpu-flags] tbody tr', (trs) => trs.map((tr) => tr.getAttribute('data-flag')!));
    if (s.hosts.some((h) => h.arch.includes('x86'))) for (const f of x86) assert.ok(rows.includes(f), `flag ${f} is not shown`);
    for (const h of s.hosts)
      for (const [f, v] of Object.entries(h.cpuFlags)) {
        const cell = await page.locator(`table[data-cpu-flags] tr[data-flag="${f}"] td[data-state]`).nth(s.hosts.indexOf(h)).getAttribute('data-state');
        assert.equal(cell, v ? 'present' : 'absent', `${h.id} ${f}`);
      }
    for (const v of Object.values(VERDICT_SHORT)) assert.match(await page.locator('[data-glossary]').innerText(), new RegExp(v));
    for (const b of s.builds.filter((x) => x.cpuCapabilities))
      assert.match(await page.locator('table[data-capabilities]').innerText(), new RegExp(b.cpuCapabilities!.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')));
  });

  test(`[${name}] each "download this view" CSV has a header and one line per row of its JSON`, async (t) => {
    if (skipWithoutEntries(t)) return;
    const v = versionPages(needSummary())[0];
    if (!v) assert.fail(`[${name}] summary.json has no version to download`);
    await page.goto(`${server.origin}/versions/${v.slug}`, { waitUntil: 'networkidle' });
    const links = await page.$$eval('.downloads a', (as) => as.map((a) => a.getAttribute('href')!));
    assert.ok(links.some((l) => l.endsWith('.csv')) && links.some((l) => l.endsWith('.json')), 'a version page offers CSV and JSON');
    for (const csv of links.filter((l) => l.endsWith('.csv'))) {
      const text = await (await fetch(server.origin + csv)).text();
      const json = (await (await fetch(server.origin + csv.replace(/\.csv$/, '.json'))).json()) as { rows: unknown[] };
      const lines = text.trimEnd().split('\r\n');
      assert.ok(lines[0]!.startsWith('host,version,variant,runId'), csv);
      assert.ok(json.rows.length > 0, `${csv}: no rows`);
      // quoted labels may hold no line breaks, so lines = rows + header
      assert.equal(lines.length, json.rows.length + 1, csv);
    }
  });

  test(`[${name}] the hypothesis page opens with the conclusion and the gap, shows each claim's verdict, or says nothing was measured`, async () => {
    const files = pickPublished(resultFiles(dirname(summaryFile), 'hypothesis').map((f) => ({ ...f, result: HypothesisResult.parse(f.value) })));
    await page.goto(`${server.origin}/hypothesis`, { waitUntil: 'networkidle' });
    const main = await page.locator('main').innerText();
    assert.doesNotMatch(main, /[-−]0\.0%/, 'no "-0.0%"');
    assert.ok((await page.locator('[data-glossary] dt').count()) >= 5, 'a glossary of the verdict words');
    if (files.length === 0) {
      assert.match(main, /Not measured yet/);
      return;
    }
    for (const { result } of files) {
      const section = page.locator(`[data-hypothesis-run="${result.runId}"]`);
      // the page generates the conclusion again from the result's numbers (the stored text may predate today's wording)
      assert.equal((await section.locator('[data-conclusion]').innerText()).trim(), conclusion(result));
      assert.doesNotMatch(conclusion(result), /unused/i, 'with library defaults on both sides the ML-KEM share is used');
      const y = async (sel: string) => (await section.locator(sel).first().boundingBox())!.y;
      assert.ok((await y('[data-conclusion]')) < (await y('[data-decomposition]')), 'the conclusion comes first');
      assert.ok((await y('[data-decomposition]')) < (await y('table.claims')), 'the gap comes before the verdict tables');
      for (const c of result.claims) {
        const shown = await section.locator(`tr[data-claim="${c.id}"][data-cert="${c.cert}"] [data-verdict]`).getAttribute('data-verdict');
        assert.equal(shown, c.verdict, `${result.runId} ${c.id} ${c.cert}`);
      }
      for (const cell of await section.locator('[data-decomposition] td[data-separable="false"]').allInnerTexts())
        assert.match(cell, /^(not separable at this precision|not measured)/, 'a part whose interval spans zero is never shown as a cost');
      assert.match(await section.locator('figure.forest').innerText(), /Change in CPU time per handshake/, 'the forest plot has an axis title');
      assert.match(await section.locator('[data-rounds]').innerText(), new RegExp(`^${result.progress.rounds} measured rounds in `));
    }
    // on a phone: no sideways scrolling, and the forest plot's no-difference line stays on screen
    await page.setViewportSize({ width: 390, height: 844 });
    await page.goto(`${server.origin}/hypothesis`, { waitUntil: 'networkidle' });
    const overflow = await page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth);
    assert.ok(overflow <= 1, `the hypothesis page is ${overflow}px wider than a phone screen`);
    for (const box of await page.locator('figure.forest li .zero').evaluateAll((els) => els.map((e) => e.getBoundingClientRect().toJSON() as DOMRect)))
      assert.ok(box.x >= 0 && box.x <= 390, `no-difference line at x=${box.x}`);
    await page.setViewportSize({ width: 1280, height: 900 });
  });

  test(`[${name}] the known-issues page shows every complaint with the status and values computed from summary.json`, async () => {
    const rows = knownIssueRows(summary);
    await page.goto(`${server.origin}/known-issues`, { waitUntil: 'networkidle' });
    assert.equal(await page.locator('[data-complaint]').count(), rows.length, 'one row per complaint');
    for (const row of rows) {
      const el = page.locator(`[data-complaint="${row.complaint.id}"]`);
      assert.equal(await el.getAttribute('data-status'), row.status.kind, `${row.complaint.id}: status`);
      for (const u of row.complaint.upstream) assert.equal(await el.locator(`a[href="${u.url}"]`).count(), 1, `${row.complaint.id}: link to ${u.ref}`);
      if (row.points.every((p) => p.value === null)) {
        assert.match(await el.innerText(), /Not measured yet/, `${row.complaint.id}: says it was not measured`);
        continue;
      }
      const bars = await el.locator('g[data-version]').evaluateAll((gs) => gs.map((g) => [g.getAttribute('data-version'), g.getAttribute('data-value')]));
      assert.deepEqual(
        bars,
        row.points.map((p) => [p.version, p.value === null ? null : String(p.value)]),
        `${row.complaint.id}: charted values`,
      );
    }
    if (!rows.some((r) => r.status.kind !== 'not-measured')) assert.match(await page.locator('main').innerText(), /Not measured yet/);
    if (name === 'fixture') {
      // the synthetic fixture is made to show every status (site/tests/fixtures/make-fixture.ts)
      const kinds = Object.fromEntries(rows.map((r) => [r.complaint.id, r.status.kind]));
      assert.deepEqual(
        [kinds['pkey-decode'], kinds['ca-bundle'], kinds['aead-tiny-records'], kinds['dtls-heap'], kinds['lock-contention']],
        ['recovered', 'still-slower', 'improved', 'still-slower', 'not-measured'],
      );
    }
  });

  test(`[${name}] the libraries page shows every other library's entry from summary.json, its comparison with OpenSSL, and why a cell is unsupported`, async () => {
    await page.goto(`${server.origin}/libraries`, { waitUntil: 'networkidle' });
    const text = await page.locator('main').innerText();
    assert.match(text, /LibreSSL/);
    assert.match(text, /rustls/);
    const views = librariesView(full);
    if (views.length === 0) {
      assert.match(text, /Not measured yet/, 'no library measured: the page says so');
      assert.equal(await page.locator('table.libraries').count(), 0);
      return;
    }
    let measured = 0;
    let unsupported = 0;
    for (const v of views) {
      // each machine on its own page (/libraries shows the default one and links to every other)
      await page.goto(`${server.origin}/libraries/${v.host}`, { waitUntil: 'networkidle' });
      for (const sec of v.sections)
        for (const r of sec.rows)
          for (const [i, e] of r.cells.entries()) {
            // a value of another run sits in that run's own table; the main table's cell only points there (data-status="apart")
            const cell = page.locator(
              `table.libraries[data-host="${v.host}"][data-section="${sec.id}"] tr[data-k="${keyId(r.key)}"] td[data-col="${v.columns[i]!.slug}"]:not([data-status="apart"])`,
            );
            assert.equal(await cell.count(), 1, `${sec.id} ${r.key} ${v.columns[i]!.slug}`);
            if (!e) {
              assert.equal(await cell.getAttribute('data-status'), 'none');
              continue;
            }
            if (e.status === 'measured' && e.stats) {
              assert.equal((await cell.locator('[data-value]').innerText()).trim(), quantity(e.stats.median, e.unit, e.method), `${e.key} ${e.library}`);
              if (e.vsOpenSSL)
                assert.match(
                  await cell.locator('[data-vs-openssl]').innerText(),
                  new RegExp(`vs ${e.vsOpenSSL.against.replace(/\./g, '\\.')}: ${VERDICT_SHORT[e.vsOpenSSL.verdict]}`),
                );
              measured++;
            } else {
              assert.equal(await cell.getAttribute('data-status'), e.status);
              if (e.reason) assert.ok((await cell.innerText()).includes(reasonText(e.reason)), `${e.key} ${e.library}: the reason is shown`);
              unsupported++;
            }
          }
      for (const c of v.columns)
        if (c.build)
          assert.ok(
            (await page.locator(`section[data-host="${v.host}"] .build-options li[data-col="${c.slug}"]`).innerText()).includes(
              c.build.configureArgs.join(' '),
            ),
            `${c.slug}: build options shown`,
          );
    }
    assert.ok(measured > 0, 'no library figure was checked');
    if (name === 'fixture') assert.ok(unsupported > 0, 'the fixture has an unsupported cell (BoringSSL, TLS 1.3 stateful resumption)');
  });

  test(`[${name}] the servers page shows each machine's servers figures as summary.json holds them, the builds a server could not use with their reasons, or says it was not measured`, async () => {
    await page.goto(`${server.origin}/servers`, { waitUntil: 'networkidle' });
    const machines = serversView(full);
    if (machines.length === 0) {
      assert.match(await page.locator('main').innerText(), /Not measured yet/);
      return;
    }
    let rows = 0;
    for (const m of machines) {
      const section = page.locator(`section[data-servers-host="${m.host}"]`);
      assert.equal(await section.count(), 1, `${m.host}: one section`);
      assert.match(
        await section.locator('[data-logical-cpus]').innerText(),
        m.logicalCpus === null
          ? /does not say/
          : new RegExp(`has ${m.logicalCpus} logical CPUs?: thread scaling beyond ${m.logicalCpus} threads? cannot be measured`),
      );
      const tables = section.locator('table[data-server-table]');
      if (m.tables.length === 0) {
        const text = await section.innerText();
        assert.match(text, /Not measured yet on this machine/, `${m.host}: says it was not measured`);
        assert.ok(text.includes(MEASURE_COMMAND), `${m.host}: gives the command`);
        assert.equal(await tables.count(), 0, `${m.host}: no empty table`);
        continue;
      }
      assert.equal(await tables.count(), m.tables.length, `${m.host}: one table per server, workload, shape and run`);
      // the tables in the page's order (servers, then workloads short, resumed, bulk, other), each row the data's
      const shown = await tables.evaluateAll((ts) => ts.map((t) => [t.getAttribute('data-server'), t.getAttribute('data-workload')]));
      assert.deepEqual(
        shown,
        m.tables.map((t) => [t.shape.server, t.shape.workload]),
      );
      for (const [i, t] of m.tables.entries()) {
        const trs = tables.nth(i).locator('tbody > tr');
        assert.equal(await trs.count(), t.rows.length);
        for (const [j, r] of t.rows.entries()) {
          const tr = trs.nth(j);
          assert.equal(await tr.getAttribute('data-version'), r.build.version);
          assert.equal(await tr.getAttribute('data-library'), r.build.library);
          const cpu = r.cpu?.status === 'measured' && r.cpu.stats ? String(r.cpu.stats.median) : null;
          assert.equal(
            (await tr.locator('td[data-cpu]').count()) ? await tr.locator('td[data-cpu]').getAttribute('data-cpu') : null,
            cpu,
            `${m.host} ${t.shape.server} ${t.shape.workload} ${r.name}: CPU`,
          );
          if (cpu !== null) {
            assert.equal((await tr.locator('td[data-cpu]').innerText()).trim(), quantity(r.cpu!.stats!.median, r.cpu!.unit, r.cpu!.method));
            const iv = r.cpu!.stats!.interval;
            if (iv)
              assert.ok(
                (await tr.locator('td[data-interval]').innerText()).includes(quantityRange(iv.low, iv.high, r.cpu!.unit, r.cpu!.method)),
                `${r.name}: interval`,
              );
          }
          const ins = r.instructions?.status === 'measured' && r.instructions.stats ? String(r.instructions.stats.median) : null;
          assert.equal(
            (await tr.locator('td[data-instructions]').count()) ? await tr.locator('td[data-instructions]').getAttribute('data-instructions') : null,
            ins,
            `${r.name}: instructions`,
          );
          assert.equal(await tr.locator('td[data-bound]').getAttribute('data-bound'), r.bound?.by ?? null, `${r.name}: what limited the rate`);
          rows++;
        }
      }
      for (const u of m.unusable) {
        const li = section.locator(`[data-unusable="${u.server}"] li[data-unusable-build="${u.build.library}-${u.build.version}-${u.build.variant}"]`);
        assert.equal(await li.count(), 1, `${m.host}: ${u.server} on ${u.name} is listed as unusable`);
        if (u.reason) assert.ok((await li.innerText()).includes(reasonText(u.reason)), `${u.server} on ${u.name}: the recorded reason`);
      }
      assert.equal(
        await section.locator('[data-upgrades] > li').count(),
        m.upgrades.length,
        `${m.host}: one upgrade sentence per server and workload with a 3.0 build and a newer one`,
      );
    }
    if (name === 'fixture') {
      const m = machines.find((x) => x.tables.length > 0);
      assert.ok(m && rows > 0, 'the fixture has servers tables');
      assert.deepEqual([...new Set(m.tables.filter((t) => t.shape.server === 'nginx').map((t) => t.shape.workload))], ['short', 'resumed', 'bulk']);
      assert.ok(
        m.unusable.some((u) => u.server === 'nginx' && u.build.library === 'aws-lc'),
        "nginx refused for AWS-LC, with the recipe's reason",
      );
      assert.ok(
        m.tables.some((t) => t.shape.server === 'haproxy' && t.rows.some((r) => r.build.library === 'aws-lc')),
        'HAProxy with AWS-LC',
      );
      assert.ok(m.upgrades.length > 0, 'an upgrade sentence');
    }
  });

  test(`[${name}] the MTU page charts the measured ClientHello sizes, and unsupported groups as words`, async () => {
    const files = resultFiles(dirname(summaryFile), 'mtu').map((f) => MtuResults.parse(f.value));
    await page.goto(`${server.origin}/mtu`, { waitUntil: 'networkidle' });
    if (files.length === 0) {
      assert.match(await page.locator('main').innerText(), /Not measured yet/);
      return;
    }
    for (const r of files) {
      const section = page.locator(`[data-mtu-host="${r.host.id}"]`);
      const charted = await section
        .locator('figure')
        .first()
        .locator('g[role=img]')
        .evaluateAll((gs) => gs.map((g) => g.getAttribute('data-value')));
      const versions = [...new Set(r.clientHellos.map((c) => c.version))];
      assert.equal(charted.length, versions.length);
      const expected = r.clientHellos.filter((c) => c.config.id === 'default').map((c) => helloBytes(c)?.bytes ?? null);
      assert.deepEqual([...charted.map((v) => (v === null ? null : Number(v)))].sort(), [...expected].sort());
      const unsupported = r.clientHellos.find((c) => c.status === 'unsupported');
      if (unsupported) {
        const row = section.locator(`tr[data-version="${unsupported.version}"][data-config="${unsupported.config.id}"]`).first();
        assert.match(await row.innerText(), /unsupported/);
      }
    }
  });

  test(`[${name}] on a 1280 px desktop the MTU table shows all its columns without scrolling`, async (t) => {
    if (resultFiles(dirname(summaryFile), 'mtu').length === 0) return t.skip('no MTU results in this data');
    await page.setViewportSize(DESKTOP);
    await page.goto(`${server.origin}/mtu`, { waitUntil: 'networkidle' });
    const box = await page.$eval('table[data-mtu-table="client-hellos"]', (t) => {
      const wrap = t.closest('.table-scroll')!;
      return { scroll: wrap.scrollWidth, client: wrap.clientWidth };
    });
    assert.ok(box.scroll <= box.client + 1, `the ClientHello table is ${box.scroll}px wide in a ${box.client}px box`);
  });

  walkingTest(`[${name}] axe finds no serious or critical violations, light and dark`, async () => {
    const paths = pagesFor('axe');
    if (summary) {
      const v = summary.entries[0];
      if (v) paths.push(`/versions/${versionSlug(v.version, v.variant)}`);
      const largest = versionPages(summary).sort(
        (a, b) =>
          summary!.entries.filter((e) => versionSlug(e.version, e.variant) === b.slug).length -
          summary!.entries.filter((e) => versionSlug(e.version, e.variant) === a.slug).length,
      )[0];
      if (largest)
        paths.push(
          `/versions/${largest.slug}`,
          ...versionBenchmarkPages(summary)
            .filter((p) => p.page.slug === largest.slug)
            .map((p) => benchmarkPagePath({ slug: largest.slug, host: p.host, benchmark: p.benchmark })),
        );
    }
    const found: string[] = [];
    for (const scheme of ['light', 'dark'] as const) {
      await page.emulateMedia({ colorScheme: scheme });
      for (const p of paths) {
        await page.goto(server.origin + p, { waitUntil: 'networkidle' });
        for (const v of await axe(page)) found.push(`${scheme} ${p}: ${v}`);
      }
    }
    await page.emulateMedia({ colorScheme: 'light' });
    assert.deepEqual(found, []);
  });

  test(`[${name}] screenshots at desktop and phone width`, async () => {
    const paths = pagesFor('screenshot');
    if (summary?.entries[0]) paths.push(`/versions/${versionSlug(summary.entries[0].version, summary.entries[0].variant)}`);
    const files = await screenshots(page, server.origin, paths, join(ARTIFACTS, name));
    assert.equal(files.length, paths.length * 2);
    await page.setViewportSize(DESKTOP);
  });

  test(`[${name}] the drift page draws the time series it was built from, or says what a drift chart needs`, async () => {
    const data = dirname(summaryFile);
    const files = resultFiles(data, 'timeseries').map((f) => Timeseries.parse(f.value));
    await page.goto(`${server.origin}/drift/`, { waitUntil: 'networkidle' });
    if (!files.length) {
      assert.match(await page.locator('main').innerText(), /no nightly history yet.*needs runs of the same host on several nights/s);
      return;
    }
    const { index, runs, values } = driftShards(files);
    const expected = (sel: DriftSelection) => {
      const s = shardsFor(index, sel);
      return driftView(
        runs.filter((r) => r.host === sel.host && s.runYears.includes(r.year)),
        values.filter((v) => v.host === sel.host && v.metric === sel.metric && v.build === sel.build && s.valueYears.includes(v.year)),
        s.build.name,
        s.since,
      );
    };
    const titles = () => page.$$eval('[data-chart] .pt title', (ts) => ts.map((t) => t.textContent ?? ''));
    const first = resolveSelection(index)!;
    const view = expected(first);
    const shown = await titles();
    assert.equal(shown.length, view.points.length);
    view.points.forEach((p, i) =>
      assert.ok(
        shown[i]!.includes(num(p.median)) && shown[i]!.includes(runWords(p.runId)),
        `${shown[i]} should show ${num(p.median)} of the ${runWords(p.runId)}`,
      ),
    );
    assert.equal(await page.locator('[data-chart] g.change').count(), view.markers.length);
    // another build, all of its history: drawn from the shards the page fetches
    const host = index.hosts.find((h) => h.id === first.host)!;
    const m = index.metrics.findIndex((x) => x.id === first.metric);
    const other = host.series
      .find(([i]) => i === m)![1]
      .map(([b]) => host.builds[b]!.slug)
      .find((b) => b !== first.build);
    if (!other) return;
    await page.selectOption('select[name=range]', 'all');
    await page.selectOption('select[name=build]', other);
    await page.waitForFunction(
      (b) => document.querySelector('[data-status]')?.textContent?.includes(`OpenSSL ${b} `),
      host.builds.find((b) => b.slug === other)!.name,
    );
    const next = expected({ ...first, build: other, range: 'all' });
    const after = await titles();
    assert.equal(after.length, next.points.length);
    next.points.forEach((p, i) => assert.ok(after[i]!.includes(num(p.median)), `${after[i]} should show ${num(p.median)}`));
    assert.match(page.url(), new RegExp(`build=${other}`));
  });

  test(`[${name}] home page transfers under 200 KB including its data`, async () => {
    const { total, parts } = await transferSize(page, `${server.origin}/`);
    console.log(`[${name}] home page transfer: ${total} bytes (${(total / 1024).toFixed(1)} KiB) in ${parts.length} responses`);
    assert.ok(total < HOME_BUDGET, `home page transfers ${total} bytes: ${parts.map(([u, n]) => `${u} ${n}`).join(', ')}`);
  });

  test(`[${name}] the libraries pages transfer under 400 KB each and open with their figures at a glance`, async () => {
    const views = librariesView(full);
    for (const path of ['/libraries', ...views.map((v) => `/libraries/${v.host}`)]) {
      const { total, parts } = await transferSize(page, `${server.origin}${path}`);
      console.log(`[${name}] ${path} transfer: ${total} bytes (${(total / 1024).toFixed(1)} KiB) in ${parts.length} responses`);
      assert.ok(total < LIBRARIES_BUDGET, `${path} transfers ${total} bytes: ${parts.map(([u, n]) => `${u} ${n}`).join(', ')}`);
    }
    for (const v of views) {
      await page.goto(`${server.origin}/libraries/${v.host}`, { waitUntil: 'networkidle' });
      for (const g of v.glance) {
        const bars = page.locator(`section[data-host="${v.host}"] [data-glance="${g.id}"] svg g.pt`);
        assert.equal(await bars.count(), g.bars.length, `${g.id}: one bar row per build`);
        for (const [i, b] of g.bars.entries()) {
          const label = await bars.nth(i).getAttribute('aria-label');
          assert.ok(label?.includes(b.value === null ? (b.missing ?? 'not measured') : num(b.value)), `${g.id} ${b.column.slug}: ${label}`);
        }
      }
    }
  });
}
