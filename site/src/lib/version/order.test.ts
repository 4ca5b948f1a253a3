import { test } from 'node:test';
import assert from 'node:assert/strict';
import { compareEntries } from './order.ts';
import { entry } from './test-data.ts';

test('rows read in a sensible order: TLS 1.3 before 1.2, new before resumed, one thread before many, defaults before pinned', () => {
  const rows = [
    entry({ params: { proto: '1.2', resume: 'none', threads: 1, clientGroups: 'default', side: 'client' } }),
    entry({ params: { proto: '1.3', resume: 'ticket', threads: 1, clientGroups: 'default', side: 'client' } }),
    entry({ params: { proto: '1.3', resume: 'none', threads: 4, clientGroups: 'default', side: 'client' } }),
    entry({ params: { proto: '1.3', resume: 'none', threads: 1, clientGroups: 'X25519', side: 'client' } }),
    entry({ params: { proto: '1.3', resume: 'none', threads: 1, clientGroups: 'default', side: 'client' } }),
  ];
  const sorted = [...rows].sort(compareEntries).map((e) => rows.indexOf(e));
  assert.deepEqual(sorted, [4, 3, 2, 1, 0]);
});

test('an AEAD page shows the CPU-time table it calls primary before the wall-clock one, per cipher', () => {
  const aead = (metric: string, algorithm: string) =>
    entry({ benchmark: 'aead', metric, params: { algorithm, operation: 'seal', bytes: 16384 }, label: metric });
  const sorted = [
    aead('aes-128-gcm-seal', 'aes-128-gcm'),
    aead('chacha20-poly1305-seal', 'chacha20-poly1305'),
    aead('aes-128-gcm-seal-cpu', 'aes-128-gcm'),
    aead('chacha20-poly1305-seal-cpu', 'chacha20-poly1305'),
  ].sort(compareEntries);
  assert.deepEqual(
    sorted.map((e) => e.metric),
    ['aes-128-gcm-seal-cpu', 'aes-128-gcm-seal', 'chacha20-poly1305-seal-cpu', 'chacha20-poly1305-seal'],
  );
});
