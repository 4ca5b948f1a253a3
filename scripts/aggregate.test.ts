import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { brotliCompressSync } from 'node:zlib';
import { Run, parseRunFile, DataFileError, writeRunFile, encodeRunFile } from '../schema/index.ts';
import { aggregate, aggregateSkipping, EXIT_SKIPPED, observedOf, writeAll } from './aggregate.ts';
import { registeredSeries } from '../runner/series-registry.ts';
import { seriesKey } from '../runner/benchmark.ts';
import { TEST_TIME, makeBuild, makeQuietEvidence, makeRun, makeSeries } from '../schema/test-data.ts';

/** Quiet-host evidence as the runner records it: quiet, or with one busy round. */
const evidence = (at: string, busyRound?: number): Run['quiet'] =>
  makeQuietEvidence(at, { rounds: [1, 2], busyRounds: busyRound === undefined ? [] : [busyRound] });

/** `values` by build: an OpenSSL version ("3.5.7") or another library's release ("aws-lc@5.12.0", "wolfssl@5.9.4:no-perf-options"). */
function testRun(runId: string, values: Record<string, number[]>, startedAt = TEST_TIME, quiet: Run['quiet'] | null = evidence(startedAt)): Run {
  const builds = Object.keys(values).map((name) => {
    const [lib, rest] = name.includes('@') ? (name.split('@') as [string, string]) : ['openssl', name];
    const [version, variant = 'default'] = rest.split(':') as [string, string?];
    const library = lib as Run['builds'][number]['library'];
    return {
      name,
      build: makeBuild({ id: `id-${name.replace(/[.@:]/g, '')}`, library, version, variant, versionString: `${library} ${version}`, builtAt: startedAt }),
    };
  });
  return makeRun({
    runId,
    startedAt,
    plan: { rounds: 6 },
    builds: builds.map((b) => b.build),
    series: builds.map(({ name, build }) =>
      makeSeries({ key: 'toy/rate', label: 'toy rate', buildId: build.id, values: values[name]!, warmup: 999, at: startedAt }),
    ),
    quiet,
  });
}

function dataDir(runs: Run[]): string {
  const dir = mkdtempSync(join(tmpdir(), 'data-'));
  for (const r of runs) writeRunFile(join(dir, 'runs'), r);
  return dir;
}

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

test('aggregation is byte-identical on re-run', () => {
  const dir = dataDir([testRun('r1', { '1.1.1w': [1, 2, 3], '3.5.7': [4, 5, 6] }), testRun('r2', { '3.4.1': [1, 2, 3] }, '2026-01-02T00:00:00.000Z')]);
  writeAll(dir);
  const a = readFileSync(join(dir, 'summary.json'), 'utf8') + readFileSync(join(dir, 'detailed-iterations.json'), 'utf8');
  writeAll(dir);
  const b = readFileSync(join(dir, 'summary.json'), 'utf8') + readFileSync(join(dir, 'detailed-iterations.json'), 'utf8');
  assert.equal(a, b);
  const detailed = JSON.parse(readFileSync(join(dir, 'detailed-iterations.json'), 'utf8'));
  assert.deepEqual(
    detailed.rows.map((r: unknown[]) => [r[3], r[6], r[7]]),
    [
      ['1.1.1w', [1, 2, 3], [1, 2, 3]],
      ['3.5.7', [1, 2, 3], [4, 5, 6]],
      ['3.4.1', [1, 2, 3], [1, 2, 3]],
    ],
    'one row per series behind the summary: its measured rounds and values (warm-ups stay in the run files)',
  );
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

test('bad run files are described with the file name and the JSON path', () => {
  const good = testRun('r1', { '3.5.7': [1, 2, 3] });
  const cases: [string, string, RegExp][] = [
    ['truncated', JSON.stringify(good).slice(0, 200), /truncated\.json: not valid JSON/],
    ['nan', JSON.stringify(good).replace('"value":1,', '"value":"NaN",'), /series\.0\.iterations\.1\.value/],
    ['negative', JSON.stringify(good).replace('"value":1,', '"value":-1,'), /series\.0\.iterations\.1\.value: must be >= 0/],
    ['huge', JSON.stringify(good).replace('"value":1,', '"value":1e999,'), /series\.0\.iterations\.1\.value: .*(finite|Infinity)/],
    ['future', JSON.stringify({ ...good, schemaVersion: 7 }), /schemaVersion 7 is not one this code reads/],
    ['types', JSON.stringify({ ...good, host: { ...good.host, logicalCpus: 'two' } }), /host\.logicalCpus/],
  ];
  for (const [name, text, pattern] of cases) {
    assert.throws(
      () => parseRunFile(text, `${name}.json`),
      (e: Error) => e instanceof DataFileError && pattern.test(e.message),
      name,
    );
  }
});

test('a bad, misplaced or duplicated file already on main is skipped by name; everything else is written', () => {
  const good = testRun('r1', { '3.5.7': [1, 2, 3] });
  const other = testRun('r2', { '3.4.1': [4, 5, 6] }, '2026-01-02T00:00:00.000Z');
  const dir = dataDir([good, other]);
  const month = join(dir, 'runs', 'box', '2026', '01');
  writeFileSync(join(month, 'truncated.json.br'), brotliCompressSync(JSON.stringify(good).slice(0, 200)));
  writeFileSync(join(month, 'copy.json.br'), encodeRunFile(good));
  mkdirSync(join(dir, 'runs', 'elsewhere', '2026', '01'), { recursive: true });
  writeFileSync(join(dir, 'runs', 'elsewhere', '2026', '01', 'r3.json.br'), encodeRunFile({ ...other, runId: 'r3' }));
  writeFileSync(join(month, 'r9.json.br'), brotliCompressSync(JSON.stringify({ ...other, runId: 'r9', schemaVersion: 7 })));
  writeFileSync(join(dir, 'runs', 'box', 'r4.json'), JSON.stringify({ ...other, runId: 'r4' }));
  const r = writeAll(dir);
  assert.deepEqual(
    r.skipped.map((s) => `${s.path}: ${s.reason.split('\n')[0]}`),
    [
      'runs/box/2026/01/copy.json.br: holds run r1 of host box started 2026-01-01T00:00:00.000Z, which belongs at runs/box/2026/01/r1.json.br',
      'runs/box/2026/01/r9.json.br: schemaVersion 7 is not one this code reads (1)',
      'runs/box/2026/01/truncated.json.br: not valid JSON (Unterminated string in JSON at position 200 (line 1 column 201)); a truncated file?',
      'runs/box/r4.json: not where run files go; expected runs/box/2026/01/r4.json.br (runs/<host>/<YYYY>/<MM>/<runId>.json.br, as npm run bench writes it)',
      'runs/elsewhere/2026/01/r3.json.br: holds run r3 of host box started 2026-01-02T00:00:00.000Z, which belongs at runs/box/2026/01/r3.json.br',
    ],
  );
  assert.equal(r.runs, 2);
  const summary = JSON.parse(readFileSync(join(dir, 'summary.json'), 'utf8'));
  assert.deepEqual(
    summary.runs.map((x: { runId: string }) => x.runId),
    ['r1', 'r2'],
  );
  assert.deepEqual(
    summary.skipped.map((x: { path: string }) => x.path),
    r.skipped.map((x) => x.path),
  );
  // the same run id on another host, both files where their content says they belong: the first in path order is kept
  const dup = dataDir([good]);
  writeRunFile(join(dup, 'runs'), { ...good, host: { ...good.host, id: 'zbox' } });
  const d = writeAll(dup);
  assert.deepEqual(d.skipped, [{ path: 'runs/zbox/2026/01/r1.json.br', reason: 'runId r1 is also used by runs/box/2026/01/r1.json.br (kept)' }]);
  assert.deepEqual(
    JSON.parse(readFileSync(join(dup, 'summary.json'), 'utf8')).runs.map((x: { path: string }) => x.path),
    ['runs/box/2026/01/r1.json.br'],
  );
});

test('a run the aggregation itself fails on is skipped by name and the others aggregated; a failure of every run is a bug and thrown', () => {
  const runs = ['r1', 'r2', 'r3'].map((id) => ({ run: testRun(id, { '3.5.7': [1, 2, 3] }), path: `runs/box/2026/01/${id}.json.br` }));
  const failsOnR2: typeof aggregate = (rs) => {
    if (rs.some((r) => r.run.runId === 'r2')) throw new Error('ratio of r2 is Infinity');
    return aggregate(rs);
  };
  const { result, skipped } = aggregateSkipping(runs, failsOnR2);
  assert.deepEqual(skipped, [{ path: 'runs/box/2026/01/r2.json.br', reason: 'the aggregation fails on this run: ratio of r2 is Infinity' }]);
  assert.deepEqual(
    result.summary.runs.map((r) => r.runId),
    ['r1', 'r3'],
  );
  assert.throws(
    () =>
      aggregateSkipping(runs, () => {
        throw new Error('bug');
      }),
    /^Error: bug$/,
  );
  // the real aggregation with a run of 5e-324 values (an infinite ratio): the other run is still written
  const dir = dataDir([
    testRun('ok', { '1.1.1w': [1, 2, 3], '3.5.7': [4, 5, 6] }),
    testRun('tiny', { '1.1.1w': [5e-324, 5e-324, 5e-324], '3.5.7': [4, 5, 6] }, '2026-01-02T00:00:00.000Z'),
  ]);
  const written = writeAll(dir);
  const summary = JSON.parse(readFileSync(join(dir, 'summary.json'), 'utf8'));
  assert.ok(summary.runs.some((r: { runId: string }) => r.runId === 'ok'));
  assert.ok(
    written.skipped.every((s) => s.path === 'runs/box/2026/01/tiny.json.br'),
    JSON.stringify(written.skipped),
  );
});

test('npm run aggregate names each skipped file and exits with EXIT_SKIPPED after writing the rest', () => {
  const dir = dataDir([testRun('r1', { '3.5.7': [1, 2, 3] })]);
  const broken = join(dir, 'runs', 'box', '2026', '01', 'broken.json.br');
  writeFileSync(broken, brotliCompressSync('{'));
  const r = spawnSync(process.execPath, [join(import.meta.dirname, 'aggregate.ts'), dir], { encoding: 'utf8' });
  assert.equal(r.status, EXIT_SKIPPED, r.stderr);
  assert.match(r.stderr, new RegExp(`skipped ${broken.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}: not valid JSON`));
  assert.match(r.stderr, /1 run file\(s\) skipped/);
  assert.match(r.stdout, /aggregated 1 run\(s\)/);
  assert.ok(readFileSync(join(dir, 'summary.json'), 'utf8').includes('"r1"'));
  rmSync(broken);
  assert.equal(spawnSync(process.execPath, [join(import.meta.dirname, 'aggregate.ts'), dir]).status, 0);
});

test('run files outside the layout are skipped with the place they belong', () => {
  const good = testRun('r1', { '3.5.7': [1, 2, 3] });
  const cases: [string, Buffer | string, RegExp][] = [
    ['runs/box/r1.json', JSON.stringify(good), /^not where run files go; expected runs\/box\/2026\/01\/r1\.json\.br/],
    ['runs/box/2026/02/r1.json.br', encodeRunFile(good), /belongs at runs\/box\/2026\/01\/r1\.json\.br/],
    ['runs/wrong/2026/01/r1.json.br', encodeRunFile(good), /of host box .*belongs at runs\/box\//],
    ['runs/box/2026/01/r2.json.br', encodeRunFile(good), /holds run r1 .*belongs at runs\/box\/2026\/01\/r1\.json\.br/],
  ];
  for (const [path, bytes, pattern] of cases) {
    const dir = mkdtempSync(join(tmpdir(), 'data-'));
    mkdirSync(join(dir, path, '..'), { recursive: true });
    writeFileSync(join(dir, path), bytes);
    const r = writeAll(dir);
    assert.equal(r.skipped.length, 1, path);
    assert.equal(r.skipped[0]!.path, path);
    assert.match(r.skipped[0]!.reason, pattern, path);
    assert.equal(r.runs, 0, path);
  }
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

test("a local build (--local-host): the local machine's not-quiet run feeds it, marked; without the flag the output is what the quiet runs alone give", () => {
  const t1 = '2026-01-01T00:00:00.000Z';
  const t2 = '2026-01-02T00:00:00.000Z';
  const committed = testRun('committed', { '3.4.1': [10, 11, 12, 10, 11, 12], '3.5.7': [8, 9, 8, 9, 8, 9] }, t1);
  const mine = (r: Run): Run => ({ ...r, host: { ...r.host, id: 'newcomer.cpu-abc123' } });
  const busy = mine(testRun('newcomer-quick', { '3.4.1': [50, 51, 52, 50, 51, 52], '3.5.7': [40, 41, 40, 41, 40, 41] }, t2, evidence(t2, 2)));
  // the machine descriptions list every machine with a run (as before); nothing else may change
  const texts = (dir: string) =>
    readFileSync(join(dir, 'summary.json'), 'utf8').replace(/\n "hosts": [\s\S]*?\n \],\n/, '') + readFileSync(join(dir, 'detailed-iterations.json'), 'utf8');
  const before = dataDir([committed]);
  writeAll(before);
  const dir = dataDir([committed, busy]);
  writeAll(dir);
  assert.equal(texts(dir), texts(before), 'without the flag a not-quiet run changes nothing the summary takes from runs');
  assert.doesNotMatch(readFileSync(join(dir, 'summary.json'), 'utf8'), /"local"/);

  writeAll(dir, { localHost: 'newcomer.cpu-abc123' });
  const summary = JSON.parse(readFileSync(join(dir, 'summary.json'), 'utf8'));
  const local = summary.entries.filter((e: { host: string }) => e.host === 'newcomer.cpu-abc123');
  assert.deepEqual(
    local.map((e: { version: string; runId: string }) => [e.version, e.runId]),
    [
      ['3.4.1', 'newcomer-quick'],
      ['3.5.7', 'newcomer-quick'],
    ],
  );
  const run = summary.runs.find((r: { runId: string }) => r.runId === 'newcomer-quick');
  assert.deepEqual([run.quiet, run.local], [false, true], 'its run says it was not quiet and is the local one');
  assert.match(run.quietReasons.join(' '), /round 2: other processes/);
  // the committed machine is untouched: same entries, no local mark
  assert.deepEqual(
    summary.entries.filter((e: { host: string }) => e.host === 'box').map((e: { version: string; runId: string }) => [e.version, e.runId]),
    [
      ['3.4.1', 'committed'],
      ['3.5.7', 'committed'],
    ],
  );
  assert.equal(summary.runs.find((r: { runId: string }) => r.runId === 'committed').local, undefined);
  assert.match(summary.statistics.selection, /local build/);
  rmSync(before, { recursive: true, force: true });
  rmSync(dir, { recursive: true, force: true });
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

test('npm run aggregate -- --local-host needs a machine id', () => {
  const r = spawnSync(process.execPath, [join(import.meta.dirname, 'aggregate.ts'), '--local-host'], { encoding: 'utf8' });
  assert.equal(r.status, 64);
  assert.match(r.stderr, /'--local-host <value>' argument missing/);
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
