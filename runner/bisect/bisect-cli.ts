// `npm run bisect -- [options] <from> <to>`: the commits of OpenSSL's history between two points (tags,
// branches or commit ids) where a deterministic figure moved (bisect.ts), each built from the history
// (commit-build.ts) and measured by our programs. Writes one report (schema/bisect.ts).
import { mkdirSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { BisectReport, bisectReportName, type BisectFunctionChange, type Host } from '../../schema/index.ts';
import { listCached } from '../build/cache.ts';
import { VERSIONS, compareSeries } from '../../catalogue/index.ts';
import { BENCHMARKS } from '../benchmarks.ts';
import { measures, seriesKey, type Benchmark, type BuildUnderTest, type SeriesSpec, type Task } from '../benchmark.ts';
import { catalogueSeries } from '../series-registry.ts';
import { opFunctionProfiles } from '../known-issues/known-issues.ts';
import { OPS as KNOWN_OPS } from '../known-issues/complaints.ts';
import { DETERMINISTIC_METHODS } from '../../analysis/stats.ts';
import type { Build, RunMode } from '../../schema/index.ts';
import { BISECT_METRIC, bisectMetricWords } from '../../catalogue/words.ts';
import { releaseCommit, releaseSteps, releaseTag } from './releases.ts';
import { baseConfig, type HandshakeConfig } from '../handshake/config.ts';
import { countInstructions, ensureCerts, handshakeBinary, runHandshake } from '../handshake/invoke.ts';
import { perRepetition, type ProfileKind } from '../causes/callgrind.ts';
import { CERTS } from '../certs.ts';
import { commandLine } from '../cli.ts';
import { describeHost, hostId } from '../host.ts';
import { harnessInfo } from '../run/identity.ts';
import { bisect, relativeDifference } from './bisect.ts';
import { buildCommit, commitVersion, type CommitBuildRecord } from './commit-build.ts';
import { commitInfo, commitPath, culprit, git, mergeSide, parents, resolve, type PathCommit } from './history.ts';

const HELP = `usage: npm run bisect -- --repo GITDIR [--metric ID] [--budget N] [--threshold F] [--out FILE|-] <from> <to>
       npm run bisect -- --repo GITDIR --all [--metric ID] [--budget N] [--threshold F]

Finds every commit between <from> and <to> (a catalogued release such as 3.4.0, which goes by its tag
once its tree is checked against the catalogue's archive; or any tag, branch or commit id) where the
metric moves by more than the threshold, building each probed commit (cached in <cache>/commit-builds,
through ccache when installed) and measuring it. For each step of an instruction metric, the functions
whose cost changed most (callgrind, self and inclusive).

  --repo GITDIR     a clone of OpenSSL (its .git directory or a bare repository); upstream is
                    https://github.com/openssl/openssl.git
  --repo-url URL    where the clone came from, recorded in the report (default: its remote.origin.url,
                    else GITDIR)
  --metric ID       handshake-instructions:<client|server>:<cert>:<groups>: instructions one side spends
                    per full TLS 1.3 handshake; handshake-heap:<client|server>:<cert>:<groups>: heap bytes
                    one side holds per connection; cert ${CERTS.join('|')}, groups default or a list;
                    or the key of any deterministic series a benchmark produces (instruction, call or
                    heap counts, bytes), measured by running its task on each commit's build:
                    'known-issues/instructions-per-op[encoding=pkcs8-der,key=rsa2048,op=pkey-der]'
                    (default: handshake-instructions:client:ecdsa-p256:default)
  --all             every step of the journey: from each series' newest catalogued release whose tag the
                    repository has to the next series' (a pair without one is named and skipped)
  --budget N        commits measured at most per step, ends included (default 40)
  --threshold F     relative difference that is a step (default 0.002 = 0.2%)
  --out FILE|-      the report (default data/bisect/<machine>/<from>..<to>-<metric>.json; - prints it)
  --host-id NAME    the machine's name (default $OBSERVATORY_HOST_ID or the hostname)`;

type Side = 'client' | 'server';

/** A deterministic figure of one commit's build: the same on every run, so a difference is a step. */
export type Metric = HandshakeMetric | SeriesMetric;
/** instructions or heap bytes of one side of our handshake program */
export type HandshakeMetric = { id: string; what: string; unit: string; kind: 'instructions' | 'heap'; side: Side; cfg: HandshakeConfig };
/** any deterministic series a benchmark's task produces, by its series key (measured by running that task) */
export type SeriesMetric = { id: string; what: string; unit: string; kind: 'series'; key: string; params: SeriesSpec['params'] };

const METRIC_FORMS =
  'handshake-instructions:<client|server>:<cert>:<groups>, handshake-heap:<client|server>:<cert>:<groups>, or the key of a deterministic series the runner produces (known-issues/instructions-per-op[op=ctx-new])';

export function parseMetric(id: string): Metric {
  const m = BISECT_METRIC.exec(id);
  if (!m) {
    const all = id.includes('/') ? catalogueSeries() : new Map<string, SeriesSpec>();
    const spec = all.get(id);
    if (!spec) {
      const prefix = id.split('[')[0]!;
      const near = [...all.keys()].filter((k) => k.startsWith(`${prefix}[`) || k === prefix).slice(0, 5);
      throw new Error(`unknown metric "${id}": expected ${METRIC_FORMS}${near.length ? `; series of ${prefix}: ${near.join(', ')}` : ''}`);
    }
    if (!DETERMINISTIC_METHODS.includes(spec.method))
      throw new Error(
        `${id} is measured by ${spec.method}, which differs from run to run: a bisection needs a deterministic figure (${DETERMINISTIC_METHODS.join(', ')})`,
      );
    return { id, kind: 'series', key: id, unit: spec.unit, what: spec.label, params: spec.params };
  }
  const kind = m[1] as HandshakeMetric['kind'];
  const side = m[2] as Side;
  const cert = CERTS.find((c) => c === m[3]);
  const groups = m[4]!;
  if (!cert) throw new Error(`unknown certificate "${m[3]}" in "${id}" (known: ${CERTS.join(', ')})`);
  const cfg = baseConfig({ cert, clientGroups: groups, serverGroups: groups });
  const what = bisectMetricWords(id)!;
  return kind === 'instructions'
    ? { id, kind, side, cfg, unit: 'instructions', what }
    : { id, kind, side, cfg: { ...cfg, mode: 'memory' }, unit: 'bytes', what };
}

/** Handshakes counted per instruction measurement, and connections held per heap measurement. */
const INSTRUCTION_HANDSHAKES = 10;
const HEAP_CONNECTIONS = 50;
/** Functions listed per step and kind of cost, largest change first. */
const FUNCTIONS_PER_STEP = 15;

/** a commit's figure; `binary`: the handshake program it was measured with (the handshake metrics profile it again) */
type Measured = { value: number; binary?: string } | { value: null; reason: string };

/** Count one commit that built: a cached build adds the time it took when an earlier run built it. */
export function countBuild(stats: BisectReport['builds'], b: { cached: boolean; record: { buildSeconds: number } }, seconds: number): void {
  if (b.cached) {
    stats.cached++;
    stats.secondsBuildingEarlier = (stats.secondsBuildingEarlier ?? 0) + b.record.buildSeconds;
  } else {
    stats.built++;
    stats.secondsBuilding += seconds;
  }
}

/** Build a commit (or take it from the cache), counted in `stats`: the build as a run's, or why there is none. */
async function builtCommit(repo: string, commit: string, stats: BisectReport['builds']): Promise<BuildUnderTest | { reason: string }> {
  const t = Date.now();
  const b = await buildCommit(repo, commit);
  if (!b.ok) {
    stats.failed++;
    return { reason: `does not build: ${b.reason}` };
  }
  countBuild(stats, b, (Date.now() - t) / 1000);
  return { record: commitBuildRecord(commit, b.record), prefix: b.prefix };
}

/** Build a commit and compile our handshake program against it; the binary, or why there is none. */
async function binaryOf(repo: string, commit: string, stats: BisectReport['builds']): Promise<{ binary: string } | { reason: string }> {
  const build = await builtCommit(repo, commit, stats);
  if ('reason' in build) return build;
  try {
    return { binary: handshakeBinary(build) };
  } catch (e) {
    return { reason: `our handshake program does not compile against it: ${(e as Error).message.slice(0, 300)}` };
  }
}

/**
 * A series metric on one commit: the task that produces its key, run on the commit's build as a run would
 * (its benchmark prepared first). Only the libraries and headers are built, so a task that needs more
 * (the openssl app, a server) fails with its reason.
 */
async function measureSeries(repo: string, commit: string, key: string, stats: BisectReport['builds']): Promise<Measured> {
  const build = await builtCommit(repo, commit, stats);
  if ('reason' in build) return { value: null, reason: build.reason };
  for (const mode of ['quick', 'full'] as const)
    for (const bench of BENCHMARKS.filter((x) => measures(x, 'openssl'))) {
      const task = tasksOf(bench, build, mode).find((x) => x.oncePerRun && x.produces?.some((spec) => seriesKey(spec) === key));
      if (!task) continue;
      try {
        await bench.prepare?.(build, mode);
        const out = (await task.run()).find((o) => seriesKey(o.spec) === key);
        if (!out) return { value: null, reason: `${bench.id}/${task.id} returned no ${key}` };
        if ('status' in out) return { value: null, reason: `${out.status}: ${out.reason.slice(0, 300)}` };
        return { value: out.value };
      } catch (e) {
        return { value: null, reason: `${bench.id}/${task.id} failed: ${(e as Error).message.slice(0, 300)}` };
      }
    }
  return { value: null, reason: `no deterministic task produces ${key} on ${build.record.version}` };
}

/** A benchmark's tasks on a commit's build; none where it cannot make them (speed compares release numbers, which a development version such as 3.1.0-dev is not; it has no deterministic task either). */
function tasksOf(bench: Benchmark, build: BuildUnderTest, mode: RunMode): Task[] {
  try {
    return bench.tasks(build, mode);
  } catch {
    return [];
  }
}

/** A commit's build as a run's build record: the identity tasks read (id, library, version, series, variant), the rest as the commit build recorded it. */
function commitBuildRecord(commit: string, r: CommitBuildRecord): Build {
  return {
    id: `commit-${commit.slice(0, 12)}`,
    library: 'openssl',
    version: r.version,
    series: r.series,
    variant: 'default',
    versionString: `OpenSSL ${r.version} (commit ${commit.slice(0, 12)})`,
    source: { kind: 'upstream-tarball', name: `git ${commit}`, sha256: '0'.repeat(64) },
    configureArgs: r.configureArgs,
    compiler: r.compiler,
    cflags: '',
    builtAt: r.builtAt,
    buildSeconds: r.buildSeconds,
  };
}

/** The metric on one commit; null (with why) when it does not build or our program does not compile against it. */
export async function measureCommit(repo: string, commit: string, metric: Metric, stats: BisectReport['builds']): Promise<Measured> {
  if (metric.kind === 'series') return measureSeries(repo, commit, metric.key, stats);
  const b = await binaryOf(repo, commit, stats);
  if ('reason' in b) return { value: null, reason: b.reason };
  if (metric.kind === 'heap') {
    const r = await runHandshake(b.binary, metric.cfg, HEAP_CONNECTIONS);
    if (r.kind === 'unsupported' || r.kind === 'failed') return { value: null, reason: `${r.kind}: ${r.reason.slice(0, 300)}` };
    if (r.kind !== 'run' || !r.out.heap) return { value: null, reason: 'the program reported no heap counts' };
    return { value: metric.side === 'client' ? r.out.heap.clientBytesPerConnection : r.out.heap.serverBytesPerConnection, binary: b.binary };
  }
  const r = await countInstructions(b.binary, metric.cfg, INSTRUCTION_HANDSHAKES, metric.side);
  if (r.kind !== 'measured') return { value: null, reason: `${r.kind}: ${r.reason.slice(0, 300)}` };
  return { value: r.instructionsPerHandshake, binary: b.binary };
}

type PerHandshake = Record<ProfileKind, Map<string, number>>;

/** Per-function instructions per operation of a series metric on one commit: the known-issues program's operations have them. */
async function seriesProfile(repo: string, commit: string, metric: SeriesMetric): Promise<PerHandshake | string> {
  const op = KNOWN_OPS.find((x) => x === metric.params.op);
  if (!metric.key.startsWith('known-issues/instructions-per-op[') || !op)
    return 'per-function profiles are taken for the handshake metrics and the known-issues operations only';
  const b = await buildCommit(repo, commit); // measured before, so from the cache
  if (!b.ok) return `does not build: ${b.reason}`;
  return opFunctionProfiles({ record: commitBuildRecord(commit, b.record), prefix: b.prefix }, op);
}

/** Per-function instructions per handshake of one binary (the instruction metric's side and configuration). */
async function profileOf(binary: string, metric: HandshakeMetric): Promise<PerHandshake | string> {
  const r = await countInstructions(binary, metric.cfg, INSTRUCTION_HANDSHAKES, metric.side, ['self', 'inclusive']);
  if (r.kind !== 'measured') return `${r.kind}: ${r.reason.slice(0, 300)}`;
  return { self: perRepetition(r.profiles.self!, 'self', r.out.handshakes), inclusive: perRepetition(r.profiles.inclusive!, 'inclusive', r.out.handshakes) };
}

/** The functions whose cost changed most between two profiles, largest change first. */
export function functionChanges(before: Map<string, number>, after: Map<string, number>, n = FUNCTIONS_PER_STEP): BisectFunctionChange[] {
  const names = new Set([...before.keys(), ...after.keys()]);
  const rows = [...names].map((name) => ({ name, before: before.get(name) ?? 0, after: after.get(name) ?? 0 }));
  return rows
    .filter((r) => r.before !== r.after)
    .sort((a, b) => Math.abs(b.after - b.before) - Math.abs(a.after - a.before) || a.name.localeCompare(b.name))
    .slice(0, n);
}

/** A clone's remote.origin.url, else its path. */
export function originOf(repo: string): string {
  try {
    return git(repo, ['config', '--get', 'remote.origin.url']);
  } catch {
    return repo;
  }
}

/**
 * One end of the path: a release of the catalogue goes by its tag, checked against the archive the journey
 * measured (releases.ts); anything else is a git reference.
 */
async function endOf(repo: string, spec: string): Promise<BisectReport['from']> {
  if (VERSIONS.some((v) => v.version === spec)) {
    const r = await releaseCommit(repo, spec);
    return {
      ref: r.tag,
      commit: r.commit,
      ...commitVersion(repo, r.commit),
      release: { version: spec, sameFiles: r.same, generatedFiles: r.generated.length },
    };
  }
  // a release outside the catalogue (3.5.0) goes by its tag, unchecked (there is no archive to check it against)
  const ref = /^\d+\.\d+\.\d+[a-z]?$/.test(spec) ? releaseTag(spec) : spec;
  const commit = resolve(repo, ref);
  return { ref, commit, ...commitVersion(repo, commit) };
}

/** The certificate chains every commit's handshakes verify, made once by a catalogue build of OpenSSL 3.5+ (runner/certs.ts). */
export async function ensureChains(): Promise<void> {
  const maker = listCached().find((b) => (b.record.library ?? 'openssl') === 'openssl' && compareSeries(b.record.series, '3.5') >= 0);
  if (maker) await ensureCerts({ record: maker.record, prefix: maker.prefix });
}

export async function runBisection(o: {
  repo: string;
  /** where the history came from, for the report (a local path means nothing to its readers) */
  repoUrl: string;
  from: string;
  to: string;
  metric: Metric;
  budget: number;
  threshold: number;
  host: Pick<Host, 'id' | 'cpuModel'>;
  log?: (s: string) => void;
}): Promise<BisectReport> {
  const log = o.log ?? (() => {});
  const started = new Date();
  const builds = { built: 0, cached: 0, failed: 0, secondsBuilding: 0 };
  const reasons = new Map<string, string>();
  const values = new Map<string, number | null>();
  const binaries = new Map<string, string>();
  const measure = (path: PathCommit[]) => async (at: number) => {
    const id = path[at]!.id;
    if (!values.has(id)) {
      const r = await measureCommit(o.repo, id, o.metric, builds);
      values.set(id, r.value);
      if (r.value === null) reasons.set(id, r.reason);
      else if (r.binary) binaries.set(id, r.binary);
      log(`${id.slice(0, 10)} ${r.value ?? `— ${r.reason}`}`);
    }
    return values.get(id)!;
  };
  const differs = relativeDifference(o.threshold);
  const from = await endOf(o.repo, o.from);
  const to = await endOf(o.repo, o.to);
  const path = commitPath(o.repo, from.commit, to.commit);
  log(`${path.length} commits from ${o.from} to ${o.to}`);
  const r = await bisect(path.length, measure(path), { differs, budget: o.budget });
  const info = (id: string) => {
    const c = commitInfo(o.repo, id);
    return { commit: c.id, subject: c.subject, date: c.date, author: c.author };
  };
  const steps: BisectReport['steps'] = [];
  // the two neighbouring commits of the path whose figures make the step
  const between = (p: PathCommit[], at: number) => ({ measuredFrom: p[at - 1]!.id, measuredTo: p[at]!.id });
  const unresolved: BisectReport['unresolved'] = [];
  // position: where on the path the change happens (inside a merge: the merge's place on the path)
  const unresolvedOf = (p: PathCommit[], u: (typeof r.unresolved)[number], position: number) => ({
    from: p[u.from]!.id,
    to: p[u.to]!.id,
    between: u.to - u.from - 1,
    position,
    before: u.before,
    after: u.after,
    reason: u.reason,
  });
  for (const u of r.unresolved) unresolved.push(unresolvedOf(path, u, u.to));
  for (const s of r.steps) {
    const c = culprit(path, s.at);
    const side = !c.undone && parents(o.repo, c.id).length > 1 ? mergeSide(o.repo, c.id) : null;
    const left = o.budget - values.size;
    if (side && left >= 1) {
      // a step on a merge: follow it into the merged side with what is left of the budget
      const inner = await bisect(side.length, measure(side), { differs, budget: left + 2 });
      for (const x of inner.steps)
        steps.push({
          ...info(culprit(side, x.at).id),
          undone: false,
          viaMerge: c.id,
          ...between(side, x.at),
          position: s.at,
          before: x.before,
          after: x.after,
        });
      for (const u of inner.unresolved) unresolved.push(unresolvedOf(side, u, s.at));
      if (inner.steps.length || inner.unresolved.length) continue;
    }
    steps.push({ ...info(c.id), undone: c.undone, ...between(path, s.at), position: s.at, before: s.before, after: s.after });
  }
  // the functions of each step: the handshake program's profile, or a known-issues operation's
  const metric = o.metric;
  const profileAt =
    metric.kind === 'instructions'
      ? (commit: string) => profileOf(binaries.get(commit)!, metric)
      : metric.kind === 'series' && metric.unit === 'instructions'
        ? (commit: string) => seriesProfile(o.repo, commit, metric)
        : null;
  if (profileAt)
    for (const step of steps) {
      log(`profiling ${step.measuredFrom.slice(0, 10)} -> ${step.measuredTo.slice(0, 10)}`);
      const [a, b] = [await profileAt(step.measuredFrom), await profileAt(step.measuredTo)];
      step.functions =
        typeof a === 'string' || typeof b === 'string'
          ? { unavailable: typeof a === 'string' ? a : (b as string) }
          : { self: functionChanges(a.self, b.self), inclusive: functionChanges(a.inclusive, b.inclusive) };
    }
  const total = r.first !== null && r.last !== null ? r.last - r.first : 0;
  const named = steps.reduce((sum, s) => sum + (s.after - s.before), 0);
  return BisectReport.parse({
    repo: o.repoUrl,
    from,
    to,
    metric: { id: o.metric.id, what: o.metric.what, unit: o.metric.unit },
    threshold: o.threshold,
    budget: o.budget,
    pathLength: path.length,
    first: r.first,
    last: r.last,
    steps,
    unresolved,
    explained: total !== 0 ? named / total : null,
    measured: [...values].map(([commit, value]) => ({ commit, value, ...(reasons.has(commit) ? { reason: reasons.get(commit) } : {}) })),
    builds,
    wallSeconds: (Date.now() - started.getTime()) / 1000,
    startedAt: started.toISOString(),
    harness: harnessInfo(),
    host: { id: o.host.id, cpuModel: o.host.cpuModel },
  });
}

if (import.meta.url === `file://${process.argv[1]}`) {
  const cli = commandLine('bisect', HELP, {
    repo: { type: 'string' },
    'repo-url': { type: 'string' },
    metric: { type: 'string', default: 'handshake-instructions:client:ecdsa-p256:default' },
    budget: { type: 'string', default: '40' },
    threshold: { type: 'string', default: '0.002' },
    out: { type: 'string' },
    all: { type: 'boolean' },
    'host-id': { type: 'string' },
  });
  const { values: v, positionals } = cli;
  // typed here: a call of a function declared never-returning narrows what follows it
  const fail: (message: string) => never = cli.fail;
  if (!v.repo) fail('--repo is required');
  if (v.all ? positionals.length !== 0 : positionals.length !== 2) fail(v.all ? '--all takes no <from> <to>' : 'give <from> and <to>');
  if (v.all && v.out && v.out !== '-') fail('--all writes one report per step into data/bisect/<machine>/; --out only takes - (print)');
  const budget = Number(v.budget);
  const threshold = Number(v.threshold);
  if (!Number.isInteger(budget) || budget < 2) fail(`--budget must be a whole number of at least 2, not ${v.budget}`);
  if (!(threshold > 0 && threshold < 1)) fail(`--threshold must be a fraction between 0 and 1, not ${v.threshold}`);
  let metric: Metric;
  try {
    metric = parseMetric(v.metric!);
  } catch (e) {
    fail((e as Error).message);
  }
  const machine = describeHost(hostId(v['host-id']));
  await ensureChains();
  const pairs = v.all ? releaseSteps(v.repo!) : [{ from: positionals[0]!, to: positionals[1]! }];
  for (const pair of pairs) {
    if ('skipped' in pair) {
      console.error(`skipped ${pair.from ?? '?'} -> ${pair.to ?? '?'}: ${pair.skipped}`);
      continue;
    }
    let report: BisectReport;
    try {
      report = await runBisection({
        repo: v.repo!,
        repoUrl: v['repo-url'] ?? originOf(v.repo!),
        ...pair,
        metric: metric!,
        budget,
        threshold,
        host: machine,
        log: (s) => console.error(s),
      });
    } catch (e) {
      console.error(`bisect ${pair.from} -> ${pair.to}: ${(e as Error).message}`);
      process.exitCode = 1;
      continue;
    }
    const text = JSON.stringify(report, null, 2) + '\n';
    const out = v.out ?? join('data', 'bisect', machine.id, bisectReportName(report));
    if (out === '-') process.stdout.write(text);
    else {
      mkdirSync(dirname(out), { recursive: true });
      writeFileSync(out, text);
      console.error(
        `wrote ${out}: ${report.steps.length} step(s), ${report.unresolved.length} unresolved range(s), explained ${report.explained === null ? '-' : `${(100 * report.explained).toFixed(1)}%`}`,
      );
    }
  }
}
