import { test } from 'node:test';
import assert from 'node:assert/strict';
import { existsSync, readdirSync } from 'node:fs';
import { PAGES, pagesFor } from './pages.ts';

const pagesDir = new URL('../pages/', import.meta.url);
/** "/servers" for pages/servers.astro or pages/servers/index.astro; "/" for pages/index.astro */
const topLevelPages = readdirSync(pagesDir, { withFileTypes: true }).flatMap((d) => {
  if (d.isFile() && d.name.endsWith('.astro')) return [d.name === 'index.astro' ? '/' : `/${d.name.replace(/\.astro$/, '')}`];
  if (d.isDirectory() && existsSync(new URL(`${d.name}/index.astro`, pagesDir))) return [`/${d.name}`];
  return [];
});

test('every top-level page is in the registry once, and every registered page exists', () => {
  const registered = PAGES.map((p) => p.href);
  assert.equal(new Set(registered).size, registered.length, 'a page listed twice');
  // 404 is the server's page for a missing one, never linked
  assert.deepEqual(
    topLevelPages.filter((p) => p !== '/404' && !registered.includes(p)),
    [],
    'add the page to site/src/lib/pages.ts',
  );
  assert.deepEqual(
    registered.filter((p) => !topLevelPages.includes(p)),
    [],
    'a registered page has no file under pages/',
  );
});

test('navigation labels are short and distinct; what the browser suite checks is a registered page', () => {
  const labels = PAGES.flatMap((p) => (p.nav === undefined ? [] : [p.nav]));
  assert.equal(new Set(labels).size, labels.length);
  for (const l of labels) assert.ok(l.length <= 12, `"${l}" is long for the navigation bar`);
  for (const check of ['reachable', 'axe', 'screenshot'] as const) assert.ok(pagesFor(check).length > 0, check);
  // a page the suite expects to reach from home must be linked from it
  for (const p of PAGES) if (p.reachable) assert.ok(p.nav !== undefined, `${p.href} is checked reachable but not in the navigation`);
});
