// The submission caps are sized from the stored format: a full run of today's default matrix with two
// more release series fits, with room, and the caps are not so loose that they stop nothing.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { encodeRunFile } from '../schema/index.ts';
import { loadTemplate, releasedSeries, synthesizeRun } from '../tools/simulation/synthetic-runs.ts';
import { LIMITS } from './submission/limits.ts';
import { summaryGrowth } from './validate-submission.ts';

test('a full run with two more release series fits the caps with room for about as much again', () => {
  const night = 400; // 13 months: two new series after 4.0
  assert.equal(releasedSeries(night, 6).length, 2);
  const run = synthesizeRun(loadTemplate(), 0, night, { rounds: 6, seriesEveryMonths: 6, start: '2027-01-01T00:00:00.000Z' });
  assert.equal(run.builds.length, 12, 'the default matrix (9 series and 3.5 no-ml-kem) and two more series');
  const json = JSON.stringify(run).length + 1;
  const stored = encodeRunFile(run).length;
  console.log(`full run of 12 builds: ${json} bytes of JSON, ${stored} stored; caps ${LIMITS.maxJsonBytes} and ${LIMITS.maxFileBytes}`);
  for (const [size, cap] of [
    [json, LIMITS.maxJsonBytes],
    [stored, LIMITS.maxFileBytes],
  ] as const) {
    assert.ok(size * 1.5 < cap, `${size} bytes leave too little room under ${cap}`);
    assert.ok(size * 4 > cap, `a cap of ${cap} stops nothing near a run of ${size} bytes`);
  }
  assert.ok(20 * stored < LIMITS.maxChangeBytes, '20 such runs fit one pull request');
});

test('a full run with two more release series on a new machine fits the series caps and the summary growth limit, with room', () => {
  const run = synthesizeRun(loadTemplate(), 0, 400, { rounds: 6, seriesEveryMonths: 6, start: '2027-01-01T00:00:00.000Z' });
  const perBuild = Math.max(...run.builds.map((b) => run.series.filter((s) => s.buildId === b.id).length));
  const keys = new Set(run.series.map((s) => s.key)).size;
  const growth = summaryGrowth('/nonexistent', [{ file: 'x', run, problems: [] }]);
  console.log(`full run of 12 builds: at most ${perBuild} series per build, ${keys} keys, about ${(growth / 2 ** 20).toFixed(1)} MiB more in summary.json`);
  for (const [size, cap] of [
    [perBuild, LIMITS.maxSeriesPerBuild],
    [keys, LIMITS.maxKeysPerRun],
    [growth, LIMITS.maxSummaryGrowthBytes],
  ] as const) {
    assert.ok(size * 1.5 < cap, `${size} leaves too little room under ${cap}`);
    assert.ok(size * 4 > cap, `a cap of ${cap} stops nothing near ${size}`);
  }
});
