import { test } from 'node:test';
import assert from 'node:assert/strict';
import { fixture } from '../../../tests/fixtures/drift-view.ts';
import { ticks } from './chart.ts';
import { compareBuildNames, driftShards } from './shards.ts';

// version order is shards.ts's (builds sorted per host), round ticks chart.ts's: one test, as before the split
test('helpers: version order and round ticks', () => {
  assert.deepEqual(['3.10.0', '3.5.7 no-ml-kem', '1.1.1w', '3.5.7', '3.0.22'].sort(compareBuildNames), [
    '1.1.1w',
    '3.0.22',
    '3.5.7',
    '3.5.7 no-ml-kem',
    '3.10.0',
  ]);
  assert.deepEqual(ticks(0, 10), [0, 2, 4, 6, 8, 10]);
  assert.deepEqual(ticks(950, 1060), [950, 975, 1000, 1025, 1050]);
});

test('two machines are two histories: their own runs, values and step changes, each named as the caller describes it', () => {
  const other = {
    ...fixture,
    host: 'box.amd-epyc-bbbbbb',
    runs: fixture.runs.slice(0, 3).map((r) => ({ ...r, host: { ...r.host, id: 'box.amd-epyc-bbbbbb' } })),
  };
  const { index, runs, values } = driftShards([fixture, other], (id) => `machine ${id}`);
  assert.deepEqual(index.hosts.map((h) => [h.id, h.machine, h.runs]).sort(), [
    ['box.amd-epyc-bbbbbb', 'machine box.amd-epyc-bbbbbb', 3],
    ['obs-fixture-host', 'machine obs-fixture-host', fixture.runs.length],
  ]);
  assert.ok(
    runs.every((r) => r.runs.length === (r.host === 'obs-fixture-host' ? fixture.runs.length : 3)),
    'no run shard holds another machine’s runs',
  );
  assert.ok(
    values.filter((v) => v.host === 'box.amd-epyc-bbbbbb').every((v) => v.points.every(([i]) => i < 3)),
    'values index their own machine’s runs',
  );
  assert.equal(driftShards([fixture]).index.hosts[0]!.machine, 'obs-fixture-host', 'without a description the id names the machine');
});
