// Internal links honour Astro's base path (the site may be deployed under a sub-path, e.g. GitHub Pages).
export function url(path: string): string {
  const base = (import.meta.env.BASE_URL ?? '/').replace(/\/$/, '');
  return `${base}${path.startsWith('/') ? path : `/${path}`}`;
}
