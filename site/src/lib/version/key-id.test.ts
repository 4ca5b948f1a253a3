import { test } from 'node:test';
import assert from 'node:assert/strict';
import { keyId } from './key-id.ts';
import { variantWords } from '../../../../catalogue/index.ts';
import { fixture } from './test-data.ts';

test('key ids are short and stable; variants read as words', () => {
  assert.match(keyId('handshake/cpu-per-handshake[cert=ecdsa-p256]'), /^[0-9a-f]{8}$/);
  assert.equal(keyId('x'), keyId('x'));
  assert.notEqual(keyId('x'), keyId('y'));
  const ids = new Set(fixture.entries.map((e) => keyId(e.key)));
  assert.equal(ids.size, new Set(fixture.entries.map((e) => e.key)).size, 'no collision in the fixture');
  assert.equal(variantWords('no-ml-kem'), 'built without ML-KEM');
  assert.equal(variantWords('default'), '');
});
