import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { Timeseries, type RunRecord } from '../../../schema/index.ts';
import { HEADLINE_METRICS } from '../../../analysis/history.ts';
import { COMPILER_CHANGE, DRIFT_NIGHTS, KERNEL_CHANGE, NOT_QUIET } from '../../tests/fixtures/drift-history.ts';
import {
  MIN_BAND_NIGHTS,
  compareBuildNames,
  driftSentences,
  driftShards,
  driftSvg,
  driftView,
  rangeOf,
  recentRows,
  resolveSelection,
  shardsFor,
  ticks,
} from './drift.ts';

const fixture = Timeseries.parse(JSON.parse(readFileSync(new URL('../../tests/fixtures/data/timeseries/obs-fixture-host/2026.json', import.meta.url), 'utf8')));

function viewOf(files: Timeseries[], asked: Parameters<typeof resolveSelection>[1]) {
  const { index, runs, values } = driftShards(files);
  const sel = resolveSelection(index, asked)!;
  const s = shardsFor(index, sel);
  const view = driftView(
    runs.filter((r) => r.host === sel.host && s.runYears.includes(r.year)),
    values.filter((v) => v.host === sel.host && v.metric === sel.metric && v.build === sel.build && s.valueYears.includes(v.year)),
    s.build.name,
    s.since,
  );
  return { index, sel, s, view };
}

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

test('a single night draws one point and says what a band needs', () => {
  // the full run alone (the fixture's later runs hold no headline metric)
  const one = { ...fixture, runs: fixture.runs.filter((r) => r.runId === '20261122T000000Z-full-f1x7').map((r) => ({ ...r, changes: [] })) };
  const { s, view } = viewOf([one], { range: 'all' });
  assert.equal(view.points.length, 1);
  assert.equal((driftSvg(view, s.metric, 'x').match(/<circle /g) ?? []).length, 1);
  assert.match(driftSentences(view, s.metric).join(' '), /^1 night from .*No band yet/);
});

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
