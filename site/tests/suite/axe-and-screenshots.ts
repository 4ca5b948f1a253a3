// Accessibility (axe, light and dark) and screenshots at desktop and phone width.
import assert from 'node:assert/strict';
import { join } from 'node:path';
import { benchmarkPagePath, versionBenchmarkPages, versionPages, versionSlug } from '../../src/lib/model.ts';
import { pagesFor } from '../../src/lib/pages.ts';
import { ARTIFACTS, axe, screenshots } from '../browser.ts';
import { DESKTOP, type Suite } from './site-under-test.ts';

export function axeAndScreenshotTests({ name, test, walkingTest }: Suite): void {
  walkingTest(`[${name}] axe finds no serious or critical violations, light and dark`, async ({ page, server, summary }) => {
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

  test(`[${name}] screenshots at desktop and phone width`, async ({ page, server, summary }) => {
    const paths = pagesFor('screenshot');
    if (summary?.entries[0]) paths.push(`/versions/${versionSlug(summary.entries[0].version, summary.entries[0].variant)}`);
    const files = await screenshots(page, server.origin, paths, join(ARTIFACTS, name));
    assert.equal(files.length, paths.length * 2);
    await page.setViewportSize(DESKTOP);
  });
}
