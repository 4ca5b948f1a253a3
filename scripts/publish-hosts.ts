// `npm run -s publish:hosts -- --hosts JSON [--root DIR] [--summary FILE]`: publish.yml's decision, host by
// host, after each host's artifacts were taken into the checkout (new files under data/runs/ and
// data/hypothesis/; master's nights file rewritten and new bisection reports, data/master/ and data/bisect/).
// Each planned host's files are validated on their own (--runner rules; checks/validate-master.ts for
// master's): a host whose files pass is published; a host whose files fail is refused, named with its
// problems, and its files are taken out of the checkout (main's version restored) so the commit leaves them
// out; a planned host with no new file is missing (its
// machine offline, its run failed or killed). One host never holds back another.
// Prints one line per host; in GitHub Actions also writes `published`, `refused` and `missing` (host ids,
// space-separated) to $GITHUB_OUTPUT. Exit status 0 whatever the outcome (the workflow decides), 2 on bad usage.
import { execFileSync } from 'node:child_process';
import { appendFileSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { commandLine } from '../runner/cli.ts';
import { nameOfMachine } from '../schema/machine.ts';
import { FOLDERS } from '../checks/submission/limits.ts';
import { formatProblems, formatSummary, logLine, mdText, type ChangedFile, type Report } from '../checks/submission/report.ts';
import { untrackedRuns } from '../checks/submission/changes.ts';
import { validateSubmission } from '../checks/validate-submission.ts';
import { masterChanges, validateMasterFiles } from '../checks/validate-master.ts';

export type HostStatus = 'published' | 'refused' | 'missing';
export interface HostOutcome {
  host: string;
  status: HostStatus;
  files: string[];
  /** the validator's report of the host's files (none when it brought none) */
  report: Report | null;
}

/** The host name of a new file: data/<folder>/<name>.<cpu>-<fingerprint>/… (schema/machine.ts), or null. */
export const hostOfFile = (path: string): string | null => {
  const machine = /^data\/[a-z]+\/([^/]+)\//.exec(path)?.[1];
  return machine ? nameOfMachine(machine) : null;
};

/**
 * Every planned host's outcome, in the plan's order, then files of no planned host (refused under the name
 * their folder gives, or "(no host)"). `validate` checks one host's files alone.
 */
export function decideHosts(planned: readonly string[], changed: readonly ChangedFile[], validate: (files: ChangedFile[]) => Report): HostOutcome[] {
  const byHost = new Map<string, ChangedFile[]>();
  for (const c of changed) {
    const host = hostOfFile(c.path) ?? '(no host)';
    byHost.set(host, [...(byHost.get(host) ?? []), c]);
  }
  const outcome = (host: string, files: ChangedFile[] | undefined, isPlanned: boolean): HostOutcome => {
    if (!files?.length) return { host, status: 'missing', files: [], report: null };
    const report = validate(files);
    return { host, status: isPlanned && report.ok ? 'published' : 'refused', files: files.map((f) => f.path), report };
  };
  return [
    ...[...new Set(planned)].map((h) => outcome(h, byHost.get(h), true)),
    ...[...byHost].filter(([h]) => !planned.includes(h)).map(([h, files]) => outcome(h, files, false)),
  ];
}

/** Several reports of one host's files as one. */
export function joinReports(reports: readonly Report[]): Report {
  return { ok: reports.every((r) => r.ok), mode: 'runner', files: reports.flatMap((r) => r.files), problems: reports.flatMap((r) => r.problems) };
}

const ids = (outcomes: readonly HostOutcome[], status: HostStatus) => outcomes.filter((o) => o.status === status).map((o) => o.host);

/** One line per host for the log (untrusted text escaped: logLine). */
export function describeOutcomes(outcomes: readonly HostOutcome[]): string[] {
  return outcomes.map((o) =>
    o.status === 'published'
      ? `published ${o.host}: ${o.files.length} new or extended file(s)`
      : o.status === 'missing'
        ? `missing ${o.host}: no new run (machine offline, run failed or killed); the other hosts are published without it`
        : logLine(
            `refused ${o.host}: ${o.report && !o.report.ok ? 'its files fail validation' : 'not a host of this run'}; left out, the other hosts are published\n${o.report ? formatProblems(o.report) : ''}`.trimEnd(),
          ),
  );
}

const HELP = 'usage: npm run -s publish:hosts -- --hosts \'[{"id": "obs-a", "arch": "x64"}]\' [--root DIR] [--summary FILE]';

function main(): void {
  const cli = commandLine('publish:hosts', HELP, { hosts: { type: 'string' }, root: { type: 'string', default: '.' }, summary: { type: 'string' } });
  const { values } = cli;
  let planned: string[] | null = null;
  try {
    const parsed: unknown = JSON.parse(values.hosts ?? '');
    if (Array.isArray(parsed) && parsed.every((h) => typeof h?.id === 'string')) planned = parsed.map((h: { id: string }) => h.id);
  } catch {
    planned = null;
  }
  if (!planned) return cli.fail('--hosts needs a JSON list of hosts with their ids');
  const root = values.root;
  const master = masterChanges(root);
  const isMaster = (f: ChangedFile) => master.some((m) => m.path === f.path);
  const outcomes = decideHosts(planned, [...untrackedRuns(root, FOLDERS.runner), ...master], (files) => {
    const runs = files.filter((f) => !isMaster(f));
    const masters = files.filter(isMaster);
    return joinReports([
      ...(runs.length ? [validateSubmission({ root, changed: runs, mode: 'runner' })] : []),
      ...(masters.length ? [validateMasterFiles(root, masters)] : []),
    ]);
  });
  for (const o of outcomes)
    if (o.status === 'refused')
      for (const f of o.files) {
        if (master.some((m) => m.path === f && m.status !== 'added')) execFileSync('git', ['-C', root, 'checkout', '-q', 'HEAD', '--', f]);
        else rmSync(join(root, f), { force: true });
      }
  const warn = process.env.GITHUB_ACTIONS === 'true' ? '::error::' : '';
  for (const line of describeOutcomes(outcomes)) console.log(line.startsWith('refused') ? `${warn}${line}` : line);
  if (values.summary) {
    const table = ['| host | outcome | new files |', '|---|---|---|', ...outcomes.map((o) => `| ${mdText(o.host)} | ${o.status} | ${o.files.length} |`)].join(
      '\n',
    );
    appendFileSync(
      values.summary,
      `## Publish, host by host\n\n${table}\n\n${outcomes.flatMap((o) => (o.report ? [formatSummary(o.report)] : [])).join('\n')}`,
    );
  }
  if (process.env.GITHUB_OUTPUT) {
    appendFileSync(process.env.GITHUB_OUTPUT, (['published', 'refused', 'missing'] as const).map((s) => `${s}=${ids(outcomes, s).join(' ')}\n`).join(''));
  }
}

if (import.meta.main) main();
