import { test } from 'node:test';
import assert from 'node:assert/strict';
import { fixture, viewOf } from '../../../tests/fixtures/drift-view.ts';
import { driftSvg } from './chart.ts';
import { driftSentences } from './words.ts';

test('a single night draws one point and says what a band needs', () => {
  // the full run alone (the fixture's later runs hold no headline metric)
  const one = { ...fixture, runs: fixture.runs.filter((r) => r.runId === '20261122T000000Z-full-f1x7').map((r) => ({ ...r, changes: [] })) };
  const { s, view } = viewOf([one], { range: 'all' });
  assert.equal(view.points.length, 1);
  assert.equal((driftSvg(view, s.metric, 'x').match(/<circle /g) ?? []).length, 1);
  assert.match(driftSentences(view, s.metric).join(' '), /^1 night from .*No band yet/);
});
