import { test } from 'node:test';
import assert from 'node:assert/strict';
import { benchmarkSummaries, groupEntries } from './groups.ts';
import { BENCHMARK_TITLE } from './order.ts';
import { metricNote, PERCENTILE_NOTE, seriesNote, TLS13_CLIENT_HEAP_NOTE } from '../../../../runner/handshake/series.ts';
import { entry } from './test-data.ts';

test('a table never mixes runs: a measure measured in two runs becomes two tables', () => {
  const label = (cfg: string) => `Client CPU time per handshake (in-process); ${cfg}`;
  const rows = [
    ...['a', 'b', 'c', 'g'].map((x) => entry({ params: { proto: '1.3', cert: x, side: 'client' }, label: label(x), runId: 'full' })),
    ...['d', 'e', 'f'].map((x) => entry({ params: { proto: '1.3', cert: x, side: 'client' }, label: label(x), runId: 'causes' })),
  ];
  const [g] = groupEntries(rows);
  assert.equal(g!.measures.length, 2);
  for (const m of g!.measures) assert.equal(new Set(m.entries.map((e) => e.runId)).size, 1);
  assert.deepEqual(g!.measures[0]!.rowLabels, ['a', 'b', 'c', 'g'], 'the run with most rows first');
});

test('the latency-p50/p90/p99 tables say what the figures are, whatever label the run recorded', () => {
  const old = (cfg: string) => `p50 of the CPU time of one connection, client + server (SSL objects, handshake, ticket read, shutdown, free); ${cfg}`;
  const rows = ['a', 'b', 'c'].map((x) =>
    entry({ metric: 'latency-p50', method: 'cpu-time-both', params: { proto: '1.3', cert: x, side: 'both' }, label: old(x) }),
  );
  const plain = ['a', 'b', 'c'].map((x) =>
    entry({ params: { proto: '1.3', cert: x, side: 'client' }, label: `Client CPU time per handshake (in-process); ${x}` }),
  );
  const measures = groupEntries([...rows, ...plain])[0]!.measures;
  const of = (metric: string) => measures.find((m) => m.entries[0]!.metric === metric)!;
  assert.ok(of('latency-p50').notes.includes(PERCENTILE_NOTE));
  assert.match(PERCENTILE_NOTE, /CPU time per connection, client \+ server, not wall-clock latency/);
  assert.ok(!of('cpu-per-handshake').notes.includes(PERCENTILE_NOTE), 'only the percentile metrics');
  assert.equal(metricNote('handshake', 'cpu-per-handshake'), null);
  assert.equal(metricNote('known-issues', 'latency-p50'), null, "another benchmark's metric of that name is not these");
});

test("the TLS 1.3 client's heap says it holds the read buffer of the harness's SSL_read: OpenSSL only, client only, TLS 1.3 only", () => {
  const heap = (proto: string, side: string, library = 'openssl') => ({
    benchmark: 'handshake',
    metric: 'heap-per-connection',
    library,
    params: { proto, side, cert: 'ecdsa-p256' },
  });
  assert.equal(seriesNote(heap('1.3', 'client')), TLS13_CLIENT_HEAP_NOTE);
  assert.match(TLS13_CLIENT_HEAP_NOTE, /3\.2 and later allocate at the client's first SSL_read after the handshake/);
  for (const other of [heap('1.3', 'server'), heap('1.2', 'client'), heap('1.3', 'client', 'wolfssl'), { ...heap('1.3', 'client'), benchmark: 'known-issues' }])
    assert.equal(seriesNote(other), null, JSON.stringify(other));
  const rows = ['a', 'b', 'c'].map((x) =>
    entry({
      metric: 'heap-per-connection',
      method: 'heap-bytes',
      unit: 'bytes',
      params: { proto: '1.3', cert: x, side: 'client' },
      label: `Heap bytes the client holds per live connection after the handshake; ${x}`,
    }),
  );
  assert.ok(groupEntries(rows)[0]!.measures[0]!.notes.includes(TLS13_CLIENT_HEAP_NOTE), 'said beside the table, whatever the recorded label says');
});

test('a version page lists each benchmark once, in reading order, with its counts and runs', () => {
  const es = [
    entry({
      params: { side: 'client' },
      runId: 'r2',
      stats: { n: 6, median: 1, mean: 1, stdev: 0.2, min: 0.8, max: 1.2, cv: 0.2, deterministic: false, interval: null },
    }),
    entry({ params: { side: 'server' }, runId: 'r1' }),
    entry({ params: { fn: 'x' }, metric: 'instructions-in-function' }),
    entry({ params: { algorithm: 'aes' }, benchmark: 'speed', status: 'unsupported', reason: 'no' }),
    entry({ params: { algorithm: 'gcm' }, benchmark: 'aead' }),
  ];
  const rows = benchmarkSummaries(es);
  assert.deepEqual(
    rows.map((r) => r.benchmark),
    ['handshake', 'aead', 'speed'],
  );
  assert.deepEqual(rows[0], {
    benchmark: 'handshake',
    title: BENCHMARK_TITLE.handshake,
    shown: 2,
    writeupOnly: 1,
    unsupported: 0,
    changed: 0,
    noisy: 1,
    runs: ['r1', 'r2'],
  });
  assert.equal(rows[2]!.unsupported, 1);
});

test('series a build cannot measure are listed once per reason, not as a row each', () => {
  const label = (cfg: string) => `Client CPU time per handshake (in-process); ${cfg}`;
  const rows = [
    ...['a', 'b', 'c'].map((x) => entry({ params: { cert: x, side: 'client' }, label: label(x) })),
    ...['d', 'e'].map((x) =>
      entry({
        params: { cert: x, side: 'client' },
        label: label(x),
        status: 'unsupported',
        reason: 'loading certificate mldsa65.crt: 40972C93F27F0000:error:0A080106:SSL routines',
      }),
    ),
  ];
  const [g] = groupEntries(rows);
  assert.equal(g!.measures.flatMap((m) => m.entries).length, 3);
  assert.deepEqual(
    g!.unsupported.map((u) => [u.reason, u.entries.length]),
    [['loading certificate mldsa65.crt', 2]],
  );
  assert.equal(g!.count, 5);
});
