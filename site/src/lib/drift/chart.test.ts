import { test } from 'node:test';
import assert from 'node:assert/strict';
import { HEADLINE_METRICS } from '../../../../analysis/headline-metrics.ts';
import { DRIFT_NIGHTS } from '../../../tests/fixtures/drift-history.ts';
import { fixture, viewOf } from '../../../tests/fixtures/drift-view.ts';
import { driftSvg } from './chart.ts';
import { driftSentences, recentRows } from './words.ts';

test('the chart: a point per night, a band per stretch with enough nights, a line per step change, all named', () => {
  const { s, view } = viewOf([fixture], { metric: HEADLINE_METRICS[0]!.id, build: '3.5.7', range: 'all' });
  const svg = driftSvg(view, s.metric, 'label <b>');
  assert.equal((svg.match(/<circle /g) ?? []).length, view.points.length);
  assert.equal((svg.match(/class="band"/g) ?? []).length, 3);
  assert.equal((svg.match(/class="change"/g) ?? []).length, 3);
  assert.equal((svg.match(/class="pt notquiet"/g) ?? []).length, 1);
  assert.ok(svg.includes('label &#60;b&#62;') && !svg.includes('<b>'), 'text is escaped');
  const sentences = driftSentences(view, s.metric).join(' ');
  assert.match(sentences, new RegExp(`${DRIFT_NIGHTS + 1} nights .* ${DRIFT_NIGHTS} of them quiet; 3 step changes`));
  assert.match(sentences, /No band yet: a band needs at least 5 quiet nights .* \(the latest stretch has 1\)/);
  assert.match(sentences, /kernel: fixture → fixture-2\), the median moved \+[34]\.\d%/);
  const rows = recentRows(view, 3);
  assert.equal(rows[0]!.runId, '20261122T000000Z-full-f1x7');
  assert.match(rows[0]!.changed, /kernel: fixture-2 → fixture; compiler of 3\.5\.7/);
});
