// Checks run files before anything else reads them: those a pull request submits (hostile until proven
// otherwise) and those a bench runner has just written. Read-only: it never writes under data/.
//
//   npm run -s validate -- --base origin/main [--summary FILE]     files changed since the merge base
//   npm run -s validate -- --untracked                             new files under data/runs/ (git)
//                                          (with --runner also data/hypothesis/: ML-KEM hypothesis results)
//   npm run -s validate -- data/runs/<host>/<YYYY>/<MM>/<runId>.json.br ...   files named (taken as added)
//   --runner             the project's own bench runners: reserved host ids and quick runs allowed
//   --root DIR           the checkout that holds the submitted files (default: .)
//   --accepted-root DIR  the checkout whose data/ holds the runs already accepted and data/hosts.json (default: --root)
//   --author LOGIN       the pull request's author (GitHub login): runs for a host registered in
//                        data/hosts.json to someone else are refused; without it ownership is not checked
//   --author-id ID       the author's numeric GitHub account id (with --author): ownership is checked by it,
//                        since a login can be renamed and taken by someone else; without it, by the login
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { commandLine, openingComment } from '../runner/cli.ts';
import { githubLogin, hardwareText, HostRegistry, listRunFiles, describeMachine, RUN_FILE_SUFFIX, type Run } from '../schema/index.ts';
import { lookalikeOf } from '../catalogue/hosts.ts';
import { loadHistory } from '../analysis/history.ts';
import { changedSince, untrackedRuns } from './submission/changes.ts';
import { FOLDERS, LIMITS, SPLIT_CHANGE, SUMMARY_ENTRY_BYTES, mib } from './submission/limits.ts';
import { findReplays, type AcceptedRun } from './submission/replay.ts';
import { formatProblems, formatSummary, logLine, type ChangedFile, type FileReport, type Problem, type Report } from './submission/report.ts';
import { checkRunFile, jsonPath, locate, nameOf } from './submission/run-file.ts';

/** What identifies the machine behind a host id (schema/machine.ts): other hardware is another machine. */
export const hostFingerprint = (host: Run['host']): string => hardwareText(host);

/**
 * What main already holds, except the files this change adds: every run file under data/runs/ that
 * reads, known from the accepted checkout's time series (runs missing there are read), the measured keys
 * they hold, and the id of every file under data/runs/ and data/hypothesis/ (a file that does not read
 * still owns its run id), keyed by folder and lower-case id. A file that does not read is the
 * aggregation's problem to report, not this submission's.
 */
function acceptedData(root: string, exclude: Set<string>): { runs: AcceptedRun[]; measuredKeys: Set<string>; ids: Map<string, string> } {
  const dataDir = join(root, 'data');
  const ids = new Map<string, string>();
  const paths = listRunFiles(dataDir).filter((p) => !exclude.has(`data/${p}`));
  for (const p of paths) {
    const name = p.split('/').at(-1)!;
    ids.set(`runs/${name.slice(0, -(name.endsWith(RUN_FILE_SUFFIX) ? RUN_FILE_SUFFIX : '.json').length).toLowerCase()}`, `data/${p}`);
  }
  for (const p of listRunFiles(dataDir, 'hypothesis')) {
    if (exclude.has(`data/${p}`) || !p.endsWith('.json')) continue;
    ids.set(`hypothesis/${p.split('/').at(-1)!.slice(0, -'.json'.length).toLowerCase()}`, `data/${p}`);
  }
  const { records, keySets } = loadHistory(dataDir, paths, { onError: () => {} });
  // runs share their key lists: the union is made once per distinct list, however many runs there are
  const lists = new Set(records.flatMap((r) => r.builds.map((b) => b.measured)));
  return {
    runs: records.map((r) => ({ file: `data/${r.path}`, runId: r.runId, host: r.host })),
    measuredKeys: new Set([...lists].flatMap((id) => keySets.get(id) ?? [])),
    ids,
  };
}

/**
 * About how many bytes the runs of this change add to data/summary.json: one entry per machine, build
 * (library, version, variant) and series key that the accepted summary does not have yet, each
 * SUMMARY_ENTRY_BYTES plus its label. Sets each file's `adds.summaryBytes`.
 */
export function summaryGrowth(root: string, files: readonly FileReport[]): number {
  const path = join(root, 'data', 'summary.json');
  const entryId = (host: string, e: { library: string; version: string; variant: string }, key: string) =>
    `${host}\u0000${e.library}\u0000${e.version}\u0000${e.variant}\u0000${key}`;
  const known = new Set<string>();
  if (existsSync(path)) {
    try {
      const entries =
        (JSON.parse(readFileSync(path, 'utf8')) as { entries?: { host: string; library: string; version: string; variant: string; key: string }[] }).entries ??
        [];
      for (const e of entries) known.add(entryId(e.host, e, e.key));
    } catch {
      // a summary that does not read: every entry counts as new (the larger estimate)
    }
  }
  let total = 0;
  for (const f of files) {
    if (!f.run) continue;
    const builds = new Map(f.run.builds.map((b) => [b.id, b]));
    let bytes = 0;
    for (const s of f.run.series) {
      const id = entryId(f.run.host.id, builds.get(s.buildId)!, s.key);
      if (known.has(id)) continue;
      known.add(id);
      bytes += SUMMARY_ENTRY_BYTES + s.label.length;
    }
    if (f.adds) f.adds.summaryBytes = bytes;
    total += bytes;
  }
  return total;
}

export const HOSTS_FILE = 'data/hosts.json';

/** data/hosts.json of the accepted checkout, by lower-case host id. A missing or broken registry is an error: ownership cannot be checked. */
export function readHostRegistry(root: string): Map<string, HostRegistry['hosts'][number]> {
  const abs = join(root, HOSTS_FILE);
  if (!existsSync(abs)) throw new Error(`${HOSTS_FILE} is missing in ${root}: host ownership cannot be checked`);
  const parsed = HostRegistry.safeParse(JSON.parse(readFileSync(abs, 'utf8')));
  if (!parsed.success)
    throw new Error(`${HOSTS_FILE} is not a valid host registry: ${parsed.error.issues.map((i) => `${i.path.join('.')}: ${i.message}`).join('; ')}`);
  return new Map(parsed.data.hosts.map((h) => [h.id.toLowerCase(), h]));
}

export function validateSubmission(opts: {
  root: string;
  acceptedRoot?: string;
  changed: ChangedFile[];
  mode: Report['mode'];
  now?: Date;
  author?: string;
  authorId?: number;
}): Report {
  const { root, changed, mode } = opts;
  const acceptedRoot = opts.acceptedRoot ?? root;
  const problems: Problem[] = [];
  const files: FileReport[] = [];
  for (const c of changed) {
    const allowed = FOLDERS[mode].map((f) => `data/${f}/`);
    if (!allowed.some((a) => c.path.startsWith(a)))
      problems.push({
        file: c.path,
        path: '$',
        message: `only files under ${allowed.join(' and ')} may change in a ${mode === 'runner' ? 'bench run' : 'run submission'}`,
      });
    else if (c.status !== 'added')
      problems.push({ file: c.path, path: '$', message: `${c.status}: runs already accepted are never changed or removed by a submission` });
    else files.push(checkRunFile(root, c.path, mode, opts.now));
  }
  if (!changed.length) problems.push({ file: '(none)', path: '$', message: 'no changed files to validate' });
  if (files.length > LIMITS.maxFilesPerChange)
    problems.push({ file: `(${files.length} files)`, path: '$', message: `at most ${LIMITS.maxFilesPerChange} files per submission: ${SPLIT_CHANGE}` });
  const total = files.reduce((n, f) => n + (f.bytes ?? 0), 0);
  if (total > LIMITS.maxChangeBytes)
    problems.push({ file: `(${files.length} files)`, path: '$', message: `${total} bytes in all (limit ${mib(LIMITS.maxChangeBytes)}): ${SPLIT_CHANGE}` });
  let registry = new Map<string, HostRegistry['hosts'][number]>();
  if (mode === 'submission') {
    try {
      registry = readHostRegistry(acceptedRoot);
    } catch (e) {
      problems.push({ file: HOSTS_FILE, path: '$', message: (e as Error).message });
    }
  }
  const { runs: accepted, measuredKeys: keys, ids: takenIds } = acceptedData(acceptedRoot, new Set(changed.map((c) => c.path)));
  const hosts = new Map<string, { fp: string; id: string; file: string }>();
  for (const a of accepted) hosts.set(a.host.id.toLowerCase(), { fp: hostFingerprint(a.host), id: a.host.id, file: a.file });
  const replays = findReplays(acceptedRoot, accepted, files);
  for (const f of files) {
    const add = (path: PropertyKey[], message: string) => f.problems.push({ file: f.file, path: jsonPath(path), message });
    // run ids are unique per folder, letter case ignored (two ids that differ only in case collide on some file systems)
    const loc = locate(f.file);
    if (loc && !f.problems.some((p) => p.path === '$')) {
      const idKey = `${loc.folder}/${loc.runId.toLowerCase()}`;
      const sameId = takenIds.get(idKey);
      if (sameId) add(['runId'], `duplicate: run id already used by ${sameId}`);
      else takenIds.set(idKey, f.file);
    }
    const run = f.run;
    if (!run) continue;
    const known = hosts.get(run.host.id.toLowerCase());
    if (known && known.id !== run.host.id) add(['host', 'id'], `differs only in letter case from the existing host "${known.id}"`);
    else if (known && known.fp !== hostFingerprint(run.host))
      add(['host'], `host id "${run.host.id}" already belongs to a machine with a different CPU (see ${known.file}): choose your own host id`);
    f.newHost = !known;
    // the same name on other hardware: published as its own machine, and a maintainer should know
    const siblings = known
      ? []
      : [
          ...new Set(
            accepted.filter((a) => nameOf(a.host).toLowerCase() === nameOf(run.host).toLowerCase() && a.host.id !== run.host.id).map((a) => a.host.id),
          ),
        ];
    if (siblings.length)
      (f.review ??= []).push(
        `new machine "${run.host.id}" (${describeMachine(run.host)}) under the name "${nameOf(run.host)}", which already has ${siblings.map((s) => `"${s}"`).join(', ')}: its runs are published as their own machine, never compared with the others`,
      );
    // the same hardware under another name: two identical machines (cloud instances of one type), or
    // someone's runs published again under a new name
    const twins = known
      ? []
      : [
          ...new Set(
            accepted
              .filter((a) => nameOf(a.host).toLowerCase() !== nameOf(run.host).toLowerCase() && hostFingerprint(a.host) === hostFingerprint(run.host))
              .map((a) => a.host.id),
          ),
        ];
    if (twins.length)
      (f.review ??= []).push(
        `new machine "${run.host.id}" has the same hardware as ${twins.map((t) => `"${t}"`).join(', ')} (another name): check it is another machine, not the same one's runs under a new name`,
      );
    if (mode === 'submission') {
      // every name main knows (runs, registered owners), project machines included
      const lookalike = lookalikeOf(nameOf(run.host), new Set([...accepted.map((a) => nameOf(a.host)), ...[...registry.values()].map((h) => h.id)]));
      if (lookalike) add(['host', 'name'], `${lookalike}: choose a name readers cannot mistake for another machine's`);
    }
    if (mode === 'submission')
      checkOwner(
        f,
        nameOf(run.host),
        registry,
        { login: opts.author, id: opts.authorId },
        accepted.some((a) => nameOf(a.host).toLowerCase() === nameOf(run.host).toLowerCase()),
        add,
      );
    const measuredKeys = new Set(run.series.filter((s) => s.status === 'measured').map((s) => s.key));
    f.adds = { newKeys: [...measuredKeys].filter((k) => !keys.has(k)).length, earlierRunsOfHost: accepted.filter((a) => a.host.id === run.host.id).length };
    if (!known) hosts.set(run.host.id.toLowerCase(), { fp: hostFingerprint(run.host), id: run.host.id, file: f.file });
    const replay = replays.get(f);
    if (replay && !f.problems.some((p) => p.path === '$.runId'))
      add(['series'], `duplicate: the measurements of ${replay}: a run is measured once and submitted once`);
  }
  const growth = summaryGrowth(acceptedRoot, files);
  if (growth > LIMITS.maxSummaryGrowthBytes)
    problems.push({
      file: `(${files.length} files)`,
      path: '$',
      message: `would grow data/summary.json by about ${mib(growth)} (limit ${mib(LIMITS.maxSummaryGrowthBytes)}): ${SPLIT_CHANGE}`,
    });
  const ok = problems.length === 0 && files.every((f) => f.problems.length === 0);
  return { ok, mode, files, problems };
}

/**
 * A registered host takes runs only from its owner's account (by id; by login where the id was not given).
 * A new name is flagged for a maintainer, who registers it (the pull request's author as owner, login and
 * account id) when merging; a name that already has accepted runs takes no more until it is registered,
 * so nobody else can add runs to it or replace its published description (the newest run's).
 */
function checkOwner(
  f: FileReport,
  hostId: string,
  registry: Map<string, HostRegistry['hosts'][number]>,
  author: { login?: string; id?: number },
  hasRuns: boolean,
  add: (path: PropertyKey[], message: string) => void,
): void {
  const entry = registry.get(hostId.toLowerCase());
  const review = (f.review ??= []);
  const who = author.login === undefined ? '' : ` ${author.login}${author.id === undefined ? '' : ` (account id ${author.id})`}`;
  if (!entry && hasRuns) {
    add(
      ['host', 'name'],
      `"${hostId}" has accepted runs but no owner in ${HOSTS_FILE}: a maintainer registers its owner (GitHub login and account id) before more runs are accepted`,
    );
  } else if (!entry) {
    review.push(`new host "${hostId}": not in ${HOSTS_FILE}. Check the machine description, then register it${who ? ` with owner${who}` : ''} when merging`);
  } else if (author.login === undefined) {
    review.push(`host "${hostId}" belongs to ${entry.owner} (${HOSTS_FILE}); the author was not given, so ownership was not checked`);
  } else if (author.id !== undefined ? entry.ownerId !== author.id : entry.owner.toLowerCase() !== author.login.toLowerCase()) {
    add(
      ['host', 'id'],
      `host "${entry.id}" belongs to ${entry.owner} (account ${entry.ownerId}, ${HOSTS_FILE}): a pull request by${who.replace('account id', 'account')} cannot add runs for it; choose your own host id`,
    );
  } else if (author.id === undefined) {
    review.push(
      `host "${hostId}" belongs to ${entry.owner} (account ${entry.ownerId}, ${HOSTS_FILE}); the author's account id was not given (--author-id), so only the login was compared`,
    );
  }
}

function main(): void {
  const cli = commandLine('validate', openingComment(import.meta.url), {
    base: { type: 'string' },
    untracked: { type: 'boolean', default: false },
    root: { type: 'string', default: '.' },
    'accepted-root': { type: 'string' },
    runner: { type: 'boolean', default: false },
    author: { type: 'string' },
    'author-id': { type: 'string' },
    summary: { type: 'string' },
  });
  const { values, positionals } = cli;
  const fail: (message: string) => never = cli.fail;
  const sources = [values.base !== undefined, values.untracked, positionals.length > 0].filter(Boolean).length;
  if (sources !== 1) fail('give exactly one of --base REF, --untracked or file paths');
  if (values.author !== undefined && !githubLogin.safeParse(values.author).success) fail(`--author ${JSON.stringify(values.author)} is not a GitHub login`);
  const authorId = values['author-id'] === undefined ? undefined : Number(values['author-id']);
  if (authorId !== undefined && (values.author === undefined || !/^[1-9][0-9]{0,15}$/.test(values['author-id']!)))
    fail(`--author-id ${JSON.stringify(values['author-id'])} must be a GitHub account id (a positive number), given with --author`);
  const changed = values.base
    ? changedSince(values.root, values.base)
    : values.untracked
      ? untrackedRuns(values.root, FOLDERS[values.runner ? 'runner' : 'submission'])
      : positionals.map((path) => ({ path, status: 'added' as const }));
  const mode = values.runner ? 'runner' : 'submission';
  const report = validateSubmission({ root: values.root, acceptedRoot: values['accepted-root'], changed, mode, author: values.author, authorId });
  if (values.summary) writeFileSync(values.summary, formatSummary(report), { flag: 'a' });
  // in GitHub Actions, an annotation on the check
  const warn = process.env.GITHUB_ACTIONS === 'true' ? '::warning::' : '';
  for (const f of report.files) for (const r of f.review ?? []) console.log(`${warn}${logLine(`needs review: ${f.file}: ${r}`)}`);
  if (report.ok) console.log(`ok: ${report.files.length} run file(s) valid`);
  else console.error(`rejected:\n${formatProblems(report)}`);
  process.exit(report.ok ? 0 : 1);
}

if (import.meta.main) main();
