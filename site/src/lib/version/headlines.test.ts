import { test } from 'node:test';
import assert from 'node:assert/strict';
import type { SummaryEntry } from '../../../../schema/index.ts';
import { headlines } from './headlines.ts';
import { groupEntries } from './groups.ts';
import { entriesOf } from '../model.ts';
import { entry, fixture } from './test-data.ts';

test('headline figures of the fixture: handshake CPU per side with defaults and pinned X25519', () => {
  const entries = entriesOf(fixture, 'obs-fixture-host', '3.5.7', 'default');
  const h = headlines(entries);
  assert.equal(h.cert, 'ecdsa-p256');
  const titles = h.rows.map((r) => r.title);
  for (const t of [
    'Handshake CPU time, client side, library-default groups',
    'Handshake CPU time, server side, library-default groups',
    'Handshake CPU time, client side, groups pinned to X25519',
    'Handshake CPU time, server side, groups pinned to X25519',
  ])
    assert.ok(titles.includes(t), `${t} missing from ${titles.join(' | ')}`);
  assert.ok(
    titles.some((t) => t.startsWith('AES-128-GCM seal')),
    'the AEAD program is a headline',
  );
});

test('a version measured only by the known-issues run opens with its TLS 1.2 handshake and the complaint operations', () => {
  const ki = (metric: string, params: Record<string, string | number>, unit: SummaryEntry['unit'] = 'us/op') =>
    entry({ benchmark: 'known-issues', metric, unit, params, label: `${metric} ${JSON.stringify(params)}` });
  const tls12 = {
    proto: '1.2',
    cert: 'rsa2048',
    clientGroups: 'default',
    serverGroups: 'default',
    resume: 'none',
    threads: 1,
    clientCtx: 'shared',
    cipher: 'AES128-SHA',
  };
  const entries = [
    entry({ metric: 'cpu-per-handshake', params: { ...tls12, side: 'client' }, label: 'client' }),
    entry({ metric: 'cpu-per-handshake', params: { ...tls12, side: 'server' }, label: 'server' }),
    ki('cpu-per-op', { op: 'pkey-pem', key: 'rsa2048', encoding: 'pkcs8-pem' }),
    ki('cpu-per-op', { op: 'ca-bundle', certificates: 200 }),
    ki('cpu-per-op', { op: 'aead-reinit', cipher: 'aes-128-gcm', bytes: 16 }),
    ki('instructions-per-op', { op: 'pkey-pem', key: 'rsa2048', encoding: 'pkcs8-pem' }, 'instructions'),
    ki('heap-per-connection', { op: 'dtls-handshake', side: 'server' }, 'bytes'),
    // bytes on the wire of a TLS 1.3 handshake with pinned groups: after the handshake CPU, never before it
    entry({
      metric: 'bytes-sent',
      unit: 'bytes',
      method: 'wire-bytes',
      params: {
        proto: '1.3',
        cert: 'ecdsa-p256',
        clientGroups: 'P-256',
        serverGroups: 'P-256',
        resume: 'none',
        threads: 1,
        clientCtx: 'shared',
        side: 'client',
      },
      label: 'bytes',
    }),
  ];
  assert.deepEqual(
    headlines(entries).rows.map((r) => r.title),
    [
      'Handshake CPU time, client side, TLS 1.2 AES128-SHA, RSA-2048 certificate',
      'Handshake CPU time, server side, TLS 1.2 AES128-SHA, RSA-2048 certificate',
      'Bytes sent per handshake, client side, groups P-256',
      'Decoding an RSA-2048 private key, PKCS#8 PEM',
      'Loading a CA bundle of 200 certificates',
      'AES-128-GCM seal of a 16-byte record, context keyed once',
      'DTLS heap per connection, server side',
    ],
  );
  assert.equal(groupEntries(entries).find((g) => g.benchmark === 'known-issues')!.title, 'Known issues: the operations behind reported complaints');
  // "<measure>: <operation>" labels share one table per measure, each row naming its operation
  const locks = ['pkey-pem', 'ca-bundle'].map((op) =>
    entry({
      benchmark: 'known-issues',
      metric: 'lock-calls-per-op',
      unit: 'count',
      params: { op, lock: 'library-locks' },
      label: `Library lock acquisitions (read + write) per call: ${op} (callgrind call counts)`,
    }),
  );
  const m = groupEntries(locks)[0]!.measures;
  assert.deepEqual(
    m.map((x) => [x.head, x.rowLabels]),
    [['Library lock acquisitions (read + write) per call', ['ca-bundle (callgrind call counts)', 'pkey-pem (callgrind call counts)']]],
  );
  // a version with the plain TLS 1.3 handshake opens with it; the complaint operations stay in the full tables
  const tls13 = { proto: '1.3', cert: 'ecdsa-p256', clientGroups: 'default', serverGroups: 'default', resume: 'none', threads: 1, clientCtx: 'shared' };
  const full = [...entries, entry({ metric: 'cpu-per-handshake', params: { ...tls13, side: 'client' }, label: 'client 1.3' })];
  assert.deepEqual(
    headlines(full).rows.map((r) => r.title),
    ['Handshake CPU time, client side, library-default groups', 'Bytes sent per handshake, client side, groups P-256'],
  );
});

test("a version page's headline rows follow a visitor's questions: handshake CPU per side, handshakes per second, bulk, heap, bytes, then the rest", () => {
  const h = headlines(entriesOf(fixture, 'obs-fixture-host', '3.5.7', 'default'));
  const kind = (t: string) =>
    t.startsWith('Handshake CPU time')
      ? 0
      : t.startsWith('Handshakes per')
        ? 1
        : / seal, /.test(t)
          ? 2
          : t.startsWith('Heap')
            ? 3
            : t.startsWith('Bytes')
              ? 4
              : 5;
  const kinds = h.rows.map((r) => kind(r.title));
  assert.deepEqual(
    kinds,
    [...kinds].sort((a, b) => a - b),
    h.rows.map((r) => r.title).join(' | '),
  );
  for (const k of [0, 1, 2, 3] as const) assert.ok(kinds.includes(k), `no row of kind ${k}: ${h.rows.map((r) => r.title).join(' | ')}`);
  assert.notEqual(h.rows[0]!.title, 'SSL_CTX_new, one call');
});
