import assert from 'node:assert/strict';
import { test } from 'node:test';
import { needs, TIER_VARIABLE } from './integration-needs.ts';

test('a missing build skips a test run alone and fails it in the integration tier', () => {
  const saved = process.env[TIER_VARIABLE];
  try {
    delete process.env[TIER_VARIABLE];
    assert.equal(needs({ prefix: '/x' }, 'OpenSSL 1.1.1w is not built'), false);
    assert.equal(needs(undefined, 'OpenSSL 1.1.1w is not built'), 'OpenSSL 1.1.1w is not built');
    process.env[TIER_VARIABLE] = 'integration';
    assert.equal(needs({ prefix: '/x' }, 'OpenSSL 1.1.1w is not built'), false);
    assert.throws(() => needs(undefined, 'OpenSSL 1.1.1w is not built'), /1\.1\.1w is not built, although the integration tier provides it/);
  } finally {
    if (saved === undefined) delete process.env[TIER_VARIABLE];
    else process.env[TIER_VARIABLE] = saved;
  }
});
