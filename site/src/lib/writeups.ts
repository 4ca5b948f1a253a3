// The write-up format (frontmatter of site/src/content/writeups/*.md) and what a write-up page draws from
// the data: one chart per series and run, in units a reader knows. Pure functions, unit-tested.
//
// A write-up in short (site/src/content/writeups/evp-pkey-public-check.md is a full example):
//
//   title: "…"                       public words: no internal names, no measured numbers
//   summary: "…"
//   versions: ["3.1.2", "3.1.3"]      the charts show these versions (a series may narrow them)
//   series:                           what the page charts; claims test only these
//     - { id: check-p256, label: "check, P-256", key: "handshake/instructions-in-function[…]", caption: "…" }
//   claims:
//     - id: twice-in-312
//       text: "3.1.2 spends about twice as many instructions in the check as 3.1.3."   (no measured numbers)
//       by: ours                      or a study id; a study's claim carries `quote:` (its words, its figures)
//       tests:                        one series on two builds, or two series on each listed build
//         - { series: check-p256, builds: ["3.1.2", "3.1.3"], expect: between, range: [0.8, 1.2] }
//         - { series: [check-x25519, check-p256], builds: ["3.1.2"], expect: lower, threshold: 99 }
//       hostSpecific: { flags: [avx512ifma], why: "…" }      optional: the result rides on a CPU feature
//     - id: pr-cache-faster            a study's quoted size, on its own terms; CPU time decides a claim about time
//       by: pr-21426
//       quote: "…approx. 5 times faster…"
//       tests:
//         - { series: pem-cpu, builds: ["3.2.1", "3.1.4"], expect: magnitude, value: 0.2, tolerance: 0.25 }
//         - { series: pem-instructions, builds: ["3.2.1", "3.1.4"], expect: magnitude, value: 0.2, tolerance: 0.25, role: supports }
//     - id: cause
//       text: "…"
//       unverified: "why our data cannot test it"             instead of tests
//   studies: [{ id, title, short, by, url?, setup, cannotReproduce? }]
//   upstream: [{ kind: pull | issue, number, title (as on GitHub, checked), note }]
//   commits: [{ id, note, checked }]  only ids checked against OpenSSL's history, saying how
//   reproduce: "npm run reproduce -- <this write-up's slug>"   (experiments/reproduce: a verdict per claim on the reader's machine)
//
// expect: higher | lower | better | worse (by the metric's direction) | same (within the threshold) |
// between (a relative change in range) | share (the first as a fraction of the second) | magnitude (a
// study's quoted ratio `value` of the first to the second, within `tolerance` either way; study claims only,
// which use it instead of `between`). role: decides (default) | supports (shown, never decides). Verdicts and
// the rules behind them: claims/ (schema.ts the format, evaluate.ts the verdicts).
import { z } from 'zod';
import type { Summary, SummaryEntry, Unit } from '../../../schema/index.ts';
import { compareReleases } from '../../../catalogue/index.ts';
import { Claim, Study, WriteupSeries, crossCheck, ownWords, parseBuild } from './claims/schema.ts';
import { projectFirst } from './hosts.ts';

const version = z.string().regex(/^\d+\.\d+\.\d+[a-z]?$/, 'an OpenSSL release such as 3.5.7 or 1.1.1w');

/** A change in OpenSSL's history, cited by its pull request or issue (title as on GitHub, checked). */
export const Upstream = z.object({
  kind: z.enum(['pull', 'issue']),
  number: z.int().positive(),
  /** the title as it stands on github.com/openssl/openssl */
  title: z.string().min(1).max(200),
  note: ownWords(400),
});
export type Upstream = z.infer<typeof Upstream>;

/** A commit, cited only once its id was checked against OpenSSL's history; `checked` says how. */
export const CheckedCommit = z.object({
  id: z.string().regex(/^[0-9a-f]{7,40}$/, 'a git commit id (7 to 40 lowercase hex digits)'),
  note: ownWords(300),
  checked: z.string().min(1).max(300),
});

export const WriteupFrontmatter = z
  .object({
    title: ownWords(200),
    summary: ownWords(600),
    versions: z.array(version).min(1),
    /** summary.json series the page charts; claims test these */
    series: z.array(WriteupSeries).min(1),
    claims: z.array(Claim).min(1),
    /** the studies whose claims this write-up quotes */
    studies: z.array(Study).default([]),
    upstream: z.array(Upstream).default([]),
    commits: z.array(CheckedCommit).default([]),
    /** the exact command that reproduces the experiment: npm run reproduce -- <slug> */
    reproduce: z.string().min(1).max(500),
    /** related pages on this site, e.g. /hypothesis */
    related: z.array(z.object({ href: z.string().regex(/^\/[a-z0-9/#?=&._-]*$/), label: z.string() })).default([]),
    order: z.int().default(100),
    /** listed on the home page under "why is 3.5 slower than 3.4 with default settings"; by default when
     * the write-up is about the 3.4 -> 3.5 step (names a 3.5 release and nothing older than 3.4) */
    headline: z.boolean().optional(),
  })
  .superRefine((w, ctx) => {
    for (const issue of crossCheck(w)) ctx.addIssue({ code: 'custom', path: issue.path, message: issue.message });
  });
export type WriteupFrontmatter = z.infer<typeof WriteupFrontmatter>;

// ------------------------------------------------------------------ units a reader knows

export interface Scale {
  /** divide a value by this before printing it */
  divisor: number;
  /** printed after the number, e.g. "µs", "MB/s" */
  suffix: string;
  /** what the axis counts, in full, e.g. "µs per handshake" */
  label: string;
}

/** A unit for a set of values (one chart, one table): the same scale for every row. */
export function scaleFor(unit: Unit, values: readonly number[]): Scale {
  const max = Math.max(0, ...values.map(Math.abs));
  switch (unit) {
    case 'us/handshake':
      return { divisor: 1, suffix: 'µs', label: 'µs per handshake' };
    case 'us/op':
      return { divisor: 1, suffix: 'µs', label: 'µs per operation' };
    case 'bytes/s':
      return max >= 1e9 ? { divisor: 1e9, suffix: 'GB/s', label: 'GB/s' } : { divisor: 1e6, suffix: 'MB/s', label: 'MB/s' };
    case 'ops/s':
      return { divisor: 1, suffix: '/s', label: 'operations per second' };
    case 'handshakes/s':
      return { divisor: 1, suffix: '/s', label: 'handshakes per second' };
    case 'connections/s':
      return { divisor: 1, suffix: '/s', label: 'connections per second' };
    case 'instructions':
      return max >= 1e6
        ? { divisor: 1e6, suffix: 'M', label: 'million instructions' }
        : max >= 1e4
          ? { divisor: 1e3, suffix: 'k', label: 'thousand instructions' }
          : { divisor: 1, suffix: '', label: 'instructions' };
    case 'bytes':
      return max >= 10 * 1024 ? { divisor: 1024, suffix: 'KiB', label: 'KiB' } : { divisor: 1, suffix: 'B', label: 'bytes' };
    case 'count':
      return { divisor: 1, suffix: '', label: 'count' };
  }
}

/** Up to four significant digits, thousands grouped: the precision a chart label needs. */
export function scaled(v: number, s: Scale): string {
  const x = v / s.divisor;
  const abs = Math.abs(x);
  const text =
    abs >= 1000 ? Math.round(x).toLocaleString('en-US') : abs === 0 ? '0' : Number(x.toPrecision(4)).toLocaleString('en-US', { maximumFractionDigits: 6 });
  return s.suffix ? `${text} ${s.suffix}` : text;
}

// ------------------------------------------------------------------ charts: one per series and run

export interface ChartRow {
  version: string;
  variant: string;
  entry: SummaryEntry;
  /** null when the row has no measured value (its status and reason say why) */
  median: number | null;
}

export interface Chart {
  host: string;
  runId: string;
  /** the run is quiet and named on the chart; a series measured in several runs gets one chart per run */
  rows: ChartRow[];
  unit: Unit;
  scale: Scale;
  higherIsBetter: boolean;
  method: string;
  deterministic: boolean;
  /** largest value a bar must reach: the upper end of an interval where there is one */
  max: number;
}

/** Whether a write-up's claims name another library's build: only then do its charts show other libraries. */
export const namesOtherLibraries = (w: { claims: readonly Claim[] }): boolean =>
  w.claims.some((c) => c.tests.some((t) => t.builds.some((b) => parseBuild(b).library !== 'openssl')));

/**
 * Entries of one series (optionally limited to OpenSSL versions), split by host and run, OpenSSL's releases
 * first, oldest first. Other libraries' builds of the series are shown only with `otherLibraries` (a write-up
 * about them), all of them.
 */
export function seriesCharts(summary: Summary | null, key: string, versions?: readonly string[], otherLibraries = false): Chart[] {
  if (!summary) return [];
  const entries = summary.entries.filter(
    (e) => e.key === key && (e.library === 'openssl' ? !versions?.length || versions.includes(e.version) : otherLibraries),
  );
  const groups = new Map<string, SummaryEntry[]>();
  for (const e of entries) {
    const g = `${e.host}\u0000${e.runId}`;
    groups.set(g, [...(groups.get(g) ?? []), e]);
  }
  const charts = [...groups.values()].map((list): Chart => {
    const rows = list
      .sort((a, b) => compareReleases(a, b) || (a.variant === 'default' ? -1 : b.variant === 'default' ? 1 : a.variant.localeCompare(b.variant)))
      .map((e) => ({ version: e.version, variant: e.variant, entry: e, median: e.status === 'measured' && e.stats ? e.stats.median : null }));
    const values = rows.flatMap((r) => (r.median === null ? [] : [r.median, r.entry.stats?.interval?.high ?? r.median]));
    const first = list[0]!;
    return {
      host: first.host,
      runId: first.runId,
      rows,
      unit: first.unit,
      scale: scaleFor(first.unit, values),
      higherIsBetter: first.higherIsBetter,
      method: first.method,
      deterministic: rows.some((r) => r.entry.stats?.deterministic),
      max: Math.max(0, ...values),
    };
  });
  // a project machine's first (a contributed host never leads a write-up's figure), then the run that covers most rows, then by host and run id
  return charts.sort((a, b) => projectFirst(a.host, b.host) || b.rows.length - a.rows.length || a.host.localeCompare(b.host) || a.runId.localeCompare(b.runId));
}

/** Bar geometry in percent of the track: the median's bar and the interval's band. */
export function barGeometry(row: ChartRow, max: number): { bar: number; low: number | null; high: number | null } {
  if (row.median === null || max <= 0) return { bar: 0, low: null, high: null };
  const pct = (v: number) => Math.max(0, Math.min(100, (v / max) * 100));
  const iv = row.entry.stats?.interval ?? null;
  return { bar: pct(row.median), low: iv ? pct(iv.low) : null, high: iv ? pct(iv.high) : null };
}

const METHOD_WORDS: Record<string, string> = {
  'wall-clock-throughput': 'wall-clock throughput',
  'cpu-time-client': 'CPU time of the client',
  'cpu-time-server': 'CPU time of the server',
  'cpu-time-both': 'CPU time of client and server',
  'instruction-count': 'instruction count under valgrind (deterministic)',
  'heap-bytes': "heap bytes through OpenSSL's allocator hooks (deterministic)",
  'wire-bytes': 'bytes on the wire (deterministic)',
  'client-user-cpu': "openssl s_time: the client's user CPU",
  'openssl-speed': "openssl speed's own measurement",
};
export const methodWords = (m: string): string => METHOD_WORDS[m] ?? m;
