// What the "Known issues" page shows, computed from summary.json at build time: per complaint of
// runner/known-issues/complaints.ts, its status series across versions on one host and the status.
import type { Summary, SummaryEntry } from '../../../schema/index.ts';
import { COMPLAINTS, OP_DEFS, lockClassSpec, lockSpec, type Complaint, type OpId } from '../../../runner/known-issues/complaints.ts';
import { CLASSED_KINDS, LOCK_CLASSES, LOCK_CLASS_TEXT, type ClassedKind, type LockClass } from '../../../runner/known-issues/lock-classes.ts';
import { seriesKey } from '../../../runner/benchmark.ts';
import { compareVersions } from '../../../catalogue/index.ts';
import { computeStatus, type RegressionStatus } from './regression-status.ts';
import { defaultHost } from './hosts.ts';

/** The one place that reads a value out of a summary entry. */
export function entryValue(e: SummaryEntry): { median: number | null; low: number | null; high: number | null; n: number; runId: string | null } {
  const s = e.status === 'measured' ? e.stats : null;
  return { median: s?.median ?? null, low: s?.interval?.low ?? null, high: s?.interval?.high ?? null, n: s?.n ?? 0, runId: e.runId };
}

export interface KnownIssuePoint {
  version: string;
  series: string;
  value: number | null;
  /** why there is no value: unsupported/failed with the library's reason, or "not measured" */
  missing: string | null;
  runId: string | null;
}

export interface KnownIssueRow {
  complaint: Complaint;
  host: string | null;
  unit: string | null;
  label: string | null;
  /** the method of the status series (deterministic: instructions, calls, heap bytes) */
  method: string | null;
  higherIsBetter: boolean;
  points: KnownIssuePoint[];
  status: RegressionStatus;
  /** the runs the points come from: more than one means the versions were not interleaved with each other */
  runs: string[];
  /** the complaint's lock and atomic calls by class of caller (Complaint.lockClassOps), one table per operation and kind */
  lockClasses: LockClassTable[];
}

export interface LockClassCell {
  value: number | null;
  /** why there is no value: "not measured", or unsupported/failed with the reason */
  missing: string | null;
  /** the class's immediate callers as the run observed them ("name count, ..."), and for a helper class the helper's callers */
  callers: string | null;
  via: string | null;
}

export interface LockClassTable {
  op: OpId;
  kind: ClassedKind;
  /** "full TLS 1.3 handshake", in words */
  title: string;
  versions: string[];
  /** the classes with a call in at least one version, in the table's order (LOCK_CLASSES) */
  rows: { cls: LockClass; text: string; cells: LockClassCell[] }[];
  /** the classes measured with no call in any version */
  zero: LockClass[];
  /** the kind's total per version (the lock-calls-per-op series the classes sum to) */
  total: (number | null)[];
  /** any class value on this host: false means the table is "not measured yet" */
  measured: boolean;
}

const defaultEntries = (summary: Summary, key: string) => summary.entries.filter((e) => e.key === key && e.variant === 'default');

/** Hosts with a measured status value of any complaint. */
export const measuredHosts = (summary: Summary | null): string[] =>
  summary
    ? [
        ...new Set(
          COMPLAINTS.flatMap((c) =>
            defaultEntries(summary, c.statusKey)
              .filter((e) => entryValue(e).median !== null)
              .map((e) => e.host),
          ),
        ),
      ]
    : [];

/** The default host (lib/hosts.ts, a project machine) among those with a measured status value: the page shows one host's runs. */
export const pickHost = (summary: Summary | null): string | null => (summary ? defaultHost(measuredHosts(summary), summary.runs) : null);

/** Default-variant versions the host measured anything on (the x axis of every chart), oldest first. */
export function hostVersions(summary: Summary | null, host: string | null): { version: string; series: string }[] {
  if (!summary || !host) return [];
  const seen = new Map<string, string>();
  for (const b of summary.builds) if (b.host === host && b.variant === 'default') seen.set(b.version, b.series);
  return [...seen].map(([version, series]) => ({ version, series })).sort((a, b) => compareVersions(a.version, b.version));
}

const cellOf = (e: SummaryEntry | undefined): LockClassCell => {
  if (!e) return { value: null, missing: 'not measured', callers: null, via: null };
  const v = entryValue(e).median;
  const text = (k: string) => (typeof e.observed?.[k] === 'string' ? (e.observed[k] as string) : null);
  return {
    value: v,
    missing: v !== null ? null : e.status === 'measured' ? 'not measured' : `${e.status}${e.reason ? `: ${e.reason}` : ''}`,
    callers: text('callers'),
    via: text('via'),
  };
};

const OP_TITLE: Partial<Record<OpId, string>> = {
  'tls13-handshake': 'full TLS 1.3 handshake',
  'tls13-resumed-handshake': 'resumed TLS 1.3 handshake (session ticket)',
};

/** Per operation and kind, the calls of each class by version on one host, from the lock-calls-by-class series. */
export function lockClassTables(summary: Summary | null, host: string | null, ops: OpId[]): LockClassTable[] {
  const versions = hostVersions(summary, host).map((v) => v.version);
  const find = (key: string, version: string) =>
    summary && host ? summary.entries.find((e) => e.key === key && e.variant === 'default' && e.host === host && e.version === version) : undefined;
  const tables: LockClassTable[] = [];
  for (const op of ops)
    for (const kind of CLASSED_KINDS) {
      const all = LOCK_CLASSES.map((cls) => {
        const key = seriesKey(lockClassSpec(OP_DEFS[op], kind, cls));
        return { cls, text: LOCK_CLASS_TEXT[cls], cells: versions.map((v) => cellOf(find(key, v))) };
      });
      const measured = all.some((r) => r.cells.some((c) => c.value !== null));
      const totalKey = seriesKey(lockSpec(OP_DEFS[op], kind));
      tables.push({
        op,
        kind,
        title: OP_TITLE[op] ?? op,
        versions,
        rows: all.filter((r) => r.cells.some((c) => c.value !== null && c.value > 0)),
        zero: all.filter((r) => r.cells.some((c) => c.value !== null) && r.cells.every((c) => c.value === null || c.value === 0)).map((r) => r.cls),
        total: versions.map((v) => cellOf(find(totalKey, v)).value),
        measured,
      });
    }
  return tables;
}

export function knownIssueRows(summary: Summary | null): KnownIssueRow[] {
  const host = pickHost(summary);
  const versions = hostVersions(summary, host);
  return COMPLAINTS.map((complaint) => {
    const entries = summary && host ? defaultEntries(summary, complaint.statusKey).filter((e) => e.host === host) : [];
    const points = versions.map(({ version, series }): KnownIssuePoint => {
      const e = entries.find((x) => x.version === version);
      if (!e) return { version, series, value: null, missing: 'not measured', runId: null };
      const v = entryValue(e);
      const missing = v.median !== null ? null : e.status === 'measured' ? 'not measured' : `${e.status}${e.reason ? `: ${e.reason}` : ''}`;
      return { version, series, value: v.median, missing, runId: v.runId };
    });
    const first = entries[0];
    const higherIsBetter = first?.higherIsBetter ?? false;
    const status = computeStatus(points, { higherIsBetter });
    const runs = [...new Set(points.filter((p) => p.value !== null).map((p) => p.runId ?? 'unknown'))];
    const lockClasses = complaint.lockClassOps ? lockClassTables(summary, host, complaint.lockClassOps) : [];
    return {
      complaint,
      host: entries.length ? host : null,
      unit: first?.unit ?? null,
      label: first?.label ?? null,
      method: first?.method ?? null,
      higherIsBetter,
      points,
      status,
      runs,
      lockClasses,
    };
  });
}
