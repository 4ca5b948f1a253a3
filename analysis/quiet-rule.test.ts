import { test } from 'node:test';
import assert from 'node:assert/strict';
import type { Run } from '../schema/index.ts';
import { makeHostSnapshot } from '../schema/test-data.ts';
import { summarizeEvidence } from '../runner/quiet/evidence.ts';
import { notQuietReasons, quietReasons } from './quiet-rule.ts';

const snap = makeHostSnapshot('2026-11-27T23:00:00.000Z', { windowSeconds: 10, loadAverage: [0.1, 0.1, 0.1] });
const ok = { ...snap, quiet: true, reasons: [] as string[] };
const loud = { ...snap, quiet: false, reasons: ['steal 3%'] };
const rounds = [0, 1, 2].map((round) => ({ ...ok, round }));
const base = { exclusive: true, before: ok, rounds, deterministic: [{ ...ok, round: 1 }] };

test('the quiet rule names each place the host was loud; only measured rounds and the deterministic phase decide', () => {
  assert.deepEqual(notQuietReasons(base, [1, 2], true), []);
  assert.deepEqual(notQuietReasons({ ...base, rounds: [{ ...loud, round: 0 }, ...rounds.slice(1)] }, [1, 2]), [], 'a loud warm-up round');
  assert.deepEqual(notQuietReasons({ ...base, exclusive: false }, [1, 2]), ['did not hold the host measurement lock for the whole run']);
  assert.deepEqual(notQuietReasons({ ...base, before: loud }, [1, 2]), ['before the first round: steal 3%']);
  assert.deepEqual(notQuietReasons({ ...base, rounds: rounds.slice(0, 2) }, [1, 2]), ['round 2: no quiet-host evidence']);
  assert.deepEqual(notQuietReasons({ ...base, rounds: [rounds[0]!, { ...loud, round: 1 }, rounds[2]!] }, [1, 2]), ['round 1: steal 3%']);
  const window = { ...snap, quiet: false, reasons: ['other processes 40% of a CPU'] };
  assert.deepEqual(
    notQuietReasons({ ...base, rounds: [rounds[0]!, { ...ok, round: 1, quiet: false, windows: [window] }, rounds[2]!] }, [1, 2]),
    [`round 1, window ending ${snap.at}: other processes 40% of a CPU`],
    'a loud window of a round that names none',
  );
  assert.deepEqual(notQuietReasons({ ...base, rounds: [rounds[0]!, { ...ok, round: 1, quiet: false }, rounds[2]!] }, [1, 2]), ['round 1: not quiet']);
  assert.deepEqual(notQuietReasons({ ...base, deterministic: [{ ...loud, round: 1 }] }, [1, 2]), ['deterministic phase: steal 3%']);
  assert.deepEqual(notQuietReasons({ ...base, deterministic: [] }, [1, 2], true), ['deterministic phase: no quiet-host evidence']);
  assert.deepEqual(notQuietReasons({ ...base, deterministic: [] }, [1, 2], false), [], 'a phase that reused every result');
});

test("the runner's verdict and the aggregation's reasons follow the same rule", () => {
  const cases = [
    base,
    { ...base, exclusive: false },
    { ...base, before: loud },
    { ...base, rounds: [{ ...loud, round: 0 }, ...rounds.slice(1)] },
    { ...base, rounds: [rounds[0]!, { ...loud, round: 1 }, rounds[2]!] },
    { ...base, deterministic: [{ ...loud, round: 1 }] },
  ];
  for (const c of cases) {
    const evidence = summarizeEvidence({}, c.exclusive, c.before, c.rounds, [1, 2], [], c.deterministic, true);
    const run = { quiet: evidence, plan: { warmupRounds: 1 } } as unknown as Run;
    assert.equal(evidence.quiet, quietReasons(run).length === 0, JSON.stringify(quietReasons(run)));
  }
});
