import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdirSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Run, parseRunFile, DataFileError, writeRunFile, encodeRunFile } from '../schema/index.ts';
import { aggregate, writeAll } from './aggregate.ts';

/** A small valid run, written out by hand as test data. */
const snapshot = (at: string) => ({
  at,
  windowSeconds: 60,
  loadAverage: [0.1, 0.1, 0.1] as [number, number, number],
  stealPercent: 0,
  iowaitPercent: 0,
  otherBusyPercent: 1,
  busiestOthers: [],
  governor: null,
  boost: null,
});

/** Quiet-host evidence as the runner records it: quiet, or with one busy round. */
function evidence(at: string, busyRound?: number): Run['quiet'] {
  const rounds = [1, 2].map((round) => ({
    ...snapshot(at),
    round,
    quiet: round !== busyRound,
    reasons: round === busyRound ? ['other processes used 85% of a CPU (limit 10%): cc1 (pid 4242)'] : [],
  }));
  return { thresholds: { otherBusyPercent: 10 }, exclusive: true, before: { ...snapshot(at), quiet: true, reasons: [] }, rounds, quiet: busyRound === undefined };
}

function testRun(runId: string, values: Record<string, number[]>, startedAt = '2026-01-01T00:00:00.000Z', quiet: Run['quiet'] | null = evidence(startedAt)): Run {
  const builds = Object.keys(values).map((version) => ({
    id: `id-${version.replace(/\./g, '')}`,
    version,
    series: version.startsWith('1.1.1') ? '1.1.1' : version.split('.').slice(0, 2).join('.'),
    variant: 'default',
    versionString: `OpenSSL ${version}`,
    source: { kind: 'crate' as const, name: 'x.crate', sha256: 'a'.repeat(64) },
    configureArgs: ['no-shared'],
    compiler: 'gcc',
    cflags: '-O3',
    builtAt: startedAt,
    buildSeconds: 60,
  }));
  return Run.parse({
    schemaVersion: 1,
    kind: 'run',
    runId,
    mode: 'full',
    startedAt,
    finishedAt: startedAt,
    host: { id: 'box', arch: 'x64', cpuModel: 'cpu', cpuFlags: { aesni: true }, logicalCpus: 2, memoryBytes: 1e9, kernel: 'k', os: 'os', virtualization: null, cpuGovernor: null },
    harness: { gitCommit: 'abcdef1', gitDirty: false, node: 'v24' },
    plan: { benchmarks: ['toy'], rounds: 6, warmupRounds: 1, order: [builds.map((b) => b.id)] },
    builds,
    series: builds.map((b) => ({
      key: 'toy/rate',
      benchmark: 'toy',
      metric: 'rate',
      label: 'toy rate',
      unit: 'ops/s',
      method: 'wall-clock-throughput',
      higherIsBetter: true,
      params: {},
      buildId: b.id,
      comparability: { acrossVersions: true },
      status: 'measured',
      iterations: [999, ...values[b.version]!].map((value, round) => ({ round, value, at: startedAt, warmup: round === 0 })),
    })),
    notes: [],
    ...(quiet ? { quiet } : {}),
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
  assert.equal(detailed.rows.length, 3 * 4, 'the iterations behind the summary, warm-up included');
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
  assert.ok(detailed.rows.every((r) => r[0] === 'quiet'), 'iterations of unused runs stay in their run files');
  assert.deepEqual(summary.builds.map((b) => b.version), ['3.4.1'], 'builds of the runs behind the entries');
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

test('bad run files are refused with the file name and the JSON path; nothing is written', () => {
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
    assert.throws(() => parseRunFile(text, `${name}.json`), (e: Error) => e instanceof DataFileError && pattern.test(e.message), name);
  }
  const dir = dataDir([good]);
  // the same run id on another host: both files are where their content says they belong
  const other = { ...good, host: { ...good.host, id: 'other' } };
  mkdirSync(join(dir, 'runs/other/2026/01'), { recursive: true });
  writeFileSync(join(dir, 'runs/other/2026/01/r1.json.gz'), encodeRunFile(other));
  assert.throws(() => writeAll(dir), (e: Error) => e instanceof DataFileError && /runId r1 is also used by runs\/box\/2026\/01\/r1\.json\.gz/.test(e.message));
  assert.throws(() => readFileSync(join(dir, 'summary.json')), /ENOENT/, 'no summary written after a refused input');
});

test('run files outside the layout are refused with the place they belong', () => {
  const good = testRun('r1', { '3.5.7': [1, 2, 3] });
  const cases: [string, Buffer | string, RegExp][] = [
    ['runs/box/r1.json', JSON.stringify(good), /runs\/box\/r1\.json: not where run files go; expected runs\/box\/2026\/01\/r1\.json\.gz/],
    ['runs/box/2026/02/r1.json.gz', encodeRunFile(good), /belongs at runs\/box\/2026\/01\/r1\.json\.gz/],
    ['runs/wrong/2026/01/r1.json.gz', encodeRunFile(good), /of host box .*belongs at runs\/box\//],
    ['runs/box/2026/01/r2.json.gz', encodeRunFile(good), /holds run r1 .*belongs at runs\/box\/2026\/01\/r1\.json\.gz/],
  ];
  for (const [path, bytes, pattern] of cases) {
    const dir = mkdtempSync(join(tmpdir(), 'data-'));
    mkdirSync(join(dir, path, '..'), { recursive: true });
    writeFileSync(join(dir, path), bytes);
    assert.throws(() => writeAll(dir), (e: Error) => e instanceof DataFileError && pattern.test(e.message), path);
  }
});
