// The summary's entries (aggregate()): statistics, comparisons within one run, labels, and which run each row comes from.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { aggregate, observedOf } from './summary.ts';
import { writeAll } from './derived-files.ts';
import { registeredSeries } from '../../runner/series-registry.ts';
import { seriesKey } from '../../runner/benchmark.ts';
import { dataDir, evidence, testRun } from './test-runs.ts';

test('summary statistics exclude warm-up; comparisons against the previous series and 1.1.1w', () => {
  const run = testRun('r1', {
    '1.1.1w': [100, 101, 99, 100, 102, 100],
    '3.0.22': [80, 81, 79, 80, 82, 80],
    '3.1.4': [81, 79, 80, 82, 80, 79],
  });
  const { summary } = aggregate([{ run, path: 'runs/box/r1.json' }]);
  const e30 = summary.entries.find((e) => e.version === '3.0.22')!;
  assert.equal(e30.stats!.median, 80);
  assert.equal(e30.stats!.n, 6, 'the warm-up value 999 is not counted');
  assert.equal(e30.runId, 'r1');
  assert.equal(e30.stats!.interval!.kind, 'order-statistic');
  assert.equal(e30.vsPreviousSeries!.pairing, 'paired-rounds');
  assert.equal(e30.vsPreviousSeries!.pairs, 6);
  assert.equal(e30.vsPreviousSeries!.against, '1.1.1w');
  assert.equal(e30.vsPreviousSeries!.verdict, 'lower');
  const e31 = summary.entries.find((e) => e.version === '3.1.4')!;
  assert.equal(e31.vsPreviousSeries!.against, '3.0.22');
  assert.equal(e31.vsPreviousSeries!.verdict, 'no-difference-shown');
  assert.equal(e31.vsBaseline!.verdict, 'lower');
});

test('only quiet runs feed the entries; the others are listed with their reasons', () => {
  const t1 = '2026-01-01T00:00:00.000Z';
  const t2 = '2026-01-02T00:00:00.000Z';
  const quietRun = testRun('quiet', { '3.4.1': [10, 11, 12, 10, 11, 12] }, t1);
  const busyRun = testRun('busy', { '3.4.1': [50, 51, 52, 50, 51, 52], '3.5.7': [5, 5, 5, 5, 5, 5] }, t2, evidence(t2, 2));
  const legacy = testRun('legacy', { '3.6.3': [1, 1, 1, 1, 1, 1] }, t2, null);
  const { summary, detailed } = aggregate([
    { run: quietRun, path: 'runs/box/quiet.json' },
    { run: busyRun, path: 'runs/box/busy.json' },
    { run: legacy, path: 'runs/box/legacy.json' },
  ]);
  assert.deepEqual(
    summary.entries.map((e) => [e.version, e.runId]),
    [['3.4.1', 'quiet']],
    'the busier, newer, larger run does not displace the quiet one, and adds nothing',
  );
  const busy = summary.runs.find((r) => r.runId === 'busy')!;
  assert.equal(busy.quiet, false);
  assert.match(busy.quietReasons.join(' '), /round 2: other processes used 85%/);
  assert.match(summary.runs.find((r) => r.runId === 'legacy')!.quietReasons[0]!, /before the quiet-host protocol/);
  assert.ok(
    detailed.rows.every((r) => r[0] === 'quiet'),
    'iterations of unused runs stay in their run files',
  );
  assert.deepEqual(
    summary.builds.map((b) => b.version),
    ['3.4.1'],
    'builds of the runs behind the entries',
  );
});

test('a series missing from the best run comes from another quiet run and names it; no comparison crosses runs', () => {
  const big = testRun('big', { '1.1.1w': [10, 10, 10, 10, 10, 10], '3.5.7': [8, 8, 8, 8, 8, 8] }, '2026-01-02T00:00:00.000Z');
  const seed = testRun('seed', { '3.0.2': [5, 5, 5, 5, 5, 5] }, '2026-01-01T00:00:00.000Z');
  const { summary } = aggregate([
    { run: big, path: 'runs/box/big.json' },
    { run: seed, path: 'runs/box/seed.json' },
  ]);
  const byVersion = Object.fromEntries(summary.entries.map((e) => [e.version, e]));
  assert.equal(byVersion['3.0.2']!.runId, 'seed');
  assert.equal(byVersion['3.5.7']!.runId, 'big');
  assert.equal(byVersion['3.0.2']!.vsBaseline, null, '1.1.1w was measured in another run');
  assert.equal(byVersion['3.5.7']!.vsBaseline!.against, '1.1.1w');
});

test('other libraries: own entries, no series comparisons, vsOpenSSL against the newest OpenSSL of the same run, paired by round', () => {
  const run = testRun('r1', {
    '1.1.1w': [100, 101, 99, 100, 102, 100],
    '3.5.7': [80, 81, 79, 80, 82, 80],
    '4.0.3': [90, 91, 89, 90, 92, 90],
    '3.5.7:no-ml-kem': [10, 10, 10, 10, 10, 10],
    'aws-lc@5.12.0': [120, 121, 119, 120, 122, 120],
    'boringssl@0.20250807.0': [90, 91, 89, 90, 92, 90],
    'wolfssl@5.9.4': [40, 41, 39, 40, 42, 40],
    'wolfssl@5.9.4:no-perf-options': [4, 4, 4, 4, 4, 4],
  });
  const { summary } = aggregate([{ run, path: 'runs/box/r1.json' }]);
  const name = (e: (typeof summary.entries)[number]) => `${e.library}@${e.version}:${e.variant}`;
  assert.deepEqual(
    summary.entries.map(name),
    [
      'openssl@1.1.1w:default',
      'openssl@3.5.7:default',
      'openssl@3.5.7:no-ml-kem',
      'openssl@4.0.3:default',
      'aws-lc@5.12.0:default',
      'boringssl@0.20250807.0:default',
      'wolfssl@5.9.4:default',
      'wolfssl@5.9.4:no-perf-options',
    ],
    'OpenSSL first by version, then the other libraries by name',
  );
  const at = (n: string) => summary.entries.find((e) => name(e) === n)!;
  // series comparisons stay among OpenSSL builds: 4.0.3 follows 3.5.7 whatever the other libraries number their releases
  assert.equal(at('openssl@4.0.3:default').vsPreviousSeries!.against, '3.5.7');
  assert.equal(at('openssl@3.5.7:default').vsPreviousSeries!.against, '1.1.1w');
  for (const n of ['aws-lc@5.12.0:default', 'boringssl@0.20250807.0:default', 'wolfssl@5.9.4:default', 'wolfssl@5.9.4:no-perf-options']) {
    const e = at(n);
    assert.equal(e.vsPreviousSeries, null, n);
    assert.equal(e.vsBaseline, null, n);
    assert.equal(e.vsOpenSSL!.against, '4.0.3', `${n}: the newest OpenSSL release, not the newest series number`);
    assert.equal(e.vsOpenSSL!.pairing, 'paired-rounds');
    assert.equal(e.vsOpenSSL!.pairs, 6);
  }
  assert.equal(at('aws-lc@5.12.0:default').vsOpenSSL!.verdict, 'higher');
  assert.equal(at('boringssl@0.20250807.0:default').vsOpenSSL!.verdict, 'no-difference-shown');
  assert.equal(at('wolfssl@5.9.4:default').vsOpenSSL!.verdict, 'lower');
  for (const n of ['openssl@1.1.1w:default', 'openssl@4.0.3:default', 'openssl@3.5.7:no-ml-kem']) assert.equal(at(n).vsOpenSSL, null, n);
  assert.deepEqual(
    summary.builds.map((b) => b.library),
    ['openssl', 'openssl', 'openssl', 'openssl', 'aws-lc', 'boringssl', 'wolfssl', 'wolfssl'],
  );
});

test("hiddenFeatures 'none' of a build whose capability vector could not be read is published as 'unknown'", () => {
  const run = testRun('r1', { '3.5.7': [1, 1, 1, 1, 1, 1], 'wolfssl@5.9.4': [1, 1, 1, 1, 1, 1] });
  const [openssl, wolfssl] = run.builds;
  const withCaps = { ...openssl!, cpuCapabilities: 'OPENSSL_ia32cap=0xfffa3203078bffff:0x400684219c07ab' };
  assert.deepEqual(observedOf({ hiddenFeatures: 'none', cipher: 'x' }, wolfssl!), { hiddenFeatures: 'unknown', cipher: 'x' });
  assert.deepEqual(observedOf({ hiddenFeatures: 'none' }, withCaps), { hiddenFeatures: 'none' }, 'a vector was read: none is known');
  assert.deepEqual(observedOf({ hiddenFeatures: 'VAES' }, wolfssl!), { hiddenFeatures: 'VAES' }, 'a named feature is kept');
  const series = run.series.map((s) => ({ ...s, observed: { hiddenFeatures: 'none' } }));
  const { summary } = aggregate([{ run: { ...run, builds: [withCaps, wolfssl!], series }, path: 'runs/box/r1.json' }]);
  assert.deepEqual(
    summary.entries.map((e) => [e.library, e.observed?.hiddenFeatures]),
    [
      ['openssl', 'none'],
      ['wolfssl', 'unknown'],
    ],
  );
});

test('vsOpenSSL needs an OpenSSL build of the same run measuring the key; a library without one has none', () => {
  const libOnly = testRun('lib', { 'aws-lc@5.12.0': [5, 5, 5, 5, 5, 5] }, '2026-01-02T00:00:00.000Z');
  const ossl = testRun('ossl', { '3.5.7': [4, 4, 4, 4, 4, 4] });
  const { summary } = aggregate([
    { run: ossl, path: 'runs/box/ossl.json' },
    { run: libOnly, path: 'runs/box/lib.json' },
  ]);
  assert.equal(summary.entries.find((e) => e.library === 'aws-lc')!.vsOpenSSL, null, 'OpenSSL was measured in another run');
});

test('the best run is chosen per library: a release number another library shares does not displace it', () => {
  // a (hypothetical) wolfSSL release numbered like an OpenSSL one, in a bigger newer run than the OpenSSL one
  const ossl = testRun('ossl', { '3.5.7': [1, 1, 1, 1, 1, 1] });
  const other = testRun('other', { 'wolfssl@3.5.7': [2, 2, 2, 2, 2, 2], 'aws-lc@5.12.0': [3, 3, 3, 3, 3, 3] }, '2026-01-02T00:00:00.000Z');
  const { summary } = aggregate([
    { run: ossl, path: 'runs/box/ossl.json' },
    { run: other, path: 'runs/box/other.json' },
  ]);
  assert.deepEqual(
    summary.entries.map((e) => [e.library, e.version, e.runId]),
    [
      ['openssl', '3.5.7', 'ossl'],
      ['aws-lc', '5.12.0', 'other'],
      ['wolfssl', '3.5.7', 'other'],
    ],
  );
  // the same from the run records, as npm run aggregate chooses the runs to open
  const dir = dataDir([ossl, other]);
  writeAll(dir);
  const written = JSON.parse(readFileSync(join(dir, 'summary.json'), 'utf8'));
  assert.deepEqual(
    written.entries.map((e: { library: string; runId: string }) => `${e.library}:${e.runId}`),
    ['openssl:ossl', 'aws-lc:other', 'wolfssl:other'],
  );
  const year = JSON.parse(readFileSync(join(dir, 'timeseries', 'box', '2026.json'), 'utf8'));
  assert.deepEqual(
    year.runs.flatMap((r: { builds: { library?: string }[] }) => r.builds.map((b) => b.library ?? 'openssl')),
    ['openssl', 'wolfssl', 'aws-lc'],
  );
});

test("a local build prefers the local machine's quiet run to its not-quiet one for a series both hold", () => {
  const t1 = '2026-01-01T00:00:00.000Z';
  const t2 = '2026-01-02T00:00:00.000Z';
  const quiet = testRun('older-quiet', { '3.4.1': [10, 10, 10, 10, 10, 10] }, t1);
  const busy = testRun('newer-busy', { '3.4.1': [50, 50, 50, 50, 50, 50], '3.5.7': [5, 5, 5, 5, 5, 5] }, t2, evidence(t2, 1));
  const { summary } = aggregate(
    [
      { run: quiet, path: 'a' },
      { run: busy, path: 'b' },
    ],
    { localHost: 'box' },
  );
  assert.deepEqual(
    summary.entries.map((e) => [e.version, e.runId]),
    [
      ['3.4.1', 'older-quiet'],
      ['3.5.7', 'newer-busy'],
    ],
  );
});

test("labels are the runner's registry's current words; a key the runner does not write keeps its run's label", () => {
  const run = testRun('r1', { '3.4.1': [1, 2, 3, 4, 5, 6], '3.5.7': [1, 2, 3, 4, 5, 6] });
  const spec = [...registeredSeries({ library: 'openssl', version: '3.5.7', series: '3.5', variant: 'default' }).values()].find(
    (s) => s.benchmark === 'handshake' && s.metric === 'cpu-per-handshake',
  )!;
  const old = 'Client CPU per handshake; TLS 1.3 ecdsa-p256 groups default, new';
  const first = run.series[0]!;
  const relabelled = { ...run, series: [{ ...first, ...spec, key: seriesKey(spec), label: old }, ...run.series.slice(1)] };
  const { summary } = aggregate([{ run: relabelled, path: 'runs/box/r1.json' }]);
  const e = summary.entries.find((x) => x.key === seriesKey(spec))!;
  assert.equal(e.label, spec.label);
  assert.notEqual(e.label, old);
  const other = summary.entries.find((x) => x.key !== seriesKey(spec))!;
  assert.equal(other.label, run.series.find((s) => s.key === other.key)!.label, 'a toy series is in no registry: its own label');
});
