// Every page reachable from home, and the home page's chart: what it plots, its toggles, its measures and its keyboard access.
import assert from 'node:assert/strict';
import { pagesFor } from '../../src/lib/pages.ts';
import { crawl, expectedEntries, expectedMedians, plotted, selection } from '../browser.ts';
import type { Suite } from './site-under-test.ts';

export function homeTests({ name, needSummary, skipWithoutEntries, test, walkingTest }: Suite): void {
  walkingTest(`[${name}] every page loads without console errors, failed requests or broken internal links`, async ({ page, server }) => {
    const { pages, problems } = await crawl(page, server.origin);
    assert.deepEqual(problems, []);
    for (const must of pagesFor('reachable'))
      assert.ok(
        pages.some((p) => p.url.replace(/\/$/, '') === must.replace(/\/$/, '') || (must === '/' && p.url === '/')),
        `${must} not reachable from home`,
      );
    console.log(`[${name}] crawled ${pages.length} pages`);
  });

  test(`[${name}] where nothing was measured the home page says so in words, never with a number`, async ({ page, server, summary }) => {
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

  test(`[${name}] home chart values equal summary.json, for each line drawn`, async ({ page, server }, t) => {
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

  test(`[${name}] the line toggles show one group mode or both`, async ({ page, server }, t) => {
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

  test(`[${name}] choosing another measure plots its values`, async ({ page, server }, t) => {
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

  test(`[${name}] chart points are reachable by keyboard and named`, async ({ page, server }, t) => {
    if (skipWithoutEntries(t)) return;
    needSummary();
    await page.goto(`${server.origin}/`, { waitUntil: 'networkidle' });
    await plotted(page);
    const label = await page.$eval('[data-journey-root] svg circle.point', (c) => c.querySelector('title')?.textContent ?? null);
    assert.match(label ?? '', /median .+ n=\d+/);
    await page.focus('circle.point');
    assert.equal(await page.evaluate(() => document.activeElement?.getAttribute('class')), 'point');
  });
}
