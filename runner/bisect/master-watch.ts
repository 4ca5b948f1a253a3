// `npm run master-watch`: OpenSSL's development branch watched night by night. Each night the head of the
// branch is built and its deterministic figures measured (bisect-cli.ts's metrics); a figure that moved
// by more than the threshold since the previous measured night is bisected between the two nights' commits,
// and the night records the commits the bisection named. `--replay` walks history as if it had been
// watched: the branch's snapshot every N days between two points. State and reports are data:
// data/master/<machine>/nights.json (schema/master-watch.ts) and data/bisect/<machine>/.
import { existsSync, mkdirSync, readFileSync, renameSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { MasterWatch, bisectReportName, type BisectReport, type MasterChange, type MasterNight } from '../../schema/index.ts';
import { commandLine } from '../cli.ts';
import { describeHost, hostId } from '../host.ts';
import { relativeDifference } from './bisect.ts';
import { ensureChains, measureCommit, originOf, parseMetric, runBisection, type Metric } from './bisect-cli.ts';
import { commitInfo, git, resolve } from './history.ts';

const HELP = `usage: npm run master-watch -- --repo GITDIR [--ref master] [--metric ID]... [options]
       npm run master-watch -- --repo GITDIR --replay FROM TO [--every-days 7] [--metric ID]... [options]

Builds the head of --ref (default master), measures its deterministic figures and appends the night to
data/master/<machine>/nights.json. A figure that moved by more than the threshold since the last night
that measured it is bisected between the two nights' commits (npm run bisect; the report goes to
data/bisect/<machine>/) and the night names the commits found. A head already measured is not measured
again. With --replay, the same for the first-parent snapshot of the branch every N days from FROM to TO
(nights marked as a replay), resumable: snapshots already in the file are skipped.

  --repo GITDIR      a clone of OpenSSL (upstream https://github.com/openssl/openssl.git)
  --repo-url URL     where the clone came from (default: its remote.origin.url)
  --ref REF          the branch watched (default master)
  --metric ID        repeatable (default: ${defaultMetrics().join(', ')}); forms as npm run bisect
  --threshold F      relative change between two nights that is bisected (default 0.002)
  --budget N         commits measured at most per bisection (default 40)
  --replay FROM TO   replay history between two commits, tags or branches of --ref
  --bisect-later     measure only: changes are recorded as pending (bisections take builds; a night's
                     measuring takes seconds per commit)
  --bisect-pending   bisect every pending change of the file (with --metric: only those metrics'), then stop
  --every-days N     days between replayed snapshots (default 7)
  --out FILE         the state file (default data/master/<machine>/nights.json)
  --host-id NAME     the machine's name (default $OBSERVATORY_HOST_ID or the hostname)`;

export function defaultMetrics(): string[] {
  return ['handshake-instructions:client:ecdsa-p256:default', 'handshake-instructions:server:ecdsa-p256:default', 'handshake-heap:server:ecdsa-p256:X25519'];
}

const DAY = 86_400_000;

/**
 * The first-parent snapshots of `to`'s line from `from` on: for every `days`-day boundary after `from`'s
 * commit date, the last commit of the line committed by then, and `to` itself; oldest first, each once.
 */
export function snapshots(repo: string, fromRef: string, toRef: string, days: number): { commit: string; at: string }[] {
  const from = resolve(repo, fromRef);
  const to = resolve(repo, toRef);
  const line = git(repo, ['rev-list', '--first-parent', '--reverse', '--format=%ct', `${from}..${to}`])
    .split('\n')
    .reduce<{ commit: string; time: number }[]>(
      (acc, l, i, all) => (l.startsWith('commit ') ? [...acc, { commit: l.slice(7), time: Number(all[i + 1]) * 1000 }] : acc),
      [],
    );
  const time = (id: string) => Number(git(repo, ['show', '-s', '--format=%ct', id])) * 1000;
  const start = time(from);
  const end = time(to);
  const picked: { commit: string; at: string }[] = [{ commit: from, at: new Date(start).toISOString() }];
  let i = -1;
  for (let boundary = start + days * DAY; i < line.length - 1; boundary += days * DAY) {
    while (i + 1 < line.length && line[i + 1]!.time <= boundary) i++;
    // boundaries grow without end and every commit has a date, so the walk reaches the line's end
    if (i >= 0 && picked[picked.length - 1]!.commit !== line[i]!.commit)
      picked.push({ commit: line[i]!.commit, at: new Date(Math.min(boundary, end)).toISOString() });
  }
  if (picked[picked.length - 1]!.commit !== to) picked.push({ commit: to, at: new Date(end).toISOString() });
  return picked;
}

export interface WatchDeps {
  /** the figure of one commit, or null with why (does not build, cannot be measured) */
  measure(commit: string, metric: string): Promise<{ value: number } | { value: null; reason: string }>;
  /** bisect the change of one metric between two commits; the report and where it was written. Absent: changes are left pending. */
  bisect?(from: string, to: string, metric: string): Promise<{ report: BisectReport; file: string }>;
  info(commit: string): { subject: string; date: string };
}

/** The last night before this one that measured the metric: the commit and figure a change is measured from. */
export function previousFigure(nights: readonly MasterNight[], metric: string): { commit: string; value: number } | null {
  for (let i = nights.length - 1; i >= 0; i--) {
    const v = nights[i]!.values[metric];
    if (typeof v === 'number') return { commit: nights[i]!.commit, value: v };
  }
  return null;
}

/**
 * One night: measure every metric on `commit`, compare each with the previous night that measured it, and
 * bisect every change above the threshold. Returns the night (the caller appends it and saves).
 */
export async function watchNight(
  state: Pick<MasterWatch, 'nights' | 'threshold'>,
  night: { commit: string; at: string; replay: boolean },
  metrics: readonly string[],
  deps: WatchDeps,
): Promise<MasterNight> {
  const differs = relativeDifference(state.threshold);
  const values: MasterNight['values'] = {};
  const reasons: Record<string, string> = {};
  const changes: MasterChange[] = [];
  for (const metric of metrics) {
    const m = await deps.measure(night.commit, metric);
    values[metric] = m.value;
    if (m.value === null) {
      reasons[metric] = m.reason;
      continue;
    }
    const prev = previousFigure(state.nights, metric);
    if (!prev || !differs(prev.value, m.value)) continue;
    const change: MasterChange = { metric, fromCommit: prev.commit, before: prev.value, after: m.value, report: null, culprits: [], unresolved: 0 };
    changes.push(deps.bisect ? await bisectChange(change, night.commit, deps.bisect) : { ...change, pending: true, why: 'not bisected yet' });
  }
  const info = deps.info(night.commit);
  return {
    at: night.at,
    replay: night.replay,
    commit: night.commit,
    subject: info.subject,
    commitDate: info.date,
    values,
    ...(Object.keys(reasons).length ? { reasons } : {}),
    changes,
  };
}

/** Bisect one change between the night before and `commit`, and name what the bisection found (or why it could not). */
export async function bisectChange(change: MasterChange, commit: string, bisect: NonNullable<WatchDeps['bisect']>): Promise<MasterChange> {
  const { pending: _pending, why: _why, ...rest } = change;
  try {
    const { report, file } = await bisect(change.fromCommit, commit, change.metric);
    return {
      ...rest,
      report: file,
      culprits: report.steps.map((s) => ({ commit: s.commit, subject: s.subject, before: s.before, after: s.after })),
      unresolved: report.unresolved.length,
    };
  } catch (e) {
    return { ...rest, report: null, why: `the bisection failed: ${(e as Error).message.slice(0, 300)}` };
  }
}

/**
 * --bisect-pending: bisect every pending change of the nights, in order, each with its own metric; with
 * `only` (the --metric given), the changes of other metrics stay pending. `bisected` is told after each.
 */
export async function bisectPending(
  nights: MasterNight[],
  bisect: NonNullable<WatchDeps['bisect']>,
  only: ReadonlySet<string> | undefined,
  bisected: (night: MasterNight, change: MasterChange) => void,
): Promise<void> {
  for (const night of nights)
    for (const [i, change] of night.changes.entries()) {
      if (!change.pending || (only && !only.has(change.metric))) continue;
      night.changes[i] = await bisectChange(change, night.commit, bisect);
      bisected(night, night.changes[i]!);
    }
}

function load(file: string, fresh: () => MasterWatch): MasterWatch {
  if (!existsSync(file)) return fresh();
  try {
    return MasterWatch.parse(JSON.parse(readFileSync(file, 'utf8')));
  } catch (e) {
    throw new Error(`${file} is not a master-watch file (${(e as Error).message.slice(0, 300)}); nothing was measured`);
  }
}

function save(file: string, state: MasterWatch): void {
  mkdirSync(dirname(file), { recursive: true });
  writeFileSync(`${file}.tmp`, JSON.stringify(MasterWatch.parse(state), null, 2) + '\n');
  renameSync(`${file}.tmp`, file); // a night killed while writing leaves the previous file whole
}

if (import.meta.url === `file://${process.argv[1]}`) {
  const cli = commandLine('master-watch', HELP, {
    repo: { type: 'string' },
    'repo-url': { type: 'string' },
    ref: { type: 'string', default: 'master' },
    metric: { type: 'string', multiple: true },
    threshold: { type: 'string', default: '0.002' },
    budget: { type: 'string', default: '40' },
    replay: { type: 'boolean' },
    'bisect-later': { type: 'boolean' },
    'bisect-pending': { type: 'boolean' },
    'every-days': { type: 'string', default: '7' },
    out: { type: 'string' },
    'host-id': { type: 'string' },
  });
  const { values: v, positionals } = cli;
  // typed here: a call of a function declared never-returning narrows what follows it
  const fail: (message: string) => never = cli.fail;
  if (!v.repo) fail('--repo is required');
  if (v.replay ? positionals.length !== 2 : positionals.length !== 0)
    fail(v.replay ? '--replay takes FROM and TO' : 'no positional arguments without --replay');
  const threshold = Number(v.threshold);
  const budget = Number(v.budget);
  const every = Number(v['every-days']);
  if (!(threshold > 0 && threshold < 1)) fail(`--threshold must be a fraction between 0 and 1, not ${v.threshold}`);
  if (!Number.isInteger(budget) || budget < 2) fail(`--budget must be a whole number of at least 2, not ${v.budget}`);
  if (!(every > 0)) fail(`--every-days must be a positive number, not ${v['every-days']}`);
  const metricIds = v.metric ?? defaultMetrics();
  const metrics = new Map<string, Metric>();
  for (const id of metricIds) {
    try {
      metrics.set(id, parseMetric(id));
    } catch (e) {
      fail((e as Error).message);
    }
  }
  const repo = v.repo!;
  const machine = describeHost(hostId(v['host-id']));
  const file = v.out ?? join('data', 'master', machine.id, 'nights.json');
  const repoUrl = v['repo-url'] ?? originOf(repo);
  const state = load(file, () => ({ repo: repoUrl, ref: v.ref!, host: { id: machine.id, cpuModel: machine.cpuModel }, threshold, metrics: [], nights: [] }));
  if (state.host.id !== machine.id) fail(`${file} belongs to machine ${state.host.id}, not ${machine.id}`);
  for (const m of metrics.values()) if (!state.metrics.some((x) => x.id === m.id)) state.metrics.push({ id: m.id, what: m.what, unit: m.unit });
  await ensureChains();
  const builds = { built: 0, cached: 0, failed: 0, secondsBuilding: 0 };
  const deps: WatchDeps = {
    measure: async (commit, id) => {
      const r = await measureCommit(repo, commit, metrics.get(id)!, builds);
      return r.value === null ? { value: null, reason: r.reason } : { value: r.value };
    },
    bisect: async (from, to, id) => {
      const report = await runBisection({
        repo,
        repoUrl,
        from: from.slice(0, 12),
        to: to.slice(0, 12),
        metric: metrics.get(id) ?? parseMetric(id),
        budget,
        threshold,
        host: machine,
        log: (s) => console.error(`  ${s}`),
      });
      const out = join('data', 'bisect', machine.id, bisectReportName(report));
      mkdirSync(dirname(out), { recursive: true });
      writeFileSync(out, JSON.stringify(report, null, 2) + '\n');
      return { report, file: bisectReportName(report) };
    },
    info: (commit) => {
      const c = commitInfo(repo, commit);
      return { subject: c.subject, date: c.date };
    },
  };
  if (v['bisect-pending']) {
    await bisectPending(state.nights, deps.bisect!, v.metric ? new Set(metrics.keys()) : undefined, (night, change) => {
      save(file, state);
      console.error(
        `${night.commit.slice(0, 10)} ${change.metric}: ${change.culprits.map((x) => x.commit.slice(0, 10)).join(', ') || change.why || 'no single commit'}`,
      );
    });
    console.error(`builds: ${builds.built} built, ${builds.cached} cached, ${builds.failed} did not build; ${file}`);
    process.exit(0);
  }
  if (v['bisect-later']) delete deps.bisect;
  const nights = v.replay
    ? snapshots(repo, positionals[0]!, positionals[1]!, every).map((s) => ({ ...s, replay: true }))
    : [{ commit: resolve(repo, v.ref!), at: new Date().toISOString(), replay: false }];
  for (const night of nights) {
    if (state.nights.some((n) => n.commit === night.commit)) {
      console.error(`${night.commit.slice(0, 10)} (${night.at.slice(0, 10)}): already measured`);
      continue;
    }
    const t = Date.now();
    const done = await watchNight(state, night, metricIds, deps);
    state.nights.push(done);
    save(file, state);
    const said = done.changes.map(
      (c) => `${c.metric} ${c.before} -> ${c.after}: ${c.culprits.map((x) => x.commit.slice(0, 10)).join(', ') || c.why || 'no single commit'}`,
    );
    console.error(
      `${night.commit.slice(0, 10)} (${night.at.slice(0, 10)}) in ${((Date.now() - t) / 1000).toFixed(0)} s: ${said.length ? said.join('; ') : 'no change'}`,
    );
  }
  console.error(`builds: ${builds.built} built, ${builds.cached} cached, ${builds.failed} did not build; ${file}`);
}
