// The /libraries page from summary.json: OpenSSL's newest 3.x LTS, newest 3.x and newest release beside every
// other library a run measured, one table per measure (rows = configurations, columns = builds). Each cell of
// another library carries its vsOpenSSL comparison (against the newest OpenSSL build of its own run, paired by
// round: scripts/aggregate/summary.ts). Rows exist only for configurations another library was run on (measured,
// unsupported or failed), so the page never shows OpenSSL alone under a libraries heading.
import type { Build, Summary } from '../../../../schema/index.ts';
import { SERIES, buildLabel, buildSlug, compareReleases, compareSeries, compareVersions } from '../../../../catalogue/index.ts';
import type { Entry } from '../model.ts';
import { gist, verdictTone } from '../format.ts';
import { reasonText } from '../version/groups.ts';
import { defaultHost, type HostRun } from '../hosts.ts';
import { GLANCE, SECTIONS, glanceNote } from './sections.ts';
import { costsOfVerification, type VerificationCost } from './verification.ts';
import { configText, metricWords, paramOf as p } from './words.ts';

export type SummaryBuild = Build & { host: string };

export interface LibraryColumn {
  slug: string;
  label: string;
  library: Entry['library'];
  version: string;
  variant: string;
  /** why this OpenSSL build is on the page ("newest 3.x LTS"); null for other libraries */
  role: string | null;
  /** the build record (options, compiler), null when the summary lists none for this host */
  build: SummaryBuild | null;
}

export interface LibraryRow {
  key: string;
  /** the configuration in words: "TLS 1.3, ECDSA P-256 certificate, groups X25519, full handshake, server side" */
  label: string;
  /** one per column: the entry, or null where that build has none for this key */
  cells: (Entry | null)[];
}

export interface LibrarySection {
  id: string;
  title: string;
  /** what the figure is, said once above the table */
  about: string;
  rows: LibraryRow[];
}

/** What a build does when the application leaves the groups alone (from the TLS 1.3 runs whose client keeps its default groups). */
export interface LibraryDefaults {
  column: LibraryColumn;
  /** key shares of the first ClientHello ("X25519MLKEM768:1216,X25519:32") */
  keyShares: string | null;
  /** group negotiated when both sides keep their defaults (null where no such run) */
  negotiated: string | null;
  clientHello: Entry | null;
}

/** One figure of the page's first screen: every build's value of one key, bars drawn in the order of the columns. */
export interface LibraryGlance {
  id: string;
  title: string;
  /** the unit the values are drawn in (values already scaled to it) */
  unit: string;
  bars: {
    column: LibraryColumn;
    entry: Entry | null;
    value: number | null;
    note: string | null;
    tone: 'better' | 'worse' | 'neutral' | null;
    missing: string | null;
  }[];
  /** the other library furthest ahead of / behind the newest OpenSSL of the run, where the difference is shown */
  best: { column: LibraryColumn; comparison: NonNullable<Entry['vsOpenSSL']> } | null;
  worst: { column: LibraryColumn; comparison: NonNullable<Entry['vsOpenSSL']> } | null;
}

export interface LibrariesHostView {
  host: string;
  /** the first screen: a few headline figures as bars */
  glance: LibraryGlance[];
  columns: LibraryColumn[];
  sections: LibrarySection[];
  defaults: LibraryDefaults[];
  /** runs the entries on the page come from (comparisons never cross runs) */
  runIds: string[];
  /** peer verification the handshakes on the page recorded (observed.peerVerification), each value once */
  peerVerification: string[];
  /** how a build's measurement departed from the others', as its runs recorded it ("wolfSSL 5.9.4: a new ticket chain every 200 ..."), each once */
  measurementNotes: string[];
  /** what verifying the server's chain costs each build: the handshake minus its no-verification control */
  verificationCosts: VerificationCost[];
}

const isOpenSSL = (e: { library: Entry['library'] }) => e.library === 'openssl';

/**
 * The OpenSSL builds the page sets beside the other libraries: the newest release of the newest 3.x LTS series,
 * the newest 3.x release and the newest release overall (4.0 and later), each once, default options only.
 */
export function openSSLReferences(builds: readonly { version: string; series: string }[]): { version: string; role: string }[] {
  const newest = (list: readonly { version: string; series: string }[]) => [...list].sort((a, b) => compareVersions(b.version, a.version))[0];
  const lts = new Set(SERIES.filter((s) => s.support === 'lts').map((s) => s.series));
  const three = builds.filter((b) => b.series.startsWith('3.'));
  const picks: [{ version: string } | undefined, string][] = [
    [newest(three.filter((b) => lts.has(b.series))), 'newest 3.x LTS'],
    [newest(three), 'newest 3.x'],
    [newest(builds.filter((b) => compareSeries(b.series, '4.0') >= 0)), 'newest release'],
  ];
  const out: { version: string; role: string }[] = [];
  for (const [b, role] of picks) {
    if (!b) continue;
    const same = out.find((o) => o.version === b.version);
    if (same) same.role += `, ${role}`;
    else out.push({ version: b.version, role });
  }
  return out.sort((a, b) => compareVersions(a.version, b.version));
}

/** One view per host that has entries of another library; empty when no run measured one yet. */
export function librariesView(summary: Summary | null): LibrariesHostView[] {
  if (!summary) return [];
  const hosts = [...new Set(summary.entries.filter((e) => !isOpenSSL(e)).map((e) => e.host))].sort();
  return hosts.map((host) => hostView(summary, host));
}

/** The view the page (and the home page's sentence) opens on: the default project machine with the most builds; null when no project machine measured another library. */
export const defaultLibrariesView = (views: readonly LibrariesHostView[], runs: readonly HostRun[]): LibrariesHostView | null => {
  const host = defaultHost(
    views.map((v) => v.host),
    runs,
    new Map(views.map((v) => [v.host, v.columns.length])),
  );
  return views.find((v) => v.host === host) ?? null;
};

function hostView(summary: Summary, host: string): LibrariesHostView {
  const entries = summary.entries.filter((e) => e.host === host);
  const others = entries.filter((e) => !isOpenSSL(e));
  const buildOf = (c: Pick<LibraryColumn, 'library' | 'version' | 'variant'>) =>
    summary.builds.find((b) => b.host === host && b.library === c.library && b.version === c.version && b.variant === c.variant) ?? null;

  // OpenSSL references among the default builds of the runs that measured another library (that is what vsOpenSSL compares with)
  const libRuns = new Set(others.map((e) => e.runId));
  const opensslBuilds = new Map<string, { version: string; series: string }>();
  for (const e of entries)
    if (isOpenSSL(e) && e.variant === 'default' && libRuns.has(e.runId)) opensslBuilds.set(e.version, { version: e.version, series: e.series });
  const named = (c: Omit<LibraryColumn, 'slug' | 'label' | 'build'>): LibraryColumn => ({ ...c, slug: buildSlug(c), label: buildLabel(c), build: buildOf(c) });
  const columns: LibraryColumn[] = [
    ...openSSLReferences([...opensslBuilds.values()]).map(({ version, role }) => named({ library: 'openssl', version, variant: 'default', role })),
    ...[...new Map(others.map((e) => [buildSlug(e), e])).values()]
      .sort((a, b) => compareReleases(a, b) || (a.variant === 'default' ? -1 : b.variant === 'default' ? 1 : a.variant.localeCompare(b.variant)))
      .map((e) => named({ library: e.library, version: e.version, variant: e.variant, role: null })),
  ];
  const cellOf = (c: LibraryColumn, key: string) =>
    entries.find(
      (e) => e.key === key && e.library === c.library && e.version === c.version && e.variant === c.variant && (isOpenSSL(e) ? libRuns.has(e.runId) : true),
    ) ?? null;

  // the thread-scaling section keeps the configurations some build ran with more than one thread, at every thread count
  const withoutThreads = (e: Entry) =>
    JSON.stringify(
      Object.entries(e.params)
        .filter(([k]) => k !== 'threads' && k !== 'side')
        .sort(),
    );
  const scaled = new Set(others.filter((e) => e.benchmark === 'handshake' && Number(p(e, 'threads') ?? 1) > 1).map(withoutThreads));
  const inSection = (s: (typeof SECTIONS)[number], e: Entry) => s.match(e) && (s.id !== 'threads' || scaled.has(withoutThreads(e)));
  const threadOrder = (e: Entry) => `${withoutThreads(e)}|${e.metric}|${p(e, 'side')}|${(p(e, 'threads') ?? '1').padStart(3, '0')}`;

  const sections: LibrarySection[] = [];
  for (const s of SECTIONS) {
    const matching = others.filter((e) => inSection(s, e));
    const keys =
      s.id === 'threads'
        ? [...new Map(matching.sort((a, b) => threadOrder(a).localeCompare(threadOrder(b))).map((e) => [e.key, e])).keys()]
        : [...new Set(matching.map((e) => e.key))].sort();
    if (!keys.length) continue;
    // parameters every row shares go unsaid in the row labels
    const rowsOf = keys.map((key) => others.find((e) => e.key === key)!);
    const metrics = new Set(rowsOf.map((e) => e.metric));
    const shared = Object.keys(rowsOf[0]!.params).filter((k) => rowsOf.every((e) => String(e.params[k]) === String(rowsOf[0]!.params[k])));
    sections.push({
      id: s.id,
      title: s.title,
      about: s.about,
      rows: rowsOf.map((e) => ({
        key: e.key,
        label: (metrics.size > 1 ? `${metricWords(e.metric)}: ` : '') + configText(e.params, rowsOf.length > 1 ? shared : []),
        cells: columns.map((c) => cellOf(c, e.key)),
      })),
    });
  }

  // defaults: TLS 1.3, the client on its default groups, new session; the negotiated group only where the server kept its defaults too
  const defaultsOf = (c: LibraryColumn): LibraryDefaults => {
    const mine = entries.filter(
      (e) =>
        e.library === c.library &&
        e.version === c.version &&
        e.variant === c.variant &&
        e.benchmark === 'handshake' &&
        p(e, 'proto') === '1.3' &&
        p(e, 'clientGroups') === 'default' &&
        p(e, 'resume') === 'none' &&
        e.status === 'measured',
    );
    const bothDefault = mine.filter((e) => p(e, 'serverGroups') === 'default');
    const shares = [...bothDefault, ...mine].find((e) => e.observed?.clientKeyShares !== undefined)?.observed?.clientKeyShares;
    const negotiated = bothDefault.find((e) => e.observed?.negotiatedGroup !== undefined)?.observed?.negotiatedGroup;
    return {
      column: c,
      keyShares: shares === undefined ? null : String(shares),
      negotiated: negotiated === undefined ? null : String(negotiated),
      clientHello: [...bothDefault, ...mine].find((e) => e.metric === 'clienthello-bytes' && p(e, 'layer') !== 'record') ?? null,
    };
  };

  const glance = GLANCE.flatMap((g): LibraryGlance[] => {
    const cells = columns.map((c) => ({ column: c, entry: cellOf(c, g.key) }));
    if (!cells.some((x) => x.entry && !isOpenSSL(x.entry))) return [];
    const shown = cells
      .filter((x) => x.entry?.vsOpenSSL && (x.entry.vsOpenSSL.verdict === 'higher' || x.entry.vsOpenSSL.verdict === 'lower'))
      .map((x) => ({ column: x.column, comparison: x.entry!.vsOpenSSL!, better: x.entry!.vsOpenSSL!.ratio > 1 === x.entry!.higherIsBetter }));
    // "best": the largest improvement over OpenSSL, "worst": the largest loss, both by the size of the change on the log scale
    const largest = (rs: typeof shown) => rs.sort((a, b) => Math.abs(Math.log(b.comparison.ratio)) - Math.abs(Math.log(a.comparison.ratio)))[0] ?? null;
    const best = largest(shown.filter((r) => r.better));
    const worst = largest(shown.filter((r) => !r.better));
    return [
      {
        id: g.id,
        title: g.title,
        unit: g.unit,
        bars: cells.map(({ column, entry }) => {
          const measured = entry?.status === 'measured' && entry.stats ? entry.stats.median * g.scale : null;
          const c = entry?.vsOpenSSL;
          return {
            column,
            entry,
            value: measured,
            note: c ? glanceNote(c, entry!.higherIsBetter) : null,
            tone: c ? verdictTone(c, entry!.higherIsBetter) : null,
            // a bar's line holds about 70 characters: the reason in full is in the tables below
            missing:
              measured !== null
                ? null
                : !entry
                  ? 'not measured'
                  : entry.status === 'measured'
                    ? 'no value'
                    : gist(`${entry.status}${entry.reason ? `: ${reasonText(entry.reason)}` : ''}`, 70),
          };
        }),
        best: best && { column: best.column, comparison: best.comparison },
        worst: worst && { column: worst.column, comparison: worst.comparison },
      },
    ];
  });

  const shown = [...sections.flatMap((s) => s.rows.flatMap((r) => r.cells)), ...glance.flatMap((g) => g.bars.map((b) => b.entry))].filter(
    (e): e is Entry => e !== null,
  );
  const verification = [
    ...new Set(shown.filter((e) => e.benchmark === 'handshake' && e.observed?.peerVerification !== undefined).map((e) => String(e.observed!.peerVerification))),
  ].sort();
  const measurementNotes = [
    ...new Set(
      shown
        .filter((e) => e.observed?.resumptionChain !== undefined)
        .map((e) => `${buildLabel(e)}, ${configText(e.params, ['side'])}: ${String(e.observed!.resumptionChain)}`),
    ),
  ].sort();
  const verificationCosts = costsOfVerification(entries, columns, cellOf);
  return {
    host,
    glance,
    measurementNotes,
    columns,
    sections,
    defaults: columns.map(defaultsOf),
    runIds: [...new Set(shown.map((e) => e.runId))].sort(),
    peerVerification: verification,
    verificationCosts,
  };
}
