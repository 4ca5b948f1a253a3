// The derived files from a data folder (writeAll): byte-identical re-runs, run files skipped by name, a local build.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { brotliCompressSync } from 'node:zlib';
import { Run, parseRunFile, DataFileError, writeRunFile, encodeRunFile } from '../../schema/index.ts';
import { aggregateSkipping, writeAll } from './derived-files.ts';
import { aggregate } from './summary.ts';
import { dataDir, evidence, testRun } from './test-runs.ts';

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
