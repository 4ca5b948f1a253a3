// The committed derived files agree with the committed runs, checked without re-running the statistics
// (seconds, not minutes): every run file is in summary.json's run list exactly as it reads, every
// iteration of every run is in detailed-iterations.json, and data/schema/ is what the schema exports.
// The byte-for-byte comparison with a fresh `npm run aggregate` is derived-data.integration.test.ts.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { DetailedIterations, Summary } from '../schema/index.ts';
import { findRunFiles, jsonSchemas, loadRuns } from './aggregate.ts';

const DATA = join(import.meta.dirname, '..', 'data');
const HINT = 'run npm run aggregate and commit the result';
// read once; the derived files are checked against their schemas where the site reads them
const { runs, skipped } = loadRuns(findRunFiles(join(DATA, 'runs')), DATA);
const readJson = <T>(name: string): T => JSON.parse(readFileSync(join(DATA, name), 'utf8')) as T;

test('data/summary.json lists exactly the committed runs, as they read now', () => {
  assert.ok(existsSync(join(DATA, 'summary.json')), `data/summary.json is missing: ${HINT}`);
  const summary = readJson<Summary>('summary.json');
  assert.deepEqual(skipped, [], 'a committed run file the aggregation would skip');
  const expected = runs
    .map(({ run, path }) => ({ runId: run.runId, host: run.host.id, mode: run.mode, startedAt: run.startedAt, finishedAt: run.finishedAt, path, series: run.series.length }))
    .sort((a, b) => a.runId.localeCompare(b.runId));
  assert.deepEqual([...summary.runs].sort((a, b) => a.runId.localeCompare(b.runId)), expected, `data/summary.json lists other runs than data/runs/ holds: ${HINT}`);
  const hosts = new Set(runs.map(({ run }) => run.host.id));
  assert.deepEqual(new Set(summary.entries.map((e) => e.host)), hosts, `summary entries name other hosts than the runs: ${HINT}`);
});

test('data/detailed-iterations.json holds every iteration of every committed run', () => {
  const detailed = readJson<DetailedIterations>('detailed-iterations.json');
  const count = new Map<string, number>();
  for (const row of detailed.rows) count.set(row[0], (count.get(row[0]) ?? 0) + 1);
  const expected = new Map(runs.map(({ run }) => [run.runId, run.series.reduce((n, s) => n + s.iterations.length, 0)]));
  assert.deepEqual(count, expected, `iterations per run differ from data/runs/: ${HINT}`);
});

test('data/schema/ holds the JSON Schema exports of the current schema', () => {
  for (const [name, schema] of Object.entries(jsonSchemas()))
    assert.ok(readFileSync(join(DATA, 'schema', name), 'utf8') === JSON.stringify(schema, null, 1) + '\n', `data/schema/${name} is stale: ${HINT}`);
});
