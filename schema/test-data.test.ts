// The test-data builders (test-data.ts): what they make is a valid run file, and an override the schema
// refuses fails in the builder, naming the field, instead of somewhere further on in a test.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { parseRunFile } from './run.ts';
import { makeBuild, makeQuietEvidence, makeRun, makeSeries, seriesOfVersion } from './test-data.ts';

test('the builders make a run file the schema reads back as it was', () => {
  const builds = [makeBuild({ version: '1.1.1w' }), makeBuild({ version: '3.5.7' })];
  const run = makeRun({ builds, series: builds.map((b) => makeSeries({ key: 'toy/rate', buildId: b.id, values: [1, 2, 3], warmup: 9 })) });
  assert.deepEqual(parseRunFile(JSON.stringify(run), 'test.json'), run);
  assert.deepEqual(
    builds.map((b) => [b.id, b.series]),
    [
      ['b-1.1.1w', '1.1.1'],
      ['b-3.5.7', '3.5'],
    ],
  );
  assert.deepEqual(run.plan, { benchmarks: ['toy'], rounds: 3, warmupRounds: 1, order: [0, 1, 2, 3].map(() => ['b-1.1.1w', 'b-3.5.7']) });
  assert.deepEqual(
    run.quiet?.rounds.map((r) => [r.round, r.quiet]),
    [
      [1, true],
      [2, true],
      [3, true],
    ],
  );
  assert.equal(seriesOfVersion('4.0.3'), '4.0');
});

test('an override the schema refuses fails in the builder, at its field', () => {
  assert.throws(() => makeBuild({ version: '3.5' }), /version/);
  assert.throws(() => makeBuild({ source: { kind: 'crate', name: 'x.crate', sha256: 'not hex' } }), /sha256/);
  assert.throws(() => makeSeries({ key: 'toy/rate', buildId: 'b', values: [-1] }), /iterations/);
  assert.throws(
    () => makeRun({ builds: [makeBuild({ id: 'b' })], series: [makeSeries({ key: 'toy/rate', buildId: 'b', status: 'failed' })] }),
    /failed series must say why/,
  );
  assert.throws(
    () => makeRun({ builds: [makeBuild()], series: [makeSeries({ key: 'toy/rate', buildId: 'elsewhere', values: [1] })] }),
    /unknown build id elsewhere/,
  );
  assert.throws(() => makeQuietEvidence('yesterday'), /at/);
});

test('a busy round makes the evidence not quiet, with its reason', () => {
  const q = makeQuietEvidence('2026-01-01T00:00:00.000Z', { rounds: [1, 2], busyRounds: [2], reason: 'cc1' });
  assert.equal(q.quiet, false);
  assert.deepEqual(
    q.rounds.map((r) => [r.round, r.quiet, r.reasons]),
    [
      [1, true, []],
      [2, false, ['cc1']],
    ],
  );
});
