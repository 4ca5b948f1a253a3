import assert from 'node:assert/strict';
import { test } from 'node:test';
import { bisectReportName } from '../../schema/index.ts';
import { countBuild, functionChanges, parseMetric } from './bisect-cli.ts';

test('metrics: instructions and heap per side, with a clear error for anything else', () => {
  const i = parseMetric('handshake-instructions:client:ecdsa-p256:default');
  assert.ok(i.kind !== 'series');
  assert.deepEqual([i.kind, i.side, i.unit, i.cfg.mode, i.cfg.clientGroups], ['instructions', 'client', 'instructions', 'handshake', 'default']);
  const h = parseMetric('handshake-heap:server:rsa2048:X25519');
  assert.ok(h.kind !== 'series');
  assert.deepEqual([h.kind, h.side, h.unit, h.cfg.mode, h.cfg.cert, h.cfg.serverGroups], ['heap', 'server', 'bytes', 'memory', 'rsa2048', 'X25519']);
  assert.throws(() => parseMetric('handshake-heap:both:rsa2048:X25519'), /expected handshake-instructions.*handshake-heap/);
  assert.throws(() => parseMetric('handshake-instructions:client:dsa:default'), /unknown certificate "dsa"/);
});

test('metrics: any deterministic series the runner produces, by its key; a timed or unknown one is refused with why', () => {
  const key = 'known-issues/instructions-per-op[encoding=pkcs8-der,key=rsa2048,op=pkey-der]';
  const m = parseMetric(key);
  assert.ok(m.kind === 'series');
  assert.deepEqual([m.key, m.unit], [key, 'instructions']);
  assert.match(m.what, /PKCS#8|pkcs8/i);
  const heap = parseMetric('known-issues/heap-per-connection[cipher=PSK-AES128-GCM-SHA256,op=dtls-handshake,proto=dtls1.2,side=server]');
  assert.deepEqual([heap.kind, heap.unit], ['series', 'bytes']);
  assert.throws(() => parseMetric('known-issues/cpu-per-op[op=ctx-new]'), /differs from run to run: a bisection needs a deterministic figure/);
  assert.throws(
    () => parseMetric('known-issues/instructions-per-op[op=nope]'),
    /unknown metric.*series of known-issues\/instructions-per-op: known-issues\/instructions-per-op\[/,
  );
  assert.throws(() => parseMetric('nothing'), /unknown metric "nothing": expected handshake-instructions/);
});

test('function changes: largest change first, new and vanished functions included, unchanged ones left out', () => {
  const before = new Map([
    ['a', 100],
    ['b', 50],
    ['gone', 30],
    ['same', 7],
  ]);
  const after = new Map([
    ['a', 110],
    ['b', 10],
    ['new', 25],
    ['same', 7],
  ]);
  assert.deepEqual(functionChanges(before, after), [
    { name: 'b', before: 50, after: 10 },
    { name: 'gone', before: 30, after: 0 },
    { name: 'new', before: 0, after: 25 },
    { name: 'a', before: 100, after: 110 },
  ]);
  assert.equal(functionChanges(before, after, 2).length, 2);
});

test('report names: release refs without the tag prefix, the metric as a file-safe slug', () => {
  const end = (ref: string) => ({ ref, commit: '0'.repeat(40), version: '3.4.0', series: '3.4' });
  const name = bisectReportName({
    from: end('openssl-3.4.0'),
    to: end('openssl-3.5.0'),
    metric: { id: 'handshake-instructions:client:ecdsa-p256:default', what: '', unit: '' },
  });
  assert.equal(name, '3.4.0..3.5.0-handshake-instructions-client-ecdsa-p256-default.json');
  // a catalogued release goes by its version whatever its tag's spelling (1.1.1's tags are OpenSSL_1_1_1w)
  const release = (ref: string, version: string) => ({ ...end(ref), version, release: { version, sameFiles: 2099, generatedFiles: 0 } });
  const metric = { id: 'handshake-instructions:client:ecdsa-p256:default', what: '', unit: '' };
  assert.equal(
    bisectReportName({ from: release('OpenSSL_1_1_1w', '1.1.1w'), to: release('openssl-3.0.8', '3.0.8'), metric }),
    '1.1.1w..3.0.8-handshake-instructions-client-ecdsa-p256-default.json',
  );
  assert.equal(
    bisectReportName({ from: end('OpenSSL_1_1_1w'), to: end('abc123'), metric }),
    'OpenSSL_1_1_1w..abc123-handshake-instructions-client-ecdsa-p256-default.json',
  );
});

test('a commit is built with the options its own Configure knows: no-docs only once Configure has it', async () => {
  const { optionsFor } = await import('./commit-build.ts');
  // "docs" elsewhere in Configure (a build-file key) does not make it an option
  const before = 'my @disablables = (\n    "module",\n    "tests",\n    "shared",\n);\n\n"docs" => [],';
  const after = before.replace('"module",', '"module",\n    "docs",');
  assert.ok(!optionsFor(before, '3.2').includes('no-docs'));
  assert.ok(optionsFor(after, '3.2').includes('no-docs'));
  assert.ok(optionsFor(before, '3.2').includes('no-module') && optionsFor(before, '3.2').includes('no-tests'));
});

test('build counts: a build from the cache brings the time it took when an earlier run built it', () => {
  const stats = { built: 0, cached: 0, failed: 0, secondsBuilding: 0 };
  countBuild(stats, { cached: false, record: { buildSeconds: 120 } }, 125);
  assert.deepEqual(stats, { built: 1, cached: 0, failed: 0, secondsBuilding: 125 });
  countBuild(stats, { cached: true, record: { buildSeconds: 94 } }, 0.2);
  countBuild(stats, { cached: true, record: { buildSeconds: 100 } }, 0.1);
  assert.deepEqual(stats, { built: 1, cached: 2, failed: 0, secondsBuilding: 125, secondsBuildingEarlier: 194 });
});
