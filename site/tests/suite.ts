// The browser test suite, run against one built site and the summary.json it was built from.
import { after, before, test as nodeTest, type TestContext } from 'node:test';
import assert from 'node:assert/strict';
import { readdirSync, readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import type { Browser, Page } from 'playwright-core';
import { HypothesisResult, MtuResults, Timeseries, type Summary } from '../../schema/index.ts';
import { driftShards, driftView, resolveSelection, shardsFor, type DriftSelection } from '../src/lib/drift.ts';
import { pickPublished } from '../src/lib/hypothesis.ts';
import { helloBytes } from '../src/lib/mtu.ts';
import { versionSlug } from '../src/lib/model.ts';
import { VERDICT_TEXT, num } from '../src/lib/format.ts';
import { serve, type StaticServer } from './server.ts';
import { ARTIFACTS, axe, crawl, resultFiles, expectedEntries, expectedMedians, launch, plotted, readSummary, screenshots, selection, transferSize } from './browser.ts';

export interface SuiteOptions {
  name: string;
  dist: string;
  summaryFile: string;
  /** the write-ups the site was built with */
  writeupsDir: string;
}

const HOME_BUDGET = 200 * 1024;
/** Every browser test gets a deadline: a hung page must fail the run, not stall CI. */
const test = (name: string, fn: (t: TestContext) => Promise<void>) => nodeTest(name, { timeout: 180_000 }, fn);

export function siteSuite({ name, dist, summaryFile, writeupsDir }: SuiteOptions): void {
  let server: StaticServer;
  let browser: Browser;
  let page: Page;
  let summary: Summary | null = null;
  let summaryError = '';

  before(async () => {
    server = await serve(dist);
    browser = await launch();
    page = await browser.newPage();
    page.setDefaultTimeout(30_000);
    try {
      summary = readSummary(summaryFile);
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

  test(`[${name}] every page loads without console errors, failed requests or broken internal links`, async () => {
    const { pages, problems } = await crawl(page, server.origin);
    assert.deepEqual(problems, []);
    for (const must of ['/', '/versions', '/compare', '/writeups', '/hypothesis', '/mtu', '/methodology', '/runs'])
      assert.ok(pages.some((p) => p.url.replace(/\/$/, '') === must.replace(/\/$/, '') || (must === '/' && p.url === '/')), `${must} not reachable from home`);
    console.log(`[${name}] crawled ${pages.length} pages`);
  });

  test(`[${name}] where nothing was measured the home page says so in words, never with a number`, async () => {
    await page.goto(`${server.origin}/`, { waitUntil: 'networkidle' });
    if (!summary) {
      assert.match(await page.locator('main').innerText(), /Not measured yet/);
      return;
    }
    await plotted(page);
    const rows = await page.$$eval('[data-journey-root] tbody tr', (trs) =>
      trs.map((tr) => ({ version: tr.getAttribute('data-version')!, measured: !!tr.querySelector('td[data-median]'), text: (tr as HTMLElement).innerText })),
    );
    const points = new Set((await plotted(page)).map((p) => p.version));
    for (const r of rows) {
      if (r.measured) assert.ok(points.has(r.version), `${r.version} is in the table but not on the chart`);
      else {
        assert.match(r.text, /not measured|unsupported|failed/, `${r.version}: ${r.text}`);
        assert.ok(!points.has(r.version), `${r.version} is plotted although not measured`);
      }
    }
  });

  test(`[${name}] home chart values equal summary.json`, async () => {
    const s = needSummary();
    await page.goto(`${server.origin}/`, { waitUntil: 'networkidle' });
    const points = await plotted(page);
    const sel = await selection(page);
    const expected = expectedMedians(s, sel);
    assert.ok(points.length > 0, 'no point plotted');
    assert.deepEqual(new Map(points.map((p) => [p.version, p.median])), expected);
    const tableMedians = await page.$$eval('[data-journey-root] tbody td[data-median]', (tds) =>
      tds.map((td) => [td.closest('tr')!.getAttribute('data-version')!, Number(td.getAttribute('data-median'))] as [string, number]),
    );
    assert.deepEqual(new Map(tableMedians), expected, 'the table alternative shows the same values');
  });

  test(`[${name}] the defaults / pinned X25519 toggle changes the plotted series`, async () => {
    const s = needSummary();
    await page.goto(`${server.origin}/`, { waitUntil: 'networkidle' });
    const before = await plotted(page);
    const defaults = page.getByRole('button', { name: 'Library defaults' });
    const pinned = page.getByRole('button', { name: 'Pinned X25519' });
    if ((await pinned.isDisabled()) || (await defaults.isDisabled()))
      assert.fail(`[${name}] the home chart's configuration lacks library defaults or pinned X25519: summary.json has no handshake configuration measured both ways`);
    assert.equal((await selection(page)).groups, 'default');
    await pinned.click();
    await page.waitForFunction(() => (document.querySelector('[data-journey-root]') as HTMLElement).dataset.groups === 'X25519');
    const afterToggle = await plotted(page);
    const sel = await selection(page);
    assert.equal(sel.groups, 'X25519');
    assert.equal(await pinned.getAttribute('aria-pressed'), 'true');
    // another series is drawn (its values may coincide where the default is X25519 anyway, e.g. before 3.5)
    assert.ok(afterToggle.every((p) => !before.some((b) => b.key === p.key)), 'toggling did not change the plotted series');
    const expected = expectedEntries(s, sel);
    assert.deepEqual(new Map(afterToggle.map((p) => [p.version, p.key])), new Map([...expected].map(([v, e]) => [v, e.key])));
    assert.deepEqual(new Map(afterToggle.map((p) => [p.version, p.median])), expectedMedians(s, sel));
    assert.match(page.url(), /groups=X25519/, 'the selection is in the URL for sharing');
  });

  test(`[${name}] choosing another metric plots that metric's values`, async (t) => {
    const s = needSummary();
    await page.goto(`${server.origin}/`, { waitUntil: 'networkidle' });
    await plotted(page);
    const first = await selection(page);
    const other = await page.$$eval('select[name=metric] option', (os, cur) => os.map((o) => (o as HTMLOptionElement).value).find((v) => v !== cur), first.metric);
    if (!other) {
      t.skip('this data has one metric on the home chart (the fixture suite checks switching)');
      return;
    }
    await page.selectOption('select[name=metric]', other);
    await page.waitForFunction((m) => (document.querySelector('[data-journey-root]') as HTMLElement).dataset.metric === m, other);
    const sel = await selection(page);
    const points = await plotted(page);
    assert.deepEqual(new Map(points.map((p) => [p.version, p.median])), expectedMedians(s, sel));
  });

  test(`[${name}] chart points are reachable by keyboard and named`, async () => {
    needSummary();
    await page.goto(`${server.origin}/`, { waitUntil: 'networkidle' });
    await plotted(page);
    const label = await page.$eval('circle.point', (c) => c.getAttribute('aria-label'));
    assert.match(label ?? '', /median .+ n=\d+/);
    await page.focus('circle.point');
    assert.equal(await page.evaluate(() => document.activeElement?.getAttribute('class')), 'point');
  });

  test(`[${name}] a per-version table marks a non-significant difference`, async (t) => {
    const s = needSummary();
    const e = s.entries.find((x) => x.vsPreviousSeries?.verdict === 'no-difference-shown' || x.vsBaseline?.verdict === 'no-difference-shown');
    if (!e) {
      t.skip('this data has no comparison whose interval includes no change (the fixture suite checks the marking)');
      return;
    }
    await page.goto(`${server.origin}/versions/${versionSlug(e.version, e.variant)}`, { waitUntil: 'networkidle' });
    const row = page.locator(`tr[data-key="${e.key.replace(/"/g, '\\"')}"][data-host="${e.host}"]`);
    const cell = row.locator('td[data-verdict="no-difference-shown"]').first();
    assert.match(await cell.innerText(), /no difference shown/);
  });

  test(`[${name}] the compare page takes its selection from the URL and shows the paired comparison`, async () => {
    const s = needSummary();
    const b = s.entries.find((e) => e.vsPreviousSeries && e.variant === 'default' && !e.vsPreviousSeries.against.includes('+'));
    if (!b) assert.fail(`[${name}] no entry with a comparison against a previous series to check`);
    const a = s.entries.find((e) => e.key === b.key && e.host === b.host && e.version === b.vsPreviousSeries!.against && e.variant === 'default');
    if (!a) assert.fail(`[${name}] summary.json compares ${b.key} with ${b.vsPreviousSeries!.against}, which has no entry`);
    const id = (e: typeof a) => `${e.host}/${versionSlug(e.version, e.variant)}`;
    await page.goto(`${server.origin}/compare?a=${encodeURIComponent(id(a))}&b=${encodeURIComponent(id(b))}`, { waitUntil: 'networkidle' });
    await page.waitForSelector('[data-compare-root] tbody tr');
    assert.equal(await page.inputValue('select[name=a]'), id(a));
    assert.equal(await page.inputValue('select[name=b]'), id(b));
    const text = await page.locator(`[data-compare-root] tr[data-key="${b.key.replace(/"/g, '\\"')}"]`).innerText();
    if (a.stats) assert.match(text, new RegExp(`n=${a.stats.n}`));
    const verdict = VERDICT_TEXT[b.vsPreviousSeries!.verdict];
    assert.match(text, new RegExp(`${verdict} \\(paired, same run\\)`));
  });

  test(`[${name}] raw downloads are the committed files, byte for byte`, async () => {
    needSummary();
    const res = await fetch(`${server.origin}/data/summary.json`);
    assert.equal(res.status, 200);
    assert.equal(await res.text(), readFileSync(summaryFile, 'utf8'));
  });

  test(`[${name}] every median in the version and write-up tables equals summary.json`, async () => {
    const s = needSummary();
    const byId = new Map(s.entries.map((e) => [`${e.host}|${e.version}|${e.variant}|${e.key}`, e]));
    await page.goto(`${server.origin}/writeups`, { waitUntil: 'networkidle' });
    const writeups = await page.$$eval('main a[href^="/writeups/"]', (as) => as.map((a) => a.getAttribute('href')!));
    const pages = [...s.entries.map((e) => `/versions/${versionSlug(e.version, e.variant)}`), ...writeups];
    let checked = 0;
    for (const p of [...new Set(pages)]) {
      await page.goto(server.origin + p, { waitUntil: 'networkidle' });
      const cells = await page.$$eval('tr[data-key] td[data-median]', (tds) =>
        tds.map((td) => {
          const tr = td.closest('tr')!;
          return { id: [tr.dataset.host, tr.dataset.version, tr.dataset.variant, tr.dataset.key].join('|'), median: Number(td.getAttribute('data-median')), text: td.textContent!.trim() };
        }),
      );
      for (const c of cells) {
        const e = byId.get(c.id);
        assert.ok(e, `${p}: row ${c.id} is not in summary.json`);
        assert.equal(c.median, e.stats?.median, `${p}: ${c.id}`);
        assert.notEqual(c.text, '', `${p}: ${c.id} shows no number`);
        checked++;
      }
    }
    assert.ok(checked > 0, 'no median was found in any table');
    console.log(`[${name}] ${checked} table medians checked on ${new Set(pages).size} pages (${writeups.length} write-ups)`);
  });

  test(`[${name}] the hypothesis page shows each verdict of the published results, or says nothing was measured`, async () => {
    const files = pickPublished(resultFiles(dirname(summaryFile), 'hypothesis').map((f) => ({ ...f, result: HypothesisResult.parse(f.value) })));
    await page.goto(`${server.origin}/hypothesis`, { waitUntil: 'networkidle' });
    if (files.length === 0) {
      assert.match(await page.locator('main').innerText(), /Not measured yet/);
      return;
    }
    for (const { result } of files) {
      const section = page.locator(`[data-hypothesis-run="${result.runId}"]`);
      for (const h of result.hypotheses) {
        const shown = await section.locator(`tr[data-hypothesis="${h.id}"][data-cert="${h.cert}"] [data-verdict]`).getAttribute('data-verdict');
        assert.equal(shown, h.verdict, `${result.runId} ${h.id} ${h.cert}`);
      }
    }
  });

  test(`[${name}] a reproduction page quotes the study's claims as the study's, apart from our numbers`, async (t) => {
    const dir = writeupsDir;
    const repros = readdirSync(dir).filter((f) => f.endsWith('.md') && /^reproduces:/m.test(readFileSync(join(dir, f), 'utf8')));
    if (repros.length === 0) return t.skip(`no reproduction among the write-ups in ${dir}`);
    for (const file of repros) {
      const claims = (/^reproduces:[\s\S]*?^\s+claims:\n((?:\s+- [\s\S]*?)(?=^\s+cannotReproduce:))/m.exec(readFileSync(join(dir, file), 'utf8'))?.[1] ?? '').match(/^\s+- claim:/gm)?.length ?? 0;
      await page.goto(`${server.origin}/writeups/${file.replace(/\.md$/, '')}`, { waitUntil: 'networkidle' });
      const shown = await page.locator('[data-reproduction-claims] li').count();
      assert.equal(shown, claims, `${file}: claims listed`);
      assert.match(await page.locator('main').innerText(), /they are not our results/);
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
      const charted = await section.locator('figure').first().locator('g[role=img]').evaluateAll((gs) => gs.map((g) => g.getAttribute('data-value')));
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

  test(`[${name}] axe finds no serious or critical violations, light and dark`, async () => {
    const paths = ['/', '/versions', '/compare', '/writeups', '/hypothesis', '/mtu', '/methodology', '/runs', '/contributing'];
    if (summary) {
      const v = summary.entries[0];
      if (v) paths.push(`/versions/${versionSlug(v.version, v.variant)}`);
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
    const paths = ['/', '/versions', '/compare', '/methodology', '/runs', '/hypothesis', '/mtu'];
    if (summary?.entries[0]) paths.push(`/versions/${versionSlug(summary.entries[0].version, summary.entries[0].variant)}`);
    const files = await screenshots(page, server.origin, paths, join(ARTIFACTS, name));
    assert.equal(files.length, paths.length * 2);
    // nothing may overflow a phone's width sideways except inside the scrollable table regions
    await page.setViewportSize({ width: 390, height: 844 });
    await page.goto(`${server.origin}/`, { waitUntil: 'networkidle' });
    const overflow = await page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth);
    assert.ok(overflow <= 1, `home page is ${overflow}px wider than a phone screen`);
    await page.setViewportSize({ width: 1280, height: 900 });
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
      return driftView(runs.filter((r) => r.host === sel.host && s.runYears.includes(r.year)), values.filter((v) => v.host === sel.host && v.metric === sel.metric && v.build === sel.build && s.valueYears.includes(v.year)), s.build.name, s.since);
    };
    const titles = () => page.$$eval('[data-chart] .pt title', (ts) => ts.map((t) => t.textContent ?? ''));
    const first = resolveSelection(index)!;
    const view = expected(first);
    const shown = await titles();
    assert.equal(shown.length, view.points.length);
    view.points.forEach((p, i) => assert.ok(shown[i]!.includes(num(p.median)) && shown[i]!.includes(p.runId), `${shown[i]} should show ${num(p.median)} of ${p.runId}`));
    assert.equal(await page.locator('[data-chart] g.change').count(), view.markers.length);
    // another build, all of its history: drawn from the shards the page fetches
    const host = index.hosts.find((h) => h.id === first.host)!;
    const m = index.metrics.findIndex((x) => x.id === first.metric);
    const other = host.series.find(([i]) => i === m)![1].map(([b]) => host.builds[b]!.slug).find((b) => b !== first.build);
    if (!other) return;
    await page.selectOption('select[name=range]', 'all');
    await page.selectOption('select[name=build]', other);
    await page.waitForFunction((b) => document.querySelector('[data-status]')?.textContent?.includes(`OpenSSL ${b} `), host.builds.find((b) => b.slug === other)!.name);
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
}
