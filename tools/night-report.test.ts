// The night report counts what the aggregation decides and takes a benchmark's time from the run file.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { makeBuild, makeRun, makeSeries } from '../schema/test-data.ts';
import { formatLikeForLike, formatReport, likeForLike, nightReport } from './night-report.ts';

test("a night's cost per benchmark and its decided comparisons, as the aggregation makes them", () => {
  const builds = ['1.1.1w', '3.4.1', '3.5.7'].map((version) => makeBuild({ version }));
  const noise = [1, 1.01, 0.99, 1.02, 0.98, 1];
  // 3.4.1 is 20% slower than 1.1.1w in every round (decided), 3.5.7 within noise of 3.4.1 (not decided)
  const level: Record<string, number> = { '1.1.1w': 100, '3.4.1': 80, '3.5.7': 80 };
  const series = builds.map((b, i) =>
    makeSeries({ key: 'toy/rate', buildId: b.id, values: noise.map((n, r) => level[b.version]! * (i === 2 ? noise[(r + 3) % 6]! : n)), warmup: 1 }),
  );
  const run = makeRun({ builds, series });
  const plain = nightReport(run);
  assert.equal(plain.benchmarkSeconds, 'estimated');
  const toy = plain.benchmarks.find((b) => b.benchmark === 'toy')!;
  // 3.4.1 vs 3.0 (absent) falls to 1.1.1w: vsPreviousSeries and vsBaseline; 3.5.7 vs 3.4.1 and vs 1.1.1w
  assert.equal(toy.comparisons, 4);
  assert.equal(toy.decided, 3, '3.4.1 and 3.5.7 below 1.1.1w, and 3.4.1 below it again as its previous series; 3.5.7 vs 3.4.1 undecided');
  assert.ok(toy.medianHalfWidth! > 0 && toy.medianHalfWidth! < 0.05);

  const timed = { seconds: 100, rounds: 7, benchmarks: { toy: { warmupSeconds: 12, measuredSeconds: 72 } } };
  const withPhases = makeRun({
    builds,
    series,
    phases: { prepare: { seconds: 5 }, deterministic: { seconds: 30, jobs: 2, tasks: 3, reused: 1 }, timed },
  });
  const r = nightReport(withPhases);
  assert.equal(r.benchmarkSeconds, 'recorded');
  assert.deepEqual([r.benchmarks[0]!.warmupSeconds, r.benchmarks[0]!.measuredSeconds], [12, 72]);
  assert.deepEqual(r.deterministicTasks, { run: 3, reused: 1 });
  const text = formatReport(r);
  assert.match(text, /\| toy \| 0\.2 min \| 1\.2 min \| 0 \| - \| 3 of 4 \|/);
  assert.match(text, /deterministic 0\.5 min \(3 tasks, 1 reused\)/);
});

test('like for like: only the comparisons both nights make count, each with its own verdict', () => {
  const builds = ['1.1.1w', '3.4.1', '3.5.7'].map((version) => makeBuild({ version }));
  const noise = [1, 1.01, 0.99, 1.02, 0.98, 1];
  const night = (runId: string, level: Record<string, number>, keys: string[]) =>
    makeRun({
      runId,
      builds,
      series: keys.flatMap((key) => builds.map((b) => makeSeries({ key, buildId: b.id, values: noise.map((n) => level[b.version]! * n), warmup: 1 }))),
    });
  // before: 3.4.1 and 3.5.7 20% below 1.1.1w; after: all level (nothing decided), plus a second series only it has
  const before = night('before', { '1.1.1w': 100, '3.4.1': 80, '3.5.7': 80 }, ['toy/rate']);
  const after = night('after', { '1.1.1w': 100, '3.4.1': 100, '3.5.7': 100 }, ['toy/rate', 'toy/other']);
  const l = likeForLike(before, after);
  assert.deepEqual(l.benchmarks, [{ benchmark: 'toy', comparisons: 4, decidedBefore: 3, decidedAfter: 0 }]);
  assert.match(formatLikeForLike(l), /\| toy \| 4 \| 3 \| 0 \|/);
});
