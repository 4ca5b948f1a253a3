// Shared browser-test machinery: Debian's chromium through playwright-core, a crawler that checks every
// page and link, axe, and the checks of the home chart against summary.json.
import { existsSync, mkdirSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { createRequire } from 'node:module';
import { brotliDecompressSync } from 'node:zlib';
import { join } from 'node:path';
import { chromium, type Browser, type Page } from 'playwright-core';
import { Summary } from '../../schema/index.ts';
import { journeyKey } from '../src/lib/model.ts';
import { splitByRun } from '../src/lib/runs.ts';

export const REPO = new URL('../../', import.meta.url).pathname;
export const ARTIFACTS = join(REPO, 'test-artifacts', 'site');

export function chromiumPath(): string {
  const candidates = [process.env.CHROMIUM_PATH, '/usr/bin/chromium', '/usr/bin/chromium-browser'].filter(Boolean) as string[];
  const found = candidates.find((p) => existsSync(p));
  if (!found) throw new Error("no chromium found: install Debian's package (apt-get install -y chromium) or set CHROMIUM_PATH");
  return found;
}

export async function launch(): Promise<Browser> {
  return chromium.launch({
    executablePath: chromiumPath(),
    headless: true,
    args: [
      '--no-sandbox',
      '--disable-gpu',
      '--disable-background-networking',
      '--disable-component-update',
      '--no-first-run',
      '--disable-quic',
      '--disable-sync',
    ],
  });
}

export function readSummary(file: string): Summary {
  if (!existsSync(file)) throw new Error(`${file} does not exist: the data-dependent site tests need it (run the benchmark and aggregate first)`);
  return Summary.parse(JSON.parse(readFileSync(file, 'utf8')));
}

export interface PageReport {
  url: string;
  status: number;
  errors: string[];
  links: string[];
}

/** Visit a page, collect console errors, failed requests and internal links. */
export async function visit(page: Page, origin: string, path: string): Promise<PageReport> {
  const errors: string[] = [];
  const onConsole = (m: { type(): string; text(): string }) => {
    if (m.type() === 'error') errors.push(`console: ${m.text()}`);
  };
  const onPageError = (e: Error) => errors.push(`page error: ${e.message}`);
  const onResponse = (r: { url(): string; status(): number }) => {
    if (r.status() >= 400) errors.push(`HTTP ${r.status()} for ${r.url()}`);
  };
  const onRequest = (r: { url(): string }) => {
    if (!r.url().startsWith(origin) && !r.url().startsWith('data:')) errors.push(`external request: ${r.url()}`);
  };
  page.on('console', onConsole);
  page.on('pageerror', onPageError);
  page.on('response', onResponse);
  page.on('request', onRequest);
  const res = await page.goto(origin + path, { waitUntil: 'networkidle' });
  // resolved from the attribute: an SVG <a> (a chart's link) has no string href property
  const links = await page.$$eval('a[href]', (as) => as.map((a) => new URL(a.getAttribute('href')!, document.baseURI).href));
  page.off('console', onConsole);
  page.off('pageerror', onPageError);
  page.off('response', onResponse);
  page.off('request', onRequest);
  const internal = links.filter((l) => l.startsWith(origin)).map((l) => l.slice(origin.length).split('#')[0]!);
  return { url: path, status: res?.status() ?? 0, errors, links: [...new Set(internal)] };
}

/** Breadth-first over every internal link from the home page: HTML pages are loaded in the browser, downloads fetched.
 * `onPage` runs on each HTML page while it is loaded (e.g. to measure its width). */
export async function crawl(page: Page, origin: string, onPage?: (path: string) => Promise<void>): Promise<{ pages: PageReport[]; problems: string[] }> {
  const seen = new Set<string>(['/']);
  const queue = ['/'];
  const pages: PageReport[] = [];
  const problems: string[] = [];
  while (queue.length) {
    const path = queue.shift()!;
    const isDownload = /\.(json|csv|br|png|svg|txt)(\?|$)/.test(path);
    if (isDownload) {
      const r = await fetch(origin + path);
      if (!r.ok) problems.push(`${path}: HTTP ${r.status} (linked download)`);
      continue;
    }
    const rep = await visit(page, origin, path);
    pages.push(rep);
    if (onPage) await onPage(path);
    if (rep.status !== 200) problems.push(`${path}: HTTP ${rep.status}`);
    for (const e of rep.errors) problems.push(`${path}: ${e}`);
    for (const l of rep.links) {
      const key = l.split('?')[0]!.replace(/\/$/, '') || '/';
      if (!seen.has(key)) {
        seen.add(key);
        queue.push(l);
      }
    }
  }
  return { pages, problems };
}

const axeSource = readFileSync(createRequire(import.meta.url).resolve('axe-core/axe.min.js'), 'utf8');

/** axe-core on the current page; returns serious and critical violations as readable lines. */
export async function axe(page: Page): Promise<string[]> {
  await page.addScriptTag({ content: axeSource });
  const result = await page.evaluate(async () => {
    const w = window as unknown as {
      axe: { run(ctx: Document, opts: object): Promise<{ violations: { id: string; impact: string | null; help: string; nodes: { target: unknown[] }[] }[] }> };
    };
    const r = await w.axe.run(document, { runOnly: { type: 'tag', values: ['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa', 'best-practice'] } });
    return r.violations.map((v) => ({ id: v.id, impact: v.impact, help: v.help, targets: v.nodes.slice(0, 3).map((n) => JSON.stringify(n.target)) }));
  });
  return result.filter((v) => v.impact === 'serious' || v.impact === 'critical').map((v) => `${v.impact} ${v.id}: ${v.help} at ${v.targets.join(' ')}`);
}

export interface PlottedPoint {
  version: string;
  median: number;
  key: string;
}

/** The points the home chart's script drew (after it redrew the static chart), of one group mode or all. */
export async function plotted(page: Page, groups?: string): Promise<PlottedPoint[]> {
  await page.waitForSelector('[data-journey-root][data-drawn] svg circle.point', { timeout: 10_000 });
  const sel = `[data-journey-root] svg circle.point${groups ? `[data-groups="${groups}"]` : ''}`;
  return page.$$eval(sel, (cs) =>
    cs.map((c) => ({ version: c.getAttribute('data-version')!, median: Number(c.getAttribute('data-median')), key: c.getAttribute('data-key')! })),
  );
}

export interface ChartSelection {
  host: string;
  metric: string;
  config: string;
  /** one group mode (expectedEntries) or, as the page reports it, the modes shown separated by spaces */
  groups: string;
}

export async function selection(page: Page): Promise<ChartSelection> {
  return page.$eval('[data-journey-root]', (el) => {
    const d = (el as HTMLElement).dataset;
    return { host: d.host!, metric: d.metric!, config: d.config!, groups: d.groups! };
  });
}

/** The summary entries a chart selection must show, by version. */
export function expectedMedians(summary: Summary, s: ChartSelection): Map<string, number> {
  return new Map([...expectedEntries(summary, s)].map(([v, e]) => [v, e.stats!.median]));
}

export function expectedEntries(summary: Summary, s: ChartSelection): Map<string, Summary['entries'][number]> {
  const out = new Map<string, Summary['entries'][number]>();
  // both lines of a chart: the chart holds the timing values of one run (lib/runs.ts), the others are apart
  const chart = summary.entries.filter((e) => {
    const k = journeyKey(e);
    return k && e.host === s.host && k.metric === s.metric && k.config === s.config;
  });
  const onChart = new Set(splitByRun(chart, (e) => e)[0]?.rows ?? []);
  for (const e of onChart) {
    if (journeyKey(e)!.groups !== s.groups || e.params.clientGroups !== s.groups || e.params.serverGroups !== s.groups) continue;
    if (e.status === 'measured' && e.stats) out.set(e.version, e);
  }
  return out;
}

export async function screenshots(page: Page, origin: string, paths: string[], dir: string): Promise<string[]> {
  mkdirSync(dir, { recursive: true });
  const files: string[] = [];
  for (const [name, viewport] of [
    ['desktop', { width: 1280, height: 900 }],
    ['phone', { width: 390, height: 844 }],
  ] as const) {
    await page.setViewportSize(viewport);
    for (const p of paths) {
      await page.goto(origin + p, { waitUntil: 'networkidle' });
      const file = join(dir, `${p.replace(/[^a-z0-9]+/gi, '_').replace(/^_|_$/g, '') || 'home'}-${name}.png`);
      // the top of very long pages (tables of every version) is what a reader sees first; a 30,000 px screenshot times out
      const height = Math.min(await page.evaluate(() => document.documentElement.scrollHeight), 8000);
      await page.screenshot({ path: file, fullPage: true, clip: { x: 0, y: 0, width: viewport.width, height } });
      files.push(file);
    }
  }
  return files;
}

/** Bytes of every response while loading a page (the server does not compress: this is what is transferred). */
export async function transferSize(page: Page, url: string): Promise<{ total: number; parts: [string, number][] }> {
  const parts: [string, number][] = [];
  const pending: Promise<void>[] = [];
  const onResponse = (r: import('playwright-core').Response) => {
    pending.push(
      r
        .body()
        .then((b) => void parts.push([r.url(), b.length]))
        .catch(() => undefined),
    );
  };
  page.on('response', onResponse);
  await page.goto(url, { waitUntil: 'networkidle' });
  await Promise.all(pending);
  page.off('response', onResponse);
  return { total: parts.reduce((a, [, n]) => a + n, 0), parts };
}

/** JSON files under <data>/<folder>/ (any depth), parsed. */
export function resultFiles(dataDir: string, folder: string): { path: string; value: unknown }[] {
  const out: { path: string; value: unknown }[] = [];
  const walk = (dir: string) => {
    if (!existsSync(dir)) return;
    for (const n of readdirSync(dir).sort()) {
      const full = join(dir, n);
      if (statSync(full).isDirectory()) walk(full);
      else if (n.endsWith('.json')) out.push({ path: full, value: JSON.parse(readFileSync(full, 'utf8')) });
      else if (n.endsWith('.json.br')) out.push({ path: full, value: JSON.parse(brotliDecompressSync(readFileSync(full)).toString('utf8')) });
    }
  };
  walk(join(dataDir, folder));
  return out;
}

export interface TableRuns {
  /** "table" or "figure" (a chart), with its caption */
  caption: string;
  /** ids listed in data-runs */
  runs: string[];
  /** ids listed in data-hosts */
  hosts: string[];
  /** data-timing="true": it holds timing rows (CPU time, wall clock), whose runs data-timing-runs lists */
  timing: boolean;
  timingRuns: string[];
  /** a table: rows without an element naming their run ([data-run]) */
  rowsWithoutRun: number;
  /** runs named by the rows that data-runs does not list */
  unlisted: string[];
  /**
   * data-cross-machine="ratios": a deliberate side-by-side of per-machine ratios (/machines), one machine per
   * column. Its runs are named per cell, not per row: every cell names its machine (data-host) and every cell
   * with a ratio its one run (data-run); the problems found, else [].
   */
  crossMachine: string[] | null;
}

/** Every table and chart of the current page that declares its runs (data-runs). */
export async function tableRuns(page: Page): Promise<TableRuns[]> {
  return page.$$eval('[data-runs]', (ts) =>
    ts.map((t) => {
      const list = (name: string) => (t.getAttribute(name) ?? '').split(/\s+/).filter(Boolean);
      const runs = list('data-runs');
      // rows of values: a group heading row (th colspan, no td) holds none and names no run
      const rows = t.tagName === 'TABLE' ? [...t.querySelectorAll(':scope > tbody > tr')].filter((r) => r.querySelector(':scope > td')) : [];
      const cross = t.getAttribute('data-cross-machine');
      if (cross !== null) {
        const cells = rows.flatMap((r) => [...r.querySelectorAll(':scope > td')]);
        const problems: string[] = [];
        if (cross !== 'ratios') problems.push(`data-cross-machine="${cross}": only "ratios" may sit side by side`);
        const hosts = list('data-hosts');
        for (const c of cells) {
          const host = c.getAttribute('data-host');
          const run = c.getAttribute('data-run');
          if (!host) problems.push('a cell names no machine (data-host)');
          if (c.hasAttribute('data-ratio') && !run) problems.push(`a ratio on ${host} names no run (data-run)`);
          if (run && /\s/.test(run.trim())) problems.push(`a cell on ${host} names several runs: ${run}`);
          if (!c.hasAttribute('data-ratio') && run) problems.push(`a cell without a ratio names run ${run}`);
          if (c.hasAttribute('data-ratio') && host && !hosts.includes(host)) problems.push(`machine ${host} is not in data-hosts`);
        }
        const namedCells = cells.map((c) => c.getAttribute('data-run')).filter((r): r is string => !!r);
        return {
          caption: `table "${(t.querySelector('caption')?.firstChild?.textContent ?? '').trim().slice(0, 80)}"`,
          runs,
          hosts,
          timing: false,
          timingRuns: [],
          rowsWithoutRun: 0,
          unlisted: [...new Set(namedCells.filter((n) => !runs.includes(n)))],
          crossMachine: [...new Set(problems)],
        };
      }
      const named = rows.map((r) => [...r.querySelectorAll('[data-run]')].map((x) => x.getAttribute('data-run')!));
      const caption = t.querySelector('caption, figcaption')?.firstChild?.textContent ?? t.getAttribute('aria-label') ?? '';
      return {
        caption: `${t.tagName.toLowerCase()} "${caption.trim().slice(0, 80)}"`,
        runs,
        hosts: list('data-hosts'),
        timing: t.getAttribute('data-timing') === 'true',
        timingRuns: list('data-timing-runs'),
        rowsWithoutRun: runs.length > 1 ? named.filter((n) => n.length === 0).length : 0,
        unlisted: [...new Set(named.flat().filter((n) => !runs.includes(n)))],
        crossMachine: null,
      };
    }),
  );
}

/** Rows of the entry tables on the current page: which summary entry each shows, its run and its median as printed. */
export async function entryRows(
  page: Page,
): Promise<{ host: string; version: string; variant: string; k: string; value: string | null; tableRuns: string[] }[]> {
  return page.$$eval('table.entries > tbody > tr', (trs) =>
    trs.map((tr) => {
      const t = tr.closest('table')!;
      const d = (name: string) => tr.getAttribute(`data-${name}`) ?? t.getAttribute(`data-${name}`) ?? '';
      return {
        host: d('host'),
        version: d('version'),
        variant: d('variant'),
        k: d('k'),
        value: tr.querySelector('td[data-value]')?.textContent?.trim() ?? null,
        tableRuns: (t.getAttribute('data-runs') ?? '').split(/\s+/).filter(Boolean),
      };
    }),
  );
}
