// The versions list: per version page, when it was released, how long upstream supports its series, and
// one headline figure on one machine (the site's default machine for versions: never two machines in one
// column), with its change against the previous series and that change's verdict.
import { SERIES } from '../../../catalogue/index.ts';
import type { Summary } from '../../../schema/index.ts';
import { defaultHost } from './hosts.ts';
import { entriesOf, type VersionPage } from './model.ts';
import { headlines, type Headline } from './version/headlines.ts';

export interface VersionRow {
  page: VersionPage;
  /** the release date the build's version string carries ("OpenSSL 3.5.7 27 Oct 2026"), or null */
  released: string | null;
  series: (typeof SERIES)[number] | null;
  /** the first handshake headline of the chosen machine (client CPU per handshake, default groups, where measured) */
  headline: Headline | null;
}

/** the first date after the version: "OpenSSL 3.0.2 15 Mar 2022 (Library: OpenSSL 3.0.2 15 Mar 2022)" */
const DATE = /\s(\d{1,2} [A-Z][a-z]{2} \d{4})\b/;

/** "OpenSSL 3.5.7 27 Oct 2026 (Library: ...)" -> "2026-10-27"; null when the string carries no date. */
export function releaseDate(versionString: string): string | null {
  const m = DATE.exec(versionString);
  if (!m) return null;
  const d = new Date(`${m[1]} UTC`);
  return Number.isNaN(d.getTime()) ? null : d.toISOString().slice(0, 10);
}

export function versionRows(summary: Summary, pages: readonly VersionPage[]): { host: string | null; rows: VersionRow[] } {
  const host = defaultHost(new Set(pages.flatMap((p) => p.hosts)), summary.runs);
  const rows = pages.map((page) => {
    const build =
      summary.builds.find((b) => b.version === page.version && b.variant === page.variant && (host === null || b.host === host)) ??
      summary.builds.find((b) => b.version === page.version && b.variant === page.variant);
    const head = host && page.hosts.includes(host) ? headlines(entriesOf(summary, host, page.version, page.variant)).rows : [];
    return {
      page,
      released: build ? releaseDate(build.versionString) : null,
      series: SERIES.find((s) => s.series === page.series) ?? null,
      headline: head.find((h) => h.entry.metric === 'cpu-per-handshake') ?? head[0] ?? null,
    };
  });
  return { host, rows };
}
