// What the home and libraries pages transfer, within their budgets, and the libraries pages' figures at a glance.
import assert from 'node:assert/strict';
import { num } from '../../src/lib/format.ts';
import { librariesView } from '../../src/lib/libraries/view.ts';
import { transferSize } from '../browser.ts';
import type { Suite } from './site-under-test.ts';

const HOME_BUDGET = 200 * 1024;
/** the libraries page: every measure of up to seven builds in one static page, no script data */
const LIBRARIES_BUDGET = 400 * 1024;

export function transferBudgetTests({ name, test }: Suite): void {
  test(`[${name}] home page transfers under 200 KB including its data`, async ({ page, server }) => {
    const { total, parts } = await transferSize(page, `${server.origin}/`);
    console.log(`[${name}] home page transfer: ${total} bytes (${(total / 1024).toFixed(1)} KiB) in ${parts.length} responses`);
    assert.ok(total < HOME_BUDGET, `home page transfers ${total} bytes: ${parts.map(([u, n]) => `${u} ${n}`).join(', ')}`);
  });

  test(`[${name}] the libraries pages transfer under 400 KB each and open with their figures at a glance`, async ({ page, server, full }) => {
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
