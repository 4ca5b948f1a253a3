// The site's top-level pages, one line each, in the navigation's order: the navigation (layouts/Base.astro)
// links those with a `nav` label whose page file exists, and the browser suite (site/tests/suite.ts) checks
// that the `reachable` ones can be reached from home and runs axe (`axe`) and takes screenshots
// (`screenshot`) on those marked. A new page is its file under pages/ and a line here.
export interface SitePage {
  href: string;
  /** its label in the navigation (short: the whole bar fits one line at 1280 px); absent: not in it */
  nav?: string;
  reachable?: true;
  axe?: true;
  screenshot?: true;
}

export const PAGES: readonly SitePage[] = [
  { href: '/', nav: 'Journey', reachable: true, axe: true, screenshot: true },
  { href: '/recommendations', nav: 'What to do' },
  { href: '/versions', nav: 'Versions', reachable: true, axe: true, screenshot: true },
  { href: '/compare', nav: 'Compare', reachable: true, axe: true, screenshot: true },
  { href: '/libraries', nav: 'Libraries', reachable: true, axe: true, screenshot: true },
  { href: '/servers', nav: 'Servers', reachable: true, axe: true, screenshot: true },
  { href: '/writeups', nav: 'Why', reachable: true, axe: true },
  { href: '/bisect', nav: 'Commits' },
  { href: '/hypothesis', nav: 'ML-KEM', reachable: true, axe: true, screenshot: true },
  { href: '/mtu', nav: 'MTU', reachable: true, axe: true, screenshot: true },
  { href: '/known-issues', nav: 'Issues', reachable: true, axe: true },
  { href: '/machines', nav: 'Machines' },
  { href: '/drift', nav: 'Drift' },
  { href: '/methodology', nav: 'Method', reachable: true, axe: true, screenshot: true },
  { href: '/runs', nav: 'Data', reachable: true, axe: true, screenshot: true },
  { href: '/contributing', axe: true },
];

/** The pages the browser suite checks one way: reachable from home, axe, screenshots. */
export const pagesFor = (check: 'reachable' | 'axe' | 'screenshot'): string[] => PAGES.filter((p) => p[check]).map((p) => p.href);
