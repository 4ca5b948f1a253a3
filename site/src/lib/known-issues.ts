// What the "Known issues" page shows, computed from summary.json at build time: per complaint of
// runner/known-issues/complaints.ts, its status series across versions on one host and the status.
import type { Summary, SummaryEntry } from '../../../schema/index.ts';
import { COMPLAINTS, type Complaint } from '../../../runner/known-issues/complaints.ts';
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
}

const defaultEntries = (summary: Summary, key: string) => summary.entries.filter((e) => e.key === key && e.variant === 'default');

/** Hosts with a measured status value of any complaint. */
export const measuredHosts = (summary: Summary | null): string[] =>
  summary ? [...new Set(COMPLAINTS.flatMap((c) => defaultEntries(summary, c.statusKey).filter((e) => entryValue(e).median !== null).map((e) => e.host)))] : [];

/** The default host (lib/hosts.ts, a project machine) among those with a measured status value: the page shows one host's runs. */
export const pickHost = (summary: Summary | null): string | null => (summary ? defaultHost(measuredHosts(summary), summary.runs) : null);

/** Default-variant versions the host measured anything on (the x axis of every chart), oldest first. */
export function hostVersions(summary: Summary | null, host: string | null): { version: string; series: string }[] {
  if (!summary || !host) return [];
  const seen = new Map<string, string>();
  for (const b of summary.builds) if (b.host === host && b.variant === 'default') seen.set(b.version, b.series);
  return [...seen].map(([version, series]) => ({ version, series })).sort((a, b) => compareVersions(a.version, b.version));
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
    return { complaint, host: entries.length ? host : null, unit: first?.unit ?? null, label: first?.label ?? null, method: first?.method ?? null, higherIsBetter, points, status, runs };
  });
}
