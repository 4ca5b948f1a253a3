// The simulation itself is a benchmark (docs/benchmarks/storage-simulation.md), not a test; this checks
// its mechanics on a few nights of a small share of the series.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { cpSync, existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Run, listRunFiles, readRunFile } from '../schema/index.ts';
import { writeAll } from '../scripts/aggregate/derived-files.ts';
import { SYNTHETIC, hostState, loadTemplate, releasedSeries, synthesizeRun } from './simulation/synthetic-runs.ts';
import { finalPhase } from './simulation/phases.ts';

test('a synthetic run has the shape of a real full run and says it is synthetic', () => {
  const t = loadTemplate();
  const run = synthesizeRun(t, 1, 200, { rounds: 6, seriesEveryMonths: 6, start: '2027-01-01T00:00:00.000Z' });
  const real = readRunFile('data/archive/contaminated/runs/obs-devbox-2c/2026/11/20261122T040846Z-full-b88e.json.br');
  assert.equal(
    run.series.filter((s) => s.benchmark === 'handshake').length,
    ((real.series.length / real.builds.length) | 0) * run.builds.length,
    'the handshake series of every build',
  );
  assert.deepEqual(
    [...new Set(run.builds.map((b) => b.version))].slice(0, 9),
    real.builds.map((b) => b.version),
  );
  assert.ok(
    run.builds.some((b) => b.variant === 'no-ml-kem') && run.builds.some((b) => b.version === '4.1.0'),
    'the no-ml-kem variant, and after 6 months a new release series',
  );
  assert.match(run.host.note!, /SYNTHETIC/);
  assert.ok(run.notes.every((n) => n.startsWith(SYNTHETIC)));
  const measured = run.series.find((s) => s.status === 'measured' && s.iterations.length > 1)!;
  assert.equal(measured.iterations.length, 7, '6 measured rounds after a warm-up');
  for (const s of run.series) for (const it of s.iterations) assert.ok(it.at <= run.finishedAt && it.at >= run.startedAt);
  // valid, and with its keys in the schema's order: the bytes (and content hash) a real run file would have
  assert.equal(JSON.stringify(Run.parse(run)), JSON.stringify(run));
});

test('host changes (kernel, microcode, compiler) and release series come at fixed nights, whatever order nights are made in', () => {
  assert.deepEqual(hostState(2, 300), hostState(2, 300));
  assert.ok(hostState(0, 365).kernel > 0 && hostState(0, 365).kernel >= hostState(0, 100).kernel);
  assert.deepEqual(releasedSeries(364, 6), ['4.1.0']);
  assert.deepEqual(releasedSeries(1094, 6).length, 5);
});

test('a few nights: committed outside data/, the nightly aggregation gives what the in-process derivation gives, and a rebuild agrees', () => {
  const out = mkdtempSync(join(tmpdir(), 'simulate-'));
  const state = finalPhase(
    {
      out,
      nights: 3,
      hosts: 2,
      rounds: 6,
      seriesEveryMonths: 6,
      scale: 0.04,
      start: '2027-01-01T00:00:00.000Z',
      checkpointEvery: 2,
      pushEvery: 2,
      log: () => {},
    },
    true,
  );
  const data = join(out, 'repo/data');
  assert.equal(state.nightsDone, 3);
  assert.equal((state.aggregate as { sameAsInProcessDerivation: boolean }).sameAsInProcessDerivation, true);
  const files = listRunFiles(data);
  assert.equal(files.length, 6);
  for (const f of files) assert.match(readRunFile(join(data, f)).host.note!, /SYNTHETIC/);
  assert.ok(!listRunFiles('data').some((f) => f.includes('sim-host')), 'nothing written into data/');
  assert.equal(state.checkpoints.length, 1);
  const final = state.final as { packBytes: number; largestCommittedFile: { path: string }; pushBytesPerNightPerHost: { nights: number; median: number } };
  assert.ok(final.packBytes > 0);
  assert.deepEqual(
    state.pushes!.map((p) => p.night),
    [1, 2, 3],
    'the first night, every second night, the last',
  );
  assert.ok(state.pushes!.every((p) => p.bytes > 0) && state.pushes![0]!.bytes > state.pushes![1]!.bytes, 'the first push carries the whole base');
  assert.equal(final.pushBytesPerNightPerHost.nights, 2);
  assert.ok(
    ['data/summary.json', 'data/detailed-iterations.json'].includes(final.largestCommittedFile.path),
    `the largest committed file is a derived one, not ${final.largestCommittedFile.path}`,
  );
  // the committed derived files equal what a rebuild from the run files alone makes
  const copy = mkdtempSync(join(tmpdir(), 'simulate-copy-'));
  cpSync(join(data, 'runs'), join(copy, 'runs'), { recursive: true });
  writeAll(copy, { rebuild: true });
  for (const f of ['summary.json', 'timeseries/sim-host-1/2027.json', 'timeseries/sim-host-2/2027.json'])
    assert.equal(readFileSync(join(copy, f), 'utf8'), readFileSync(join(data, f), 'utf8'), f);
  assert.ok(!existsSync(join(out, 'repo/.git/index.lock')));
  rmSync(out, { recursive: true });
  rmSync(copy, { recursive: true });
});

test('a finished simulation extends to more nights: its nights are kept, a year it has finished is left as it is', () => {
  const out = mkdtempSync(join(tmpdir(), 'simulate-extend-'));
  const options = {
    out,
    nights: 3,
    hosts: 1,
    rounds: 6,
    seriesEveryMonths: 6,
    scale: 0.04,
    start: '2027-12-29T00:00:00.000Z',
    checkpointEvery: 10,
    pushEvery: 2,
    log: () => {},
  };
  finalPhase(options, false);
  const data = join(out, 'repo/data');
  const first = readFileSync(join(data, 'timeseries/sim-host-1/2027.json'), 'utf8');
  assert.throws(() => finalPhase({ ...options, rounds: 5, nights: 5 }, false), /holds a simulation with other options/);
  const state = finalPhase({ ...options, nights: 5 }, false);
  assert.equal(state.nightsDone, 5);
  assert.equal(listRunFiles(data).length, 5);
  assert.equal((state.aggregate as { sameAsInProcessDerivation: boolean }).sameAsInProcessDerivation, true);
  assert.equal(readFileSync(join(data, 'timeseries/sim-host-1/2027.json'), 'utf8'), first, '2027 ended before the extension');
  assert.match(readFileSync(join(data, 'timeseries/sim-host-1/2028.json'), 'utf8'), /"year":2028/);
  assert.ok(existsSync(join(out, 'state-3-nights.json')));
  assert.deepEqual(
    state.pushes!.map((p) => p.night),
    [1, 2, 3, 4, 5],
  );
  assert.throws(() => finalPhase({ ...options, nights: 4 }, false), /holds a simulation with other options/);
  rmSync(out, { recursive: true });
});
