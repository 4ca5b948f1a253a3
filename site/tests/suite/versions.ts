// The version, benchmark and compare pages and the raw downloads, against summary.json: verdict marks, headline figures, filters, every median.
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { benchmarkPagePath, versionBenchmarkPages, versionPages, versionSlug } from '../../src/lib/model.ts';
import { keyId } from '../../src/lib/version/key-id.ts';
import { writeupOnly } from '../../src/lib/version/groups.ts';
import { quantity, VERDICT_SHORT, VERDICT_TEXT } from '../../src/lib/format.ts';
import { entryRows } from '../browser.ts';
import { DESKTOP, type Suite } from './site-under-test.ts';

export function versionTests({ name, summaryFile, needSummary, skipWithoutEntries, test, walkingTest }: Suite): void {
  test(`[${name}] a per-version table marks a non-significant difference`, async ({ page, server }, t) => {
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

  test(`[${name}] a version page opens with its headline figures in the order of a visitor's questions, and links a page per benchmark whose filter narrows the rows`, async ({
    page,
    server,
  }, t) => {
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

  test(`[${name}] the compare page takes its selection from the URL and shows the paired comparison`, async ({ page, server }, t) => {
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

  test(`[${name}] raw downloads are the committed files, byte for byte`, async ({ server }) => {
    needSummary();
    const res = await fetch(`${server.origin}/data/summary.json`);
    assert.equal(res.status, 200);
    assert.equal(await res.text(), readFileSync(summaryFile, 'utf8'));
  });

  walkingTest(
    `[${name}] every median in the version and write-up tables equals summary.json, and each table names the runs of its rows`,
    async ({ page, server }, t) => {
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
    },
  );
}
