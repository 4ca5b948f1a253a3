import assert from 'node:assert/strict';
import { test } from 'node:test';
import { seriesOfVersion } from '../../../schema/test-data.ts';
import { computeStatus, statusText, STATUS_THRESHOLD, worseFactor, type StatusPoint } from './regression-status.ts';

const VERSIONS = ['1.1.1w', '3.0.22', '3.1.4', '3.2.1', '3.3.2', '3.4.1', '3.5.7', '3.6.3', '4.0.3'];
/** A synthetic series: values in VERSIONS order, null = not measured. */
const series = (...values: (number | null)[]): StatusPoint[] =>
  values.map((value, i) => ({ version: VERSIONS[i]!, series: seriesOfVersion(VERSIONS[i]!), value }));
const lower = { higherIsBetter: false };

test('regressed in 3.0, recovered in 3.2 to within the threshold of 1.1.1', () => {
  const s = computeStatus(series(100, 500, 300, 105, 104, 103, 108, 109, 107), lower);
  assert.equal(s.kind, 'recovered');
  if (s.kind !== 'recovered') return;
  assert.equal(s.regressedIn, '3.0.22');
  assert.equal(s.recoveredIn, '3.2.1');
  assert.equal(s.latest.version, '4.0.3');
  assert.ok(Math.abs(s.ratio - 1.07) < 1e-9);
  assert.match(statusText(s), /^Regressed in 3\.0\.22; recovered in 3\.2\.1 to within 10% of 1\.1\.1w \(4\.0\.3: 1\.07× 1\.1\.1w\)$/);
});

test('still slower: regressed in 3.0 and never back within the threshold', () => {
  const s = computeStatus(series(100, 800, 400, 250, 240, 230, 230, 220, 215), lower);
  assert.equal(s.kind, 'still-slower');
  if (s.kind !== 'still-slower') return;
  assert.equal(s.regressedIn, '3.0.22');
  assert.match(statusText(s), /still worse in 4\.0\.3 \(2\.1× 1\.1\.1w\)/);
});

test('a recovery that regressed again is still slower, and the first regression is named', () => {
  const s = computeStatus(series(100, 300, 100, 100, 100, 100, 200, 200, 200), lower);
  assert.equal(s.kind, 'still-slower');
  if (s.kind === 'still-slower') assert.equal(s.regressedIn, '3.0.22');
});

test('recovered in the newest version only', () => {
  const s = computeStatus(series(100, 300, 300, 300, 300, 300, 300, 300, 100), lower);
  assert.equal(s.kind, 'recovered');
  if (s.kind === 'recovered') assert.equal(s.recoveredIn, '4.0.3');
});

test('improved: never worse beyond the threshold, better in the newest versions', () => {
  const s = computeStatus(series(100, 105, 95, 80, 70, 70, 60, 60, 60), lower);
  assert.equal(s.kind, 'improved');
  if (s.kind === 'improved') assert.equal(s.since, '3.2.1');
  assert.match(statusText(s), /^Improved: 4\.0\.3 is at 0\.60× 1\.1\.1w/);
});

test('no regression: every version within the threshold; the boundary itself counts as within', () => {
  const s = computeStatus(series(100, 110, 109, 100, 91, 100, 100, 100, 100 * (1 + STATUS_THRESHOLD)), lower);
  assert.equal(s.kind, 'no-regression');
});

test('not measured: no 1.1.1 value, or nothing after it', () => {
  assert.deepEqual(computeStatus(series(null, 500, 300), lower), { kind: 'not-measured', reason: 'no 1.1.1 value to compare with' });
  assert.deepEqual(computeStatus(series(100, null, null), lower), { kind: 'not-measured', reason: 'no version after 1.1.1w measured' });
  assert.deepEqual(computeStatus([], lower), { kind: 'not-measured', reason: 'no 1.1.1 value to compare with' });
  assert.match(statusText(computeStatus([], lower)), /^Not measured yet/);
});

test('versions not measured in between are skipped, and order of the input does not matter', () => {
  const pts = series(100, null, 500, null, 100, null, 100, null, 100).reverse();
  const s = computeStatus(pts, lower);
  assert.equal(s.kind, 'recovered');
  if (s.kind === 'recovered') assert.deepEqual([s.regressedIn, s.recoveredIn], ['3.1.4', '3.3.2']);
});

test('higher-is-better series: a lower rate is the regression', () => {
  const s = computeStatus(series(1000, 400, 600, 950), { higherIsBetter: true });
  assert.equal(s.kind, 'recovered');
  if (s.kind === 'recovered') assert.deepEqual([s.regressedIn, s.recoveredIn], ['3.0.22', '3.2.1']);
  assert.equal(worseFactor(500, 1000, true), 2);
  assert.equal(worseFactor(500, 1000, false), 0.5);
});

test('a zero baseline (no locks in 1.1.1): any count after it is a regression, zero is not', () => {
  assert.equal(computeStatus(series(0, 4, 4), lower).kind, 'still-slower');
  assert.equal(computeStatus(series(0, 0, 0), lower).kind, 'no-regression');
  assert.match(statusText(computeStatus(series(0, 4, 4), lower)), /more than zero times/);
});

test('a custom threshold and baseline series', () => {
  assert.equal(computeStatus(series(100, 104, 104), { higherIsBetter: false, threshold: 0.03 }).kind, 'still-slower');
  const s = computeStatus(series(100, 200, 210, 100), { higherIsBetter: false, baselineSeries: '3.0' });
  assert.equal(s.kind, 'improved');
});
