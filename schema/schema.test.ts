// The rules the schema itself enforces beyond types: what every reader of data/ relies on.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { HostRegistry, Run, finite, safeId, shortText } from './index.ts';
import { makeTestRun } from '../scripts/fixtures/submissions/test-run.ts';

const issues = (r: { success: boolean; error?: { issues: { path: PropertyKey[]; message: string }[] } }) =>
  r.success ? [] : r.error!.issues.map((i) => `${i.path.join('.')}: ${i.message}`);

test('a run refers only to its own builds; a measured series has a measured iteration; an unmeasured one says why', () => {
  assert.deepEqual(issues(Run.safeParse(makeTestRun())), []);
  const run = makeTestRun();
  run.series.push(
    { ...structuredClone(run.series[0]!), buildId: 'not-in-builds' },
    { ...structuredClone(run.series[0]!), iterations: run.series[0]!.iterations.map((it) => ({ ...it, warmup: true })) },
    { ...structuredClone(run.series[0]!), status: 'failed', iterations: [] },
  );
  assert.deepEqual(issues(Run.safeParse(run)), [
    'series.1.buildId: unknown build id not-in-builds',
    'series.2.iterations: measured series without a measured iteration',
    'series.3.reason: failed series must say why',
  ]);
});

test('the warm-up a run chose: absent in older files (a whole round); a short one names the runs its task times came from, and only a short one', () => {
  const run = makeTestRun();
  assert.equal(run.plan.warmup, undefined);
  const withPlan = (plan: Partial<ReturnType<typeof makeTestRun>['plan']>) => issues(Run.safeParse({ ...run, plan: { ...run.plan, ...plan } }));
  assert.deepEqual(withPlan({ warmup: 'whole-round' }), []);
  assert.deepEqual(withPlan({ warmup: 'short', warmupTimesFrom: ['20261122T040846Z-full-b88e'] }), []);
  const rule = 'plan.warmupTimesFrom: a short warm-up says which runs its task times came from, and only a short one';
  assert.deepEqual(withPlan({ warmup: 'short' }), [rule]);
  assert.deepEqual(withPlan({ warmup: 'whole-round', warmupTimesFrom: ['20261122T040846Z-full-b88e'] }), [rule]);
  assert.deepEqual(withPlan({ warmupTimesFrom: ['20261122T040846Z-full-b88e'] }), [rule]);
});

test('numbers are finite; ids keep to a path-safe alphabet; free text carries no control characters', () => {
  for (const bad of [NaN, Infinity, -Infinity]) assert.equal(finite.safeParse(bad).success, false, String(bad));
  assert.equal(finite.safeParse(5e-324).success, true, "tiny but finite: plausibility is the validator's job");
  for (const bad of ['', '../etc', 'a/b', '.hidden', '-x', 'a b', 'x'.repeat(121)]) assert.equal(safeId.safeParse(bad).success, false, bad);
  for (const ok of ['obs-epyc9454p', '20261122T040846Z-full-b88e', 'A.b_c-1']) assert.equal(safeId.safeParse(ok).success, true, ok);
  assert.equal(shortText().safeParse('tab\tand\nnewline').success, true);
  for (const bad of ['bell\u0007', 'cr\r', 'esc\u001b[31m', 'del\u007f']) assert.equal(shortText().safeParse(bad).success, false, JSON.stringify(bad));
  assert.equal(shortText(5).safeParse('123456').success, false);
});

test('the host registry: one owner per host id (letter case ignored), owners are GitHub logins with their account ids', () => {
  const registry = (hosts: unknown[]) => HostRegistry.safeParse({ schemaVersion: 1, kind: 'host-registry', hosts });
  assert.deepEqual(
    issues(
      registry([
        { id: 'fast-box', owner: 'alice', ownerId: 1 },
        { id: 'arm-box', owner: 'bob-2', ownerId: 583231 },
      ]),
    ),
    [],
  );
  assert.deepEqual(
    issues(
      registry([
        { id: 'fast-box', owner: 'alice', ownerId: 1 },
        { id: 'Fast-Box', owner: 'mallory', ownerId: 2 },
      ]),
    ),
    ['hosts.1.id: host id Fast-Box is listed twice (letter case ignored)'],
  );
  for (const owner of ['-alice', 'alice-', 'al--ice', 'a'.repeat(40), 'alice smith', ''])
    assert.equal(registry([{ id: 'x', owner, ownerId: 1 }]).success, false, owner);
  // the login alone is not enough: a renamed login can be registered by someone else (issue 30 item 4)
  assert.equal(registry([{ id: 'x', owner: 'alice' }]).success, false, 'no account id');
  for (const ownerId of [0, -1, 1.5, '1']) assert.equal(registry([{ id: 'x', owner: 'alice', ownerId }]).success, false, String(ownerId));
});
