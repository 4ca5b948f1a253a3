import { test } from 'node:test';
import assert from 'node:assert/strict';
import { splitAround, splitLabels } from './labels.ts';
import { groupEntries } from './groups.ts';
import { entry } from './test-data.ts';

test('labels split on clause breaks, never inside parentheses; repeated explanations become notes', () => {
  const s = splitLabels([
    'Client CPU (each side timed; in-process); TLS 1.3 groups default, new; "default" = the version\'s own groups',
    'Client CPU (each side timed; in-process); TLS 1.3 groups X25519, new',
    'Client CPU (each side timed; in-process); TLS 1.2 groups default, new; "default" = the version\'s own groups',
  ]);
  assert.ok(s);
  assert.equal(s.head, 'Client CPU (each side timed; in-process)');
  assert.deepEqual(s.rows, ['TLS 1.3 groups default, new', 'TLS 1.3 groups X25519, new', 'TLS 1.2 groups default, new']);
  assert.deepEqual(s.notes, ['"default" = the version\'s own groups']);
  assert.equal(splitLabels(['sha256 on 16-byte buffers', 'sha256 on 16384-byte buffers']), null, 'no shared clause: full labels');
});

test('labels that differ in a few words (openssl speed per buffer size) say the rest once; a colon head no other row shares is not a measure', () => {
  const label = (n: number) => `openssl speed -evp aes-128-gcm on ${n}-byte buffers (re-keyed): bytes per second of user CPU time`;
  assert.deepEqual(splitAround([16, 64, 16384].map(label)), {
    head: 'openssl speed -evp aes-128-gcm on … buffers (re-keyed): bytes per second of user CPU time',
    rows: ['16-byte', '64-byte', '16384-byte'],
  });
  assert.deepEqual(splitAround(['a b', 'a c', 'a d']), { head: 'a …', rows: ['b', 'c', 'd'] });
  assert.equal(splitAround(['one thing entirely', 'another matter', 'a third']), null, 'nothing shared');
  assert.equal(splitAround(['x same', 'x same']), null, 'duplicates');
  const es = [16, 64, 16384].map((n) =>
    entry({ benchmark: 'speed', metric: 'aes-128-gcm-encrypt', params: { algorithm: 'aes-128-gcm', bytes: n }, label: label(n) }),
  );
  const [g] = groupEntries(es);
  assert.equal(g!.measures.length, 1);
  assert.deepEqual(g!.measures[0]!.rowLabels, ['16-byte', '64-byte', '16384-byte']);
});
