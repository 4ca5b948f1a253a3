import { test } from 'node:test';
import assert from 'node:assert/strict';
import { join } from 'node:path';
import { readFileSync } from 'node:fs';
import { Summary } from '../../../../schema/index.ts';
import { librariesView, openSSLReferences } from './view.ts';
import { configText } from './words.ts';
import { openSSLOnly } from '../data.ts';

const fixture = Summary.parse(JSON.parse(readFileSync(join(import.meta.dirname, '../../../tests/fixtures/data/summary.json'), 'utf8')));

test('OpenSSL references: newest 3.x LTS, newest 3.x and newest release, each build once', () => {
  const b = (version: string) => ({ version, series: version.split('.').slice(0, 2).join('.') });
  assert.deepEqual(openSSLReferences([b('3.0.22'), b('3.4.1'), b('3.5.7'), b('3.6.3'), b('4.0.3'), { version: '1.1.1w', series: '1.1.1' }]), [
    { version: '3.5.7', role: 'newest 3.x LTS' },
    { version: '3.6.3', role: 'newest 3.x' },
    { version: '4.0.3', role: 'newest release' },
  ]);
  assert.deepEqual(openSSLReferences([b('3.5.7'), b('3.4.1')]), [{ version: '3.5.7', role: 'newest 3.x LTS, newest 3.x' }]);
  assert.deepEqual(openSSLReferences([]), []);
});

test('configurations in words, shared parameters left out', () => {
  const params = { proto: '1.3', cert: 'ecdsa-p256', clientGroups: 'X25519', serverGroups: 'X25519', resume: 'ticket', side: 'server', threads: 1 };
  assert.equal(configText(params), 'TLS 1.3, ECDSA P-256 certificate, groups X25519, resumed with a ticket, server side, 1 thread');
  assert.equal(configText(params, ['proto', 'cert', 'clientGroups', 'serverGroups', 'threads']), 'resumed with a ticket, server side');
  assert.equal(configText({ ...params, threads: 4 }, ['proto', 'cert', 'clientGroups', 'serverGroups']), 'resumed with a ticket, server side, 4 threads');
  assert.equal(configText({ clientGroups: 'default', serverGroups: 'X25519' }), 'client default groups, server groups X25519');
});

test('the view of the fixture: OpenSSL references of the libraries run, every other library build, an unsupported cell with its reason', () => {
  const [v, ...rest] = librariesView(fixture);
  assert.equal(rest.length, 0);
  assert.deepEqual(
    v!.columns.map((c) => c.slug),
    ['3.5.7', 'aws-lc-5.12.0', 'boringssl-44-boring-sys-5.4.0', 'wolfssl-5.9.4', 'wolfssl-5.9.4-no-perf-options'],
  );
  assert.deepEqual(
    v!.sections.map((s) => s.id),
    ['cpu', 'instructions', 'heap', 'ctx', 'clienthello', 'aead'],
  );
  const cpu = v!.sections[0]!;
  const boring = v!.columns.findIndex((c) => c.library === 'boringssl');
  const stateful = cpu.rows.find((r) => r.key.includes('resume=session-id'))!;
  assert.equal(stateful.cells[boring]!.status, 'unsupported');
  assert.match(stateful.cells[boring]!.reason!, /stateful/);
  for (const r of cpu.rows) for (const [i, e] of r.cells.entries()) if (i > 0 && e?.status === 'measured') assert.equal(e.vsOpenSSL?.against, '3.5.7', r.key);
  assert.equal(v!.defaults.find((d) => d.column.library === 'boringssl')!.keyShares, 'X25519:32');
  assert.ok(
    v!.columns.every((c) => c.build !== null),
    'every column has its build record',
  );
});

test('no other library measured: no view (the page says not measured yet); the OpenSSL pages never see other libraries', () => {
  assert.deepEqual(librariesView(openSSLOnly(fixture)), []);
  assert.deepEqual(librariesView(null), []);
  const o = openSSLOnly(fixture);
  assert.ok(o.entries.length > 0 && o.entries.every((e) => e.library === 'openssl'));
  assert.ok(o.builds.every((b) => b.library === 'openssl'));
});

test('thread scaling: configurations run with more threads are shown at every thread count, measure named in the row', () => {
  const base = fixture.entries.filter(
    (e) =>
      e.benchmark === 'handshake' &&
      e.metric === 'cpu-per-handshake' &&
      e.params.side === 'server' &&
      e.params.resume === 'none' &&
      e.params.clientCtx === 'shared',
  );
  const one = base.find((e) => e.library === 'aws-lc')!;
  assert.ok(one, 'the fixture has a single-threaded AWS-LC server CPU entry');
  const sameConfig = base.filter((e) => e.key === one.key);
  const twoThreads = sameConfig.map((e) => ({ ...e, key: e.key.replace('threads=1', 'threads=2'), params: { ...e.params, threads: 2 } }));
  const wall = twoThreads.map((e) => ({
    ...e,
    metric: 'handshakes-per-second-wall',
    key: e.key.replace('cpu-per-handshake', 'handshakes-per-second-wall').replace('side=server', 'side=both'),
    params: { ...e.params, side: 'both' },
  }));
  const [v] = librariesView({ ...fixture, entries: [...fixture.entries, ...twoThreads, ...wall] });
  const threads = v!.sections.find((s) => s.id === 'threads')!;
  assert.ok(threads, 'a thread-scaling section');
  assert.deepEqual(v!.sections.map((s) => s.id).slice(0, 2), ['cpu', 'threads']);
  const labels = threads.rows.map((r) => r.label);
  assert.ok(
    labels.some((l) => /^CPU per handshake: .*server side, 1 thread$/.test(l)),
    labels.join(' | '),
  );
  assert.ok(
    labels.some((l) => /^CPU per handshake: .*server side, 2 threads$/.test(l)),
    labels.join(' | '),
  );
  assert.ok(
    labels.some((l) => /^Handshakes per wall second: .*2 threads$/.test(l)),
    labels.join(' | '),
  );
  // the single-threaded CPU table keeps only one thread
  assert.ok(v!.sections[0]!.rows.every((r) => !r.key.includes('threads=2')));
});

test('at a glance: one bar per build for the same pinned work, the comparison as a note, the extremes named', () => {
  const key =
    'handshake/cpu-per-handshake[cert=ecdsa-p256,clientCtx=shared,clientGroups=X25519,proto=1.3,resume=none,serverGroups=X25519,side=server,threads=1]';
  const libRun = fixture.entries.find((e) => e.library !== 'openssl')!.runId;
  const ref = fixture.entries.find((e) => e.key === key && e.library === 'openssl' && e.version === '3.5.7' && e.variant === 'default')!;
  assert.ok(ref, 'the fixture has OpenSSL 3.5.7 for the key');
  const ossl = { ...ref, runId: libRun };
  const lib = (library: 'aws-lc' | 'wolfssl', version: string, variant: string, ratio: number, verdict: 'lower' | 'higher' | 'no-difference-shown') => ({
    ...ossl,
    library,
    version,
    variant,
    series: version.split('.').slice(0, 2).join('.'),
    stats: { ...ossl.stats!, median: ossl.stats!.median * ratio },
    vsOpenSSL: { against: '3.5.7', ratio, pairing: 'paired-rounds' as const, pairs: 6, interval: null, verdict },
  });
  const extra = [
    ossl,
    lib('aws-lc', '5.12.0', 'default', 0.6, 'lower'),
    lib('wolfssl', '5.9.4', 'default', 0.98, 'no-difference-shown'),
    lib('wolfssl', '5.9.4', 'no-perf-options', 3, 'higher'),
  ];
  const entries = [
    ...fixture.entries.filter((e) => !(e.key === key && extra.some((x) => x.library === e.library && x.version === e.version && x.variant === e.variant))),
    ...extra,
  ];
  const [v] = librariesView({ ...fixture, entries });
  const g = v!.glance.find((x) => x.id === 'server-cpu')!;
  assert.ok(g, 'a server CPU glance');
  assert.equal(g.bars.length, v!.columns.length);
  const bar = (slug: string) => g.bars.find((b) => b.column.slug === slug)!;
  assert.equal(bar('3.5.7').note, null);
  assert.equal(bar('aws-lc-5.12.0').note, '−40.0% vs 3.5.7, lower (better)');
  assert.equal(bar('aws-lc-5.12.0').tone, 'better');
  assert.equal(bar('wolfssl-5.9.4').note, 'no difference shown vs 3.5.7');
  assert.equal(bar('boringssl-44-boring-sys-5.4.0').value, null);
  assert.equal(bar('boringssl-44-boring-sys-5.4.0').missing, 'not measured');
  assert.equal(g.best?.column.slug, 'aws-lc-5.12.0');
  assert.equal(g.worst?.column.slug, 'wolfssl-5.9.4-no-perf-options');
  assert.ok(Math.abs(bar('aws-lc-5.12.0').value! - 0.6 * ossl.stats!.median) < 1e-9);
});

test('verification cost: chain minus the no-verification control of the same build and run; another run is not subtracted', () => {
  const counts = fixture.entries.filter((e) => e.benchmark === 'handshake' && e.metric === 'instructions-per-handshake' && e.status === 'measured');
  const chain = counts.filter((e) => e.key === counts[0]!.key);
  assert.ok(chain.length >= 2, 'the fixture has instruction counts of several builds for one configuration');
  const control = chain.map((e, i) => ({
    ...e,
    key: e.key.replace('side=both', 'side=both,verify=none'),
    params: { ...e.params, verify: 'none' },
    stats: { ...e.stats!, median: e.stats!.median - 1000 * (i + 1) },
    // the second build's control comes from another run: no difference across runs
    runId: i === 1 ? 'another-run' : e.runId,
  }));
  const [v] = librariesView({ ...fixture, entries: [...fixture.entries, ...control] });
  const cost = v!.verificationCosts.find((c) => c.metric === 'instructions-per-handshake')!;
  assert.ok(cost, 'a cost row for the instruction counts');
  assert.doesNotMatch(cost.label, /verify/, 'the row is named by the configuration both figures share');
  const byColumn = (e: (typeof chain)[number]) =>
    cost.cells[v!.columns.findIndex((c) => c.library === e.library && c.version === e.version && c.variant === e.variant)]!;
  const firstCell = byColumn(chain[0]!);
  assert.equal('cost' in firstCell ? firstCell.cost : null, 1000);
  const other = byColumn(chain[1]!);
  assert.ok('missing' in other && /no chain figure in run another-run/.test(other.missing), JSON.stringify(other));
});
