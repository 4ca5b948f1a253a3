import assert from 'node:assert/strict';
import { test } from 'node:test';
import { bisect, relativeDifference } from './bisect.ts';

/** A stand-in history: the figure of each commit from a list of (index, new value) steps; some commits do not build. */
function history(steps: [number, number][], unbuildable: number[] = [], start = 1000) {
  const calls: number[] = [];
  const value = (at: number) => steps.filter(([i]) => i <= at).reduce((_, [, v]) => v, start);
  const measure = async (at: number) => {
    calls.push(at);
    return unbuildable.includes(at) ? null : value(at);
  };
  return { measure, calls };
}
const differs = relativeDifference(0.001);

test('finds every step of a multi-step change, two of them in one half, each with its figures', async () => {
  const h = history([
    [137, 1100],
    [140, 1150],
    [700, 1050],
  ]);
  const r = await bisect(1000, h.measure, { differs, budget: 100 });
  assert.deepEqual(r.steps, [
    { at: 137, before: 1000, after: 1100 },
    { at: 140, before: 1100, after: 1150 },
    { at: 700, before: 1150, after: 1050 },
  ]);
  assert.deepEqual(r.unresolved, []);
  assert.ok(h.calls.length <= 3 * Math.ceil(Math.log2(1000)) + 2, `${h.calls.length} measurements`);
  assert.equal(new Set(h.calls).size, h.calls.length, 'no commit is measured twice');
});

test('no change between the ends: two measurements, no step', async () => {
  const h = history([]);
  const r = await bisect(500, h.measure, { differs, budget: 10 });
  assert.deepEqual([r.steps, r.unresolved, h.calls.length], [[], [], 2]);
});

test('a midpoint that does not build is replaced by its nearest buildable neighbour; the step is still exact', async () => {
  const h = history([[20, 2000]], [31, 32, 33, 15, 16]);
  const r = await bisect(64, h.measure, { differs, budget: 40 });
  assert.deepEqual(r.steps, [{ at: 20, before: 1000, after: 2000 }]);
  assert.ok(
    r.measured.some((m) => m.value === null),
    'the unbuildable commits are reported as measured without a figure',
  );
});

test('a step next to unbuildable commits is an unresolved range between the nearest buildable ones', async () => {
  const h = history([[21, 3000]], [19, 20, 21, 22]);
  const r = await bisect(40, h.measure, { differs, budget: 40 });
  assert.deepEqual(r.steps, []);
  assert.deepEqual(r.unresolved, [{ from: 18, to: 23, before: 1000, after: 3000, reason: 'unbuildable' }]);
});

test('the budget: open intervals are reported with the figures at their ends, and never more than the budget is measured', async () => {
  const h = history([
    [1234, 1500],
    [8000, 900],
  ]);
  const r = await bisect(10_000, h.measure, { differs, budget: 8 });
  assert.equal(h.calls.length, 8);
  assert.equal(r.steps.length, 0);
  assert.ok(r.unresolved.length >= 1 && r.unresolved.every((u) => u.reason === 'budget'));
  // together the open ranges hold the whole change
  const open = r.unresolved.reduce((s, u) => s + (u.after - u.before), 0);
  assert.equal(open, 900 - 1000);
});

test('an end that does not build: nothing else is measured', async () => {
  const h = history([[50, 5]], [0]);
  const r = await bisect(100, h.measure, { differs, budget: 50 });
  assert.deepEqual([r.first, r.steps, h.calls.length], [null, [], 2]);
});

test('a change and its reversal inside one interval are not seen (documented limit)', async () => {
  const h = history([
    [30, 2000],
    [40, 1000],
  ]);
  const r = await bisect(100, h.measure, { differs, budget: 50 });
  assert.deepEqual(r.steps, []);
});

test('a long series of commits that do not build costs a few probes, not one per commit', async () => {
  const broken = Array.from({ length: 200 }, (_, k) => 400 + k);
  const h = history([[300, 1500]], broken);
  const r = await bisect(1000, h.measure, { differs, budget: 60 });
  assert.deepEqual(r.steps, [{ at: 300, before: 1000, after: 1500 }]);
  const failed = r.measured.filter((m) => m.value === null).length;
  // out from the middle by 1, 2, 4 ... on both sides: about two probes per doubling of the broken stretch
  assert.ok(failed <= 2 * Math.ceil(Math.log2(broken.length)) + 1, `${failed} probes did not build`);
});

test('every committed bisection report parses, names its machine by its folder, and its steps add up as it says', async () => {
  const { readdirSync, readFileSync, existsSync } = await import('node:fs');
  const { join } = await import('node:path');
  const { BisectReport } = await import('../../schema/index.ts');
  const root = join(import.meta.dirname, '..', '..', 'data', 'bisect');
  if (!existsSync(root)) return;
  for (const machine of readdirSync(root))
    for (const f of readdirSync(join(root, machine))) {
      const r = BisectReport.parse(JSON.parse(readFileSync(join(root, machine, f), 'utf8')));
      assert.equal(r.host.id, machine, `${f}: measured on ${r.host.id}, filed under ${machine}`);
      const named = r.steps.reduce((s, x) => s + x.after - x.before, 0);
      if (r.explained !== null) assert.ok(Math.abs(r.explained - named / (r.last! - r.first!)) < 1e-9, `${f}: explained share`);
      for (const s of r.steps)
        assert.ok(
          r.measured.some((m) => m.value === s.after),
          `${f}: step ${s.commit} has a measured figure`,
        );
    }
});

test('a budget too small for every step names the largest moves first, wherever they lie on the path', async () => {
  // four small steps early on the path, one large step late: the large one is found with a budget that
  // a left-to-right search spends on the small ones
  const small: [number, number][] = [
    [100, 1010],
    [200, 1020],
    [300, 1030],
    [400, 1040],
  ];
  const h = history([...small, [9000, 2040]]);
  const r = await bisect(10_000, h.measure, { differs, budget: 20 });
  assert.ok(
    r.steps.some((s) => s.at === 9000 && s.before === 1040 && s.after === 2040),
    `the step of +1000 is named: ${JSON.stringify(r.steps)}`,
  );
  const open = r.unresolved.reduce((s, u) => s + Math.abs(u.after - u.before), 0);
  assert.ok(open <= 40, `what is left unresolved is the small steps' size at most (${open})`);
});
