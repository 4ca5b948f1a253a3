// The /libraries page from summary.json: OpenSSL's newest 3.x LTS, newest 3.x and newest release beside every
// other library a run measured, one table per measure (rows = configurations, columns = builds). Each cell of
// another library carries its vsOpenSSL comparison (against the newest OpenSSL build of its own run, paired by
// round: scripts/aggregate.ts). Rows exist only for configurations another library was run on (measured,
// unsupported or failed), so the page never shows OpenSSL alone under a libraries heading.
import type { Build, Summary } from '../../../schema/index.ts';
import { LIBRARY_NAMES, SERIES, buildLabel, buildSlug, compareReleases, compareSeries, compareVersions } from '../../../catalogue/index.ts';
import type { Entry } from './model.ts';

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
  /** the configuration in words: "TLS 1.3, ecdsa-p256, X25519, new session, server" */
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

export interface LibrariesHostView {
  host: string;
  columns: LibraryColumn[];
  sections: LibrarySection[];
  defaults: LibraryDefaults[];
  /** runs the entries on the page come from (comparisons never cross runs) */
  runIds: string[];
}

const isOpenSSL = (e: { library: Entry['library'] }) => e.library === 'openssl';
const p = (e: Entry, k: string) => (e.params[k] === undefined ? undefined : String(e.params[k]));

/** The measures the page shows, in reading order: which entries belong to each. */
const SECTIONS: { id: string; title: string; about: string; match: (e: Entry) => boolean }[] = [
  {
    id: 'cpu',
    title: 'Handshake CPU time, per side',
    about: 'CPU time each side spends per handshake, client and server in one process on one thread each, over memory BIOs (lower is better).',
    match: (e) => e.benchmark === 'handshake' && e.metric === 'cpu-per-handshake' && (p(e, 'side') === 'client' || p(e, 'side') === 'server') && (p(e, 'threads') ?? '1') === '1',
  },
  {
    id: 'instructions',
    title: 'Instructions per handshake',
    about: 'Instructions retired per handshake, counted deterministically (lower is better).',
    match: (e) => e.benchmark === 'handshake' && e.metric === 'instructions-per-handshake',
  },
  {
    id: 'heap',
    title: 'Heap per connection',
    about: 'Heap bytes held per live connection after the handshake, counted through the library’s allocator hooks (lower is better).',
    match: (e) => e.benchmark === 'handshake' && e.metric === 'heap-per-connection',
  },
  {
    id: 'ctx',
    title: 'SSL_CTX_new',
    about: 'CPU time of one SSL_CTX_new call, what a client pays when it creates a context per connection (lower is better).',
    match: (e) => e.benchmark === 'handshake' && e.metric === 'ssl-ctx-new',
  },
  {
    id: 'clienthello',
    title: 'ClientHello size with the default groups',
    about: 'Size of the first ClientHello when the application leaves the groups to the library: what each library sends by default.',
    match: (e) => e.benchmark === 'handshake' && e.metric === 'clienthello-bytes' && p(e, 'clientGroups') === 'default',
  },
  {
    id: 'aead',
    title: 'AEAD throughput',
    about: 'Bytes of payload sealed per second through the EVP AEAD interface (higher is better).',
    match: (e) => e.benchmark === 'aead',
  },
];

const PROTO: Record<string, string> = { '1.2': 'TLS 1.2', '1.3': 'TLS 1.3' };
const RESUME: Record<string, string> = { none: 'new session', ticket: 'resumed (ticket)', 'session-id': 'resumed (session id)' };

/** A configuration in words, parameters the section title already says left out. */
export function configText(params: Entry['params'], omit: readonly string[] = []): string {
  const get = (k: string) => (omit.includes(k) || params[k] === undefined ? undefined : String(params[k]));
  const parts: string[] = [];
  const proto = get('proto');
  if (proto) parts.push(PROTO[proto] ?? proto);
  for (const k of ['cert', 'cipher', 'algorithm']) if (get(k)) parts.push(get(k)!);
  const cg = get('clientGroups');
  const sg = get('serverGroups');
  if (cg || sg) parts.push(cg === sg || !sg ? `groups ${cg}` : `groups ${cg ?? 'default'} → ${sg}`);
  const resume = get('resume');
  if (resume) parts.push(RESUME[resume] ?? resume);
  if (get('clientCtx') && get('clientCtx') !== 'shared') parts.push(`client context ${get('clientCtx')}`);
  if (get('bytes')) parts.push(`${get('bytes')}-byte records`);
  if (get('layer')) parts.push(`${get('layer')} layer`);
  if (get('side')) parts.push(get('side') === 'both' ? 'client + server' : get('side')!);
  const known = new Set(['proto', 'cert', 'cipher', 'algorithm', 'clientGroups', 'serverGroups', 'resume', 'clientCtx', 'bytes', 'layer', 'side', 'threads', 'operation', 'aadBytes']);
  for (const [k, v] of Object.entries(params).sort()) if (!known.has(k) && !omit.includes(k)) parts.push(`${k}=${String(v)}`);
  return parts.join(', ') || 'no parameters';
}

/**
 * The OpenSSL builds the page sets beside the other libraries: the newest release of the newest 3.x LTS series,
 * the newest 3.x release and the newest release overall (4.0 and later), each once, default options only.
 */
export function openSSLReferences(builds: readonly { version: string; series: string }[]): { version: string; role: string }[] {
  const newest = (list: readonly { version: string; series: string }[]) => [...list].sort((a, b) => compareVersions(b.version, a.version))[0];
  const lts = new Set(SERIES.filter((s) => s.support === 'lts').map((s) => s.series));
  const three = builds.filter((b) => b.series.startsWith('3.'));
  const picks: [ { version: string } | undefined, string][] = [
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

function hostView(summary: Summary, host: string): LibrariesHostView {
  const entries = summary.entries.filter((e) => e.host === host);
  const others = entries.filter((e) => !isOpenSSL(e));
  const buildOf = (c: Pick<LibraryColumn, 'library' | 'version' | 'variant'>) =>
    summary.builds.find((b) => b.host === host && b.library === c.library && b.version === c.version && b.variant === c.variant) ?? null;

  // OpenSSL references among the default builds of the runs that measured another library (that is what vsOpenSSL compares with)
  const libRuns = new Set(others.map((e) => e.runId));
  const opensslBuilds = new Map<string, { version: string; series: string }>();
  for (const e of entries) if (isOpenSSL(e) && e.variant === 'default' && libRuns.has(e.runId)) opensslBuilds.set(e.version, { version: e.version, series: e.series });
  const named = (c: Omit<LibraryColumn, 'slug' | 'label' | 'build'>): LibraryColumn => ({ ...c, slug: buildSlug(c), label: buildLabel(c), build: buildOf(c) });
  const columns: LibraryColumn[] = [
    ...openSSLReferences([...opensslBuilds.values()]).map(({ version, role }) => named({ library: 'openssl', version, variant: 'default', role })),
    ...[...new Map(others.map((e) => [buildSlug(e), e])).values()]
      .sort((a, b) => compareReleases(a, b) || (a.variant === 'default' ? -1 : b.variant === 'default' ? 1 : a.variant.localeCompare(b.variant)))
      .map((e) => named({ library: e.library, version: e.version, variant: e.variant, role: null })),
  ];
  const cellOf = (c: LibraryColumn, key: string) =>
    entries.find((e) => e.key === key && e.library === c.library && e.version === c.version && e.variant === c.variant && (isOpenSSL(e) ? libRuns.has(e.runId) : true)) ?? null;

  const sections: LibrarySection[] = [];
  for (const s of SECTIONS) {
    const keys = [...new Set(others.filter(s.match).map((e) => e.key))].sort();
    if (!keys.length) continue;
    // parameters every row shares go unsaid in the row labels
    const rowsOf = keys.map((key) => others.find((e) => e.key === key)!);
    const shared = Object.keys(rowsOf[0]!.params).filter((k) => rowsOf.every((e) => String(e.params[k]) === String(rowsOf[0]!.params[k])));
    sections.push({
      id: s.id,
      title: s.title,
      about: s.about,
      rows: rowsOf.map((e) => ({ key: e.key, label: configText(e.params, rowsOf.length > 1 ? shared : []), cells: columns.map((c) => cellOf(c, e.key)) })),
    });
  }

  // defaults: TLS 1.3, the client on its default groups, new session; the negotiated group only where the server kept its defaults too
  const defaultsOf = (c: LibraryColumn): LibraryDefaults => {
    const mine = entries.filter(
      (e) => e.library === c.library && e.version === c.version && e.variant === c.variant && e.benchmark === 'handshake' && p(e, 'proto') === '1.3' && p(e, 'clientGroups') === 'default' && p(e, 'resume') === 'none' && e.status === 'measured',
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

  const shown = sections.flatMap((s) => s.rows.flatMap((r) => r.cells)).filter((e): e is Entry => e !== null);
  return { host, columns, sections, defaults: columns.map(defaultsOf), runIds: [...new Set(shown.map((e) => e.runId))].sort() };
}

/** Libraries the page names but cannot measure here, and why (said on the page rather than left out). */
export const NOT_MEASURED_LIBRARIES: { name: string; why: string }[] = [
  { name: 'LibreSSL', why: 'no source of it is obtainable from the package registries this harness can reach, so it is not built or measured.' },
  {
    name: 'rustls',
    why: 'its source is in the registries, but it has no OpenSSL-like TLS API for our C programs to call; measuring it through rustls-ffi with a small adapter of its own is future work.',
  },
];

export const libraryName = (l: Entry['library']) => LIBRARY_NAMES[l];
