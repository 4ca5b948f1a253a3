import { test } from 'node:test';
import assert from 'node:assert/strict';
import type { RunRecord } from '../../../../schema/index.ts';
import { DRIFT_NIGHTS } from '../../../tests/fixtures/drift-history.ts';
import { fixture, viewOf } from '../../../tests/fixtures/drift-view.ts';
import { rangeOf, resolveSelection } from './selection.ts';

test('ranges load only the years they show; the default is the project machine or the newest quiet run, the first metric, the newest default build', () => {
  const move = (r: RunRecord, days: number): RunRecord => ({ ...r, startedAt: new Date(Date.parse(r.startedAt) + days * 86_400_000).toISOString() });
  const old = { ...fixture, year: 2025, runs: fixture.runs.map((r) => move(r, -365)) };
  const { index, sel, s } = viewOf([old, fixture], {});
  assert.deepEqual(sel, { host: 'obs-fixture-host', metric: 'handshake-ecdsa-tls13-default', build: '3.5.7', range: '365' });
  assert.deepEqual(s.runYears, [2025, 2026], 'the last 12 months reach into the year before');
  const host = index.hosts[0]!;
  assert.deepEqual(rangeOf(host, '90').years, [2026]);
  assert.deepEqual(rangeOf(host, 'all').years, [2025, 2026]);
  // the quick nights, the full run and the fixture's five later runs (AEAD only, a not-quiet one, the other libraries, 3.4.0, the servers), in both years
  assert.equal(host.runs, 2 * fixture.runs.length);
  assert.equal(fixture.runs.length, DRIFT_NIGHTS + 6);
  assert.equal(resolveSelection(index, { build: 'no-such', metric: 'handshake-ecdsa-tls13-x25519' })!.metric, 'handshake-ecdsa-tls13-x25519');
  assert.equal(resolveSelection({ metrics: [], hosts: [] }), null, 'nothing to show without a time series');
});
