import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { testFiles, tierOf } from './run-tests.ts';

const ROOT = join(import.meta.dirname, '..');

test('the tier of a test file is in its name', () => {
  assert.equal(tierOf('runner/speed/speed.test.ts'), 'unit');
  assert.equal(tierOf('runner/openssl-builds.integration.test.ts'), 'integration');
  assert.equal(tierOf('experiments/hypothesis/mlkem-hypothesis.e2e.test.ts'), 'e2e');
  assert.equal(tierOf('runner/speed/speed.ts'), null);
});

test('no unit test looks for a real OpenSSL build; the hypothesis test is end to end', () => {
  const unit = testFiles(ROOT, 'unit');
  assert.ok(unit.includes('schema/schema.test.ts') && unit.includes('runner/speed/speed.test.ts'), unit.join(' '));
  for (const f of unit) {
    const text = readFileSync(join(ROOT, f), 'utf8');
    // a test that points the build cache at its own scratch directory looks up stand-in builds, not real ones
    const scratchCache = /process\.env\.OBSERVATORY_CACHE = /.test(text);
    if (!scratchCache) assert.doesNotMatch(text, /\b(findCached|requireBuilds)\(/, `${f} uses a real build: name it *.integration.test.ts`);
  }
  assert.deepEqual(testFiles(ROOT, 'e2e'), ['experiments/hypothesis/mlkem-hypothesis.e2e.test.ts']);
  assert.ok(testFiles(ROOT, 'integration').includes('runner/openssl-builds.integration.test.ts'));
});
