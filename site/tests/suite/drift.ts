// The drift page: the time series it was built from, and another build's whole history.
import assert from 'node:assert/strict';
import { dirname } from 'node:path';
import { Timeseries } from '../../../schema/index.ts';
import { resolveSelection, shardsFor, type DriftSelection } from '../../src/lib/drift/selection.ts';
import { driftShards } from '../../src/lib/drift/shards.ts';
import { driftView } from '../../src/lib/drift/view.ts';
import { num, runWords } from '../../src/lib/format.ts';
import { resultFiles } from '../browser.ts';
import type { Suite } from './site-under-test.ts';

export function driftTests({ name, summaryFile, test }: Suite): void {
  test(`[${name}] the drift page draws the time series it was built from, or says what a drift chart needs`, async ({ page, server }) => {
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
}
