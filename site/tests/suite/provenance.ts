// Where the figures come from: the run files on /runs and its yearly pages, the methodology's hosts and builds, the CSV and JSON downloads of a view.
import assert from 'node:assert/strict';
import { dirname } from 'node:path';
import { versionPages } from '../../src/lib/model.ts';
import { VERDICT_SHORT } from '../../src/lib/format.ts';
import { CPU_FLAG_TEXT, CPU_FLAGS } from '../../src/lib/cpu-flags.ts';
import { resultFiles } from '../browser.ts';
import type { Suite } from './site-under-test.ts';

export function provenanceTests({ name, summaryFile, needSummary, skipWithoutEntries, test }: Suite): void {
  test(`[${name}] /runs and its yearly pages list every result file and label those that are not quiet`, async ({ page, server, summary }) => {
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

  test(`[${name}] the methodology shows every CPU flag of each host, the glossary of verdicts and the build capability vectors`, async ({
    page,
    server,
    summary,
  }) => {
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

  test(`[${name}] each "download this view" CSV has a header and one line per row of its JSON`, async ({ page, server }, t) => {
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
}
