// The hypothesis page (conclusion, gap, claims' verdicts) and the known-issues page (each complaint's status and values).
import assert from 'node:assert/strict';
import { dirname } from 'node:path';
import { HypothesisResult } from '../../../schema/index.ts';
import { pickPublished } from '../../src/lib/hypothesis.ts';
import { conclusion } from '../../../experiments/hypothesis/analysis.ts';
import { knownIssueRows } from '../../src/lib/known-issues.ts';
import { resultFiles } from '../browser.ts';
import type { Suite } from './site-under-test.ts';

export function hypothesisAndKnownIssuesTests({ name, summaryFile, test }: Suite): void {
  test(`[${name}] the hypothesis page opens with the conclusion and the gap, shows each claim's verdict, or says nothing was measured`, async ({
    page,
    server,
  }) => {
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

  test(`[${name}] the known-issues page shows every complaint with the status and values computed from summary.json`, async ({ page, server, summary }) => {
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
      // the synthetic fixture is made to show every status (site/tests/fixtures/synthetic/openssl-runs.ts)
      const kinds = Object.fromEntries(rows.map((r) => [r.complaint.id, r.status.kind]));
      assert.deepEqual(
        [kinds['pkey-decode'], kinds['ca-bundle'], kinds['aead-tiny-records'], kinds['dtls-heap'], kinds['lock-contention']],
        ['recovered', 'still-slower', 'improved', 'still-slower', 'not-measured'],
      );
    }
  });
}
