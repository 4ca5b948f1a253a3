import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdirSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { brotliCompressSync, brotliDecompressSync, gzipSync } from 'node:zlib';
import { DataFileError } from './primitives.ts';
import { makeBuild, makeHost, makeRun, makeSeries } from './test-data.ts';
import { encodeRunFile, listRunFiles, parseRunFilePath, readRunFile, readRunText, runFilePath, writeRunFile } from './storage.ts';

const run = makeRun({
  runId: '20260301T020000Z-full-ab12',
  startedAt: '2026-03-01T02:00:00.000Z',
  finishedAt: '2026-03-01T04:00:00.000Z',
  host: makeHost({ cpuFlags: {} }),
  builds: [makeBuild({ id: 'b1', configureArgs: [], cflags: '-O2', builtAt: '2026-03-01T01:00:00.000Z', buildSeconds: 1 })],
  series: [
    makeSeries({ key: 'toy/rate', label: 'toy', buildId: 'b1', iterations: [{ round: 0, value: 0.1 + 0.2, at: '2026-03-01T03:00:00.000Z', warmup: false }] }),
  ],
  notes: ['é ünïcode'],
  quiet: null,
});
const tmp = () => mkdtempSync(join(tmpdir(), 'storage-'));

test('the layout: runs/<host>/<YYYY>/<MM>/<runId>.json.br, month of the UTC start', () => {
  assert.equal(runFilePath(run), 'runs/box/2026/03/20260301T020000Z-full-ab12.json.br');
  assert.equal(
    runFilePath({ ...run, startedAt: '2026-03-01T01:30:00+02:00' }),
    'runs/box/2026/02/20260301T020000Z-full-ab12.json.br',
    'a local time before midnight UTC belongs to the previous month',
  );
  assert.deepEqual(parseRunFilePath('runs/box/2026/03/r.json.br'), { host: 'box', year: 2026, month: 3, runId: 'r' });
  for (const bad of [
    'runs/box/r.json',
    'runs/box/2026/03/r.json.gz',
    'runs/box/2026/13/r.json.br',
    'runs/box/2026/3/r.json.br',
    'runs/.x/2026/03/r.json.br',
    'runs/box/2026/03/x/r.json.br',
    'runs/box/2026/03/r.json.br.tmp',
  ])
    assert.equal(parseRunFilePath(bad), null, bad);
});

test('written once, compact and brotli-compressed, read back with every value as it was', () => {
  const dir = tmp();
  const path = writeRunFile(join(dir, 'runs'), run);
  assert.equal(path, join(dir, runFilePath(run)));
  const bytes = readFileSync(path);
  assert.equal(brotliDecompressSync(bytes).toString('utf8'), JSON.stringify(run) + '\n', 'brotli of compact JSON, no indentation');
  assert.equal(readRunText(path), JSON.stringify(run) + '\n');
  assert.deepEqual(readRunFile(path), run);
  assert.ok(encodeRunFile(run).equals(bytes), 'the same run always gives the same bytes');
  assert.equal(writeRunFile(join(dir, 'runs'), run), path, 'writing the same run again changes nothing');
  assert.throws(() => writeRunFile(join(dir, 'runs'), { ...run, notes: ['other'] }), /already exists and holds other data/);
  assert.deepEqual(listRunFiles(dir), [runFilePath(run)]);
});

test('a larger run: brotli stores it in less than gzip does', () => {
  // the same series for 12 builds, as a real run has them: gzip's 32 KB window misses the repeats
  const big = {
    ...run,
    series: Array.from({ length: 12 * 300 }, (_, i) => ({
      ...run.series[0]!,
      key: `toy/rate[n=${i % 300},label=${'x'.repeat(40)}]`,
      buildId: `b${Math.floor(i / 300)}`,
      iterations: [{ round: 0, value: i * 1.37, at: '2026-03-01T03:00:00.000Z', warmup: false }],
    })),
  };
  assert.ok(encodeRunFile(big).length < 0.7 * gzipSync(JSON.stringify(big), { level: 9 }).length);
});

test('plain .json and gzip .json.gz are read too (unpacked copies, files written before brotli), each only under its own name', () => {
  const dir = tmp();
  writeFileSync(join(dir, 'r.json'), JSON.stringify(run, null, 1));
  assert.deepEqual(readRunFile(join(dir, 'r.json')), run);
  writeFileSync(join(dir, 'r.json.gz'), gzipSync(JSON.stringify(run)));
  assert.deepEqual(readRunFile(join(dir, 'r.json.gz')), run);
  writeFileSync(join(dir, 'plain.json.gz'), JSON.stringify(run));
  assert.throws(
    () => readRunFile(join(dir, 'plain.json.gz'), 'plain.json.gz'),
    (e: Error) => e instanceof DataFileError && /^plain\.json\.gz: not gzip data/.test(e.message),
  );
  writeFileSync(join(dir, 'plain.json.br'), JSON.stringify(run));
  assert.throws(() => readRunFile(join(dir, 'plain.json.br'), 'plain.json.br'), /plain\.json\.br: not brotli data, or damaged/);
  writeFileSync(join(dir, 'gz.json.br'), gzipSync(JSON.stringify(run)));
  assert.throws(
    () => readRunFile(join(dir, 'gz.json.br'), 'gz.json.br'),
    /gz\.json\.br: holds gzip data although the name ends in \.br \(name it \.json\.gz\)/,
  );
  writeFileSync(join(dir, 'packed.json'), gzipSync(JSON.stringify(run)));
  assert.throws(() => readRunFile(join(dir, 'packed.json'), 'packed.json'), /packed\.json: holds gzip data but its name does not end in \.gz/);
  writeFileSync(join(dir, 'packed2.json'), encodeRunFile(run));
  assert.throws(() => readRunFile(join(dir, 'packed2.json'), 'packed2.json'), /packed2\.json: not valid (UTF-8|JSON)/);
  assert.deepEqual(
    listRunFiles(dir, '.').map((p) => p.slice(2)),
    ['gz.json.br', 'packed.json', 'packed2.json', 'plain.json.br', 'plain.json.gz', 'r.json', 'r.json.gz'],
  );
});

test('damaged, oversized, non-UTF-8 and missing files are errors naming the file', () => {
  const dir = tmp();
  const good = encodeRunFile(run);
  const cases: [string, Buffer, RegExp, object?][] = [
    ['truncated.json.br', good.subarray(0, good.length - 20), /truncated\.json\.br: not brotli data, or damaged .*truncated file/],
    ['bomb.json.br', brotliCompressSync(Buffer.alloc(4 << 20, 0x20)), /bomb\.json\.br: decompresses to more than 1048576 bytes/, { maxJsonBytes: 1 << 20 }],
    ['bomb.json.gz', gzipSync(Buffer.alloc(4 << 20, 0x20)), /bomb\.json\.gz: decompresses to more than 1048576 bytes/, { maxJsonBytes: 1 << 20 }],
    ['truncated.json.gz', gzipSync(JSON.stringify(run)).subarray(0, 100), /truncated\.json\.gz: damaged gzip data .*truncated file/],
    ['big.json.br', good, /big\.json\.br: file is \d+ bytes \(limit 100\)/, { maxFileBytes: 100 }],
    ['latin1.json', Buffer.from('{"a":"\xe9"}', 'latin1'), /latin1\.json: not valid UTF-8/],
    ['schema.json.br', brotliCompressSync(JSON.stringify({ ...run, mode: 'fast' })), /schema\.json\.br: invalid run file\n {2}mode:/],
    ['json.json.br', brotliCompressSync('{"schemaVersion":1,'), /json\.json\.br: not valid JSON/],
  ];
  for (const [name, bytes, pattern, limits] of cases) {
    writeFileSync(join(dir, name), bytes);
    assert.throws(
      () => readRunFile(join(dir, name), name, limits),
      (e: Error) => e instanceof DataFileError && pattern.test(e.message),
      name,
    );
  }
  assert.throws(() => readRunFile(join(dir, 'absent.json.br'), 'absent.json.br'), /absent\.json\.br: no such file/);
  mkdirSync(join(dir, 'folder.json.br'));
  assert.throws(() => readRunFile(join(dir, 'folder.json.br'), 'folder.json.br'), /folder\.json\.br: is a folder/);
});

test('a run file and a journal are flushed to disk (fsync) before the rename that publishes them', async (t) => {
  const fs = (await import('node:fs')).default;
  const { executeRun } = await import('../runner/run.ts');
  const { standInBuild, standInPlan } = await import('../runner/stand-in-build.ts');
  const events: string[] = [];
  const { fsyncSync, renameSync } = fs;
  t.mock.method(fs, 'fsyncSync', (fd: number) => (events.push('fsync'), fsyncSync(fd)));
  t.mock.method(fs, 'renameSync', (from: string, to: string) => (events.push(`rename ${to.replace(/.*\./, '.')}`), renameSync(from, to)));
  const dir = mkdtempSync(join(tmpdir(), 'fsync-'));
  const build = standInBuild('3.5.7');
  const spec = {
    benchmark: 'toy',
    metric: 'm',
    label: 'toy',
    unit: 'ops/s' as const,
    method: 'wall-clock-throughput' as const,
    higherIsBetter: true,
    params: {},
    comparability: { acrossVersions: true },
  };
  const plan = standInPlan([build], { hostName: 'fsync-host', rounds: 1, warmupRounds: 0 });
  await executeRun(plan, [build], [{ id: 'toy', description: 'toy', tasks: () => [{ id: 't', run: async () => [{ spec, value: 1 }] }] }], dir, {
    progress: () => {},
  });
  // the journal's header, then the run file: each rename comes after an fsync of what it renames
  const renames = events.map((e, i) => [e, i] as const).filter(([e]) => e.startsWith('rename'));
  assert.deepEqual(
    renames.map(([e]) => e),
    ['rename .jsonl', 'rename .br'],
  );
  for (const [e, i] of renames) assert.equal(events[i - 1], 'fsync', `${e} without an fsync before it: ${events.join(', ')}`);
});
