import assert from 'node:assert/strict';
import { test } from 'node:test';
import type { HypothesisResult } from '../../../schema/index.ts';
import { EVIDENCE_LABEL, pickPublished, quietEvidence } from './hypothesis.ts';

// only the fields pickPublished reads
const file = (name: string, host: string, mode: 'sequential' | 'quick', finishedAt: string, quiet?: boolean) => ({
  name,
  result: { host: { id: host }, mode, finishedAt, ...(quiet === undefined ? {} : { quiet: { quiet } }) } as unknown as HypothesisResult,
});

test('the published result per host: quiet evidence first (quiet > not quiet > none), then sequential, then the newest', () => {
  const picked = (...files: ReturnType<typeof file>[]) => pickPublished(files).map((f) => f.name);
  assert.deepEqual(picked(file('old-seq', 'h', 'sequential', '2026-01-01T00:00:00Z', true), file('new-quick', 'h', 'quick', '2026-02-01T00:00:00Z', true)), [
    'old-seq',
  ]);
  assert.deepEqual(
    picked(file('quiet', 'h', 'sequential', '2026-01-01T00:00:00Z', true), file('newer-loud', 'h', 'sequential', '2026-02-01T00:00:00Z', false)),
    ['quiet'],
  );
  assert.deepEqual(
    picked(file('no-evidence', 'h', 'sequential', '2026-03-01T00:00:00Z'), file('older-quiet', 'h', 'sequential', '2026-01-01T00:00:00Z', true)),
    ['older-quiet'],
  );
  // a loud result is evidence; none is not: the newer result without evidence loses to it, and so does a sequential one
  assert.deepEqual(picked(file('no-evidence', 'h', 'sequential', '2026-03-01T00:00:00Z'), file('loud', 'h', 'sequential', '2026-01-01T00:00:00Z', false)), [
    'loud',
  ]);
  assert.deepEqual(picked(file('no-evidence', 'h', 'sequential', '2026-03-01T00:00:00Z'), file('loud-quick', 'h', 'quick', '2026-01-01T00:00:00Z', false)), [
    'loud-quick',
  ]);
  assert.deepEqual(
    picked(file('quiet-quick', 'h', 'quick', '2026-01-01T00:00:00Z', true), file('loud-seq', 'h', 'sequential', '2026-02-01T00:00:00Z', false)),
    ['quiet-quick'],
  );
  assert.deepEqual(picked(file('a', 'h', 'sequential', '2026-01-01T00:00:00Z', true), file('b', 'h', 'sequential', '2026-02-01T00:00:00Z', true)), ['b']);
  assert.deepEqual(picked(file('x', 'h2', 'quick', '2026-01-01T00:00:00Z'), file('y', 'h1', 'quick', '2026-01-01T00:00:00Z')), ['y', 'x']);
});

test('every result is labelled with its quiet evidence', () => {
  assert.equal(
    EVIDENCE_LABEL[quietEvidence(file('n', 'h', 'sequential', '2026-01-01T00:00:00Z').result)],
    'no quiet evidence (recorded before the quiet-host protocol)',
  );
  assert.equal(quietEvidence(file('q', 'h', 'sequential', '2026-01-01T00:00:00Z', true).result), 'quiet');
  assert.equal(quietEvidence(file('l', 'h', 'sequential', '2026-01-01T00:00:00Z', false).result), 'not-quiet');
});
