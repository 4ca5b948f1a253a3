import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { Summary, type SummaryEntry } from '../../../schema/index.ts';
import {
  BENCHMARK_TITLE,
  benchmarkSummaries,
  causesOf,
  compareEntries,
  groupEntries,
  splitAround,
  headlines,
  keyId,
  splitLabels,
  variantText,
} from './version-view.ts';
import { metricNote, PERCENTILE_NOTE, seriesNote, TLS13_CLIENT_HEAP_NOTE } from '../../../runner/handshake/handshake.ts';
import { intervalLabel, pct, pctRange, quantity, quantityRange, sig, toCsv, verdictWords } from './format.ts';
import { entriesOf } from './model.ts';
import { openSSLOnly } from './data.ts';

// the OpenSSL builds' entries: what these pages read (other libraries are on /libraries)
const fixture = openSSLOnly(Summary.parse(JSON.parse(readFileSync(new URL('../../tests/fixtures/data/summary.json', import.meta.url), 'utf8'))));

function entry(over: Partial<SummaryEntry> & { params: SummaryEntry['params'] }): SummaryEntry {
  return {
    host: 'h',
    library: 'openssl',
    version: '3.5.7',
    series: '3.5',
    variant: 'default',
    key: `k${JSON.stringify(over.params)}${over.metric ?? ''}`,
    benchmark: 'handshake',
    metric: 'cpu-per-handshake',
    label: 'Client CPU time per handshake (in-process); TLS 1.3',
    unit: 'us/handshake',
    method: 'cpu-time-client',
    higherIsBetter: false,
    comparability: { acrossVersions: true },
    status: 'measured',
    runId: 'r1',
    stats: null,
    vsPreviousSeries: null,
    vsBaseline: null,
    vsOpenSSL: null,
    ...over,
  };
}

test('human units: three significant figures and a unit a reader knows', () => {
  assert.equal(quantity(1553605663, 'bytes/s'), '1.55 GB/s');
  assert.equal(quantity(24_500_000, 'bytes/s'), '24.5 MB/s');
  assert.equal(quantity(292.59963, 'us/handshake'), '293 µs');
  assert.equal(quantity(1370.4, 'us/handshake'), '1.37 ms');
  assert.equal(quantity(0.51234, 'us/op'), '0.512 µs');
  assert.equal(quantity(41234, 'bytes', 'heap-bytes'), '40.3 KiB');
  assert.equal(quantity(1573, 'bytes', 'wire-bytes'), '1,573 B', 'bytes on the wire stay exact');
  assert.equal(quantity(7_052_113, 'instructions'), '7.05 M instructions');
  assert.equal(quantity(12345, 'ops/s'), '12,300 ops/s');
  assert.equal(quantity(null, 'ops/s'), 'not measured');
  assert.equal(quantityRange(287.05, 305.34, 'us/handshake'), '287–305 µs');
  assert.equal(quantityRange(980e6, 1.23e9, 'bytes/s'), '0.98–1.23 GB/s', 'both ends in the scale of the larger');
  assert.equal(sig(-0.0001, 1), '-0.0001');
});

test('interval labels state their coverage and never claim 95% below it', () => {
  assert.equal(intervalLabel({ kind: 'range', coverage: 0.75 }), 'range, covers 75.0%');
  assert.equal(intervalLabel({ kind: 'range', coverage: 0.9375 }), 'range, covers 93.7%');
  assert.equal(intervalLabel({ kind: 'order-statistic', coverage: 0.96875 }), '96.8% interval');
  assert.equal(pctRange({ low: 0.96, high: 1.02 }), '−4.0% to +2.0%');
  const c = { against: '3.4.1', ratio: 1.2, pairing: 'paired-rounds' as const, pairs: 6, interval: null, verdict: 'higher' as const };
  assert.equal(verdictWords(c, false), 'higher (worse)');
  assert.equal(verdictWords({ ...c, verdict: 'within-threshold' }, false), 'unchanged');
});

test('CSV formula injection: a text cell starting =, +, -, @, tab or CR is neutralised with a quote; numbers stay numbers', () => {
  const cells = ['=HYPERLINK("http://x","y")', '+1+1', '-2+3', '@SUM(A1)', '\tx', '\rx'];
  const out = toCsv(
    ['c'],
    cells.map((c) => [c]),
  )
    .split('\r\n')
    .slice(1, -1);
  assert.deepEqual(out, ['"\'=HYPERLINK(""http://x"",""y"")"', "'+1+1", "'-2+3", "'@SUM(A1)", "'\tx", '"\'\rx"']);
  // a negative number is a number (as a number or as the text of one); text that merely starts with "-" is not
  assert.equal(toCsv(['n'], [[-3.5], ['-3.5'], ['-1e-3'], ['- 3']]), "n\r\n-3.5\r\n-3.5\r\n-1e-3\r\n'- 3\r\n");
});

test('CSV quotes what needs quoting and keeps numbers at full precision', () => {
  assert.equal(
    toCsv(
      ['a', 'b'],
      [
        [1.23456789, 'x, "y"'],
        [null, true],
      ],
    ),
    'a,b\r\n1.23456789,"x, ""y"""\r\n,true\r\n',
  );
});

test('labels split on clause breaks, never inside parentheses; repeated explanations become notes', () => {
  const s = splitLabels([
    'Client CPU (each side timed; in-process); TLS 1.3 groups default, new; "default" = the version\'s own groups',
    'Client CPU (each side timed; in-process); TLS 1.3 groups X25519, new',
    'Client CPU (each side timed; in-process); TLS 1.2 groups default, new; "default" = the version\'s own groups',
  ]);
  assert.ok(s);
  assert.equal(s.head, 'Client CPU (each side timed; in-process)');
  assert.deepEqual(s.rows, ['TLS 1.3 groups default, new', 'TLS 1.3 groups X25519, new', 'TLS 1.2 groups default, new']);
  assert.deepEqual(s.notes, ['"default" = the version\'s own groups']);
  assert.equal(splitLabels(['sha256 on 16-byte buffers', 'sha256 on 16384-byte buffers']), null, 'no shared clause: full labels');
});

test('rows read in a sensible order: TLS 1.3 before 1.2, new before resumed, one thread before many, defaults before pinned', () => {
  const rows = [
    entry({ params: { proto: '1.2', resume: 'none', threads: 1, clientGroups: 'default', side: 'client' } }),
    entry({ params: { proto: '1.3', resume: 'ticket', threads: 1, clientGroups: 'default', side: 'client' } }),
    entry({ params: { proto: '1.3', resume: 'none', threads: 4, clientGroups: 'default', side: 'client' } }),
    entry({ params: { proto: '1.3', resume: 'none', threads: 1, clientGroups: 'X25519', side: 'client' } }),
    entry({ params: { proto: '1.3', resume: 'none', threads: 1, clientGroups: 'default', side: 'client' } }),
  ];
  const sorted = [...rows].sort(compareEntries).map((e) => rows.indexOf(e));
  assert.deepEqual(sorted, [4, 3, 2, 1, 0]);
});

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

test('labels that differ in a few words (openssl speed per buffer size) say the rest once; a colon head no other row shares is not a measure', () => {
  const label = (n: number) => `openssl speed -evp aes-128-gcm on ${n}-byte buffers (re-keyed): bytes per second of user CPU time`;
  assert.deepEqual(splitAround([16, 64, 16384].map(label)), {
    head: 'openssl speed -evp aes-128-gcm on … buffers (re-keyed): bytes per second of user CPU time',
    rows: ['16-byte', '64-byte', '16384-byte'],
  });
  assert.deepEqual(splitAround(['a b', 'a c', 'a d']), { head: 'a …', rows: ['b', 'c', 'd'] });
  assert.equal(splitAround(['one thing entirely', 'another matter', 'a third']), null, 'nothing shared');
  assert.equal(splitAround(['x same', 'x same']), null, 'duplicates');
  const es = [16, 64, 16384].map((n) =>
    entry({ benchmark: 'speed', metric: 'aes-128-gcm-encrypt', params: { algorithm: 'aes-128-gcm', bytes: n }, label: label(n) }),
  );
  const [g] = groupEntries(es);
  assert.equal(g!.measures.length, 1);
  assert.deepEqual(g!.measures[0]!.rowLabels, ['16-byte', '64-byte', '16384-byte']);
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

test('headline figures of the fixture: handshake CPU per side with defaults and pinned X25519', () => {
  const entries = entriesOf(fixture, 'obs-fixture-host', '3.5.7', 'default');
  const h = headlines(entries);
  assert.equal(h.cert, 'ecdsa-p256');
  const titles = h.rows.map((r) => r.title);
  for (const t of [
    'Handshake CPU time, client side, library-default groups',
    'Handshake CPU time, server side, library-default groups',
    'Handshake CPU time, client side, groups pinned to X25519',
    'Handshake CPU time, server side, groups pinned to X25519',
  ])
    assert.ok(titles.includes(t), `${t} missing from ${titles.join(' | ')}`);
  assert.ok(
    titles.some((t) => t.startsWith('AES-128-GCM seal')),
    'the AEAD program is a headline',
  );
});

test('a version measured only by the known-issues run opens with its TLS 1.2 handshake and the complaint operations', () => {
  const ki = (metric: string, params: Record<string, string | number>, unit: SummaryEntry['unit'] = 'us/op') =>
    entry({ benchmark: 'known-issues', metric, unit, params, label: `${metric} ${JSON.stringify(params)}` });
  const tls12 = {
    proto: '1.2',
    cert: 'rsa2048',
    clientGroups: 'default',
    serverGroups: 'default',
    resume: 'none',
    threads: 1,
    clientCtx: 'shared',
    cipher: 'AES128-SHA',
  };
  const entries = [
    entry({ metric: 'cpu-per-handshake', params: { ...tls12, side: 'client' }, label: 'client' }),
    entry({ metric: 'cpu-per-handshake', params: { ...tls12, side: 'server' }, label: 'server' }),
    ki('cpu-per-op', { op: 'pkey-pem', key: 'rsa2048', encoding: 'pkcs8-pem' }),
    ki('cpu-per-op', { op: 'ca-bundle', certificates: 200 }),
    ki('cpu-per-op', { op: 'aead-reinit', cipher: 'aes-128-gcm', bytes: 16 }),
    ki('instructions-per-op', { op: 'pkey-pem', key: 'rsa2048', encoding: 'pkcs8-pem' }, 'instructions'),
    ki('heap-per-connection', { op: 'dtls-handshake', side: 'server' }, 'bytes'),
    // bytes on the wire of a TLS 1.3 handshake with pinned groups: after the handshake CPU, never before it
    entry({
      metric: 'bytes-sent',
      unit: 'bytes',
      method: 'wire-bytes',
      params: {
        proto: '1.3',
        cert: 'ecdsa-p256',
        clientGroups: 'P-256',
        serverGroups: 'P-256',
        resume: 'none',
        threads: 1,
        clientCtx: 'shared',
        side: 'client',
      },
      label: 'bytes',
    }),
  ];
  assert.deepEqual(
    headlines(entries).rows.map((r) => r.title),
    [
      'Handshake CPU time, client side, TLS 1.2 AES128-SHA, RSA-2048 certificate',
      'Handshake CPU time, server side, TLS 1.2 AES128-SHA, RSA-2048 certificate',
      'Bytes sent per handshake, client side, groups P-256',
      'Decoding an RSA-2048 private key, PKCS#8 PEM',
      'Loading a CA bundle of 200 certificates',
      'AES-128-GCM seal of a 16-byte record, context keyed once',
      'DTLS heap per connection, server side',
    ],
  );
  assert.equal(groupEntries(entries).find((g) => g.benchmark === 'known-issues')!.title, 'Known issues: the operations behind reported complaints');
  // "<measure>: <operation>" labels share one table per measure, each row naming its operation
  const locks = ['pkey-pem', 'ca-bundle'].map((op) =>
    entry({
      benchmark: 'known-issues',
      metric: 'lock-calls-per-op',
      unit: 'count',
      params: { op, lock: 'library-locks' },
      label: `Library lock acquisitions (read + write) per call: ${op} (callgrind call counts)`,
    }),
  );
  const m = groupEntries(locks)[0]!.measures;
  assert.deepEqual(
    m.map((x) => [x.head, x.rowLabels]),
    [['Library lock acquisitions (read + write) per call', ['ca-bundle (callgrind call counts)', 'pkey-pem (callgrind call counts)']]],
  );
  // a version with the plain TLS 1.3 handshake opens with it; the complaint operations stay in the full tables
  const tls13 = { proto: '1.3', cert: 'ecdsa-p256', clientGroups: 'default', serverGroups: 'default', resume: 'none', threads: 1, clientCtx: 'shared' };
  const full = [...entries, entry({ metric: 'cpu-per-handshake', params: { ...tls13, side: 'client' }, label: 'client 1.3' })];
  assert.deepEqual(
    headlines(full).rows.map((r) => r.title),
    ['Handshake CPU time, client side, library-default groups', 'Bytes sent per handshake, client side, groups P-256'],
  );
});

test('changes of ten times or more read as multiples, smaller ones as percentages', () => {
  assert.equal(pct(1.2346), '+23.5%');
  assert.equal(pct(0.5), '−50.0%');
  assert.equal(pct(179.11368786753366), '179×');
  assert.equal(pctRange({ low: 124.3, high: 199.5 }), '124× to 200×');
  assert.equal(pctRange({ low: 1.5, high: 2 }), '+50.0% to +100.0%');
});

test('key ids are short and stable; variants read as words', () => {
  assert.match(keyId('handshake/cpu-per-handshake[cert=ecdsa-p256]'), /^[0-9a-f]{8}$/);
  assert.equal(keyId('x'), keyId('x'));
  assert.notEqual(keyId('x'), keyId('y'));
  const ids = new Set(fixture.entries.map((e) => keyId(e.key)));
  assert.equal(ids.size, new Set(fixture.entries.map((e) => e.key)).size, 'no collision in the fixture');
  assert.equal(variantText('no-ml-kem'), 'built without ML-KEM');
  assert.equal(variantText('default'), '');
});

test("a version page's headline rows follow a visitor's questions: handshake CPU per side, handshakes per second, bulk, heap, bytes, then the rest", () => {
  const h = headlines(entriesOf(fixture, 'obs-fixture-host', '3.5.7', 'default'));
  const kind = (t: string) =>
    t.startsWith('Handshake CPU time')
      ? 0
      : t.startsWith('Handshakes per')
        ? 1
        : / seal, /.test(t)
          ? 2
          : t.startsWith('Heap')
            ? 3
            : t.startsWith('Bytes')
              ? 4
              : 5;
  const kinds = h.rows.map((r) => kind(r.title));
  assert.deepEqual(
    kinds,
    [...kinds].sort((a, b) => a - b),
    h.rows.map((r) => r.title).join(' | '),
  );
  for (const k of [0, 1, 2, 3] as const) assert.ok(kinds.includes(k), `no row of kind ${k}: ${h.rows.map((r) => r.title).join(' | ')}`);
  assert.notEqual(h.rows[0]!.title, 'SSL_CTX_new, one call');
});

test('a headline change links to the write-ups naming its series and version and to bisections of its metric and side', () => {
  const e = entriesOf(fixture, 'obs-fixture-host', '3.5.7', 'default').find((x) => x.metric === 'instructions-per-handshake')!;
  const w = [
    { id: 'yes', title: 'Names it', versions: ['3.4.1', '3.5.7'], seriesKeys: [e.key] },
    { id: 'other-version', title: 'Other version', versions: ['3.4.1'], seriesKeys: [e.key] },
    { id: 'other-key', title: 'Other key', versions: ['3.5.7'], seriesKeys: ['x'] },
  ];
  const b = [
    { machine: 'm', slug: 's1', title: 'instructions', metricId: 'handshake-instructions:client:ecdsa-p256:default' },
    { machine: 'm', slug: 's2', title: 'heap', metricId: 'handshake-heap:server:ecdsa-p256:X25519' },
  ];
  assert.deepEqual(
    causesOf(e, w, b).map((c) => `${c.kind} ${c.id}`),
    ['write-up yes', 'bisection m/s1'],
  );
});

test('an AEAD page shows the CPU-time table it calls primary before the wall-clock one, per cipher', () => {
  const aead = (metric: string, algorithm: string) =>
    entry({ benchmark: 'aead', metric, params: { algorithm, operation: 'seal', bytes: 16384 }, label: metric });
  const sorted = [
    aead('aes-128-gcm-seal', 'aes-128-gcm'),
    aead('chacha20-poly1305-seal', 'chacha20-poly1305'),
    aead('aes-128-gcm-seal-cpu', 'aes-128-gcm'),
    aead('chacha20-poly1305-seal-cpu', 'chacha20-poly1305'),
  ].sort(compareEntries);
  assert.deepEqual(
    sorted.map((e) => e.metric),
    ['aes-128-gcm-seal-cpu', 'aes-128-gcm-seal', 'chacha20-poly1305-seal-cpu', 'chacha20-poly1305-seal'],
  );
});
