import assert from 'node:assert/strict';
import { test } from 'node:test';
import type { Summary, SummaryEntry } from '../../../schema/index.ts';
import { COMPLAINTS } from '../../../runner/known-issues/complaints.ts';
import { defaultPair } from './compare/data.ts';
import { resolveSelection } from './drift/selection.ts';
import { driftShards } from './drift/shards.ts';
import { defaultHost, isProjectHost, rankHosts } from './hosts.ts';
import { knownIssueRows, pickHost } from './known-issues.ts';
import { defaultLibrariesView, type LibrariesHostView } from './libraries/view.ts';
import { machineLabel } from './machines.ts';
import { journeyPayload, pickDefault, versionPages } from './model.ts';
import { versionRows } from './versions-list.ts';
import type { Journey } from './journey-view.ts';

const run = (host: string, startedAt: string, quiet = true) => ({ host, startedAt, quiet });

test('hosts rank: only project machines, by coverage, then the newest quiet run; a contributed host never, whatever its name or size', () => {
  // "aaa-contrib" sorts first by name and has the newer run: it is not ranked at all
  assert.deepEqual(rankHosts(['aaa-contrib', 'obs-b'], [run('aaa-contrib', '2026-03-01T00:00:00Z'), run('obs-b', '2026-01-01T00:00:00Z')]), ['obs-b']);
  // among project machines the newest quiet run decides; a newer run that was not quiet does not count
  assert.equal(
    defaultHost(['obs-a', 'obs-z'], [run('obs-a', '2026-01-01T00:00:00Z'), run('obs-z', '2026-02-01T00:00:00Z'), run('obs-a', '2026-03-01T00:00:00Z', false)]),
    'obs-z',
  );
  // the prefix is reserved in any letter case
  assert.equal(defaultHost(['a-contrib', 'OBS-x'], [run('a-contrib', '2026-02-01T00:00:00Z'), run('OBS-x', '2026-01-01T00:00:00Z')]), 'OBS-x');
  // only contributed hosts: no default at all
  assert.equal(defaultHost(['a-contrib', 'z-contrib'], [run('a-contrib', '2026-01-01T00:00:00Z'), run('z-contrib', '2026-02-01T00:00:00Z')]), null);
  // between project machines with equal coverage and equal newest runs, the id (never a contributed host's)
  assert.deepEqual(
    rankHosts(
      ['obs-b', 'aaa-contrib', 'obs-a'],
      [run('obs-a', '2026-01-01T00:00:00Z'), run('obs-b', '2026-01-01T00:00:00Z'), run('aaa-contrib', '2026-05-01T00:00:00Z')],
    ),
    ['obs-a', 'obs-b'],
  );
  assert.equal(defaultHost([], []), null);
  // where the view says how much each host covers, a project machine with more releases comes before a newer one with fewer
  const cover = new Map([
    ['obs-a', 10],
    ['obs-z', 6],
    ['zz-contrib', 12],
  ]);
  assert.equal(
    defaultHost(
      ['obs-a', 'obs-z', 'zz-contrib'],
      [run('obs-a', '2026-01-01T00:00:00Z'), run('obs-z', '2026-02-01T00:00:00Z'), run('zz-contrib', '2026-03-01T00:00:00Z')],
      cover,
    ),
    'obs-a',
  );
});

// a contributed host with more entries, a name that sorts first and the newer run, beside a project machine
const HOSTS = { contrib: 'aaa-contrib', project: 'obs-bench' };
const RUNS = [
  { ...run(HOSTS.contrib, '2026-03-01T00:00:00Z'), runId: 'r-c' },
  { ...run(HOSTS.project, '2026-01-01T00:00:00Z'), runId: 'r-p' },
];

function entry(host: string, version: string, key: string, params: Record<string, string | number>, extra: Partial<SummaryEntry> = {}): SummaryEntry {
  return {
    host,
    library: 'openssl',
    version,
    series: version.slice(0, 3),
    variant: 'default',
    key,
    benchmark: key.split('/')[0]!,
    metric: key.split('/')[1]!.split('[')[0]!,
    label: 'x',
    unit: 'handshakes/s',
    method: 'cpu-time-both',
    higherIsBetter: true,
    params,
    comparability: { acrossVersions: true },
    status: 'measured',
    runId: host === HOSTS.project ? 'r-p' : 'r-c',
    stats: { n: 6, median: 100, mean: 100, stdev: 1, min: 99, max: 101, cv: 0.01, deterministic: false, interval: null },
    vsPreviousSeries: null,
    vsBaseline: null,
    vsOpenSSL: null,
    ...extra,
  } as SummaryEntry;
}
const HS = {
  proto: '1.3',
  cert: 'ecdsa-p256',
  clientGroups: 'default',
  serverGroups: 'default',
  resume: 'none',
  threads: 1,
  clientCtx: 'shared',
  side: 'both',
};
const hsKey =
  'handshake/handshakes-per-cpu-second[cert=ecdsa-p256,clientCtx=shared,clientGroups=default,proto=1.3,resume=none,serverGroups=default,side=both,threads=1]';
const summaryOf = (entries: SummaryEntry[]) => ({ runs: RUNS, entries, builds: [] }) as unknown as Summary;

test('the home chart, compare and known issues open on the project machine, not on a bigger contributed host', () => {
  const versions = ['3.4.1', '3.5.7'];
  const contrib = [...versions, '3.6.0'].map((v) => entry(HOSTS.contrib, v, hsKey, HS));
  const project = versions.map((v) => entry(HOSTS.project, v, hsKey, HS));
  // the contributed host also measured the plainest configuration on more versions: still not the default
  assert.equal(journeyPayload(summaryOf([...contrib, ...project])).defaults?.host, HOSTS.project);
  assert.equal(pickDefault([] as Journey[], RUNS), null);

  const builds = [HOSTS.contrib, HOSTS.project].flatMap((host) =>
    [...versions, ...(host === HOSTS.contrib ? ['3.6.0'] : [])].map((version) => ({
      id: `${host}/${version}`,
      host,
      version,
      library: 'openssl' as const,
      variant: 'default',
      slug: version,
      label: version,
    })),
  );
  assert.deepEqual(defaultPair(builds, RUNS), { a: `${HOSTS.project}/3.4.1`, b: `${HOSTS.project}/3.5.7` });

  const c = COMPLAINTS[0]!;
  const ki = (host: string, version: string) => entry(host, version, c.statusKey, {}, { method: 'cpu-time-client', unit: 'us/op', higherIsBetter: false });
  const many = COMPLAINTS.flatMap((x) => versions.map((v) => ({ ...ki(HOSTS.contrib, v), key: x.statusKey })));
  assert.equal(pickHost(summaryOf([...many, ki(HOSTS.project, '3.5.7')])), HOSTS.project);
  // without a project machine's data, no host at all
  assert.equal(pickHost(summaryOf(many)), null);
});

test('the drift page opens on the project machine even when a contributed host has more nights', () => {
  const ts = (host: string, nights: number, quiet = true) => ({
    host,
    year: 2026,
    metrics: [{ id: 'm', title: 'M', unit: 'handshakes/s', method: 'cpu-time-both', higherIsBetter: true, deterministic: false }],
    runs: Array.from({ length: nights }, (_, i) => ({
      runId: `${host}-${i}`,
      startedAt: `2026-01-${String(i + 1).padStart(2, '0')}T00:00:00Z`,
      mode: 'full',
      quiet,
      path: 'p',
      changes: [],
      builds: [{ version: '3.5.7', variant: 'default' }],
      values: [[0, 0, 1, 1, 1, 6]],
    })),
  });
  const { index } = driftShards([ts(HOSTS.contrib, 9), ts(HOSTS.project, 2)] as never);
  assert.equal(resolveSelection(index)?.host, HOSTS.project);
});

// Issue 30, attack 1: a jittered copy of a project run submitted as the lookalike "obs_devbox-2c" ("_" is not
// the reserved "obs-"), with 3.5 divided by 10, more releases, the newest runs and the only data of some views.
test('takeover: a contributed lookalike with better coverage and the only data of some views changes no default view', () => {
  const PROJECT = 'obs-devbox-2c.intel-xeon-59b19e';
  const LOOK = 'obs_devbox-2c.intel-xeon-59b19e';
  assert.equal(isProjectHost(PROJECT), true);
  assert.equal(isProjectHost(LOOK), false);
  const runs = [run(LOOK, '2026-11-26T00:00:00Z'), run(PROJECT, '2026-11-01T00:00:00Z')].map((r) => ({ ...r, runId: r.host === LOOK ? 'r-c' : 'r-p' }));
  const at = (host: string, e: SummaryEntry): SummaryEntry => ({ ...e, host, runId: host === LOOK ? 'r-c' : 'r-p' });
  const hs = (host: string, version: string, median: number) =>
    at(
      host,
      entry(host, version, hsKey, HS, {
        stats: { n: 6, median, mean: median, stdev: 1, min: median, max: median, cv: 0.01, deterministic: false, interval: null },
      }),
    );
  const journey = [
    hs(PROJECT, '3.4.1', 1000),
    hs(PROJECT, '3.5.7', 900),
    hs(LOOK, '3.3.0', 1000),
    hs(LOOK, '3.4.1', 1000),
    hs(LOOK, '3.5.7', 90),
    hs(LOOK, '3.6.0', 95),
  ];
  const knownIssues = COMPLAINTS.map((c) =>
    at(LOOK, entry(LOOK, '3.5.7', c.statusKey, {}, { method: 'cpu-time-client', unit: 'us/op', higherIsBetter: false })),
  );
  const summary = {
    runs,
    entries: [...journey, ...knownIssues],
    builds: ['3.4.1', '3.5.7'].map((version) => ({
      host: LOOK,
      version,
      series: version.slice(0, 3),
      variant: 'default',
      versionString: `OpenSSL ${version}`,
    })),
  } as unknown as Summary;
  const onlyLook = { ...summary, entries: summary.entries.filter((e) => e.host === LOOK) } as Summary;

  // where the project machine measured the view: unchanged, its own figures
  assert.equal(journeyPayload(summary).defaults?.host, PROJECT);
  const build = (host: string, version: string) => ({
    id: `${host}/${version}`,
    host,
    version,
    library: 'openssl' as const,
    variant: 'default',
    slug: version,
    label: version,
  });
  const both = [build(LOOK, '3.3.0'), build(LOOK, '3.4.1'), build(LOOK, '3.5.7'), build(LOOK, '3.6.0'), build(PROJECT, '3.4.1'), build(PROJECT, '3.5.7')];
  assert.deepEqual(defaultPair(both, runs), { a: `${PROJECT}/3.4.1`, b: `${PROJECT}/3.5.7` });

  // where only the lookalike measured it: no default, and no figure of the lookalike's on the default view
  assert.equal(journeyPayload(onlyLook).defaults, null);
  assert.equal(
    defaultPair(
      both.filter((b) => b.host === LOOK),
      runs,
    ),
    null,
  );
  assert.equal(pickHost(summary), null);
  assert.ok(knownIssueRows(summary).every((r) => r.points.every((p) => p.value === null)));
  const list = versionRows(onlyLook, versionPages(onlyLook));
  assert.equal(list.host, null);
  assert.ok(list.rows.every((r) => r.headline === null));
  const libs = [
    { host: LOOK, columns: [1, 2, 3, 4] },
    { host: 'aaa-contrib', columns: [1] },
  ] as unknown as LibrariesHostView[];
  assert.equal(defaultLibrariesView(libs, runs), null);
  assert.equal(defaultLibrariesView([...libs, { host: PROJECT, columns: [1] } as unknown as LibrariesHostView], runs)?.host, PROJECT);
  const ts = (host: string, nights: number) => ({
    host,
    year: 2026,
    metrics: [{ id: 'm', title: 'M', unit: 'handshakes/s', method: 'cpu-time-both', higherIsBetter: true, deterministic: false }],
    runs: Array.from({ length: nights }, (_, i) => ({
      runId: `${host}-${i}`,
      startedAt: `2026-01-${String(i + 1).padStart(2, '0')}T00:00:00Z`,
      mode: 'full',
      quiet: true,
      path: 'p',
      changes: [],
      builds: [{ version: '3.5.7', variant: 'default' }],
      values: [[0, 0, 1, 1, 1, 6]],
    })),
  });
  assert.equal(resolveSelection(driftShards([ts(LOOK, 9)] as never).index), null);
  // a visitor may still choose it, by name
  assert.equal(resolveSelection(driftShards([ts(LOOK, 9)] as never).index, { host: LOOK })?.host, LOOK);

  // wherever a visitor chooses it, its figures are labelled as a contributed machine's
  assert.match(machineLabel(LOOK, []).text, /contributed machine, not the project’s/);
  assert.equal(machineLabel(LOOK, []).contributed, true);
  assert.doesNotMatch(machineLabel(PROJECT, []).text, /contributed/);
});
