import assert from 'node:assert/strict';
import { test } from 'node:test';
import { runAttrs, runDate, splitByRun } from './runs.ts';

const row = (name: string, host: string, runId: string, method = 'cpu-time-client') => ({ name, host, runId, method });
const split = (rows: ReturnType<typeof row>[]) =>
  splitByRun(rows, (r) => r).map((p) => ({ host: p.host, run: p.timingRun, main: p.main, rows: p.rows.map((r) => r.name) }));

test('timing rows of another run get a table of their own; the main one is the run with most rows', () => {
  // the P-256 client case: 3.4.0 measured in the quick run 2b60, the rest in the full run e33c
  const rows = [row('3.3.2', 'h', 'e33c'), row('3.4.0', 'h', '2b60'), row('3.4.1', 'h', 'e33c'), row('3.5.7', 'h', 'e33c')];
  assert.deepEqual(split(rows), [
    { host: 'h', run: 'e33c', main: true, rows: ['3.3.2', '3.4.1', '3.5.7'] },
    { host: 'h', run: '2b60', main: false, rows: ['3.4.0'] },
  ]);
});

test('ties go to the newest run (a run id starts with its UTC start time)', () => {
  const rows = [row('a', 'h', '20261123T003400Z-full-e33c'), row('b', 'h', '20261123T075524Z-quick-2b60')];
  assert.deepEqual(
    split(rows).map((p) => p.rows),
    [['b'], ['a']],
  );
});

test('deterministic rows of several runs of one host stay together in the main table', () => {
  const rows = [row('ins-1', 'h', 'r1', 'instruction-count'), row('cpu', 'h', 'r2'), row('ins-2', 'h', 'r3', 'instruction-count')];
  assert.deepEqual(split(rows), [{ host: 'h', run: 'r2', main: true, rows: ['ins-1', 'cpu', 'ins-2'] }]);
  assert.deepEqual(split(rows.filter((r) => r.method !== 'cpu-time-client')), [{ host: 'h', run: null, main: true, rows: ['ins-1', 'ins-2'] }]);
});

test('no part ever holds two hosts', () => {
  const rows = [row('a', 'h1', 'r1', 'wire-bytes'), row('b', 'h2', 'r1', 'wire-bytes'), row('c', 'h1', 'r2', 'wire-bytes')];
  assert.deepEqual(split(rows), [
    { host: 'h1', run: null, main: true, rows: ['a', 'c'] },
    { host: 'h2', run: null, main: true, rows: ['b'] },
  ]);
  assert.deepEqual(split([]), []);
});

test('what a table declares: its runs, hosts, and the runs of its timing rows', () => {
  assert.deepEqual(runAttrs([row('a', 'h', 'r2'), row('b', 'h', 'r1', 'heap-bytes'), row('c', 'h', 'r2')]), {
    'data-runs': 'r1 r2',
    'data-hosts': 'h',
    'data-timing': 'true',
    'data-timing-runs': 'r2',
  });
  assert.deepEqual(runAttrs([row('b', 'h', 'r1', 'heap-bytes')]), {
    'data-runs': 'r1',
    'data-hosts': 'h',
    'data-timing': undefined,
    'data-timing-runs': undefined,
  });
  assert.equal(runDate('20261123T075524Z-quick-2b60'), '2026-11-23 07:55 UTC');
  assert.equal(runDate('odd'), 'odd');
});
