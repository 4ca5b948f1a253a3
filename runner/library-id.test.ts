import assert from 'node:assert/strict';
import { test } from 'node:test';
import { LIBRARY_VERSION_PATTERN, libraryMismatch } from './library-id.ts';

test('each library is recognised by what its binary reports, and a different build is refused', () => {
  assert.equal(libraryMismatch('OpenSSL 3.5.7 1 Jul 2025', { library: 'openssl', version: '3.5.7' }), null);
  assert.match(libraryMismatch('OpenSSL 3.5.70 1 Jul 2025', { library: 'openssl', version: '3.5.7' }) ?? '', /not OpenSSL 3\.5\.7/);
  assert.equal(libraryMismatch('AWS-LC 5.12.0', { library: 'aws-lc', version: '5.12.0' }), null);
  assert.match(libraryMismatch('AWS-LC 5.11.0', { library: 'aws-lc', version: '5.12.0' }) ?? '', /reports "AWS-LC 5\.11\.0", not AWS-LC 5\.12\.0/);
  assert.equal(libraryMismatch('wolfSSL 5.9.4', { library: 'wolfssl', version: '5.9.4' }), null);
  assert.match(libraryMismatch('OpenSSL 1.1.1 (compatible; AWS-LC 5.12.0)', { library: 'wolfssl', version: '5.9.4' }) ?? '', /not wolfSSL/);
  // BoringSSL reports its API version, which the catalogue's identifier of the tree starts with
  assert.equal(libraryMismatch('BoringSSL API 44', { library: 'boringssl', version: '44-boring-sys-5.4.0' }), null);
  assert.match(libraryMismatch('BoringSSL API 45', { library: 'boringssl', version: '44-boring-sys-5.4.0' }) ?? '', /not BoringSSL API 44/);
  assert.match(libraryMismatch('AWS-LC 5.12.0', { library: 'boringssl', version: '44' }) ?? '', /not BoringSSL/);
  for (const s of ['OpenSSL 3.5.7 1 Jul 2025', 'AWS-LC 5.12.0', 'BoringSSL API 44', 'wolfSSL 5.9.4']) assert.match(s, LIBRARY_VERSION_PATTERN);
  assert.doesNotMatch('NoSuchTLS 4.0.0', LIBRARY_VERSION_PATTERN);
});
