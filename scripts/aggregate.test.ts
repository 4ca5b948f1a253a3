// npm run aggregate as a command: what it prints and its exit status.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { brotliCompressSync } from 'node:zlib';
import { EXIT_SKIPPED } from './aggregate.ts';
import { dataDir, testRun } from './aggregate/test-runs.ts';

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

test('npm run aggregate -- --local-host needs a machine id', () => {
  const r = spawnSync(process.execPath, [join(import.meta.dirname, 'aggregate.ts'), '--local-host'], { encoding: 'utf8' });
  assert.equal(r.status, 64);
  assert.match(r.stderr, /'--local-host <value>' argument missing/);
});
