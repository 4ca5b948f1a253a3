// The MTU page: the charted ClientHello sizes and its table on a desktop.
import assert from 'node:assert/strict';
import { dirname } from 'node:path';
import { MtuResults } from '../../../schema/index.ts';
import { helloBytes } from '../../src/lib/mtu.ts';
import { resultFiles } from '../browser.ts';
import { DESKTOP, type Suite } from './site-under-test.ts';

export function mtuTests({ name, summaryFile, test }: Suite): void {
  test(`[${name}] the MTU page charts the measured ClientHello sizes, and unsupported groups as words`, async ({ page, server }) => {
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

  test(`[${name}] on a 1280 px desktop the MTU table shows all its columns without scrolling`, async ({ page, server }, t) => {
    if (resultFiles(dirname(summaryFile), 'mtu').length === 0) return t.skip('no MTU results in this data');
    await page.setViewportSize(DESKTOP);
    await page.goto(`${server.origin}/mtu`, { waitUntil: 'networkidle' });
    const box = await page.$eval('table[data-mtu-table="client-hellos"]', (t) => {
      const wrap = t.closest('.table-scroll')!;
      return { scroll: wrap.scrollWidth, client: wrap.clientWidth };
    });
    assert.ok(box.scroll <= box.client + 1, `the ClientHello table is ${box.scroll}px wide in a ${box.client}px box`);
  });
}
