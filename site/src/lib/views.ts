// "Download this view": every table view of the version, runs, methodology and MTU pages as CSV and JSON,
// served from /data/views/<id>.csv|json. Values are raw (full precision, base units); the page formats them.
import { versionRows } from './versions-list.ts';
import type { Build, Host, MtuResults, SummaryEntry } from '../../../schema/index.ts';
import { MtuResults as MtuSchema } from '../../../schema/index.ts';
import { listResultFiles, loadOpenSSLSummary, loadResults, loadRunIndex, loadRuns, loadSummary, type RunFile, type RunIndexEntry } from './data.ts';
import { CPU_FLAGS } from './cpu-flags.ts';
import { toCsv, windowsWords } from './format.ts';
import { entriesOf, versionPages, versionSlug } from './model.ts';
import { planAt } from './mtu.ts';
import { url } from './url.ts';
import { headlines } from './version/headlines.ts';
import { metricNote } from '../../../runner/handshake/handshake.ts';

export interface View {
  /** path under /data/views/, without extension */
  id: string;
  title: string;
  columns: string[];
  rows: unknown[][];
}

export const viewHref = (id: string, format: 'csv' | 'json'): string => url(`/data/views/${id}.${format}`);

export function viewCsv(v: View): string {
  return toCsv(v.columns, v.rows);
}

/** JSON: the title, and one object per row keyed by column. */
export function viewJson(v: View): string {
  return JSON.stringify({ title: v.title, rows: v.rows.map((r) => Object.fromEntries(v.columns.map((c, i) => [c, r[i] ?? null]))) });
}

// ------------------------------------------------------------------ summary entries

const ENTRY_COLUMNS = [
  'host',
  'version',
  'variant',
  'runId',
  'benchmark',
  'metric',
  'key',
  'label',
  'unit',
  'method',
  'higherIsBetter',
  'params',
  'observed',
  'comparableAcrossVersions',
  'status',
  'reason',
  'n',
  'median',
  'min',
  'max',
  'cv',
  'deterministic',
  'intervalLow',
  'intervalHigh',
  'intervalCoverage',
  'intervalKind',
  ...(['previousSeries', 'baseline'] as const).flatMap((s) =>
    ['Against', 'Ratio', 'Pairing', 'Pairs', 'Low', 'High', 'Coverage', 'Verdict'].map((c) => `${s}${c}`),
  ),
];

function entryRow(e: SummaryEntry): unknown[] {
  const s = e.status === 'measured' ? e.stats : null;
  const cmp = (c: SummaryEntry['vsBaseline']) =>
    c ? [c.against, c.ratio, c.pairing, c.pairs, c.interval?.low, c.interval?.high, c.interval?.coverage, c.verdict] : Array(8).fill(null);
  return [
    e.host,
    e.version,
    e.variant,
    e.runId,
    e.benchmark,
    e.metric,
    e.key,
    e.label,
    e.unit,
    e.method,
    e.higherIsBetter,
    JSON.stringify(e.params),
    e.observed ? JSON.stringify(e.observed) : null,
    e.comparability.acrossVersions,
    e.status,
    e.reason,
    s?.n,
    s?.median,
    s?.min,
    s?.max,
    s?.cv,
    s?.deterministic,
    s?.interval?.low,
    s?.interval?.high,
    s?.interval?.coverage,
    s?.interval?.kind,
    ...cmp(e.vsPreviousSeries),
    ...cmp(e.vsBaseline),
  ];
}

export function entryView(id: string, title: string, entries: readonly SummaryEntry[]): View {
  return { id, title, columns: ENTRY_COLUMNS, rows: entries.map(entryRow) };
}

export const versionViewId = (host: string, slug: string, part: 'all' | 'headline') => `versions/${host}/${slug}${part === 'all' ? '' : `-${part}`}`;

// ------------------------------------------------------------------ hosts, builds, runs

export function hostsView(hosts: readonly Host[]): View {
  return {
    id: 'methodology/hosts',
    title: 'Hosts the runs were taken on, with every recorded CPU flag (empty: not recorded)',
    columns: ['host', 'arch', 'cpuModel', 'logicalCpus', 'memoryBytes', 'kernel', 'os', 'virtualization', 'cpuGovernor', 'boost', 'smt', ...CPU_FLAGS],
    rows: hosts.map((h) => [
      h.id,
      h.arch,
      h.cpuModel,
      h.logicalCpus,
      h.memoryBytes,
      h.kernel,
      h.os,
      h.virtualization,
      h.cpuGovernor,
      h.boost ?? null,
      h.smt ?? null,
      ...CPU_FLAGS.map((f) => h.cpuFlags[f] ?? null),
    ]),
  };
}

export function buildsView(builds: readonly (Build & { host: string })[]): View {
  return {
    id: 'methodology/builds',
    title: 'Builds: toolchain, options and the CPU capability vector each reported on its host',
    columns: [
      'host',
      'version',
      'variant',
      'buildId',
      'versionString',
      'sourceKind',
      'sourceName',
      'sha256',
      'configureArgs',
      'compiler',
      'cflags',
      'cpuCapabilities',
    ],
    rows: builds.map((b) => [
      b.host,
      b.version,
      b.variant,
      b.id,
      b.versionString,
      b.source.kind,
      b.source.name,
      b.source.sha256,
      b.configureArgs.join(' '),
      b.compiler,
      b.cflags,
      b.cpuCapabilities ?? null,
    ]),
  };
}

/** Why a run is not quiet, in words: the summary's reasons, else the run file's own evidence. */
export function quietOf(r: RunFile, summaryRuns: readonly { runId: string; quiet: boolean; quietReasons: string[] }[]): { quiet: boolean; reasons: string[] } {
  const s = summaryRuns.find((x) => x.runId === r.runId);
  if (s) return { quiet: s.quiet, reasons: s.quietReasons };
  return evidenceOf(r.run.quiet);
}

/** Quiet-host evidence of any result file (run, hypothesis, MTU), read loosely: absent evidence is not quiet. */
export function evidenceOf(q: unknown): { quiet: boolean; reasons: string[] } {
  const ev = q as { quiet?: boolean; exclusive?: boolean; before?: { reasons?: string[] }; rounds?: { round: number; reasons?: string[] }[] } | undefined;
  if (!ev || typeof ev.quiet !== 'boolean') return { quiet: false, reasons: ['recorded without quiet-host evidence'] };
  const reasons = [
    ...(ev.exclusive === false ? ['did not hold the host measurement lock'] : []),
    ...(ev.before?.reasons ?? []).map((x) => `before the start: ${x}`),
    ...(ev.rounds ?? []).flatMap((r) => (r.reasons ?? []).map((x) => `round ${r.round}: ${x}`)),
  ];
  return { quiet: ev.quiet, reasons: ev.quiet ? [] : reasons.length ? reasons : ['marked not quiet'] };
}

/** The /runs table as a download: every run of every host (from the time series), not-quiet ones with their reasons. */
export function runsView(runs: readonly RunIndexEntry[]): View {
  const summary = loadSummary();
  const used = new Set(summary?.entries.map((e) => e.runId) ?? []);
  return {
    id: 'runs',
    title: 'Every run file, with its quiet-host status',
    columns: ['runId', 'host', 'mode', 'startedAt', 'finishedAt', 'builds', 'series', 'benchmarks', 'quiet', 'notQuietReasons', 'feedsTheSummary', 'file'],
    rows: runs.map((r) => [
      r.runId,
      r.host,
      r.mode,
      r.startedAt,
      r.finishedAt,
      r.builds,
      r.series,
      r.benchmarks.join(' '),
      r.quiet,
      r.quietReasons.join('; '),
      used.has(r.runId),
      `data/${r.path}`,
    ]),
  };
}

export interface ResultFileRow {
  kind: 'hypothesis' | 'mtu';
  path: string;
  host: string;
  id: string;
  at: string;
  quiet: boolean;
  reasons: string[];
}

/** The hypothesis and MTU result files, for /runs. */
export function resultFileRows(): ResultFileRow[] {
  const rows: ResultFileRow[] = [];
  for (const kind of ['hypothesis', 'mtu'] as const)
    for (const f of listResultFiles(kind)) {
      const v = f.value as { runId?: string; startedAt?: string; generatedAt?: string; host?: { id?: string }; quiet?: unknown };
      const q = evidenceOf(v.quiet);
      rows.push({
        kind,
        path: f.path,
        host: v.host?.id ?? '',
        id:
          v.runId ??
          f.path
            .split('/')
            .pop()!
            .replace(/\.json$/, ''),
        at: v.startedAt ?? v.generatedAt ?? '',
        quiet: q.quiet,
        reasons: q.reasons,
      });
    }
  return rows;
}

export function resultFilesView(): View {
  return {
    id: 'runs-results',
    title: 'Hypothesis and MTU result files',
    columns: ['kind', 'id', 'host', 'at', 'quiet', 'notQuietReasons', 'file'],
    rows: resultFileRows().map((r) => [r.kind, r.id, r.host, r.at, r.quiet, r.reasons.join('; '), `data/${r.path}`]),
  };
}

// ------------------------------------------------------------------ MTU

export const mtuViewId = (host: string, table: string) => `mtu/${host}/${table}`;

export function mtuViews(r: MtuResults): View[] {
  const small = r.model.maxDatagramSizes[0]!;
  const sizes = r.model.maxDatagramSizes;
  const shares = (s?: { group: string; bytes: number }[]) => (s ? s.map((x) => `${x.group}:${x.bytes}`).join(' ') : null);
  return [
    {
      id: mtuViewId(r.host.id, 'client-hellos'),
      title: `ClientHello sizes and Initial packets on ${r.host.id}`,
      columns: [
        'version',
        'config',
        'clientGroups',
        'status',
        'reason',
        'keyShares',
        'clientHelloTcpBytes',
        'clientHelloQuicBytes',
        'quicStatus',
        ...sizes.map((s) => `initialPacketsAt${s}`),
        `clientBytesAt${small}`,
        `serverBudgetAt${small}`,
        'measuredFirstFlightDatagrams',
        'measuredFirstFlightBytes',
        'modelAgrees',
        'negotiatedGroup',
      ],
      rows: r.clientHellos.map((c) => {
        const p = planAt(c.plans, small);
        return [
          c.version,
          c.config.label,
          c.config.clientGroups,
          c.status,
          c.reason ?? null,
          shares(c.quic?.keyShares ?? c.tcp?.keyShares),
          c.tcp?.messageBytes,
          c.quic?.messageBytes,
          c.quicStatus ?? null,
          ...sizes.map((s) => planAt(c.plans, s)?.packets ?? null),
          p?.bytesSent,
          p?.serverBudgetBytes,
          c.measuredFirstFlight?.datagrams,
          c.measuredFirstFlight?.bytesSent,
          c.measuredFirstFlight?.matchesModelAt1200,
          c.negotiatedGroup ?? null,
        ];
      }),
    },
    {
      id: mtuViewId(r.host.id, 'server-flights'),
      title: `Server first flight against the amplification budget on ${r.host.id}, at ${small}-byte datagrams`,
      columns: [
        'version',
        'config',
        'cert',
        'status',
        'reason',
        'chainDerBytes',
        'certificateMessageBytes',
        'tcpFlightBytes',
        'quicFlightBytes',
        'budgetBytes',
        'fitsBudget',
        'datagramsWithinBudget',
        'datagrams',
      ],
      rows: r.serverFlights.map((s) => {
        const p = planAt(s.plans, small);
        return [
          s.version,
          s.config.label,
          s.cert,
          s.status,
          s.reason ?? null,
          s.chain?.reduce((a, c) => a + c.derBytes, 0),
          s.messages?.certificate,
          s.tcpFlightBytes,
          p?.bytes,
          p?.budgetBytes,
          p?.fitsBudget,
          p?.datagramsWithinBudget,
          p?.datagrams,
        ];
      }),
    },
    {
      id: mtuViewId(r.host.id, 'hello-retries'),
      title: `HelloRetryRequests on ${r.host.id}`,
      columns: [
        'version',
        'config',
        'status',
        'reason',
        'helloRetryRequest',
        'firstKeyShares',
        'retryKeyShares',
        'clientHelloBytes',
        'extraRoundTrips',
        'handshakeCompleted',
        'libraryError',
        'negotiatedGroup',
      ],
      rows: r.helloRetries.map((h) => [
        h.version,
        h.config.label,
        h.status,
        h.reason ?? null,
        h.helloRetryRequest,
        shares(h.firstKeyShares),
        shares(h.retryKeyShares),
        h.clientHelloBytes?.join(' '),
        h.extraRoundTrips,
        h.handshakeCompleted,
        h.libraryError,
        h.negotiatedGroup,
      ]),
    },
    {
      id: mtuViewId(r.host.id, 'quic-handshakes'),
      title: `Real QUIC handshakes on ${r.host.id}`,
      columns: [
        'version',
        'config',
        'cert',
        'retry',
        'status',
        'reason',
        'datagrams',
        'clientFirstFlightBytes',
        'serverBytesBeforeValidation',
        'amplificationLimitRespected',
        'clientFlightsToFinished',
        'modelAgrees',
        'modelNote',
      ],
      rows: r.quicHandshakes.map((q) => [
        q.version,
        q.config.label,
        q.cert,
        q.retry,
        q.status,
        q.reason ?? null,
        q.datagrams?.length,
        q.clientFirstFlightBytes,
        q.serverBytesBeforeValidation,
        q.amplificationLimitRespected,
        q.clientFlightsToFinished,
        q.model?.agrees,
        q.model?.note,
      ]),
    },
    {
      id: mtuViewId(r.host.id, 'assumptions'),
      title: `Packet model assumptions (${r.host.id})`,
      columns: ['name', 'value', 'unit', 'source'],
      rows: r.model.assumptions.map((a) => [a.name, a.value, a.unit, a.source]),
    },
  ];
}

// ------------------------------------------------------------------ every view the site offers

export function allViews(): View[] {
  const summary = loadOpenSSLSummary();
  const runs = loadRuns();
  const views: View[] = [runsView(loadRunIndex()), resultFilesView()];
  if (summary) {
    const pages = versionPages(summary);
    const list = versionRows(summary, pages);
    views.push({
      id: 'versions/index',
      title: 'Every build with results',
      columns: [
        'version',
        'variant',
        'slug',
        'released',
        'seriesSupport',
        'seriesEndOfLife',
        'headlineHost',
        'headlineKey',
        'headlineMedian',
        'headlineUnit',
        'vsPreviousSeries',
        'vsPreviousRatio',
        'vsPreviousVerdict',
        'hosts',
        'measuredSeries',
      ],
      rows: list.rows.map(({ page: p, released, series, headline: h }) => [
        p.version,
        p.variant,
        p.slug,
        released,
        series?.support ?? null,
        series?.endOfLife ?? null,
        h ? list.host : null,
        h?.entry.key ?? null,
        h?.entry.stats?.median ?? null,
        h?.entry.unit ?? null,
        h?.entry.vsPreviousSeries?.against ?? null,
        h?.entry.vsPreviousSeries?.ratio ?? null,
        h?.entry.vsPreviousSeries?.verdict ?? null,
        p.hosts.join(' '),
        summary.entries.filter((e) => versionSlug(e.version, e.variant) === p.slug && e.status === 'measured').length,
      ]),
    });
    for (const p of pages)
      for (const host of p.hosts) {
        const entries = entriesOf(summary, host, p.version, p.variant);
        views.push(entryView(versionViewId(host, p.slug, 'all'), `Every entry of ${p.slug} on ${host}`, entries));
        views.push(
          entryView(
            versionViewId(host, p.slug, 'headline'),
            `Headline figures of ${p.slug} on ${host}`,
            headlines(entries).rows.map((r) => r.entry),
          ),
        );
      }
  }
  const hosts = summary?.hosts.length ? summary.hosts : [...new Map(runs.map((r) => [r.run.host.id, r.run.host])).values()];
  views.push(hostsView(hosts));
  views.push({
    id: 'methodology/run-plans',
    title: 'How each run was taken',
    columns: ['runId', 'mode', 'benchmarks', 'rounds', 'warmupRounds', 'timedWindows', 'quiet', 'notQuietReasons', 'harnessCommit', 'harnessDirty'],
    rows: runs.map((r) => {
      const q = quietOf(r, summary?.runs ?? []);
      return [
        r.runId,
        r.run.mode,
        r.run.plan.benchmarks.join(' '),
        r.run.plan.rounds,
        r.run.plan.warmupRounds,
        windowsWords(r.run),
        q.quiet,
        q.reasons.join('; '),
        r.run.harness.gitCommit,
        r.run.harness.gitDirty,
      ];
    }),
  });
  if (summary)
    views.push({
      id: 'methodology/metrics',
      title: 'What each metric measures',
      columns: ['benchmark', 'metric', 'labels', 'note', 'unit', 'method', 'comparableAcrossVersions', 'reason'],
      rows: [...new Map(summary.entries.map((e) => [`${e.benchmark}/${e.metric}`, e])).values()].map((e) => {
        const labels = [
          ...new Set(summary.entries.filter((x) => x.benchmark === e.benchmark && x.metric === e.metric).map((x) => x.label.split(';')[0]!.trim())),
        ];
        return [
          e.benchmark,
          e.metric,
          labels.join(' | '),
          metricNote(e.benchmark, e.metric),
          e.unit,
          e.method,
          e.comparability.acrossVersions,
          e.comparability.reason ?? null,
        ];
      }),
    });
  views.push(buildsView(summary?.builds.length ? summary.builds : runs.flatMap((r) => r.run.builds.map((b) => ({ ...b, host: r.host })))));
  for (const f of loadResults('mtu', MtuSchema)) views.push(...mtuViews(f.result));
  return views;
}
