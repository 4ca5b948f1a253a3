import assert from 'node:assert/strict';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, test } from 'node:test';
import { changeRows, loadMasterWatches, unmeasuredFigures } from './master-watch.ts';

const root = mkdtempSync(join(tmpdir(), 'master-site-'));
after(() => rmSync(root, { recursive: true, force: true }));
const c = (n: number) => n.toString(16).padStart(40, '0');
const night = (n: number, value: number | null, changes: unknown[] = []) => ({
  at: `2025-01-0${n}T00:00:00Z`,
  replay: true,
  commit: c(n),
  subject: `s${n}`,
  commitDate: `2025-01-0${n}T00:00:00Z`,
  values: { m: value },
  changes,
});
const watch = (host: string) => ({
  repo: 'https://github.com/openssl/openssl',
  ref: 'master',
  host: { id: host, cpuModel: 'x' },
  threshold: 0.002,
  metrics: [{ id: 'm', what: 'instructions the client spends', unit: 'instructions' }],
  nights: [
    night(1, 100),
    night(2, 120, [{ metric: 'm', fromCommit: c(1), before: 100, after: 120, report: null, culprits: [], unresolved: 1 }]),
    night(3, null),
    night(4, 90, [
      {
        metric: 'm',
        fromCommit: c(2),
        before: 120,
        after: 90,
        report: 'r.json',
        culprits: [{ commit: c(4), subject: 'x', before: 120, after: 90 }],
        unresolved: 0,
      },
    ]),
  ],
});

test('master nights: changes newest first in words, nights that could not be measured counted', () => {
  mkdirSync(join(root, 'ok', 'box.a'), { recursive: true });
  writeFileSync(join(root, 'ok', 'box.a', 'nights.json'), JSON.stringify(watch('box.a')));
  const [f] = loadMasterWatches(join(root, 'ok'));
  const rows = changeRows(f!.watch);
  assert.deepEqual(
    rows.map((r) => [r.night.commit, r.what]),
    [
      [c(4), 'instructions the client spends'],
      [c(2), 'instructions the client spends'],
    ],
  );
  assert.deepEqual(unmeasuredFigures(f!.watch), [{ what: 'instructions the client spends', reason: 'no reason recorded', dates: ['2025-01-03'] }]);
});

test('master nights: figures that could not be measured, grouped by figure and by why, with their dates', () => {
  const failed = (n: number, reason: string) => ({ ...night(n, null), reasons: { m: reason } });
  const w = {
    ...watch('box.c'),
    nights: [
      failed(1, 'failed: handshake TLS 1.3, new: exit 139: Segmentation fault'),
      failed(2, 'failed: handshake TLS 1.3, new: exit 139: Segmentation fault'),
      night(3, 100),
      failed(4, 'does not build: make exited 2'),
      failed(5, 'failed: exit 134: free(): invalid pointer\nAborted'),
    ],
  };
  mkdirSync(join(root, 'why', 'box.c'), { recursive: true });
  writeFileSync(join(root, 'why', 'box.c', 'nights.json'), JSON.stringify(w));
  const [f] = loadMasterWatches(join(root, 'why'));
  assert.deepEqual(unmeasuredFigures(f!.watch), [
    { what: 'instructions the client spends', reason: 'failed: handshake TLS 1.3, new: exit 139: Segmentation fault', dates: ['2025-01-01', '2025-01-02'] },
    { what: 'instructions the client spends', reason: 'does not build: make exited 2', dates: ['2025-01-04'] },
    { what: 'instructions the client spends', reason: 'failed: exit 134: free(): invalid pointer', dates: ['2025-01-05'] },
  ]);
});

test('master nights: a file filed under another machine fails the build', () => {
  mkdirSync(join(root, 'bad', 'box.b'), { recursive: true });
  writeFileSync(join(root, 'bad', 'box.b', 'nights.json'), JSON.stringify(watch('box.a')));
  assert.throws(() => loadMasterWatches(join(root, 'bad')), /measured on box\.a, filed under box\.b/);
});
