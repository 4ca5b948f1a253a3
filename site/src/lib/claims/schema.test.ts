// The write-up claim format: what it refuses and why, its cross-references, and build refs of other libraries.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { BuildRef, Claim, ClaimTest, MEASURED_NUMBER, buildName, crossCheck, parseBuild } from './schema.ts';
import { RATE, claim, cmp, series } from './test-data.ts';

// ------------------------------------------------------------------ the format

test('claim text carries no measured number; versions, algorithm names and parameter sizes pass', () => {
  for (const bad of [
    '3.0.2 is 5% slower',
    'it takes 31 ms',
    'a 2x gain',
    'about 12 µs more',
    'holds 94 KB',
    '1,216 bytes',
    '3 times faster',
    'reaches 5.3 GB/s',
  ])
    assert.ok(MEASURED_NUMBER.test(bad), bad);
  for (const good of [
    'TLS 1.3 handshakes on 3.0.2 cost more than on 1.1.1w',
    'RSA-2048 and X25519',
    '16-byte records',
    'ML-KEM-768 in 3.5',
    'P-256 and P-384',
    'the 3.0.x and 3.1.x releases',
  ])
    assert.ok(!MEASURED_NUMBER.test(good), good);
  assert.throws(() => Claim.parse({ id: 'x', text: 'It is 5% slower.', unverified: 'why' }), /measured number/);
});

test('the claim format says what is missing', () => {
  assert.throws(() => ClaimTest.parse({ series: 'a', builds: ['3.0.2', '1.1.1w'], expect: 'higher' }), /practical threshold/);
  assert.throws(() => ClaimTest.parse({ series: 'a', builds: ['3.0.2'], expect: 'higher', threshold: 0.05 }), /exactly two builds/);
  assert.throws(() => ClaimTest.parse({ series: 'a', builds: ['3.0.2', '1.1.1w'], expect: 'between' }), /range/);
  assert.throws(() => ClaimTest.parse({ series: 'a', builds: ['3.0', '1.1.1w'], expect: 'same', threshold: 0.05 }), /OpenSSL release/);
  assert.throws(() => Claim.parse({ id: 'x', text: 'Words.', by: 'study' }), /quotes the study/);
  assert.throws(() => Claim.parse({ id: 'x', text: 'Words.' }), /needs tests, or `unverified`/);
  assert.throws(
    () => Claim.parse({ id: 'x', text: 'Words.', unverified: 'why', tests: [{ series: 'a', builds: ['3.0.2', '1.1.1w'], expect: 'same', threshold: 0.1 }] }),
    /no tests/,
  );
  assert.ok(ClaimTest.parse({ series: ['a', 'b'], builds: ['3.5.7+no-ml-kem'], expect: 'same', threshold: 0.05 }));
  assert.throws(() => ClaimTest.parse({ series: 'a', builds: ['3.0.2', '1.1.1w'], expect: 'magnitude', value: 5 }), /needs value .* and tolerance/);
  assert.throws(() => ClaimTest.parse({ series: 'a', builds: ['3.0.2', '1.1.1w'], expect: 'higher', threshold: 1, value: 5 }), /belong to `magnitude` only/);
  assert.equal(ClaimTest.parse({ series: 'a', builds: ['3.0.2', '1.1.1w'], expect: 'higher', threshold: 1 }).role, 'decides');
});

test('crossCheck finds references to unknown series and studies', () => {
  const issues = crossCheck({
    claims: [claim({ by: 'nobody', quote: 'q', tests: [cmp('missing', ['3.0.2', '1.1.1w'], 'higher')] })],
    studies: [],
    series: series(RATE),
  });
  assert.deepEqual(
    issues.map((i) => i.message),
    ['"nobody" is neither "ours" nor a study id of this write-up', '"missing" is not a series of this write-up (give it in `series` so the page charts it)'],
  );
});

// ------------------------------------------------------------------ other libraries (issue 18)

test('a claim names another library by its slug, a variant after "+"; OpenSSL refs are unchanged', () => {
  assert.deepEqual(parseBuild('aws-lc-5.12.0'), { library: 'aws-lc', version: '5.12.0', variant: 'default' });
  assert.deepEqual(parseBuild('wolfssl-5.9.4+no-perf-options'), { library: 'wolfssl', version: '5.9.4', variant: 'no-perf-options' });
  assert.deepEqual(parseBuild('boringssl-44-boring-sys-5.4.0'), { library: 'boringssl', version: '44-boring-sys-5.4.0', variant: 'default' });
  assert.deepEqual(parseBuild('3.5.7+no-ml-kem'), { library: 'openssl', version: '3.5.7', variant: 'no-ml-kem' });
  assert.equal(buildName(parseBuild('aws-lc-5.12.0')), 'AWS-LC 5.12.0');
  assert.equal(buildName(parseBuild('3.5.7+no-ml-kem')), '3.5.7 built without ML-KEM');
  for (const ok of ['aws-lc-5.12.0', 'wolfssl-5.9.4+no-perf-options', 'boringssl-44-boring-sys-5.4.0', '3.5.7']) assert.ok(BuildRef.safeParse(ok).success, ok);
  // libraries the catalogue does not have (no real one's name: this must not break when one is added)
  for (const bad of ['no-such-tls-4.0.0', 'aws-lc', 'aws-lc-x', 'other-tls-0.23.37']) assert.ok(!BuildRef.safeParse(bad).success, bad);
});
