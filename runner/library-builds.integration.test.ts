// Real builds of the other TLS libraries (from the cache when warm; npm run test:builds builds them):
// each installs the layout the programs link against, names its own version, and wolfSSL's two variants
// differ exactly in the performance options.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { buildMany } from './build/build.ts';
import { resolveBuildSpec } from '../catalogue/index.ts';

const specs = ['aws-lc', 'boringssl', 'wolfssl', 'wolfssl:no-perf-options'];
const { built, failed } = await buildMany(specs.map(resolveBuildSpec), (v, variant, step) => {
  if (step === 'make') console.log(`# building ${v} (${variant}) for the tests`);
});
const prefixOf = (spec: string) => {
  const { version, variant } = resolveBuildSpec(spec);
  const b = built.find((x) => x.req.version === version && x.req.variant === variant);
  assert.ok(b, `${spec} did not build: ${failed.map((f) => `${f.error} ${f.log ?? ''}`).join('; ')}`);
  return b.build;
};

test('every library builds and names the catalogued release', () => {
  assert.deepEqual(failed, []);
  assert.equal(prefixOf('aws-lc').record.versionString, 'AWS-LC 5.12.0');
  assert.equal(prefixOf('boringssl').record.versionString, 'BoringSSL (BORINGSSL_API_VERSION 44)');
  assert.equal(prefixOf('wolfssl').record.versionString, 'wolfSSL 5.9.4');
  for (const spec of specs) {
    const { record } = prefixOf(spec);
    assert.equal(record.library, resolveBuildSpec(spec).version.library);
    assert.ok(record.configureArgs.length > 0 && record.cflags.length > 0, spec);
  }
});

test('the install layout is the one the programs link against', () => {
  for (const spec of ['aws-lc', 'boringssl']) {
    const { prefix } = prefixOf(spec);
    for (const f of ['include/openssl/ssl.h', 'include/openssl/base.h', 'lib/libssl.a', 'lib/libcrypto.a'])
      assert.ok(existsSync(join(prefix, f)), `${spec}: ${f}`);
    assert.ok(!existsSync(join(prefix, 'bin', 'openssl')), `${spec} installs no openssl app`);
  }
  for (const spec of ['wolfssl', 'wolfssl:no-perf-options']) {
    const { prefix } = prefixOf(spec);
    for (const f of ['include/wolfssl/options.h', 'include/wolfssl/ssl.h', 'include/wolfssl/openssl/ssl.h', 'lib/libwolfssl.a'])
      assert.ok(existsSync(join(prefix, f)), `${spec}: ${f}`);
  }
});

test('wolfSSL has the OpenSSL layer, X25519, ML-KEM and tickets in both variants, and the performance options only in default', () => {
  const defines = (spec: string) =>
    new Set([...readFileSync(join(prefixOf(spec).prefix, 'include/wolfssl/options.h'), 'utf8').matchAll(/^#define (\w+)/gm)].map((m) => m[1]));
  const fast = defines('wolfssl');
  const plain = defines('wolfssl:no-perf-options');
  for (const d of [
    'OPENSSL_ALL',
    'OPENSSL_EXTRA',
    'HAVE_CURVE25519',
    'WOLFSSL_HAVE_MLKEM',
    'HAVE_SESSION_TICKET',
    'WOLFSSL_TLS13',
    'WOLFSSL_CERT_GEN',
    'WOLFSSL_KEY_GEN',
  ]) {
    assert.ok(fast.has(d), `default lacks ${d}`);
    assert.ok(plain.has(d), `no-perf-options lacks ${d}`);
  }
  if (process.arch === 'x64')
    for (const d of ['WOLFSSL_SP_X86_64_ASM', 'WOLFSSL_AESNI', 'USE_INTEL_SPEEDUP']) {
      assert.ok(fast.has(d), `default lacks ${d}`);
      assert.ok(!plain.has(d), `no-perf-options has ${d}`);
    }
});
