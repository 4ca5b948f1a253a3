// What the "If you run nginx or HAProxy" page (/servers) shows, computed from summary.json at build time: per
// machine, the servers benchmark's series (runner/servers/servers-benchmark.ts) as one table per server,
// workload and TLS shape, a row per library build; the builds a server could not use, with the reason the run
// recorded; and what an upgrade from the 3.0 LTS series to the newest build measured changes, in sentences made
// from the numbers. Pure functions: no file access here.
import type { Host, Summary, SummaryEntry } from '../../../schema/index.ts';
import { LIBRARY_NAMES, buildLabel, buildSlug, compareReleases, compareVersions } from '../../../catalogue/index.ts';
import { SERVERS, SERVER_NAMES } from '../../../catalogue/servers.ts';
import { certName } from '../../../catalogue/words.ts';
import { projectFirst, rankHosts, type HostRun } from './hosts.ts';
import { pct, quantity, quantityRange } from './format.ts';

export const SERVERS_BENCHMARK = 'servers';
export const CPU_METRIC = 'server-cpu-per-connection';
export const INSTRUCTIONS_METRIC = 'server-instructions-per-connection';
/** The command that measures the servers on a machine (runner/bench-cli.ts --benchmarks). */
export const MEASURE_COMMAND = `npm run bench -- --benchmarks ${SERVERS_BENCHMARK}`;

/** Workloads in the order the page shows them: these first, any other after them by name. */
export const WORKLOAD_ORDER = ['short', 'resumed', 'bulk'] as const;
const WORKLOAD_WORDS: Record<string, string> = {
  short: 'short connections: a full handshake, a small GET, close',
  resumed: 'resumed connections: the session of the connection before, a small GET, close',
  bulk: 'bulk: resumed connections, each receiving a large response',
};
export const workloadWords = (w: string): string => WORKLOAD_WORDS[w] ?? `${w} connections`;
export function compareWorkloads(a: string, b: string): number {
  const rank = (w: string) => {
    const i = (WORKLOAD_ORDER as readonly string[]).indexOf(w);
    return i === -1 ? WORKLOAD_ORDER.length : i;
  };
  return rank(a) - rank(b) || a.localeCompare(b);
}

/** Servers in the catalogue's order (nginx, HAProxy), any other after them by name. */
export function compareServers(a: string, b: string): number {
  const rank = (s: string) => {
    const i = SERVERS.findIndex((r) => r.server === s);
    return i === -1 ? SERVERS.length : i;
  };
  return rank(a) - rank(b) || a.localeCompare(b);
}
export const serverName = (s: string): string => (SERVER_NAMES as Record<string, string>)[s] ?? s;

type BuildOf = Pick<SummaryEntry, 'library' | 'version' | 'variant'>;
/** "OpenSSL 3.5.7", "AWS-LC 5.12.0". */
export const libraryBuildName = (b: BuildOf): string => (b.library === 'openssl' ? `${LIBRARY_NAMES.openssl} ${buildLabel(b)}` : buildLabel(b));
const param = (e: SummaryEntry, k: string): string => (e.params[k] === undefined ? '' : String(e.params[k]));

/** Who limited a window's connection rate, as the run observed it (servers-benchmark.ts measure: observed). */
export interface Bound {
  by: string;
  serverBusy: number | null;
  clientBusy: number | null;
  connectionsPerSecond: number | null;
}
export function boundOf(e: SummaryEntry | null): Bound | null {
  const o = e?.observed;
  if (!o || typeof o.boundBy !== 'string') return null;
  const n = (k: string) => (typeof o[k] === 'number' ? (o[k] as number) : null);
  return { by: o.boundBy, serverBusy: n('serverBusy'), clientBusy: n('clientBusy'), connectionsPerSecond: n('connectionsPerSecond') };
}

export interface ServerRow {
  build: BuildOf;
  name: string;
  /** server CPU time per connection (timed: the table's run) */
  cpu: SummaryEntry | null;
  /** instructions per connection (deterministic) */
  instructions: SummaryEntry | null;
  bound: Bound | null;
}

/** The TLS shape of a table: one server, workload, protocol, certificate and client. */
export interface Shape {
  server: string;
  serverVersion: string;
  workload: string;
  proto: string;
  cert: string;
  client: string;
}
export const shapeId = (s: Shape) => [s.server, s.serverVersion, s.workload, s.proto, s.cert, s.client].join('|');
const shapeOf = (e: SummaryEntry): Shape => ({
  server: param(e, 'server'),
  serverVersion: param(e, 'serverVersion'),
  workload: param(e, 'workload'),
  proto: param(e, 'proto'),
  cert: param(e, 'cert'),
  client: param(e, 'client'),
});
/** "nginx 1.26.3", "TLS 1.3, ECDSA P-256", for headings. */
export const serverTitle = (s: Shape) => `${serverName(s.server)} ${s.serverVersion}`.trim();
export const tlsWords = (s: Shape) => [s.proto ? `TLS ${s.proto}` : '', s.cert ? certName(s.cert) : ''].filter(Boolean).join(', ');

export interface ServerTable {
  shape: Shape;
  /** the run of the CPU times (a table never holds timed values of two runs); null when no row has one */
  runId: string | null;
  rows: ServerRow[];
  /** how many rows' windows each bound was observed for, most first */
  bounds: { by: string; rows: number }[];
}

export interface Unusable {
  server: string;
  serverVersion: string;
  build: BuildOf;
  name: string;
  status: SummaryEntry['status'];
  /** the reason the run recorded for the outcome */
  reason: string | null;
}

export interface Upgrade {
  shape: Shape;
  from: ServerRow;
  to: ServerRow;
  /** the CPU change: null when either side has no CPU value; `sameRun` false when the two come from different runs (not compared) */
  cpu: { ratio: number; sameRun: boolean; separate: boolean | null } | null;
  instructions: { ratio: number } | null;
}

export interface ServersMachine {
  host: string;
  logicalCpus: number | null;
  /** per server (catalogue order), per workload (short, resumed, bulk, other), per TLS shape, per run */
  tables: ServerTable[];
  unusable: Unusable[];
  upgrades: Upgrade[];
}

const serverEntries = (summary: Summary | null, host: string) =>
  (summary?.entries ?? []).filter((e) => e.host === host && e.benchmark === SERVERS_BENCHMARK && (e.metric === CPU_METRIC || e.metric === INSTRUCTIONS_METRIC));

const compareShapes = (a: Shape, b: Shape) =>
  compareServers(a.server, b.server) ||
  a.serverVersion.localeCompare(b.serverVersion) ||
  compareWorkloads(a.workload, b.workload) ||
  b.proto.localeCompare(a.proto) ||
  a.cert.localeCompare(b.cert) ||
  a.client.localeCompare(b.client);

/** Builds in release order, OpenSSL's first, the default variant before the others. */
const compareBuilds = (a: BuildOf, b: BuildOf) =>
  compareReleases(a, b) || (a.variant === 'default' ? -1 : b.variant === 'default' ? 1 : a.variant.localeCompare(b.variant));

const measuredValue = (e: SummaryEntry | null) => (e && e.status === 'measured' && e.stats ? e.stats.median : null);

/** The 3.0 LTS build and the newest OpenSSL build with a CPU value or an instruction count, default variant. */
export function upgradeOf(shape: Shape, rows: readonly ServerRow[]): Upgrade | null {
  const openssl = rows
    .filter((r) => r.build.library === 'openssl' && r.build.variant === 'default' && (measuredValue(r.cpu) !== null || measuredValue(r.instructions) !== null))
    .sort((a, b) => compareVersions(a.build.version, b.build.version));
  const from = openssl.filter((r) => r.build.version.startsWith('3.0.')).at(-1);
  const to = openssl.at(-1);
  if (!from || !to || from === to) return null;
  const fc = measuredValue(from.cpu);
  const tc = measuredValue(to.cpu);
  let cpu: Upgrade['cpu'] = null;
  if (fc !== null && tc !== null) {
    const sameRun = from.cpu!.runId === to.cpu!.runId;
    const a = from.cpu!.stats!.interval;
    const b = to.cpu!.stats!.interval;
    cpu = { ratio: tc / fc, sameRun, separate: a && b ? b.low > a.high || b.high < a.low : null };
  }
  const fi = measuredValue(from.instructions);
  const ti = measuredValue(to.instructions);
  return { shape, from, to, cpu, instructions: fi !== null && ti !== null ? { ratio: ti / fi } : null };
}

/** The upgrade in sentences, every number from the data. */
export function upgradeText(u: Upgrade): string[] {
  const from = u.from.name;
  const to = u.to.name;
  const out: string[] = [];
  const cpuOf = (r: ServerRow) => quantity(measuredValue(r.cpu), r.cpu!.unit, r.cpu!.method);
  if (!u.cpu) out.push(`Server CPU time per connection: not measured on both ${from} and ${to}.`);
  else if (!u.cpu.sameRun)
    out.push(
      `Server CPU time per connection: ${cpuOf(u.from)} on ${from}, ${cpuOf(u.to)} on ${to}, measured in different runs, so the two are not compared here.`,
    );
  else {
    const change = u.cpu.ratio === 1 ? 'the same' : `${u.cpu.ratio > 1 ? 'more' : 'less'} (${pct(u.cpu.ratio)})`;
    const sep =
      u.cpu.separate === null
        ? 'one of them has no interval, so whether the change is larger than the noise is not shown'
        : u.cpu.separate
          ? 'the two intervals do not overlap'
          : 'the two intervals overlap, so the data do not separate them';
    out.push(`Server CPU time per connection goes from ${cpuOf(u.from)} on ${from} to ${cpuOf(u.to)} on ${to}: ${change}; ${sep}.`);
  }
  if (u.instructions) {
    const fi = measuredValue(u.from.instructions)!;
    const ti = measuredValue(u.to.instructions)!;
    out.push(
      `Instructions per connection go from ${quantity(fi, 'instructions', 'instruction-count')} to ${quantity(ti, 'instructions', 'instruction-count')}: ${u.instructions.ratio === 1 ? 'unchanged' : `${u.instructions.ratio > 1 ? 'more' : 'fewer'} (${pct(u.instructions.ratio)})`}, an exact count.`,
    );
  } else out.push(`Instructions per connection: not measured on both ${from} and ${to}.`);
  return out;
}

/** One machine's servers figures; tables empty when the machine has no servers series. */
export function serversMachine(summary: Summary | null, host: string, hostRecord: Host | null | undefined): ServersMachine {
  const entries = serverEntries(summary, host);
  const shapes = new Map<string, { shape: Shape; builds: Map<string, { build: BuildOf; cpu: SummaryEntry | null; instructions: SummaryEntry | null }> }>();
  for (const e of entries) {
    const shape = shapeOf(e);
    const g = shapes.get(shapeId(shape)) ?? shapes.set(shapeId(shape), { shape, builds: new Map() }).get(shapeId(shape))!;
    const b =
      g.builds.get(buildSlug(e)) ??
      g.builds.set(buildSlug(e), { build: { library: e.library, version: e.version, variant: e.variant }, cpu: null, instructions: null }).get(buildSlug(e))!;
    if (e.metric === CPU_METRIC) b.cpu = e;
    else b.instructions = e;
  }
  const tables: ServerTable[] = [];
  const unusable = new Map<string, Unusable>();
  const upgrades: Upgrade[] = [];
  for (const { shape, builds } of [...shapes.values()].sort((a, b) => compareShapes(a.shape, b.shape))) {
    const rows: ServerRow[] = [];
    for (const b of [...builds.values()].sort((x, y) => compareBuilds(x.build, y.build))) {
      const unsupported = [b.cpu, b.instructions].find((e) => e?.status === 'unsupported');
      if (unsupported && [b.cpu, b.instructions].every((e) => !e || e.status === 'unsupported')) {
        const id = `${shape.server}|${shape.serverVersion}|${buildSlug(b.build)}`;
        if (!unusable.has(id))
          unusable.set(id, {
            server: shape.server,
            serverVersion: shape.serverVersion,
            build: b.build,
            name: libraryBuildName(b.build),
            status: unsupported.status,
            reason: unsupported.reason ?? null,
          });
        continue;
      }
      rows.push({ build: b.build, name: libraryBuildName(b.build), cpu: b.cpu, instructions: b.instructions, bound: boundOf(b.cpu) });
    }
    if (!rows.length) continue;
    const upgrade = upgradeOf(shape, rows);
    if (upgrade) upgrades.push(upgrade);
    // one table per run of the CPU times; rows without a CPU entry go with the first table
    const byRun = new Map<string | null, ServerRow[]>();
    for (const r of rows) byRun.set(r.cpu?.runId ?? null, [...(byRun.get(r.cpu?.runId ?? null) ?? []), r]);
    const orphans = byRun.get(null) ?? [];
    byRun.delete(null);
    const groups = [...byRun.entries()].sort((a, b) => b[1].length - a[1].length || a[0]!.localeCompare(b[0]!));
    if (!groups.length) groups.push([null, []]);
    groups[0]![1].push(...orphans);
    for (const [runId, list] of groups) {
      list.sort((x, y) => compareBuilds(x.build, y.build));
      const counts = new Map<string, number>();
      for (const r of list) if (r.bound) counts.set(r.bound.by, (counts.get(r.bound.by) ?? 0) + 1);
      tables.push({
        shape,
        runId,
        rows: list,
        bounds: [...counts].map(([by, n]) => ({ by, rows: n })).sort((a, b) => b.rows - a.rows || a.by.localeCompare(b.by)),
      });
    }
  }
  const byServer = [...unusable.values()].sort((a, b) => compareServers(a.server, b.server) || compareBuilds(a.build, b.build));
  return { host, logicalCpus: hostRecord?.logicalCpus ?? null, tables, unusable: byServer, upgrades };
}

/**
 * The machines the page shows, each in a section of its own: the project's machines (and a local build's own)
 * in the order the other pages rank them (hosts.ts rankHosts), then contributed machines by id.
 */
export function serverHosts(summary: Summary | null, runs: readonly HostRun[] = summary?.runs ?? []): string[] {
  const all = [...new Set((summary?.hosts ?? []).map((h) => h.id))];
  const ranked = rankHosts(all, runs);
  return [...ranked, ...all.filter((h) => !ranked.includes(h)).sort((a, b) => projectFirst(a, b) || a.localeCompare(b))];
}

export const serversView = (summary: Summary | null): ServersMachine[] =>
  serverHosts(summary).map((h) =>
    serversMachine(
      summary,
      h,
      summary?.hosts.find((x) => x.id === h),
    ),
  );

/** The CPU value and its interval as the tables print them. */
export function cpuCell(e: SummaryEntry | null): { value: string; interval: string | null; missing: string | null } {
  if (!e) return { value: 'not measured', interval: null, missing: 'not measured' };
  if (e.status !== 'measured' || !e.stats)
    return { value: e.status === 'measured' ? 'not measured' : e.status, interval: null, missing: `${e.status}${e.reason ? `: ${e.reason}` : ''}` };
  const iv = e.stats.interval;
  return { value: quantity(e.stats.median, e.unit, e.method), interval: iv ? quantityRange(iv.low, iv.high, e.unit, e.method) : null, missing: null };
}

const BOUND_WORDS: Record<string, string> = {
  client: 'the client (openssl s_time) was busy',
  server: 'the server was busy',
  neither: 'neither was busy: both waited',
};
export const boundWords = (by: string): string => BOUND_WORDS[by] ?? by;

/** "the client (openssl s_time) was busy in 3 of 3 windows": what the data say limited the rate, table by table. */
export function boundSummary(t: ServerTable): string | null {
  const with_ = t.rows.filter((r) => r.bound).length;
  if (!with_) return null;
  return t.bounds.map((b) => `${boundWords(b.by)} in ${b.rows} of ${with_} windows`).join('; ');
}

/** A share of one CPU as a percentage: 0.412 -> "41%". */
export const busyText = (x: number | null): string => (x === null ? 'not recorded' : `${Math.round(x * 100)}%`);
