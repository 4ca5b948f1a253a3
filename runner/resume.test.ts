// A killed night loses nothing (issue 30, item 11): a run SIGKILLed midway in one checkout is found and
// resumed by the next job in a fresh checkout (actions/checkout cleaned the old one), and loses at most
// the task that was in flight.
import { after, test } from 'node:test';
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

const cache = mkdtempSync(join(tmpdir(), 'resume-cache-'));
process.env.OBSERVATORY_CACHE = cache;
after(() => rmSync(cache, { recursive: true, force: true }));
const { buildLabel } = await import('../catalogue/index.ts');
const { describeHost } = await import('./host.ts');
const { executeRun } = await import('./run.ts');
const { journalPath, readJournal, resumableRun, resumePlan, AUTO_RESUME_HOURS } = await import('./run/journal.ts');
const { standInBuild, standInPlan } = await import('./stand-in-build.ts');

/** The toy benchmark both sessions run: each call appends a line to `calls` and takes a little time. */
const TOY = (calls: string) => `{
  id: 'toy',
  description: 'a toy',
  tasks: (b) => ['a', 'b'].map((t) => ({
    id: t,
    run: async () => {
      await new Promise((r) => setTimeout(r, 60));
      (await import('node:fs')).appendFileSync(${JSON.stringify(calls)}, t + '@' + b.record.version + '\\n');
      return [{ spec: { benchmark: 'toy', metric: t, label: 'toy ' + t, unit: 'ops/s', method: 'wall-clock-throughput', higherIsBetter: true, params: {}, comparability: { acrossVersions: true } }, value: 1 }];
    },
  })),
}`;

test('a run killed midway resumes in a new working directory and loses at most the task in flight', async () => {
  const builds = [standInBuild('3.4.1', 'b34'), standInBuild('3.5.7', 'b35')];
  const plan = standInPlan(builds, { mode: 'full', hostName: 'resume-host', harness: { gitCommit: 'a'.repeat(40), gitDirty: false, node: process.version } });
  const { host } = plan;
  const request = { mode: plan.mode, benchmarks: plan.benchmarks, rounds: plan.rounds, builds: plan.builds.map((b) => buildLabel(b)) };
  // first night: a checkout of its own, killed after a few tasks
  const first = mkdtempSync(join(tmpdir(), 'checkout-1-'));
  const calls1 = join(first, 'calls');
  const script = `
    const { executeRun } = await import(${JSON.stringify(new URL('./run.ts', import.meta.url).href)});
    const { standInBuild } = await import(${JSON.stringify(new URL('./stand-in-build.ts', import.meta.url).href)});
    const plan = ${JSON.stringify(plan)};
    const builds = [standInBuild('3.4.1', 'b34'), standInBuild('3.5.7', 'b35')];
    await executeRun(plan, builds, [${TOY(calls1)}], 'data/runs', { progress: () => {} });`;
  const child = spawn(process.execPath, ['--input-type=module', '-e', script], {
    cwd: first,
    env: { ...process.env, OBSERVATORY_CACHE: cache },
    stdio: 'inherit',
  });
  const lines = (f: string) => (existsSync(f) ? readFileSync(f, 'utf8').trim().split('\n').filter(Boolean) : []);
  while (lines(calls1).length < 5) await new Promise((r) => setTimeout(r, 10));
  child.kill('SIGKILL');
  await new Promise((r) => child.on('close', r));
  const before = lines(calls1).length;
  // the next job: actions/checkout cleaned the workspace
  rmSync(first, { recursive: true, force: true });
  const second = mkdtempSync(join(tmpdir(), 'checkout-2-'));
  after(() => rmSync(second, { recursive: true, force: true }));
  const found = resumableRun(host.id, request);
  assert.equal(found?.runId, plan.runId, 'the next bench of the same request finds the killed run');
  const journaled = readJournal(journalPath(plan)).entries.length;
  assert.ok(journaled >= before - 1, `at most the task in flight is lost: ${before} tasks ran, ${journaled} were journaled`);
  const calls2 = join(second, 'calls');
  const toy = (await import(`data:text/javascript,export default ${encodeURIComponent(TOY(calls2))}`)).default;
  const resumed = resumePlan(found!.plan, plan.harness, false);
  const { run, path } = await executeRun(resumed, builds, [toy], join(second, 'data/runs'), { progress: () => {} });
  assert.ok(path.startsWith(second), 'the run file is written in the new checkout');
  assert.equal(lines(calls2).length, 12 - journaled, 'only the tasks not journaled ran again');
  for (const s of run.series)
    assert.deepEqual(
      s.iterations.map((i) => i.round),
      [0, 1, 2],
      `${s.key} ${s.buildId}: every round`,
    );
  assert.equal(run.harness.resumedAt?.length, 1);
  assert.ok(!existsSync(journalPath(plan)), 'the journal is gone once the run file is written');
});

test('only a run of the same request, recent enough, is resumed by itself', () => {
  const plan = standInPlan([standInBuild('3.5.7', 'b35')], {
    mode: 'full',
    hostName: 'resume-host-2',
    rounds: 6,
    harness: { gitCommit: 'a'.repeat(40), gitDirty: false, node: 'v24' },
  });
  const { host } = plan;
  const request = { mode: plan.mode, benchmarks: ['toy'], rounds: 6, builds: ['3.5.7'] };
  // a journal as a killed run leaves it: the header only
  const jpath = journalPath(plan);
  rmSync(jpath, { force: true });
  mkdirSync(join(jpath, '..'), { recursive: true });
  writeFileSync(jpath, JSON.stringify({ plan }) + '\n');
  assert.equal(resumableRun(host.id, request)?.runId, plan.runId);
  assert.equal(resumableRun(host.id, { ...request, mode: 'quick' }), undefined, 'another mode');
  assert.equal(resumableRun(host.id, { ...request, builds: ['3.5.7', '3.4.1'] }), undefined, 'other builds');
  assert.equal(resumableRun(host.id, { ...request, rounds: 3 }), undefined, 'other rounds');
  assert.equal(resumableRun(describeHost('other-machine').id, request), undefined, 'another machine');
  const later = new Date(Date.parse(plan.startedAt) + (AUTO_RESUME_HOURS + 1) * 3600_000);
  assert.equal(resumableRun(host.id, request, later), undefined, 'too old to resume by itself');
});
