import assert from 'node:assert/strict';
import { test } from 'node:test';
import type { Host, Summary, SummaryEntry } from '../../../schema/index.ts';
import { seriesKey } from '../../../runner/benchmark.ts';
import { serverInstructionsSpec, serverSpec } from '../../../runner/servers/servers-benchmark.ts';
import { SERVERS } from '../../../catalogue/servers.ts';
import { MEASURE_COMMAND, boundSummary, compareWorkloads, serverHosts, serversMachine, upgradeText, type ServersMachine } from './servers.ts';

const HOST = 'obs-bench';
const OTHER = 'obs-other';
const [NGINX, HAPROXY] = [SERVERS.find((s) => s.server === 'nginx')!, SERVERS.find((s) => s.server === 'haproxy')!];
type Lib = SummaryEntry['library'];

function entry(
  spec: ReturnType<typeof serverSpec>,
  b: { library?: Lib; version: string; host?: string; runId?: string },
  value: number | null,
  o: { interval?: [number, number]; reason?: string; status?: SummaryEntry['status']; observed?: Record<string, string | number>; workload?: string } = {},
): SummaryEntry {
  const params = o.workload ? { ...spec.params, workload: o.workload } : spec.params;
  const deterministic = spec.method === 'instruction-count';
  const status = o.status ?? (value === null ? 'unsupported' : 'measured');
  return {
    host: b.host ?? HOST,
    library: b.library ?? 'openssl',
    version: b.version,
    series: b.version.split('.').slice(0, 2).join('.'),
    variant: 'default',
    key: seriesKey({ ...spec, params }),
    benchmark: spec.benchmark,
    metric: spec.metric,
    label: spec.label,
    unit: spec.unit,
    method: spec.method,
    higherIsBetter: false,
    params,
    comparability: spec.comparability,
    status,
    ...(o.reason ? { reason: o.reason } : {}),
    ...(o.observed ? { observed: o.observed } : {}),
    runId: b.runId ?? 'r1',
    stats:
      value === null
        ? null
        : {
            n: 6,
            median: value,
            mean: value,
            stdev: 0,
            min: value,
            max: value,
            cv: 0,
            deterministic,
            interval: deterministic || !o.interval ? null : { low: o.interval[0], high: o.interval[1], coverage: 0.96875, kind: 'range' as const },
          },
    vsPreviousSeries: null,
    vsBaseline: null,
    vsOpenSSL: null,
  } as SummaryEntry;
}

const shape = (workload: 'short' | 'resumed') => ({ workload, proto: '1.3' as const, cert: 'ecdsa-p256' as const });
const bound = { boundBy: 'client', serverBusy: 0.4, clientBusy: 0.97, connectionsPerSecond: 2500, connections: 12500 };
const host = (id: string, logicalCpus: number) => ({ id, logicalCpus }) as unknown as Host;
const summaryOf = (entries: SummaryEntry[], hosts = [host(HOST, 2)]) =>
  ({ hosts, runs: hosts.map((h) => ({ host: h.id, runId: 'r1', startedAt: '2026-01-01T00:00:00Z', quiet: true })), entries, builds: [] }) as unknown as Summary;

const NGINX_40 = 'nginx 1.26.3 does not build against 4.0.3: ASN1_STRING is opaque';
function sample(): SummaryEntry[] {
  const cpu = serverSpec(NGINX, shape('short'));
  const ins = serverInstructionsSpec(NGINX, shape('short'));
  const hcpu = serverSpec(HAPROXY, shape('resumed'));
  return [
    // given out of order: the page orders servers, workloads and builds itself
    entry(hcpu, { version: '3.5.7' }, 60, { interval: [58, 62], observed: bound }),
    entry(hcpu, { library: 'aws-lc', version: '5.12.0' }, 50, { interval: [49, 51], observed: bound }),
    entry(cpu, { version: '3.5.7' }, 170, { interval: [165, 175], observed: bound }),
    entry(cpu, { version: '3.0.22' }, 150, { interval: [146, 154], observed: { ...bound, boundBy: 'neither' } }),
    entry(ins, { version: '3.0.22' }, 1_500_000),
    entry(ins, { version: '3.5.7' }, 1_700_000),
    entry(cpu, { version: '4.0.3' }, null, { reason: NGINX_40 }),
    entry(ins, { version: '4.0.3' }, null, { reason: NGINX_40 }),
    entry(cpu, { library: 'aws-lc', version: '5.12.0' }, null, { reason: 'nginx is built here against OpenSSL only' }),
    entry(cpu, { version: '3.0.22' }, 900, { interval: [890, 910], workload: 'bulk' }),
    entry(cpu, { version: '3.0.22' }, 60, { interval: [59, 61], workload: 'resumed' }),
    entry(cpu, { version: '3.0.22' }, 1, { interval: [1, 1], workload: 'other' }),
  ];
}

test('workloads come in the order short, resumed, bulk, then any other by name', () => {
  assert.deepEqual(['zeta', 'bulk', 'other', 'resumed', 'short'].sort(compareWorkloads), ['short', 'resumed', 'bulk', 'other', 'zeta']);
  const m = serversMachine(summaryOf(sample()), HOST, host(HOST, 2));
  assert.deepEqual(
    m.tables.map((t) => `${t.shape.server} ${t.shape.workload}`),
    ['nginx short', 'nginx resumed', 'nginx bulk', 'nginx other', 'haproxy resumed'],
  );
});

test('a table is one server, workload and shape, a row per usable build in release order, each value as the data holds it', () => {
  const m = serversMachine(summaryOf(sample()), HOST, host(HOST, 2));
  const t = m.tables[0]!;
  assert.equal(t.shape.client, '3.5.7');
  assert.deepEqual(
    t.rows.map((r) => r.name),
    ['OpenSSL 3.0.22', 'OpenSSL 3.5.7'],
  );
  assert.deepEqual(
    t.rows.map((r) => [r.cpu?.stats?.median, r.cpu?.stats?.interval?.low, r.cpu?.stats?.interval?.high, r.instructions?.stats?.median]),
    [
      [150, 146, 154, 1_500_000],
      [170, 165, 175, 1_700_000],
    ],
  );
  assert.deepEqual(
    t.rows.map((r) => r.bound?.by),
    ['neither', 'client'],
  );
  assert.equal(boundSummary(t), 'the client (openssl s_time) was busy in 1 of 2 windows; neither was busy: both waited in 1 of 2 windows');
  const h = m.tables.at(-1)!;
  assert.deepEqual(
    h.rows.map((r) => r.name),
    ['OpenSSL 3.5.7', 'AWS-LC 5.12.0'],
    'HAProxy with AWS-LC',
  );
});

test('builds a server could not use are listed apart with the reason the run recorded, never in a table', () => {
  const m = serversMachine(summaryOf(sample()), HOST, host(HOST, 2));
  assert.deepEqual(
    m.unusable.map((u) => [u.server, u.name, u.status, u.reason]),
    [
      ['nginx', 'OpenSSL 4.0.3', 'unsupported', NGINX_40],
      ['nginx', 'AWS-LC 5.12.0', 'unsupported', 'nginx is built here against OpenSSL only'],
    ],
  );
  for (const t of m.tables) assert.ok(!t.rows.some((r) => r.build.version === '4.0.3'));
});

test('the upgrade from 3.0 to the newest build: the change in CPU time, whether the intervals separate, and in instructions, as sentences of the data', () => {
  const m = serversMachine(summaryOf(sample()), HOST, host(HOST, 2));
  const u = m.upgrades.find((x) => x.shape.server === 'nginx' && x.shape.workload === 'short')!;
  assert.equal(u.from.build.version, '3.0.22');
  assert.equal(u.to.build.version, '3.5.7', 'the newest build a server could use (4.0.3 is unsupported)');
  assert.deepEqual(u.cpu, { ratio: 170 / 150, sameRun: true, separate: true });
  assert.deepEqual(u.instructions, { ratio: 1_700_000 / 1_500_000 });
  assert.deepEqual(upgradeText(u), [
    'Server CPU time per connection goes from 150 µs on OpenSSL 3.0.22 to 170 µs on OpenSSL 3.5.7: more (+13.3%); the two intervals do not overlap.',
    'Instructions per connection go from 1.5 M instructions to 1.7 M instructions: more (+13.3%), an exact count.',
  ]);
  // HAProxy resumed has no 3.0 build: no upgrade is stated
  assert.equal(
    m.upgrades.some((x) => x.shape.server === 'haproxy'),
    false,
  );
});

test('overlapping intervals and CPU times of different runs are said in words, not as a change', () => {
  const cpu = serverSpec(NGINX, shape('short'));
  const overlap = serversMachine(
    summaryOf([entry(cpu, { version: '3.0.22' }, 150, { interval: [140, 160] }), entry(cpu, { version: '3.5.7' }, 155, { interval: [150, 165] })]),
    HOST,
    null,
  );
  assert.match(upgradeText(overlap.upgrades[0]!)[0]!, /the two intervals overlap, so the data do not separate them\.$/);
  assert.match(upgradeText(overlap.upgrades[0]!)[1]!, /^Instructions per connection: not measured on both/);
  const apart = serversMachine(
    summaryOf([
      entry(cpu, { version: '3.0.22', runId: 'r1' }, 150, { interval: [140, 160] }),
      entry(cpu, { version: '3.5.7', runId: 'r2' }, 155, { interval: [150, 165] }),
    ]),
    HOST,
    null,
  );
  assert.equal(apart.upgrades[0]!.cpu!.sameRun, false);
  assert.match(upgradeText(apart.upgrades[0]!)[0]!, /measured in different runs, so the two are not compared here\.$/);
  // and the two runs' CPU times are in two tables: a table never holds timed values of two runs
  assert.deepEqual(
    apart.tables.map((t) => [t.runId, t.rows.map((r) => r.build.version)]),
    [
      ['r1', ['3.0.22']],
      ['r2', ['3.5.7']],
    ],
  );
});

test('each machine on its own: no entry of another machine, and a machine without the servers benchmark has no table', () => {
  const others = sample().map((e) => ({ ...e, host: OTHER, stats: e.stats && { ...e.stats, median: e.stats.median * 2 } }));
  const s = summaryOf([...sample(), ...others], [host(HOST, 2), host(OTHER, 64), host('obs-empty', 4)]);
  const a = serversMachine(s, HOST, host(HOST, 2));
  const b = serversMachine(s, OTHER, host(OTHER, 64));
  assert.equal(a.tables[0]!.rows[0]!.cpu!.stats!.median, 150);
  assert.equal(b.tables[0]!.rows[0]!.cpu!.stats!.median, 300);
  assert.equal(b.logicalCpus, 64);
  for (const m of [a, b]) for (const t of m.tables) for (const r of t.rows) for (const e of [r.cpu, r.instructions]) if (e) assert.equal(e.host, m.host);
  const empty: ServersMachine = serversMachine(s, 'obs-empty', host('obs-empty', 4));
  assert.deepEqual([empty.tables, empty.unusable, empty.upgrades, empty.logicalCpus], [[], [], [], 4]);
  assert.deepEqual(serverHosts(s).sort(), ['obs-bench', 'obs-empty', 'obs-other']);
  assert.equal(MEASURE_COMMAND, 'npm run bench -- --benchmarks servers');
});
