import { test } from 'node:test';
import assert from 'node:assert/strict';
import { HEADLINE_METRICS } from '../../../../analysis/headline-metrics.ts';
import { COMPILER_CHANGE, DRIFT_NIGHTS, KERNEL_CHANGE, NOT_QUIET } from '../../../tests/fixtures/drift-history.ts';
import { fixture, viewOf } from '../../../tests/fixtures/drift-view.ts';
import { MIN_BAND_NIGHTS } from './view.ts';

test('the synthetic history: one point per night, step changes where the host record changed, a band per stretch', () => {
  const { sel, s, view } = viewOf([fixture], { metric: HEADLINE_METRICS[0]!.id, build: '3.5.7', range: 'all' });
  assert.deepEqual(sel, { host: 'obs-fixture-host', metric: 'handshake-ecdsa-tls13-default', build: '3.5.7', range: 'all' });
  assert.equal(view.points.length, DRIFT_NIGHTS + 1, 'the quick nights and the full run');
  assert.equal(view.points.filter((p) => !p.quiet).length, 1);
  assert.equal(view.points[NOT_QUIET - 1]!.quiet, false);
  // kernel (night 9), this build's compiler (night 17), both back for the full run
  assert.deepEqual(
    view.markers.map((m) => m.changes.map((c) => c.kind).join('+')),
    ['kernel', 'compiler', 'kernel+compiler'],
  );
  assert.ok(
    view.markers[1]!.changes.every((c) => c.build === '3.5.7'),
    "only this build's compiler change",
  );
  assert.equal(view.segments.length, 4);
  const [a, b, c, d] = view.segments;
  assert.deepEqual(
    [a, b, c, d].map((x) => x!.points.length),
    [KERNEL_CHANGE - 1, COMPILER_CHANGE - KERNEL_CHANGE, DRIFT_NIGHTS + 1 - COMPILER_CHANGE, 1],
  );
  assert.equal(a!.quietNights, KERNEL_CHANGE - 2, 'the night that was not quiet is left out');
  for (const x of [a, b, c]) assert.ok(x!.halfWidth !== null && x!.halfWidth > 0);
  assert.equal(d!.halfWidth, null, `one night is not a band (${MIN_BAND_NIGHTS} needed)`);
  // the history moves the level +4% with the kernel and -3% with the compiler, with ±1% noise
  assert.ok(Math.abs(b!.shift! - 0.04) < 0.012, String(b!.shift));
  assert.ok(Math.abs(c!.shift! + 0.03) < 0.012, String(c!.shift));
  assert.equal(s.metric.unit, 'handshakes/s');
});
