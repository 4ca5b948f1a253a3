// Browser checks of the write-up pages, against the real site (site/dist, built from data/) and against the
// fixture build (synthetic data, site/tests/fixtures/writeups): each page shows every claim of its
// frontmatter with the verdict site/src/lib/claims/ computes from the data the site was built with, the
// study's quotations as the study's, and for every series its charts (one per run, each bar equal to
// summary.json) or a "not measured yet" notice; no page is wider than a phone.
import { after, before, test as nodeTest, type TestContext } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import type { Browser, Page } from 'playwright-core';
import { parseFrontmatter } from '@astrojs/markdown-remark';
import { DetailedIterations, Summary, readRunFile } from '../../schema/index.ts';
import { VERDICT_LABEL, type Verdict } from '../src/lib/claims/verdicts.ts';
import { evaluateClaims, tally } from '../src/lib/claims/evaluate.ts';
import { WriteupFrontmatter, namesOtherLibraries, seriesCharts } from '../src/lib/writeups.ts';
import { ARTIFACTS, REPO, axe, launch } from './browser.ts';
import { serve, type StaticServer } from './server.ts';

const test = (name: string, fn: (t: TestContext) => Promise<void>) => nodeTest(name, { timeout: 240_000 }, fn);

interface Target {
  name: string;
  dist: string;
  data: string;
  writeups: string;
}

const real: Target = { name: 'site', dist: join(REPO, 'site/dist'), data: join(REPO, 'data'), writeups: join(REPO, 'site/src/content/writeups') };
const fixture: Target = {
  name: 'fixture',
  dist: join(ARTIFACTS, 'fixture-dist'),
  data: join(REPO, 'site/tests/fixtures/data'),
  writeups: join(REPO, 'site/tests/fixtures/writeups'),
};

/** Newest modification time of any file under a directory. */
function newest(dir: string): number {
  let t = 0;
  for (const name of readdirSync(dir)) {
    const p = join(dir, name);
    const s = statSync(p);
    t = Math.max(t, s.isDirectory() ? newest(p) : s.mtimeMs);
  }
  return t;
}

/** fixture.test.ts builds the fixture site first in `npm run test:site`; run alone, this file builds it when absent or stale. */
function ensureFixtureBuild(): void {
  const index = join(fixture.dist, 'writeups/index.html');
  const inputs = Math.max(newest(join(REPO, 'site/src')), newest(join(REPO, 'site/tests/fixtures')));
  if (existsSync(index) && statSync(index).mtimeMs > inputs) return;
  const r = spawnSync(join(REPO, 'node_modules/.bin/astro'), ['build', '--root', 'site', '--silent'], {
    cwd: REPO,
    env: {
      ...process.env,
      OBSERVATORY_DATA_DIR: fixture.data,
      OBSERVATORY_OUT_DIR: fixture.dist,
      OBSERVATORY_WRITEUPS_DIR: fixture.writeups,
      ASTRO_TELEMETRY_DISABLED: '1',
    },
    encoding: 'utf8',
    timeout: 300_000,
  });
  if (r.status !== 0) throw new Error(`fixture site build failed:\n${r.stdout}\n${r.stderr}`);
}

function load(t: Target) {
  const summaryFile = join(t.data, 'summary.json');
  const detailedFile = join(t.data, 'detailed-iterations.json');
  const summary = existsSync(summaryFile) ? Summary.parse(JSON.parse(readFileSync(summaryFile, 'utf8'))) : null;
  const detailed = existsSync(detailedFile) ? DetailedIterations.parse(JSON.parse(readFileSync(detailedFile, 'utf8'))) : null;
  const runs = summary ? summary.runs.map(({ path }) => readRunFile(join(t.data, path))) : [];
  const writeups = readdirSync(t.writeups)
    .filter((f) => f.endsWith('.md'))
    .map((f) => ({ id: f.replace(/\.md$/, ''), w: WriteupFrontmatter.parse(parseFrontmatter(readFileSync(join(t.writeups, f), 'utf8')).frontmatter) }));
  return { summary, detailed, runs, writeups };
}

for (const target of [real, fixture]) {
  let server: StaticServer;
  let browser: Browser;
  let page: Page;
  let data: ReturnType<typeof load>;

  before(async () => {
    if (target === fixture) ensureFixtureBuild();
    if (!existsSync(join(target.dist, 'writeups/index.html'))) throw new Error(`${target.dist} has no built site: run \`npm run site:build\` first`);
    data = load(target);
    server = await serve(target.dist);
    browser = await launch();
    page = await browser.newPage();
    page.setDefaultTimeout(30_000);
  });
  after(async () => {
    await browser?.close();
    await server?.close();
  });

  test(`[${target.name}] every write-up shows each claim with the verdict computed from the data`, async () => {
    assert.ok(data.writeups.length > 0);
    const seen = new Set<Verdict>();
    for (const { id, w } of data.writeups) {
      const results = evaluateClaims(w, { summary: data.summary, detailed: data.detailed, runs: data.runs });
      await page.goto(`${server.origin}/writeups/${id}`, { waitUntil: 'networkidle' });
      const shown = await page.$$eval('[data-claim]', (els) =>
        els.map((e) => ({
          id: e.getAttribute('data-claim')!,
          verdict: e.getAttribute('data-claim-verdict')!,
          label: e.querySelector('[data-verdict-label]')?.textContent?.trim() ?? '',
          quote: e.querySelector('q[data-study-quote]')?.textContent ?? null,
        })),
      );
      assert.deepEqual(
        shown.map((s) => s.id),
        w.claims.map((c) => c.id),
        `${id}: the claims, in order`,
      );
      for (const [i, r] of results.entries()) {
        // every comparison with its own verdict (one per build where the claim runs over several), deciding ones first
        const rows = await page.$$eval(`[data-claim="${r.claim.id}"] li[data-comparison]`, (els) =>
          els.map((e) => [e.getAttribute('data-verdict'), e.getAttribute('data-role')]),
        );
        const expected =
          r.hosts.length === 0
            ? r.pairings.map(() => ['not-measured', null])
            : r.hosts.flatMap((h) =>
                [...h.comparisons.filter((c) => c.test.role !== 'supports'), ...h.comparisons.filter((c) => c.test.role === 'supports')].map((c) => [
                  c.verdict,
                  c.test.role,
                ]),
              );
        assert.deepEqual(rows, expected, `${id} ${r.claim.id}: the comparisons and their verdicts`);
        if (r.hosts.length === 1 && /not measured yet/.test(r.reason))
          assert.match(
            await page.locator(`[data-claim="${r.claim.id}"] .wu-claim-why`).first().innerText(),
            /not measured yet/i,
            `${id} ${r.claim.id}: names what is not measured yet`,
          );
        assert.equal(shown[i]!.verdict, r.verdict, `${id} ${r.claim.id}`);
        assert.equal(shown[i]!.label, VERDICT_LABEL[r.verdict], `${id} ${r.claim.id}: the verdict in words`);
        assert.equal(shown[i]!.quote, r.claim.by === 'ours' ? null : r.claim.quote, `${id} ${r.claim.id}: a study's claim is quoted as the study's`);
        seen.add(r.verdict);
      }
      for (const st of w.studies) {
        const text = await page.locator(`[data-study="${st.id}"]`).innerText();
        assert.match(text, /they are not our results/, `${id}: ${st.id} is presented as the study's`);
        if (st.cannotReproduce) assert.match(text, /What our setup cannot reproduce/, `${id}: ${st.id}`);
      }
      const tallyText = await page.locator('[data-claim-tally]').innerText();
      for (const c of tally(results)) assert.match(tallyText, new RegExp(`${c.count} ${VERDICT_LABEL[c.verdict]}`), `${id}: tally`);
      if (!data.summary || data.summary.entries.length === 0)
        assert.ok(
          results.every((r) => r.verdict === 'not-measured' || r.verdict === 'unverified'),
          `${id}: no data, yet a verdict`,
        );
    }
    if (target === fixture)
      assert.deepEqual(
        [...seen].sort(),
        [
          'confirmed',
          'contradicted',
          'host-specific',
          'larger-than-reported',
          'not-measured',
          'not-shown',
          'reproduced',
          'smaller-than-reported',
          'unverified',
        ],
        'the fixture reaches every verdict',
      );
    console.log(`[${target.name}] verdicts shown: ${[...seen].join(', ')}`);
  });

  test(`[${target.name}] every series has its charts, one per run with the medians of summary.json, or says it is not measured yet`, async () => {
    let charts = 0;
    for (const { id, w } of data.writeups) {
      await page.goto(`${server.origin}/writeups/${id}`, { waitUntil: 'networkidle' });
      for (const s of w.series) {
        const expected = seriesCharts(data.summary, s.key, s.versions ?? w.versions, namesOtherLibraries(w));
        const section = page.locator(`section[data-series="${s.key.replace(/"/g, '\\"')}"]`);
        assert.equal(await section.count(), 1, `${id}: a section for ${s.key}`);
        const figures = await section.locator('figure.wchart').evaluateAll((fs) =>
          fs.map((f) => ({
            run: f.getAttribute('data-run')!,
            rows: [...f.querySelectorAll('li[data-version]')].map((li) => [
              li.getAttribute('data-version'),
              li.getAttribute('data-variant'),
              li.getAttribute('data-median'),
            ]),
          })),
        );
        if (expected.length === 0) {
          assert.equal(figures.length, 0, `${id}: ${s.key} has no data but a chart`);
          assert.match(await section.innerText(), /Not measured yet/, `${id}: ${s.key}`);
          continue;
        }
        assert.deepEqual(
          figures,
          expected.map((c) => ({ run: c.runId, rows: c.rows.map((r) => [r.version, r.variant, r.median === null ? null : String(r.median)]) })),
          `${id}: ${s.key}`,
        );
        assert.equal(new Set(figures.map((f) => f.run)).size, figures.length, `${id}: ${s.key}: one chart per run`);
        // one zero and one scale per chart: every track at the same x and width, bar ends in the order of the values
        const geometry = await section.locator('figure.wchart').evaluateAll((fs) =>
          fs.map((f) =>
            [...f.querySelectorAll('li[data-median]')].map((li) => {
              const track = li.querySelector('.wc-track')!.getBoundingClientRect();
              const bar = li.querySelector('.wc-bar')!.getBoundingClientRect();
              return { left: track.left, width: track.width, end: bar.right, median: Number(li.getAttribute('data-median')) };
            }),
          ),
        );
        for (const rows of geometry) {
          for (const r of rows)
            assert.ok(
              Math.abs(r.left - rows[0]!.left) < 0.5 && Math.abs(r.width - rows[0]!.width) < 0.5,
              `${id}: ${s.key}: the bars of one chart share their zero and scale`,
            );
          const byValue = [...rows].sort((a, b) => a.median - b.median);
          for (let i = 1; i < byValue.length; i++) assert.ok(byValue[i]!.end >= byValue[i - 1]!.end - 0.5, `${id}: ${s.key}: bar ends ordered as their values`);
        }
        charts += figures.length;
      }
    }
    console.log(`[${target.name}] ${charts} write-up charts checked`);
  });

  test(`[${target.name}] axe finds no serious or critical violations on the write-ups, light and dark, tables open`, async () => {
    const found: string[] = [];
    for (const scheme of ['light', 'dark'] as const) {
      await page.emulateMedia({ colorScheme: scheme });
      for (const path of ['/writeups', ...data.writeups.map(({ id }) => `/writeups/${id}`)]) {
        await page.goto(server.origin + path, { waitUntil: 'networkidle' });
        await page.$$eval('details', (ds) => ds.forEach((d) => ((d as HTMLDetailsElement).open = true)));
        for (const v of await axe(page)) found.push(`${scheme} ${path}: ${v}`);
      }
    }
    await page.emulateMedia({ colorScheme: 'light' });
    assert.deepEqual(found, []);
  });

  test(`[${target.name}] no write-up page is wider than a phone`, async () => {
    await page.setViewportSize({ width: 390, height: 844 });
    const wide: string[] = [];
    for (const path of ['/writeups', ...data.writeups.map(({ id }) => `/writeups/${id}`)]) {
      await page.goto(server.origin + path, { waitUntil: 'networkidle' });
      await page.$$eval('details', (ds) => ds.forEach((d) => ((d as HTMLDetailsElement).open = true)));
      const overflow = await page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth);
      if (overflow > 1) wide.push(`${path}: ${overflow}px wider than the viewport`);
    }
    await page.setViewportSize({ width: 1280, height: 900 });
    assert.deepEqual(wide, []);
  });
}
