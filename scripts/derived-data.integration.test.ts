// The committed derived files are exactly what the committed runs give: nobody edited them by hand,
// and nobody forgot to run `npm run aggregate` after adding a run. The aggregation here starts from the
// run files alone (no data/timeseries/), so it also proves the committed time series are what a rebuild
// makes of them.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { cpSync, existsSync, mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { writeAll } from './aggregate/derived-files.ts';
import { listTimeseriesFiles } from '../analysis/history.ts';

test('data/summary.json, data/detailed-iterations.json, data/timeseries/ and data/schema/ are derived from data/runs/', () => {
  assert.ok(existsSync('data/summary.json'), 'data/summary.json is missing: run npm run aggregate');
  const dir = mkdtempSync(join(tmpdir(), 'derived-'));
  if (existsSync('data/runs')) cpSync('data/runs', join(dir, 'runs'), { recursive: true, filter: (src) => !src.endsWith('.partial.jsonl') });
  writeAll(dir);
  const timeseries = listTimeseriesFiles(dir);
  assert.deepEqual(
    listTimeseriesFiles('data'),
    timeseries,
    'data/timeseries/ holds other files than the runs give: run npm run aggregate and commit the result',
  );
  for (const file of [
    'summary.json',
    'detailed-iterations.json',
    ...timeseries,
    'schema/run.schema.json',
    'schema/summary.schema.json',
    'schema/detailed-iterations.schema.json',
    'schema/timeseries.schema.json',
  ])
    assert.ok(
      readFileSync(join('data', file), 'utf8') === readFileSync(join(dir, file), 'utf8'),
      `data/${file} differs from what npm run aggregate makes of data/runs/: run it and commit the result`,
    );
});
