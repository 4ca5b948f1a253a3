import { test } from 'node:test';
import assert from 'node:assert/strict';
import { causesOf } from './causes.ts';
import { entriesOf } from '../model.ts';
import { fixture } from './test-data.ts';

test('a headline change links to the write-ups naming its series and version and to bisections of its metric and side', () => {
  const e = entriesOf(fixture, 'obs-fixture-host', '3.5.7', 'default').find((x) => x.metric === 'instructions-per-handshake')!;
  const w = [
    { id: 'yes', title: 'Names it', versions: ['3.4.1', '3.5.7'], seriesKeys: [e.key] },
    { id: 'other-version', title: 'Other version', versions: ['3.4.1'], seriesKeys: [e.key] },
    { id: 'other-key', title: 'Other key', versions: ['3.5.7'], seriesKeys: ['x'] },
  ];
  const b = [
    { machine: 'm', slug: 's1', title: 'instructions', metricId: 'handshake-instructions:client:ecdsa-p256:default' },
    { machine: 'm', slug: 's2', title: 'heap', metricId: 'handshake-heap:server:ecdsa-p256:X25519' },
    { machine: 'm', slug: 's3', title: 'this series by its key', metricId: e.key },
    { machine: 'm', slug: 's4', title: 'another series by its key', metricId: 'known-issues/instructions-per-op[op=ctx-new]' },
  ];
  assert.deepEqual(
    causesOf(e, w, b).map((c) => `${c.kind} ${c.id}`),
    ['write-up yes', 'bisection m/s1', 'bisection m/s3'],
  );
});
