import assert from 'node:assert/strict';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, test } from 'node:test';
import { changeRows, loadMasterWatches, unmeasuredNights } from './master-watch.ts';

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
  assert.equal(unmeasuredNights(f!.watch), 1);
});

test('master nights: a file filed under another machine fails the build', () => {
  mkdirSync(join(root, 'bad', 'box.b'), { recursive: true });
  writeFileSync(join(root, 'bad', 'box.b', 'nights.json'), JSON.stringify(watch('box.a')));
  assert.throws(() => loadMasterWatches(join(root, 'bad')), /measured on box\.a, filed under box\.b/);
});
