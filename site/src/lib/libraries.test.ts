import { test } from 'node:test';
import assert from 'node:assert/strict';
import { join } from 'node:path';
import { readFileSync } from 'node:fs';
import { Summary } from '../../../schema/index.ts';
import { configText, librariesView, openSSLReferences } from './libraries.ts';
import { openSSLOnly } from './data.ts';

const fixture = Summary.parse(JSON.parse(readFileSync(join(import.meta.dirname, '../../tests/fixtures/data/summary.json'), 'utf8')));

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
  assert.equal(configText(params), 'TLS 1.3, ecdsa-p256, groups X25519, resumed (ticket), server');
  assert.equal(configText(params, ['proto', 'cert', 'clientGroups', 'serverGroups']), 'resumed (ticket), server');
  assert.equal(configText({ clientGroups: 'default', serverGroups: 'X25519' }), 'groups default → X25519');
});

test('the view of the fixture: OpenSSL references of the libraries run, every other library build, an unsupported cell with its reason', () => {
  const [v, ...rest] = librariesView(fixture);
  assert.equal(rest.length, 0);
  assert.deepEqual(v!.columns.map((c) => c.slug), ['3.5.7', 'aws-lc-5.12.0', 'boringssl-44-boring-sys-5.4.0', 'wolfssl-5.9.4', 'wolfssl-5.9.4-no-perf-options']);
  assert.deepEqual(v!.sections.map((s) => s.id), ['cpu', 'instructions', 'heap', 'ctx', 'clienthello', 'aead']);
  const cpu = v!.sections[0]!;
  const boring = v!.columns.findIndex((c) => c.library === 'boringssl');
  const stateful = cpu.rows.find((r) => r.key.includes('resume=session-id'))!;
  assert.equal(stateful.cells[boring]!.status, 'unsupported');
  assert.match(stateful.cells[boring]!.reason!, /stateful/);
  for (const r of cpu.rows) for (const [i, e] of r.cells.entries()) if (i > 0 && e?.status === 'measured') assert.equal(e.vsOpenSSL?.against, '3.5.7', r.key);
  assert.equal(v!.defaults.find((d) => d.column.library === 'boringssl')!.keyShares, 'X25519:32');
  assert.ok(v!.columns.every((c) => c.build !== null), 'every column has its build record');
});

test('no other library measured: no view (the page says not measured yet); the OpenSSL pages never see other libraries', () => {
  assert.deepEqual(librariesView(openSSLOnly(fixture)), []);
  assert.deepEqual(librariesView(null), []);
  const o = openSSLOnly(fixture);
  assert.ok(o.entries.length > 0 && o.entries.every((e) => e.library === 'openssl'));
  assert.ok(o.builds.every((b) => b.library === 'openssl'));
});
