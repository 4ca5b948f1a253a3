// Which run each summary row comes from (selection.ts SELECTION), on synthetic histories: the
// newest quiet full run decides the rows it measured, a failed or unsupported series never replaces a
// measured one, a quick run only fills what no full run measured, and the run records (selectRuns)
// choose exactly the runs aggregate() takes rows from.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { Run, runFilePath, type RunRecord, type Series } from '../../schema/index.ts';
import { aggregate } from './summary.ts';
import { derive } from './derived-files.ts';
import { selectRuns } from './selection.ts';
import { recordOf } from '../../analysis/history.ts';
import { seededRandom } from '../../analysis/stats.ts';
import { makeBuild, makeHost, makeQuietEvidence, makeRun, makeSeries, randomRunPlace } from '../../schema/test-data.ts';

const KEYS = ['toy/a', 'toy/b'] as const;
type Status = Series['status'];

interface RunSpec {
  runId: string;
  startedAt: string;
  mode?: 'quick' | 'full';
  quiet?: boolean;
  /** OpenSSL versions measured */
  versions: readonly string[];
  /** a series' status (default: measured) */
  status?: (version: string, key: string) => Status;
  host?: string;
  /** a reproduction of this write-up (npm run reproduce) */
  reproduces?: string;
}

function runFromSpec(s: RunSpec): Run {
  const builds = s.versions.map((version) => makeBuild({ id: `b${version.replace(/\./g, '')}`, version, builtAt: s.startedAt }));
  const series = builds.flatMap((b) =>
    KEYS.map((key) => {
      const status = s.status?.(b.version, key) ?? 'measured';
      const values = [1, 2, 3, 4, 5, 6].map((round) => 100 + round + b.version.length);
      return status === 'measured'
        ? makeSeries({ key, buildId: b.id, values, warmup: 999, at: s.startedAt })
        : makeSeries({ key, buildId: b.id, status, reason: `${status} in ${s.runId}` });
    }),
  );
  const quiet = s.quiet ?? true;
  return makeRun({
    runId: s.runId,
    mode: s.mode ?? 'full',
    startedAt: s.startedAt,
    host: makeHost({ id: s.host ?? 'box' }),
    plan: { benchmarks: ['toy'], rounds: 6, warmupRounds: 1, ...(s.reproduces ? { reproduces: s.reproduces } : {}) },
    builds,
    series,
    quiet: makeQuietEvidence(s.startedAt, { busyRounds: quiet ? [] : [1] }),
  });
}

/** The runs in path order with their records, as npm run aggregate sees them. */
function history(runs: Run[]) {
  const keySets = new Map<string, string[]>();
  const files = runs.map((run) => ({ run, path: runFilePath(run) })).sort((a, b) => (a.path < b.path ? -1 : a.path > b.path ? 1 : 0));
  const records: RunRecord[] = files.map(({ run, path }) => recordOf(run, path, 1, keySets));
  return { files, records, keySets };
}

/** Every row as "version key" -> "runId status". */
function rows(runs: Run[]): Record<string, string> {
  const { summary } = aggregate(history(runs).files);
  return Object.fromEntries(summary.entries.map((e) => [`${e.version} ${e.key}`, `${e.runId} ${e.status}`]));
}

/** selectRuns() chooses the runs aggregate() takes rows from, and derive() (which opens only those) gives the same rows. */
function assertRecordsAgree(runs: Run[], what: string): void {
  const { files, records, keySets } = history(runs);
  const all = aggregate(files).summary;
  const fromAll = [...new Set(all.entries.map((e) => e.runId))].sort();
  assert.deepEqual(
    selectRuns(records, keySets)
      .map((r) => r.runId)
      .sort(),
    fromAll,
    `${what}: selectRuns and aggregate choose the same runs`,
  );
  const byPath = new Map(files.map((f) => [f.path, f.run]));
  const derived = derive(records, keySets, (path) => byPath.get(path)!);
  assert.deepEqual(
    JSON.parse(derived.files.get('summary.json')!).entries,
    JSON.parse(JSON.stringify(all.entries)),
    `${what}: the rows from the selected runs alone`,
  );
}

const versions = (n: number) => Array.from({ length: n }, (_, i) => `3.${i}.0`);

test('a later nightly full run of 9 builds decides their rows; the other 8 of an earlier 17-build run keep theirs', () => {
  const wide = runFromSpec({ runId: 'wide', startedAt: '2026-11-26T04:02:49.000Z', versions: versions(17) });
  const nightly = runFromSpec({ runId: 'nightly', startedAt: '2026-11-27T02:00:00.000Z', versions: versions(9) });
  const runs = [wide, nightly];
  const r = rows(runs);
  for (const v of versions(17))
    for (const key of KEYS) assert.equal(r[`${v} ${key}`], `${versions(9).includes(v) ? 'nightly' : 'wide'} measured`, `${v} ${key}`);
  // comparisons stay within one run: 3.9.0 (from the wide run) is not compared with 3.8.0 (now from the nightly)
  const { summary } = aggregate(history(runs).files);
  const at = (v: string) => summary.entries.find((e) => e.version === v && e.key === 'toy/a')!;
  assert.equal(at('3.8.0').vsPreviousSeries!.against, '3.7.0');
  assert.equal(at('3.9.0').vsPreviousSeries, null, 'every older series of the wide run is taken from the nightly one');
  assert.equal(at('3.10.0').vsPreviousSeries!.against, '3.9.0');
  assertRecordsAgree(runs, '17 then 9');
});

test('a newer run whose series failed or is unsupported does not replace the older measured row', () => {
  const older = runFromSpec({ runId: 'older', startedAt: '2026-11-01T02:00:00.000Z', versions: ['3.4.0', '3.5.0'] });
  const newer = runFromSpec({
    runId: 'newer',
    startedAt: '2026-11-02T02:00:00.000Z',
    versions: ['3.4.0', '3.5.0', '3.6.0'],
    status: (v, key) =>
      v === '3.4.0' && key === 'toy/a' ? 'failed' : v === '3.5.0' && key === 'toy/b' ? 'unsupported' : v === '3.6.0' && key === 'toy/b' ? 'failed' : 'measured',
  });
  const runs = [older, newer];
  assert.deepEqual(rows(runs), {
    '3.4.0 toy/a': 'older measured',
    '3.4.0 toy/b': 'newer measured',
    '3.5.0 toy/a': 'newer measured',
    '3.5.0 toy/b': 'older measured',
    '3.6.0 toy/a': 'newer measured',
    '3.6.0 toy/b': 'newer failed', // no run measured it: the row says why
  });
  assertRecordsAgree(runs, 'failed and unsupported');
  // and the other way round: a newer measured series replaces an older failed one
  const fixed = runFromSpec({ runId: 'fixed', startedAt: '2026-11-03T02:00:00.000Z', versions: ['3.6.0'] });
  assert.equal(rows([...runs, fixed])['3.6.0 toy/b'], 'fixed measured');
  assertRecordsAgree([...runs, fixed], 'failed, then measured');
});

test("a quick run never replaces a full run's measured row, but fills a build or key no full run measured", () => {
  const full = runFromSpec({
    runId: 'full',
    startedAt: '2026-11-01T02:00:00.000Z',
    versions: ['3.4.0', '3.5.0'],
    status: (v, key) => (v === '3.5.0' && key === 'toy/b' ? 'failed' : 'measured'),
  });
  const quick = runFromSpec({ runId: 'quick', mode: 'quick', startedAt: '2026-11-02T02:00:00.000Z', versions: ['3.4.0', '3.5.0', '3.6.0'] });
  const runs = [full, quick];
  assert.deepEqual(rows(runs), {
    '3.4.0 toy/a': 'full measured',
    '3.4.0 toy/b': 'full measured',
    '3.5.0 toy/a': 'full measured',
    '3.5.0 toy/b': 'quick measured', // the full run failed it: a measured row beats a failed one
    '3.6.0 toy/a': 'quick measured',
    '3.6.0 toy/b': 'quick measured',
  });
  assertRecordsAgree(runs, 'full then quick');
  // a newer full run takes back the rows it measures; a run that is not quiet takes nothing
  const later = runFromSpec({ runId: 'later', startedAt: '2026-11-03T02:00:00.000Z', versions: ['3.6.0'] });
  const busy = runFromSpec({ runId: 'busy', startedAt: '2026-11-04T02:00:00.000Z', versions: ['3.4.0', '3.6.0'], quiet: false });
  const r = rows([...runs, later, busy]);
  assert.equal(r['3.6.0 toy/a'], 'later measured');
  assert.equal(r['3.4.0 toy/a'], 'full measured');
  assertRecordsAgree([...runs, later, busy], 'quick, later full, busy');
});

test("a reproduction of a write-up never replaces an ordinary run's measured row, even a quick one's, but fills what none measured", () => {
  const nightly = runFromSpec({ runId: 'nightly', startedAt: '2026-11-01T02:00:00.000Z', mode: 'quick', versions: ['3.4.0', '3.5.0'] });
  const repro = runFromSpec({ runId: 'repro', startedAt: '2026-11-02T02:00:00.000Z', versions: ['3.5.0', '3.6.0'], reproduces: 'some-writeup' });
  const runs = [nightly, repro];
  const r = rows(runs);
  assert.equal(r['3.5.0 toy/a'], 'nightly measured', 'the newer full-mode reproduction does not take the row');
  assert.equal(r['3.6.0 toy/a'], 'repro measured', 'a build only the reproduction measured keeps its rows');
  assertRecordsAgree(runs, 'nightly then reproduction');
});

test('runs that start at the same time: the first in path order (the smaller run id) decides', () => {
  const twin = (runId: string) => runFromSpec({ runId, startedAt: '2026-11-01T02:00:00.000Z', versions: ['3.5.0'] });
  assert.equal(rows([twin('zz'), twin('aa')])['3.5.0 toy/a'], 'aa measured');
  assertRecordsAgree([twin('zz'), twin('aa')], 'twins');
});

test('selectRuns agrees with aggregate on random histories of failed, unsupported, quick, busy and tied runs', () => {
  const rand = seededRandom(26);
  const pick = <T>(xs: readonly T[]) => xs[Math.floor(rand() * xs.length)]!;
  const statuses: Status[] = ['measured', 'measured', 'measured', 'failed', 'unsupported'];
  for (let trial = 0; trial < 40; trial++) {
    const runs: Run[] = [];
    const n = 2 + Math.floor(rand() * 8);
    for (let i = 0; i < n; i++) {
      const vs = versions(6).filter(() => rand() < 0.6);
      if (!vs.length) vs.push('3.0.0');
      const status = new Map<string, Status>(vs.flatMap((v) => KEYS.map((k) => [`${v} ${k}`, pick(statuses)] as const)));
      runs.push(
        runFromSpec({
          runId: `t${trial}-r${i}`,
          ...randomRunPlace(rand),
          versions: vs,
          status: (v, k) => status.get(`${v} ${k}`)!,
        }),
      );
    }
    assertRecordsAgree(runs, `trial ${trial}`);
  }
});
