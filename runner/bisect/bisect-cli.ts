// `npm run bisect -- [options] <from> <to>`: the commits of OpenSSL's history between two points (tags,
// branches or commit ids) where a deterministic figure moved (bisect.ts), each built from the history
// (commit-build.ts) and measured by our programs. Writes one report (schema/bisect.ts).
import { mkdirSync, writeFileSync } from 'node:fs';
import { dirname } from 'node:path';
import { parseArgs } from 'node:util';
import { BisectReport } from '../../schema/index.ts';
import { listCached } from '../build.ts';
import { VERSIONS, compareSeries } from '../../catalogue/index.ts';
import { releaseCommit } from './releases.ts';
import { baseConfig, countInstructions, ensureCerts, handshakeBinary, type HandshakeConfig } from '../handshake/handshake.ts';
import { CERTS } from '../certs.ts';
import { describeHost } from '../host.ts';
import { harnessInfo } from '../run.ts';
import { bisect, relativeDifference } from './bisect.ts';
import { buildCommit, commitVersion } from './commit-build.ts';
import { commitInfo, commitPath, culprit, mergeSide, parents, resolve, type PathCommit } from './history.ts';

const HELP = `usage: npm run bisect -- --repo GITDIR [--metric ID] [--budget N] [--threshold F] [--out FILE] <from> <to>

Finds every commit between <from> and <to> (a catalogued release such as 3.4.0, which goes by its tag
once its tree is checked against the catalogue's archive; or any tag, branch or commit id) where the
metric moves by more than the threshold, building each probed commit (cached in <cache>/commit-builds,
through ccache when installed) and counting instructions under valgrind.

  --repo GITDIR     a clone of OpenSSL (its .git directory or a bare repository); upstream is
                    https://github.com/openssl/openssl.git
  --metric ID       handshake-instructions:<client|server>:<cert>:<groups>, instructions one side spends
                    per full TLS 1.3 handshake; cert ${CERTS.join('|')}, groups default or a list
                    (default: handshake-instructions:client:ecdsa-p256:default)
  --budget N        commits measured at most, ends included (default 40)
  --threshold F     relative difference that is a step (default 0.002 = 0.2%)
  --out FILE        the report (default: print it)`;

interface Metric {
  id: string;
  what: string;
  unit: string;
  cfg: HandshakeConfig;
  side: 'client' | 'server';
}

export function parseMetric(id: string): Metric {
  const m = /^handshake-instructions:(client|server):([a-z0-9-]+):([A-Za-z0-9:_-]+)$/.exec(id);
  if (!m) throw new Error(`unknown metric "${id}": expected handshake-instructions:<client|server>:<cert>:<groups>`);
  const side = m[1] as 'client' | 'server';
  const cert = CERTS.find((c) => c === m[2]);
  const groups = m[3]!;
  if (!cert) throw new Error(`unknown certificate "${m[2]}" in "${id}" (known: ${CERTS.join(', ')})`);
  const cfg = baseConfig({ cert, clientGroups: groups, serverGroups: groups });
  return { id, side, cfg, unit: 'instructions', what: `instructions the ${side} spends per full TLS 1.3 handshake, ${cert} certificate, groups ${groups} on both sides (callgrind, fixed-seed RNG, its own SSL calls only)` };
}

/** Count the metric on one commit; null (with why) when it does not build or our program does not compile against it. */
async function measureCommit(repo: string, commit: string, metric: Metric, stats: BisectReport['builds']): Promise<{ value: number | null; reason?: string }> {
  const t = Date.now();
  const b = await buildCommit(repo, commit);
  if (!b.ok) {
    stats.failed++;
    return { value: null, reason: `does not build: ${b.reason}` };
  }
  if (b.cached) stats.cached++;
  else {
    stats.built++;
    stats.secondsBuilding += (Date.now() - t) / 1000;
  }
  let binary: string;
  try {
    binary = handshakeBinary({ record: { id: `commit-${commit.slice(0, 12)}`, library: 'openssl', version: b.record.version, variant: 'default' }, prefix: b.prefix });
  } catch (e) {
    return { value: null, reason: `our handshake program does not compile against it: ${(e as Error).message.slice(0, 300)}` };
  }
  const r = await countInstructions(binary, metric.cfg, 10, metric.side);
  if (r.kind !== 'measured') return { value: null, reason: `${r.kind}: ${r.reason.slice(0, 300)}` };
  return { value: r.instructionsPerHandshake };
}

/**
 * One end of the path: a release of the catalogue goes by its tag, checked against the archive the journey
 * measured (releases.ts); anything else is a git reference.
 */
async function endOf(repo: string, spec: string): Promise<BisectReport['from']> {
  if (VERSIONS.some((v) => v.version === spec)) {
    const r = await releaseCommit(repo, spec);
    return { ref: r.tag, commit: r.commit, version: commitVersion(repo, r.commit).version, release: { version: spec, sameFiles: r.same, generatedFiles: r.generated.length } };
  }
  const commit = resolve(repo, spec);
  return { ref: spec, commit, version: commitVersion(repo, commit).version };
}

export async function runBisection(o: { repo: string; from: string; to: string; metric: Metric; budget: number; threshold: number; log?: (s: string) => void }): Promise<BisectReport> {
  const log = o.log ?? (() => {});
  const started = new Date();
  const builds = { built: 0, cached: 0, failed: 0, secondsBuilding: 0 };
  const reasons = new Map<string, string>();
  const values = new Map<string, number | null>();
  const measure = (path: PathCommit[]) => async (at: number) => {
    const id = path[at]!.id;
    if (!values.has(id)) {
      const r = await measureCommit(o.repo, id, o.metric, builds);
      values.set(id, r.value);
      if (r.reason) reasons.set(id, r.reason);
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
  const unresolved: BisectReport['unresolved'] = [];
  const unresolvedOf = (p: PathCommit[], u: (typeof r.unresolved)[number]) => ({ from: p[u.from]!.id, to: p[u.to]!.id, between: u.to - u.from - 1, before: u.before, after: u.after, reason: u.reason });
  for (const u of r.unresolved) unresolved.push(unresolvedOf(path, u));
  for (const s of r.steps) {
    const c = culprit(path, s.at);
    const side = !c.undone && parents(o.repo, c.id).length > 1 ? mergeSide(o.repo, c.id) : null;
    const left = o.budget - values.size;
    if (side && left >= 1) {
      // a step on a merge: follow it into the merged side with what is left of the budget
      const inner = await bisect(side.length, measure(side), { differs, budget: left + 2 });
      for (const x of inner.steps) steps.push({ ...info(culprit(side, x.at).id), undone: false, viaMerge: c.id, before: x.before, after: x.after });
      for (const u of inner.unresolved) unresolved.push(unresolvedOf(side, u));
      if (inner.steps.length || inner.unresolved.length) continue;
    }
    steps.push({ ...info(c.id), undone: c.undone, before: s.before, after: s.after });
  }
  const total = r.first !== null && r.last !== null ? r.last - r.first : 0;
  const named = steps.reduce((sum, s) => sum + (s.after - s.before), 0);
  const host = describeHost(process.env.OBSERVATORY_HOST_ID ?? 'bisect');
  return BisectReport.parse({
    repo: o.repo,
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
    host: { id: host.id, cpuModel: host.cpuModel },
  });
}

if (import.meta.url === `file://${process.argv[1]}`) {
  const { values: v, positionals } = parseArgs({
    allowPositionals: true,
    options: {
      repo: { type: 'string' },
      metric: { type: 'string', default: 'handshake-instructions:client:ecdsa-p256:default' },
      budget: { type: 'string', default: '40' },
      threshold: { type: 'string', default: '0.002' },
      out: { type: 'string' },
      help: { type: 'boolean' },
    },
  });
  if (v.help) {
    console.log(HELP);
    process.exit(0);
  }
  const fail = (m: string) => (console.error(`bisect: ${m}\n\n${HELP}`), process.exit(64));
  if (!v.repo) fail('--repo is required');
  if (positionals.length !== 2) fail('give <from> and <to>');
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
  // the certificate chains come from a catalogue build of OpenSSL 3.5+ (runner/certs.ts)
  const maker = listCached().find((b) => (b.record.library ?? 'openssl') === 'openssl' && compareSeries(b.record.series, '3.5') >= 0);
  if (maker) await ensureCerts({ record: maker.record, prefix: maker.prefix });
  const report = await runBisection({ repo: v.repo!, from: positionals[0]!, to: positionals[1]!, metric: metric!, budget, threshold, log: (s) => console.error(s) });
  const text = JSON.stringify(report, null, 2) + '\n';
  if (v.out) mkdirSync(dirname(v.out), { recursive: true }), writeFileSync(v.out, text);
  else process.stdout.write(text);
}
