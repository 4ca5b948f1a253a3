// The committed derived files agree with the committed runs, checked without re-running the statistics
// or opening run files (seconds, not minutes): every run file has its record in data/timeseries/,
// summary.json lists only runs that exist there and are quiet, detailed-iterations.json (committed: the
// project guide names it as an entry point) holds the iterations of exactly the runs behind the summary,
// and data/schema/ is what the schema exports. The byte-for-byte comparison with a fresh
// `npm run aggregate` is derived-data.integration.test.ts.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { listRunFiles, type DetailedIterations, type Summary } from '../schema/index.ts';
import { jsonSchemas } from './aggregate/derived-files.ts';
import { readTimeseries } from '../analysis/history.ts';

const ROOT = join(import.meta.dirname, '..');
const DATA = join(ROOT, 'data');
const HINT = 'run npm run aggregate and commit the result';
const readJson = <T>(name: string): T => JSON.parse(readFileSync(join(DATA, name), 'utf8')) as T;

test('every committed run file has its record in data/timeseries/; summary.json lists quiet runs among them', () => {
  assert.ok(existsSync(join(DATA, 'summary.json')), `data/summary.json is missing: ${HINT}`);
  const summary = readJson<Summary>('summary.json');
  assert.deepEqual(summary.skipped, [], 'a committed run file the aggregation skips');
  const { files, ignored } = readTimeseries(DATA);
  assert.deepEqual(ignored, [], `time-series files that do not read: ${HINT}`);
  const records = new Map([...files.values()].flatMap((f) => f.runs.map((r) => [r.path, r] as const)));
  assert.deepEqual([...records.keys()].sort(), listRunFiles(DATA), `data/timeseries/ records other run files than data/runs/ holds: ${HINT}`);
  for (const run of summary.runs) {
    const record = records.get(run.path);
    assert.ok(record, `summary.json lists ${run.path}, which data/runs/ does not hold: ${HINT}`);
    assert.equal(record.runId, run.runId);
    assert.ok(run.quiet && record.quiet, `summary.json takes values from ${run.path}, which is not quiet`);
  }
  assert.deepEqual(
    new Set(summary.entries.map((e) => e.runId)),
    new Set(summary.runs.map((r) => r.runId)),
    `summary entries come from other runs than it lists: ${HINT}`,
  );
});

test('data/detailed-iterations.json is committed and holds the iterations of exactly the runs behind the summary', () => {
  assert.notEqual(
    execFileSync('git', ['ls-files', 'data/detailed-iterations.json'], { cwd: ROOT, encoding: 'utf8' }),
    '',
    'data/detailed-iterations.json is not committed',
  );
  const summary = readJson<Summary>('summary.json');
  const detailed = readJson<DetailedIterations>('detailed-iterations.json');
  const measured = new Set(summary.entries.filter((e) => e.stats).map((e) => `${e.runId}|${e.key}|${e.version}|${e.variant}`));
  const rows = new Set(detailed.rows.map((r) => `${r[0]}|${r[5]}|${r[3]}|${r[4]}`));
  for (const m of measured) assert.ok(rows.has(m), `detailed-iterations.json lacks the iterations of ${m}: ${HINT}`);
  const runIds = new Set(summary.runs.map((r) => r.runId));
  for (const r of detailed.rows) assert.ok(runIds.has(r[0]), `detailed-iterations.json holds run ${r[0]}, which is not behind the summary: ${HINT}`);
});

test('data/schema/ holds the JSON Schema exports of the current schema', () => {
  for (const [name, schema] of Object.entries(jsonSchemas()))
    assert.ok(readFileSync(join(DATA, 'schema', name), 'utf8') === JSON.stringify(schema, null, 1) + '\n', `data/schema/${name} is stale: ${HINT}`);
});
