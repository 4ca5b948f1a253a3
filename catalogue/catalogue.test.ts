import { test } from 'node:test';
import assert from 'node:assert/strict';
import { DEFAULT_MATRIX, SERIES, VERSIONS, compareVersions, isDefective, newestOf, resolveVersion, validateCatalogue, variantAllowed } from './index.ts';

test('the catalogue is internally consistent', () => {
  assert.deepEqual(validateCatalogue(), []);
});

test('every release series 1.1.1 .. 4.0 is present, and the default matrix has one version of each', () => {
  assert.deepEqual(
    SERIES.map((s) => s.series),
    ['1.1.1', '3.0', '3.1', '3.2', '3.3', '3.4', '3.5', '3.6', '4.0'],
  );
  assert.equal(DEFAULT_MATRIX.length, SERIES.length);
  for (const [i, s] of SERIES.entries()) assert.equal(resolveVersion(DEFAULT_MATRIX[i]!).series, s.series);
});

test('the versions the seed studies used are catalogued where obtainable', () => {
  for (const v of ['3.0.2', '3.1.3', '3.3.0', '3.4.0', '1.1.1u', '3.0.8', '3.1.2']) assert.ok(VERSIONS.some((x) => x.version === v), v);
});

test('a series resolves to its newest patch without a known measurement defect', () => {
  assert.deepEqual(isDefective('3.5.5'), ['CVE-2026-2673']);
  assert.deepEqual(isDefective('3.5.7'), []);
  assert.equal(newestOf('3.5').version, '3.5.7');
  assert.equal(resolveVersion('1.1.1').version, '1.1.1w');
  assert.equal(resolveVersion('3.0.2').version, '3.0.2');
});

test('unknown versions and impossible variants are refused with a message saying what to do', () => {
  assert.throws(() => resolveVersion('2.0'), /unknown OpenSSL version or series "2.0".*npm run openssl -- list/);
  assert.throws(() => resolveVersion('3.5.99'), /unknown/);
  assert.match(variantAllowed(resolveVersion('3.4'), 'no-ml-kem') ?? '', /needs OpenSSL 3.5 or newer/);
  assert.equal(variantAllowed(resolveVersion('3.5'), 'no-ml-kem'), null);
  assert.match(variantAllowed(resolveVersion('3.5'), 'fips') ?? '', /unknown variant/);
});

test('versions order as OpenSSL numbers them', () => {
  const sorted = ['3.0.22', '1.1.1w', '3.0.2', '1.1.1u', '4.0.3', '3.0.8'].sort(compareVersions);
  assert.deepEqual(sorted, ['1.1.1u', '1.1.1w', '3.0.2', '3.0.8', '3.0.22', '4.0.3']);
});
