// Chart text a phone can read: every SVG text of every chart on the pages that draw them renders at 11 px
// or more on a 390 px screen (a chart drawn in a fixed viewBox shrinks with the screen; its text must not).
import assert from 'node:assert/strict';
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { after, before, test } from 'node:test';
import type { Browser, Page } from 'playwright-core';
import { REPO, launch } from './browser.ts';
import { serve, type StaticServer } from './server.ts';

const DIST = join(REPO, 'site', 'dist');
const PAGES = [
  '/',
  '/compare/',
  '/libraries/',
  '/known-issues/',
  '/mtu/',
  '/drift/',
  '/hypothesis/',
  '/recommendations/',
  '/versions/3.5.7/',
  '/versions/3.5.7/obs-devbox-2c.amd-epyc-a00213/aead/',
];
const MIN_PX = 11;

let server: StaticServer;
let browser: Browser;
let page: Page;
before(async () => {
  if (!existsSync(join(DIST, 'index.html'))) throw new Error(`${DIST} has no built site: run \`npm run site:build\` first`);
  server = await serve(DIST);
  browser = await launch();
  page = await browser.newPage({ viewport: { width: 390, height: 844 } });
});
after(async () => {
  await browser?.close();
  await server?.close();
});

test(`every chart's text renders at ${MIN_PX} px or more on a 390 px screen`, async () => {
  let checked = 0;
  for (const path of PAGES) {
    const r = await page.goto(`${server.origin}${path}`, { waitUntil: 'networkidle' });
    if (r?.status() === 404) continue; // a page this build does not have
    const small = await page.evaluate((min) => {
      const out: string[] = [];
      let n = 0;
      for (const t of document.querySelectorAll('svg text')) {
        const box = t.getBoundingClientRect();
        if (box.width === 0 || !(t as SVGTextElement).textContent?.trim()) continue; // hidden (another selection, a closed disclosure)
        const ctm = (t as SVGTextElement).getScreenCTM();
        const px = parseFloat(getComputedStyle(t).fontSize) * (ctm ? Math.hypot(ctm.a, ctm.b) : 1);
        n++;
        if (px < min - 0.05) out.push(`"${t.textContent!.trim().slice(0, 40)}" at ${px.toFixed(1)} px`);
      }
      return { n, out: out.slice(0, 5) };
    }, MIN_PX);
    checked += small.n;
    assert.deepEqual(small.out, [], `${path}: chart text under ${MIN_PX} px`);
  }
  assert.ok(checked > 100, `only ${checked} chart texts found`);
});
