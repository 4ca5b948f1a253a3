import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdirSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Run, parseRunFile, DataFileError } from '../schema/index.ts';
import { aggregate, loadRuns, findRunFiles, writeAll } from './aggregate.ts';

/** A small valid run, written out by hand as test data. */
function testRun(runId: string, values: Record<string, number[]>, startedAt = '2026-01-01T00:00:00.000Z'): Run {
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
  });
}

function dataDir(runs: Run[]): string {
  const dir = mkdtempSync(join(tmpdir(), 'data-'));
  for (const r of runs) {
    mkdirSync(join(dir, 'runs', r.host.id), { recursive: true });
    writeFileSync(join(dir, 'runs', r.host.id, `${r.runId}.json`), JSON.stringify(r));
  }
  return dir;
}

test('summary statistics exclude warm-up; comparisons against the previous series and 1.1.1w', () => {
  const run = testRun('r1', { '1.1.1w': [100, 101, 99, 100, 102], '3.0.22': [80, 81, 79, 80, 82], '3.1.4': [81, 79, 80, 82, 80] });
  const { summary } = aggregate([{ run, path: 'runs/box/r1.json' }]);
  const e30 = summary.entries.find((e) => e.version === '3.0.22')!;
  assert.equal(e30.stats!.median, 80);
  assert.equal(e30.stats!.n, 5, 'the warm-up value 999 is not counted');
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
  assert.equal(detailed.rows.length, 3 * 4, 'every iteration of every run, warm-up included');
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
  writeFileSync(join(dir, 'runs', 'box', 'copy.json'), JSON.stringify(good));
  assert.throws(() => loadRuns(findRunFiles(join(dir, 'runs')), dir), /runId r1 is also used by/);
  assert.throws(() => writeAll(dir), DataFileError);
  assert.throws(() => readFileSync(join(dir, 'summary.json')), /ENOENT/, 'no summary written after a refused input');
});
