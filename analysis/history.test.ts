import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, readFileSync, readdirSync, rmSync, statSync, unlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Run, Timeseries, listRunFiles, parseRunFile, readRunFile, writeRunFile, type RoundEvidence } from '../schema/index.ts';
import { aggregate } from '../scripts/aggregate/summary.ts';
import { selectRuns } from '../scripts/aggregate/selection.ts';
import { writeAll } from '../scripts/aggregate/derived-files.ts';
import { HARNESS_STEPS } from '../catalogue/harness-steps.ts';
import { HEADLINE_METRICS } from './headline-metrics.ts';
import { loadHistory, readTimeseries, stepChanges, recordOf } from './history.ts';
import { quietReasons } from './quiet-rule.ts';
import { seededRandom } from './stats.ts';
import { makeBuild, makeHost, makeQuietEvidence, makeRun, makeSeries, randomRunPlace } from '../schema/test-data.ts';

const HS = HEADLINE_METRICS[0]!;
const INSTR = HEADLINE_METRICS.find((m) => m.deterministic)!;

interface Spec {
  runId: string;
  host?: string;
  startedAt: string;
  mode?: 'quick' | 'full';
  quiet?: boolean;
  versions: string[];
  /** extra series keys (toy metric) measured on every build */
  keys?: string[];
  kernel?: string;
  microcode?: string | null;
  compiler?: string;
  commit?: string;
  /** handshake rate per version */
  rate?: (version: string) => number;
}

function runFromSpec(s: Spec): Run {
  const compiler = s.compiler ?? 'gcc 12.2.0';
  const builds = s.versions.map((version) => makeBuild({ id: `b${version.replace(/\./g, '')}${compiler.length}`, version, compiler, builtAt: s.startedAt }));
  const values = (v: number) => [1, 2, 3, 4, 5].map((round) => v * (1 + round / 1000));
  const measured = (key: string, v: number) => ({ key, buildId: '', values: values(v), warmup: 1, at: s.startedAt });
  const series = builds.flatMap((b) => [
    makeSeries({
      ...measured(HS.key, s.rate?.(b.version) ?? 1000),
      benchmark: 'handshake',
      metric: 'handshakes-per-cpu-second',
      label: 'hs',
      unit: HS.unit,
      method: HS.method,
      buildId: b.id,
    }),
    makeSeries({
      ...measured(INSTR.key, 2e7),
      benchmark: 'handshake',
      metric: 'instructions-per-handshake',
      label: 'instr',
      unit: INSTR.unit,
      method: INSTR.method,
      higherIsBetter: false,
      buildId: b.id,
    }),
    ...(s.keys ?? []).map((key) => makeSeries({ ...measured(key, 50), metric: 'rate', label: 'toy', buildId: b.id })),
  ]);
  return makeRun({
    runId: s.runId,
    mode: s.mode ?? 'full',
    startedAt: s.startedAt,
    host: makeHost({ id: s.host ?? 'box', kernel: s.kernel ?? '6.1.0', os: 'Debian 12', microcode: s.microcode === undefined ? '0x10' : s.microcode }),
    harness: { gitCommit: s.commit ?? 'abcdef1', gitDirty: false, node: 'v24' },
    plan: { benchmarks: ['handshake'] },
    builds,
    series,
    quiet: makeQuietEvidence(s.startedAt, { busyRounds: (s.quiet ?? true) ? [] : [1] }),
  });
}

function dataDir(runs: Run[]): string {
  const dir = mkdtempSync(join(tmpdir(), 'history-'));
  for (const r of runs) writeRunFile(join(dir, 'runs'), r);
  return dir;
}
const read = (dir: string, f: string) => readFileSync(join(dir, f), 'utf8');
const derived = (dir: string) =>
  [
    'summary.json',
    'detailed-iterations.json',
    ...readdirSync(join(dir, 'timeseries'), { recursive: true, encoding: 'utf8' })
      .filter((f) => f.endsWith('.json'))
      .sort()
      .map((f) => `timeseries/${f}`),
  ]
    .map((f) => `${f}\n${read(dir, f)}`)
    .join('\n');

test('the records choose exactly the runs aggregate() would take series from (random histories)', () => {
  const rand = seededRandom(14);
  for (let trial = 0; trial < 40; trial++) {
    const runs: Run[] = [];
    const n = 2 + Math.floor(rand() * 8);
    for (let i = 0; i < n; i++) {
      const versions = ['1.1.1w', '3.0.22', '3.4.1', '3.5.7'].filter(() => rand() < 0.7);
      if (!versions.length) versions.push('3.5.7');
      runs.push(
        runFromSpec({
          runId: `t${trial}-r${i}`,
          ...randomRunPlace(rand),
          versions,
          keys: ['toy/x', 'toy/y', 'toy/z'].filter(() => rand() < 0.5),
          rate: () => 100 + Math.floor(rand() * 100),
        }),
      );
    }
    const dir = dataDir(runs);
    const history = loadHistory(
      dir,
      readdirSync(join(dir, 'runs'), { recursive: true, encoding: 'utf8' })
        .filter((f) => f.endsWith('.json.br'))
        .map((f) => `runs/${f}`)
        .sort(),
    );
    const chosen = selectRuns(history.records, history.keySets);
    const byPath = new Map(runs.map((r) => [history.records.find((x) => x.runId === r.runId)!.path, r]));
    const all = [...byPath].sort(([a], [b]) => (a < b ? -1 : 1)).map(([path, run]) => ({ path, run }));
    const full = aggregate(all).summary;
    assert.deepEqual(chosen.map((r) => r.runId).sort(), [...new Set(full.entries.map((e) => e.runId))].sort(), `trial ${trial}`);
    writeAll(dir);
    const written = JSON.parse(read(dir, 'summary.json'));
    assert.deepEqual(written.entries, JSON.parse(JSON.stringify(full.entries)), `trial ${trial}: entries equal those from every run`);
    rmSync(dir, { recursive: true });
  }
});

test('between equally ranked runs the first in path order is taken, as aggregate() takes it', () => {
  const twin = (runId: string) => runFromSpec({ runId, startedAt: '2026-02-01T00:00:00.000Z', versions: ['3.5.7'], keys: ['toy/x'] });
  const dir = dataDir([twin('zz'), twin('aa')]);
  writeAll(dir);
  assert.deepEqual([...new Set(JSON.parse(read(dir, 'summary.json')).entries.map((e: { runId: string }) => e.runId))], ['aa']);
});

test('a nightly update reads only the new run and gives what a rebuild from the run files gives', () => {
  const nights = [1, 2, 3].map((d) => runFromSpec({ runId: `n${d}`, startedAt: `2026-03-0${d}T02:00:00.000Z`, versions: ['3.4.1', '3.5.7'] }));
  const dir = dataDir(nights.slice(0, 2));
  assert.equal(writeAll(dir).read, 2);
  writeRunFile(join(dir, 'runs'), nights[2]!);
  const r = writeAll(dir);
  assert.equal(r.read, 1, 'the two known runs came from data/timeseries/');
  assert.equal(r.selected, 1);
  const incremental = derived(dir);
  const fresh = dataDir(nights);
  writeAll(fresh);
  assert.equal(incremental, derived(fresh));
  assert.equal(writeAll(dir, { rebuild: true }).read, 3);
  assert.equal(derived(dir), incremental, '--rebuild changes nothing');
});

test('earlier years stay as they are when a night adds a run; a run added to an earlier year rewrites from there', () => {
  const run = (id: string, at: string) => runFromSpec({ runId: id, startedAt: at, versions: ['3.5.7'] });
  const dir = dataDir([run('y1a', '2025-06-01T02:00:00.000Z'), run('y1b', '2025-12-31T02:00:00.000Z'), run('y2a', '2026-01-02T02:00:00.000Z')]);
  writeAll(dir);
  const old = join(dir, 'timeseries/box/2025.json');
  const stamp = statSync(old).mtimeMs;
  writeRunFile(join(dir, 'runs'), run('y2b', '2026-01-03T02:00:00.000Z'));
  const history = loadHistory(dir, listRunFiles(dir));
  assert.deepEqual([...history.frozen], ['timeseries/box/2025.json']);
  assert.deepEqual(
    history.records.filter((r) => r.path.includes('/2025/')).map((r) => r.values.length),
    [0, 0],
    'frozen years keep no headline values in memory',
  );
  writeAll(dir);
  assert.equal(statSync(old).mtimeMs, stamp, 'the earlier year was not written again');
  const fresh = dataDir([
    run('y1a', '2025-06-01T02:00:00.000Z'),
    run('y1b', '2025-12-31T02:00:00.000Z'),
    run('y2a', '2026-01-02T02:00:00.000Z'),
    run('y2b', '2026-01-03T02:00:00.000Z'),
  ]);
  writeAll(fresh);
  assert.equal(derived(dir), derived(fresh));
  // a late run in the earlier year: both years are written again (the next year's first step change may move)
  writeRunFile(join(dir, 'runs'), runFromSpec({ runId: 'y1c', startedAt: '2025-12-31T12:00:00.000Z', versions: ['3.5.7'], kernel: '6.9' }));
  assert.deepEqual([...loadHistory(dir, listRunFiles(dir)).frozen], []);
  writeAll(dir);
  writeRunFile(join(fresh, 'runs'), runFromSpec({ runId: 'y1c', startedAt: '2025-12-31T12:00:00.000Z', versions: ['3.5.7'], kernel: '6.9' }));
  writeAll(fresh, { rebuild: true });
  assert.equal(derived(dir), derived(fresh));
  assert.match(read(dir, 'timeseries/box/2026.json'), /"kind":"kernel","from":"6\.9","to":"6\.1\.0"/);
});

test('a time-series file that is broken, stale or missing is made again from the run files', () => {
  const dir = dataDir([runFromSpec({ runId: 'n1', startedAt: '2026-03-01T02:00:00.000Z', versions: ['3.5.7'] })]);
  writeAll(dir);
  const good = derived(dir);
  const file = join(dir, 'timeseries/box/2026.json');
  for (const damage of ['{"truncated', JSON.stringify({ ...JSON.parse(readFileSync(file, 'utf8')), metrics: [] })]) {
    writeFileSync(file, damage);
    const r = writeAll(dir);
    assert.equal(r.read, 1);
    assert.equal(r.ignored.length, 1);
    assert.equal(derived(dir), good);
  }
  unlinkSync(file);
  writeAll(dir);
  assert.equal(derived(dir), good);
});

test('one file per host and year, runs oldest first, with headline medians and step changes', () => {
  const runs = [
    runFromSpec({ runId: 'a1', startedAt: '2025-12-31T23:00:00.000Z', versions: ['3.4.1', '3.5.7'], rate: (v) => (v === '3.5.7' ? 800 : 1000) }),
    runFromSpec({ runId: 'a2', startedAt: '2026-01-01T23:00:00.000Z', versions: ['3.4.1', '3.5.7'], kernel: '6.1.1', microcode: '0x11' }),
    runFromSpec({
      runId: 'a3',
      startedAt: '2026-01-02T23:00:00.000Z',
      versions: ['3.4.1', '3.5.7'],
      kernel: '6.1.1',
      microcode: '0x11',
      compiler: 'gcc 13.1.0',
      commit: '1234567',
    }),
    runFromSpec({
      runId: 'a4',
      startedAt: '2026-01-03T23:00:00.000Z',
      versions: ['3.5.7'],
      kernel: '6.1.1',
      microcode: '0x11',
      compiler: 'gcc 13.1.0',
      commit: '1234567',
      quiet: false,
    }),
    runFromSpec({ runId: 'b1', host: 'other', startedAt: '2026-01-02T00:00:00.000Z', versions: ['3.5.7'] }),
  ];
  const dir = dataDir(runs);
  writeAll(dir);
  assert.deepEqual(readdirSync(join(dir, 'timeseries'), { recursive: true, encoding: 'utf8' }).sort(), [
    'box',
    'box/2025.json',
    'box/2026.json',
    'other',
    'other/2026.json',
  ]);
  const y25 = Timeseries.parse(JSON.parse(read(dir, 'timeseries/box/2025.json')));
  const y26 = Timeseries.parse(JSON.parse(read(dir, 'timeseries/box/2026.json')));
  assert.deepEqual(
    y26.runs.map((r) => r.runId),
    ['a2', 'a3', 'a4'],
  );
  const a1 = y25.runs[0]!;
  assert.equal(a1.path, 'runs/box/2025/12/a1.json.br');
  const v = (r: typeof a1, metric: string, version: string) => r.values.find((x) => y25.metrics[x[0]]!.id === metric && r.builds[x[1]]!.version === version);
  // values 800 * (1 + r/1000) for rounds 1..5: the median is round 3's
  assert.equal(v(a1, HS.id, '3.5.7')![2], 800 * 1.003);
  assert.equal(v(a1, HS.id, '3.5.7')![5], 5);
  assert.equal(v(a1, INSTR.id, '3.4.1')![3], null, 'deterministic metrics carry no interval');
  assert.deepEqual(a1.changes, [], "a host's first run changes nothing");
  assert.deepEqual(
    y26.runs[0]!.changes.map((c) => [c.kind, c.from, c.to]),
    [
      ['kernel', '6.1.0', '6.1.1'],
      ['microcode', '0x10', '0x11'],
    ],
    'the first run of a year is compared with the last run of the year before',
  );
  assert.deepEqual(
    y26.runs[1]!.changes.map((c) => [c.kind, c.build ?? null, c.to]),
    [
      ['harness', null, '1234567'],
      ['compiler', '3.4.1', 'gcc 13.1.0'],
      ['compiler', '3.5.7', 'gcc 13.1.0'],
    ],
  );
  assert.equal(y26.runs[2]!.quiet, false);
  assert.match(y26.runs[2]!.quietReasons[0]!, /85%/);
  assert.deepEqual(Timeseries.parse(JSON.parse(read(dir, 'timeseries/other/2026.json'))).runs[0]!.changes, [], 'hosts are separate histories');
  const summary = JSON.parse(read(dir, 'summary.json'));
  assert.deepEqual(summary.runs.map((r: { runId: string }) => r.runId).sort(), ['a3', 'b1'], 'the summary lists the runs behind it, not the history');
  assert.equal(summary.hosts.find((h: Run['host']) => h.id === 'box').kernel, '6.1.1', 'the newest description of a host, also from a run not used');
});

test('step changes name the build whose compiler or build changed', () => {
  const keySets = new Map<string, string[]>();
  const a = recordOf(runFromSpec({ runId: 'x', startedAt: '2026-01-01T00:00:00.000Z', versions: ['3.5.7'] }), 'p', 1, keySets);
  const b = { ...a, builds: a.builds.map((x) => ({ ...x, id: 'rebuilt' })), host: { ...a.host, microcode: null } };
  assert.deepEqual(stepChanges(a, b), [
    { kind: 'microcode', from: '0x10', to: null },
    { kind: 'build', build: '3.5.7', from: a.builds[0]!.id, to: 'rebuilt' },
  ]);
});

test('a run file without quiet windows parses and is judged as before; a loud window fails its round', () => {
  // the smallest committed run that predates windows: judged as its record (made before them) says
  const data = join(import.meta.dirname, '..', 'data');
  const path = listRunFiles(data)
    .sort((a, b) => statSync(join(data, a)).size - statSync(join(data, b)).size)
    .find((p) => readRunFile(join(data, p), p).quiet?.rounds.every((r) => r.windows === undefined))!;
  assert.ok(path, 'a committed run from before quiet windows');
  const committed = readRunFile(join(data, path), path);
  assert.ok(committed.quiet && committed.quiet.rounds.every((r) => r.windows === undefined));
  const record = [...readTimeseries(data).files.values()].flatMap((f) => f.runs).find((r) => r.path === path)!;
  assert.equal(quietReasons(committed).length === 0, record.quiet);
  assert.deepEqual(quietReasons(committed).slice(0, 5), record.quietReasons.slice(0, 5));
  // a run file as the runner wrote it before windows
  const at = '2026-03-01T02:00:00.000Z';
  const busy = runFromSpec({ runId: 'busy', startedAt: at, versions: ['3.5.7'], quiet: false });
  const quiet = runFromSpec({ runId: 'quiet', startedAt: at, versions: ['3.5.7'] });
  assert.ok(!JSON.stringify(busy).includes('"windows"'));
  assert.deepEqual(quietReasons(parseRunFile(JSON.stringify(busy), 'busy.json')), ['round 1: other processes used 85% of a CPU']);
  assert.deepEqual(quietReasons(parseRunFile(JSON.stringify(quiet), 'quiet.json')), []);
  // with windows: the runner names a loud window in its round's reasons; a round that leaves it out fails all the same
  const q = quiet.quiet!;
  const loud = {
    ...q.before,
    windowSeconds: 25,
    otherBusyPercent: 100,
    quiet: false,
    reasons: ['processes outside this run used 100% of one CPU over the 25 s window (limit 10%)'],
  };
  const { governor: _g, boost: _b, ...window } = loud;
  const withRound = (round: RoundEvidence) => parseRunFile(JSON.stringify({ ...quiet, quiet: { ...q, rounds: [round], quiet: round.quiet } }), 'w.json');
  const named = withRound({ ...q.rounds[0]!, quiet: false, reasons: [`window 1 of 1 (01:59:35-02:00:00 UTC): ${loud.reasons[0]}`], windows: [window] });
  assert.deepEqual(quietReasons(named), [`round 1: window 1 of 1 (01:59:35-02:00:00 UTC): ${loud.reasons[0]}`]);
  const silent = withRound({ ...q.rounds[0]!, quiet: true, reasons: [], windows: [window] });
  assert.deepEqual(quietReasons(silent), [`round 1, window ending ${at}: ${loud.reasons[0]}`]);
});

test("the quiet verdict is the runner's rule: a loud warm-up round does not decide (its values are thrown away), a loud deterministic phase does", () => {
  const run = runFromSpec({ runId: 'warm', startedAt: '2026-03-01T02:00:00.000Z', versions: ['3.5.7'] });
  const q = run.quiet!;
  const steal = 'CPU steal was 2.01% of all CPUs over the 6.37 s window (limit 2%)';
  const loud = (round: number) => ({ ...q.rounds[0]!, round, quiet: false, reasons: [steal] });
  const parsed = (quiet: typeof q) => parseRunFile(JSON.stringify({ ...run, quiet }), 'w.json');
  assert.equal(run.plan.warmupRounds, 1);
  // run 20261127T162517Z-full-5d03: steal in one window of its warm-up round, every measured round quiet
  assert.deepEqual(quietReasons(parsed({ ...q, rounds: [loud(0), ...q.rounds] })), []);
  assert.deepEqual(quietReasons(parsed({ ...q, rounds: [loud(1)], quiet: false })), [`round 1: ${steal}`]);
  assert.deepEqual(quietReasons(parsed({ ...q, deterministic: [loud(1)], quiet: false })), [`deterministic phase: ${steal}`]);
});

test('a change of harness revision is a harness step named by its title; a commit change alone is not', () => {
  const keySets = new Map<string, string[]>();
  const a = recordOf(runFromSpec({ runId: 'x', startedAt: '2026-01-01T00:00:00.000Z', versions: ['3.5.7'] }), 'p', 1, keySets);
  const sameRevision = { ...a, harness: { gitCommit: 'abc1234', gitDirty: false } };
  assert.deepEqual(
    stepChanges(a, sameRevision).map((c) => c.to),
    ['abc1234'],
  );
  const step = HARNESS_STEPS.find((s) => s.revision === 2)!;
  const stepped = { ...a, harness: { gitCommit: 'abc1234', gitDirty: false, revision: 2 } };
  assert.deepEqual(
    stepChanges(a, stepped).map((c) => [c.kind, c.to]),
    [['harness', `abc1234 (harness step 2: ${step.title})`]],
  );
});

test("a run's record counts the measured rounds the host disturbed and the run measured again, and stays quiet", () => {
  const keySets = new Map<string, string[]>();
  const run = runFromSpec({ runId: 'again', startedAt: '2026-01-01T00:00:00.000Z', versions: ['3.5.7'] });
  const disturbed = { ...run.quiet!.rounds[0]!, quiet: false, reasons: ['CPU steal was 4.78% of all CPUs over the 8 s window (limit 2%)'] };
  const repeated = recordOf({ ...run, quiet: { ...run.quiet!, repeated: [disturbed] } }, 'p', 1, keySets);
  assert.equal(repeated.repeatedRounds, 1);
  assert.equal(repeated.quiet, true, 'the attempt dropped is not a reason: the rounds kept are quiet');
  assert.equal('repeatedRounds' in recordOf(run, 'p', 1, keySets), false, 'absent when none, so older records are unchanged');
});
