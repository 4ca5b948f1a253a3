// What the validator reports: the problems per file and per change, and the two ways it is read (the
// pull request's Markdown summary, and log lines that GitHub Actions cannot take for workflow commands).
import type { Run } from '../../schema/index.ts';
import { mib } from './limits.ts';

export interface Problem {
  file: string;
  /** JSON path inside the file, "$" for the file as a whole */
  path: string;
  message: string;
}
export type ChangeStatus = 'added' | 'modified' | 'deleted' | 'other';
export interface ChangedFile {
  path: string;
  status: ChangeStatus;
}
export interface FileReport {
  file: string;
  run?: Run;
  kind?: string;
  newHost?: boolean;
  /** not a reason to refuse, but something a maintainer must look at before merging (e.g. a new host) */
  review?: string[];
  /** bytes stored */
  bytes?: number;
  /** measured series keys that no accepted run has, and how many runs this host already had */
  adds?: { newKeys: number; earlierRunsOfHost: number; summaryBytes?: number };
  problems: Problem[];
}
export interface Report {
  ok: boolean;
  mode: 'submission' | 'runner';
  files: FileReport[];
  problems: Problem[];
}

/** Untrusted text inside Markdown: no markup, no links, no table breaks, one line. */
export function mdText(s: string, max = 120): string {
  const clipped = s.length > max ? `${s.slice(0, max)}…` : s;
  return clipped.replace(/[\r\n\t]+/g, ' ').replace(/[&<>"'`|*_[\]#\\~{}]/g, (c) => `&#${c.charCodeAt(0)};`);
}

export function formatSummary(report: Report): string {
  const reviews = report.files.flatMap((f) => f.review ?? []);
  const lines = [`## Run submission: ${report.ok ? (reviews.length ? "valid, needs a maintainer's review" : 'accepted') : 'rejected'}`, ''];
  for (const f of report.files) {
    lines.push(`### \`${mdText(f.file.replace(/`/g, "'"))}\`${f.problems.length ? ' (rejected)' : ''}`, '');
    const run = f.run;
    if (!run && f.kind && !f.problems.length) lines.push(`- ${mdText(f.kind)} result`, '');
    if (run) {
      const measured = run.series.filter((s) => s.status === 'measured').length;
      const versions = [...new Set(run.builds.map((b) => (b.variant === 'default' ? b.version : `${b.version} ${b.variant}`)))];
      lines.push(
        `- host **${mdText(run.host.id)}**${f.newHost ? ' (new host)' : ''}: ${mdText(run.host.cpuModel)}, ${run.host.logicalCpus} logical CPUs, ${mdText(run.host.arch)}, ${mdText(run.host.os)}, governor ${mdText(run.host.cpuGovernor ?? 'unknown')}${run.host.virtualization ? `, virtualised (${mdText(run.host.virtualization)})` : ''}`,
        `- ${run.mode} run \`${mdText(run.runId)}\`, ${mdText(run.startedAt)} to ${mdText(run.finishedAt)}, ${run.plan.rounds} rounds + ${run.plan.warmupRounds} warm-up`,
        `- versions: ${versions.map((v) => mdText(v)).join(', ')}`,
        `- benchmarks: ${run.plan.benchmarks.map((b) => mdText(b)).join(', ')}; ${measured} measured series, ${run.series.length - measured} unsupported or failed`,
        ...(f.adds
          ? [
              `- adds ${f.adds.newKeys} measured series that no accepted run has; ${f.adds.earlierRunsOfHost} earlier run(s) from this host${f.adds.summaryBytes ? `; about ${mib(f.adds.summaryBytes)} more in data/summary.json` : ''}`,
            ]
          : []),
        '',
      );
    }
    for (const r of f.review ?? []) lines.push(`- **needs review:** ${mdText(r, 300)}`);
    if (f.review?.length) lines.push('');
  }
  const all = [...report.problems, ...report.files.flatMap((f) => f.problems)];
  if (all.length) {
    lines.push('| file | JSON path | problem |', '|---|---|---|');
    for (const p of all.slice(0, 200)) lines.push(`| ${mdText(p.file)} | ${mdText(p.path)} | ${mdText(p.message, 300)} |`);
    if (all.length > 200) lines.push(`| … | | ${all.length - 200} more |`);
  }
  return lines.join('\n') + '\n';
}

/**
 * One line of the console log from untrusted text (file names, parameter values, messages quoting them):
 * in GitHub Actions a line starting "::" is a workflow command (an annotation, a masked value), so "%", CR
 * and LF are escaped as GitHub documents for command data; the text can then never start a line.
 */
export const logLine = (s: string): string => s.replace(/%/g, '%25').replace(/\r/g, '%0D').replace(/\n/g, '%0A');

export function formatProblems(report: Report): string {
  return [...report.problems, ...report.files.flatMap((f) => f.problems)].map((p) => logLine(`${p.file}: ${p.path}: ${p.message}`)).join('\n');
}
