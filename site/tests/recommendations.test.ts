// Browser tests of the answers a visitor came for (issue 28), on site/dist built from the repository's data/:
// the home page's first screen at 1280x900 and 390x844 holds why 3.5 is slower with its number and the groups
// setting; /recommendations exists and every figure on it equals the value computed here from summary.json
// (its entries and, for a change, the same run's rounds paired as scripts/aggregate/summary.ts pairs them); no
// measured number on it is typed outside a figure; compare's default view stays under 5,000 px at 1280.
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { existsSync, mkdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Browser } from 'playwright-core';
import { DetailedIterations, Summary, type SummaryEntry } from '../../schema/index.ts';
import { buildSlug } from '../../catalogue/index.ts';
import { SUMMARY_DIGITS, compareRounds, significant } from '../../analysis/stats.ts';
import { MEASURED_NUMBER } from '../src/lib/claims/schema.ts';
import { entryRounds } from '../src/lib/claims/compare.ts';
import { pct, quantity } from '../src/lib/format.ts';
import { ARTIFACTS, REPO, launch } from './browser.ts';
import { serve, type StaticServer } from './server.ts';

const DIST = join(REPO, 'site/dist');
const DATA = process.env.OBSERVATORY_DATA_DIR ?? join(REPO, 'data');
const SIZES = [
  ['desktop', { width: 1280, height: 900 }],
  ['phone', { width: 390, height: 844 }],
] as const;

describe('recommendations (site/dist from data/)', { skip: !existsSync(join(DIST, 'index.html')) && 'site/dist is not built (npm run site:build)' }, () => {
  let server: StaticServer;
  let browser: Browser;
  const summary = Summary.parse(JSON.parse(readFileSync(join(DATA, 'summary.json'), 'utf8')));
  const detailed = DetailedIterations.parse(JSON.parse(readFileSync(join(DATA, 'detailed-iterations.json'), 'utf8')));
  const entry = (host: string, key: string, build: string): SummaryEntry => {
    const found = summary.entries.filter((e) => e.host === host && e.key === key && buildSlug(e) === build);
    assert.equal(found.length, 1, `${host} ${build} ${key}: ${found.length} entries`);
    return found[0]!;
  };
  /** What a figure element must read, from summary.json alone. */
  const expected = (f: { kind: string; host: string; a: string; aBuild: string; b: string | null; bBuild: string | null }): string => {
    const a = entry(f.host, f.a, f.aBuild);
    if (f.kind === 'value') return quantity(a.stats!.median, a.unit, a.method);
    const b = entry(f.host, f.b!, f.bBuild!);
    assert.equal(a.runId, b.runId, `${f.aBuild} against ${f.bBuild}: one run`);
    const c = significant(
      compareRounds(entryRounds(a, summary, detailed)!, entryRounds(b, summary, detailed)!, f.bBuild!, Boolean(a.stats!.deterministic)),
      SUMMARY_DIGITS,
    );
    return pct(c!.ratio);
  };
  const figuresOf = (root: string) => `${root} [data-figure="change"], ${root} [data-figure="value"]`;
  const readFigures = (els: Element[]) =>
    els.map((e) => ({
      kind: e.getAttribute('data-figure')!,
      host: e.getAttribute('data-host')!,
      a: e.getAttribute('data-a')!,
      aBuild: e.getAttribute('data-a-build')!,
      b: e.getAttribute('data-b'),
      bBuild: e.getAttribute('data-b-build'),
      text: e.textContent!.trim(),
    }));

  before(async () => {
    server = await serve(DIST);
    browser = await launch();
  });
  after(async () => {
    await browser?.close();
    await server?.close();
  });

  test('the home page opens on why 3.5 is slower: its number and the groups setting in the first screen, desktop and phone', async () => {
    for (const [label, size] of SIZES) {
      const ctx = await browser.newContext({ viewport: size });
      const page = await ctx.newPage();
      await page.goto(`${server.origin}/`, { waitUntil: 'networkidle' });
      const inView = (selector: string) =>
        page.$$eval(
          selector,
          (els, h) =>
            els.filter((e) => {
              const r = e.getBoundingClientRect();
              return r.width > 0 && r.height > 0 && r.top >= 0 && r.bottom <= h;
            }).length,
          size.height,
        );
      assert.match(await page.locator('[data-answer35] h2').innerText(), /Why is 3\.5 slower/);
      const numbers = await page.$$eval(figuresOf('[data-answer35-number]'), readFigures);
      assert.ok(numbers.length > 0, `${label}: the answer has no figure`);
      for (const n of numbers) assert.equal(n.text, expected(n), `${label}: ${n.aBuild} against ${n.bBuild}`);
      assert.ok((await inView('[data-answer35-number] [data-figure="change"]')) > 0, `${label}: the slowdown's number is not in the first screen`);
      const fix = await page.locator('[data-answer35] [data-fix]').innerText();
      assert.match(fix, /^Groups = [A-Za-z0-9:-]+$/, `${label}: the setting reads "${fix}"`);
      assert.equal(await inView('[data-answer35] [data-fix]'), 1, `${label}: the groups setting is not in the first screen`);
      mkdirSync(join(ARTIFACTS, 'recommendations'), { recursive: true });
      await page.screenshot({ path: join(ARTIFACTS, 'recommendations', `home-first-screen-${label}.png`) });
      await ctx.close();
    }
  });

  test('/recommendations: every figure equals its value computed from summary.json, and no measured number is typed outside one', async () => {
    const ctx = await browser.newContext({ viewport: { width: 1280, height: 900 } });
    const page = await ctx.newPage();
    const res = await page.goto(`${server.origin}/recommendations`, { waitUntil: 'networkidle' });
    assert.equal(res?.status(), 200);
    const figures = await page.$$eval(figuresOf('main'), readFigures);
    assert.ok(figures.length >= 20, `only ${figures.length} figures`);
    const wrong = figures
      .filter((f) => f.text !== expected(f))
      .map((f) => `${f.host} ${f.aBuild} ${f.a} against ${f.bBuild}: "${f.text}", expected "${expected(f)}"`);
    assert.deepEqual(wrong, []);
    // every machine with an OpenSSL handshake gets a release to run and the 3.5 answer
    const machines = await page.$$eval('section[data-machine]', (ss) =>
      ss.map((s) => ({
        host: s.getAttribute('data-machine')!,
        pick: s.querySelector('[data-pick]') !== null,
        answer: s.querySelector('[data-answer35]') !== null,
      })),
    );
    for (const m of machines) {
      const measured = summary.entries.some(
        (e) => e.host === m.host && e.library === 'openssl' && e.benchmark === 'handshake' && e.metric === 'handshakes-per-cpu-second' && e.stats,
      );
      assert.equal(m.pick, measured, `${m.host}: a release to run`);
    }
    // with every figure taken out, nothing in the page reads as a measured number
    const rest = await page.$eval('main', (main) => {
      const copy = main.cloneNode(true) as HTMLElement;
      copy.querySelectorAll('[data-figure]').forEach((e) => e.remove());
      return copy.innerText;
    });
    const typed = rest.split('\n').filter((line) => MEASURED_NUMBER.test(line));
    assert.deepEqual(typed, []);
    await ctx.close();
  });

  test("compare's default view answers the main questions in under 5,000 px at 1280 wide; every series is one click away", async () => {
    const ctx = await browser.newContext({ viewport: { width: 1280, height: 900 } });
    const page = await ctx.newPage();
    await page.goto(`${server.origin}/compare`, { waitUntil: 'networkidle' });
    await page.waitForSelector('[data-compare-root][data-drawn]', { timeout: 15_000 });
    const height = await page.evaluate(() => document.documentElement.scrollHeight);
    console.log(`compare default view: ${height} px tall at 1280`);
    assert.ok(height < 5000, `compare's default view is ${height} px tall`);
    const questions = await page.$$eval('[data-compare-curated] tr[data-question]', (trs) => trs.map((t) => t.getAttribute('data-question')!));
    assert.ok(questions.length >= 6, `${questions.length} main questions`);
    // each question's row is the series of the full list, which names it once
    for (const k of questions) assert.equal(await page.locator(`[data-compare-tables] tr[data-key="${k.replace(/"/g, '\\"')}"]`).count(), 1, k);
    assert.equal(await page.locator('[data-compare-all]').evaluate((d) => (d as HTMLDetailsElement).open), false);
    await page.click('[data-compare-all] > summary');
    assert.ok((await page.evaluate(() => document.documentElement.scrollHeight)) > height, 'opening the full list shows it');
    await ctx.close();
  });

  test('the verify command and how to submit a run are reachable from every page (footer) and the home page', async () => {
    const ctx = await browser.newContext({ viewport: { width: 1280, height: 900 } });
    const page = await ctx.newPage();
    for (const path of ['/', '/recommendations', '/compare']) {
      await page.goto(`${server.origin}${path}`, { waitUntil: 'networkidle' });
      assert.match(await page.locator('footer').innerText(), /npm run test:mlkem-hypothesis/, path);
      assert.equal(await page.locator('footer a[href$="/contributing"]').count(), 1, path);
    }
    await page.goto(`${server.origin}/`, { waitUntil: 'networkidle' });
    assert.match(await page.locator('[data-answer35]').innerText(), /npm run test:mlkem-hypothesis/);
    assert.equal(await page.locator('header nav a[href$="/recommendations"]').count(), 1);
    await ctx.close();
  });
});
