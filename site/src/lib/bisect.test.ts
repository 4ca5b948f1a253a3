import assert from 'node:assert/strict';
import { mkdtempSync, mkdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { test } from 'node:test';
import type { BisectReport } from '../../../schema/index.ts';
import { bisectEndName } from '../../../schema/index.ts';
import { accountedFor, figureNoun, loadBisections, unresolvedShare, waterfall } from './bisect.ts';

const id = (c: string) => c.repeat(40);
const report = (over: Partial<BisectReport> = {}): BisectReport => ({
  repo: 'https://github.com/nhorman/openssl',
  from: { ref: 'openssl-3.4.0', commit: id('a'), version: '3.4.0', series: '3.4', release: { version: '3.4.0', sameFiles: 10, generatedFiles: 2 } },
  to: { ref: 'openssl-3.5.0', commit: id('f'), version: '3.5.0', series: '3.5' },
  metric: { id: 'handshake-instructions:client:ecdsa-p256:default', what: 'instructions', unit: 'instructions' },
  threshold: 0.002,
  budget: 40,
  pathLength: 100,
  first: 1000,
  last: 1600,
  steps: [
    {
      commit: id('c'),
      subject: 'second',
      date: '2025-01-02T00:00:00Z',
      author: 'x',
      undone: false,
      measuredFrom: id('b'),
      measuredTo: id('c'),
      position: 60,
      before: 1100,
      after: 1500,
    },
    {
      commit: id('b'),
      subject: 'first',
      date: '2025-01-01T00:00:00Z',
      author: 'x',
      undone: false,
      measuredFrom: id('a'),
      measuredTo: id('b'),
      position: 10,
      before: 1000,
      after: 1100,
    },
  ],
  unresolved: [{ from: id('d'), to: id('e'), between: 7, position: 80, before: 1500, after: 1580, reason: 'budget' }],
  explained: 0.5 / 0.6,
  measured: [],
  builds: { built: 1, cached: 2, failed: 0, secondsBuilding: 60 },
  wallSeconds: 100,
  startedAt: '2026-11-26T00:00:00Z',
  harness: { gitCommit: id('0'), gitDirty: false, node: 'v24', revision: 2 },
  host: { id: 'obs-devbox-2c.intel-xeon-59b19e', cpuModel: 'Intel' },
  ...over,
});

test('the waterfall chains from one release to the next in path order, the remainder named, the ends from zero', () => {
  const rows = waterfall(report())!;
  assert.deepEqual(
    rows.map((r) => [r.kind, r.start, r.end]),
    [
      ['release', 0, 1000],
      ['step', 1000, 1100],
      ['step', 1100, 1500],
      ['unresolved', 1500, 1580],
      ['rest', 1580, 1600],
      ['release', 0, 1600],
    ],
  );
  assert.deepEqual([rows[0]!.label, rows.at(-1)!.label], ['3.4.0', '3.5.0']);
  assert.deepEqual([rows[1]!.label, rows[2]!.label], ['first', 'second']);
  // a backport on the older release's branch: the path undoes it, and the row says so
  const undone = report({ steps: report().steps.map((s) => ({ ...s, undone: s.subject === 'first' })) });
  assert.equal(waterfall(undone)![1]!.label, "undone (only on 3.4.0's branch): first");
  assert.ok(Math.abs(unresolvedShare(report())! - 80 / 600) < 1e-12);
});

test('what the named commits account for: a share of the change when it lies within it, else signed amounts beside the change', () => {
  assert.deepEqual(accountedFor(report()), { named: '83.3% of the change', unresolved: '13.3%', cell: '83.3%' });
  // one named commit that moved the figure up while the release-to-release change went down (as 3.1.4 -> 3.2.1's server heap)
  const against = report({
    first: 1000,
    last: 400,
    steps: [{ ...report().steps[1]!, before: 1000, after: 1100 }],
    unresolved: [{ from: id('d'), to: id('e'), between: 7, position: 80, before: 1100, after: 400, reason: 'budget' }],
    explained: 100 / -600,
  });
  assert.deepEqual(accountedFor(against), {
    named: '+100 instructions, against the direction of the whole change (−600 instructions)',
    unresolved: '−700 instructions',
    cell: '+100 of −600',
  });
  assert.equal(accountedFor(report({ last: 1000, explained: null })), null);
});

test('no remainder row when the steps add up; no waterfall when an end was not measured', () => {
  const exact = report({ unresolved: [], last: 1500 });
  assert.ok(!waterfall(exact)!.some((r) => r.kind === 'rest'));
  assert.equal(waterfall(report({ first: null })), null);
  assert.equal(bisectEndName({ ref: 'OpenSSL_1_1_1w', commit: id('a'), version: '1.1.1w', series: '1.1.1' }), '1.1.1w');
});

test('reports are read from data/bisect/<machine>/ and refused when filed under another machine or name', () => {
  const root = mkdtempSync(join(tmpdir(), 'bisect-site-'));
  try {
    const dir = join(root, 'obs-devbox-2c.intel-xeon-59b19e');
    mkdirSync(dir);
    writeFileSync(join(dir, '3.4.0..3.5.0-handshake-instructions-client-ecdsa-p256-default.json'), JSON.stringify(report()));
    assert.equal(loadBisections(root).length, 1);
    writeFileSync(join(dir, 'other-name.json'), JSON.stringify(report()));
    assert.throws(() => loadBisections(root), /should be named 3\.4\.0\.\.3\.5\.0-/);
    rmSync(join(dir, 'other-name.json'));
    mkdirSync(join(root, 'someone-else'));
    writeFileSync(join(root, 'someone-else', '3.4.0..3.5.0-handshake-instructions-client-ecdsa-p256-default.json'), JSON.stringify(report()));
    assert.throws(() => loadBisections(root), /filed under someone-else/);
  } finally {
    rmSync(root, { recursive: true, force: true });
  }
});

test('a version page finds the bisections into its series', async () => {
  const { bisectionsInto } = await import('./bisect.ts');
  const files = [{ machine: 'm', slug: 's', report: report() }];
  assert.equal(bisectionsInto(files, '3.5').length, 1);
  assert.equal(bisectionsInto(files, '3.4').length, 0);
});

test("a report's title names its figure: the heap, an instruction or call count, or the figure (wire bytes are not the heap)", () => {
  assert.equal(figureNoun({ id: 'handshake-heap:server:ecdsa-p256:X25519', unit: 'bytes' }), 'the heap');
  assert.equal(figureNoun({ id: 'known-issues/heap-per-connection[op=dtls-handshake,side=server]', unit: 'bytes' }), 'the heap');
  assert.equal(figureNoun({ id: 'handshake-instructions:client:ecdsa-p256:default', unit: 'instructions' }), 'the instruction count');
  assert.equal(figureNoun({ id: 'known-issues/instructions-per-op[op=ctx-new]', unit: 'instructions' }), 'the instruction count');
  assert.equal(figureNoun({ id: 'known-issues/lock-calls-per-op[lock=write-lock,op=handshake]', unit: 'count' }), 'the call count');
  assert.equal(figureNoun({ id: 'handshake/bytes-sent[side=client]', unit: 'bytes' }), 'the figure');
});
