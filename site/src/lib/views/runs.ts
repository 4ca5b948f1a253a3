// The /runs tables as downloads (run files, hypothesis and MTU result files), and each file's quiet-host
// status in words (quietOf, evidenceOf), which the methodology page's run plans use too.
import { listResultFiles, loadSummary, type RunFile, type RunIndexEntry } from '../data.ts';
import type { View } from './format.ts';

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
