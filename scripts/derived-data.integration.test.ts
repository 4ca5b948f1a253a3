// The committed derived files are exactly what the committed runs give: nobody edited them by hand,
// and nobody forgot to run `npm run aggregate` after adding a run.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { cpSync, existsSync, mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { writeAll } from './aggregate.ts';

test('data/summary.json, data/detailed-iterations.json and data/schema/ are derived from data/runs/', () => {
  assert.ok(existsSync('data/summary.json'), 'data/summary.json is missing: run npm run aggregate');
  const dir = mkdtempSync(join(tmpdir(), 'derived-'));
  cpSync('data/runs', join(dir, 'runs'), { recursive: true, filter: (src) => !src.endsWith('.partial.jsonl') });
  writeAll(dir);
  for (const file of ['summary.json', 'detailed-iterations.json', 'schema/run.schema.json', 'schema/summary.schema.json', 'schema/detailed-iterations.schema.json'])
    assert.ok(readFileSync(join('data', file), 'utf8') === readFileSync(join(dir, file), 'utf8'), `data/${file} differs from what npm run aggregate makes of data/runs/: run it and commit the result`);
});
