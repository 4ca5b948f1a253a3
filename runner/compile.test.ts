// How our C programs are compiled: from their own .c file and every .c file of runner/c-common, against a
// library with the flags of its catalogue record, and the C side knows every define the records can pass.
import assert from 'node:assert/strict';
import { mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, relative } from 'node:path';
import { test } from 'node:test';
import { fileURLToPath } from 'node:url';
import { Library } from '../schema/index.ts';
import { LIBRARIES } from '../catalogue/index.ts';
import { cCommonSources, HEADER_FEATURES, linkFlags } from './compile.ts';

const RUNNER = fileURLToPath(new URL('.', import.meta.url));

test('every program gets every .c file of runner/c-common, read from the folder', () => {
  const files = readdirSync(join(RUNNER, 'c-common')).filter((f) => f.endsWith('.c'));
  assert.ok(files.length >= 10);
  assert.deepEqual(
    cCommonSources().map((f) => relative(RUNNER, f)),
    files.sort().map((f) => `c-common/${f}`),
  );
});

test('no module lists c-common sources by hand', () => {
  const modules = (dir: string): string[] =>
    readdirSync(dir, { withFileTypes: true }).flatMap((e) =>
      e.isDirectory()
        ? e.name === 'fixtures'
          ? []
          : modules(join(dir, e.name))
        : e.name.endsWith('.ts') && !e.name.endsWith('.test.ts')
          ? [join(dir, e.name)]
          : [],
    );
  // a path in a string ('../c-common/json.c', `../c-common/${n}.c`) or in path parts ('c-common', 'json.c')
  const byHand = /['`][^'`\n]*c-common\/[^'`\n]*\.c['`]|'c-common',\s*'[\w-]+\.c'/;
  const listing = modules(RUNNER).filter((f) => byHand.test(readFileSync(f, 'utf8')));
  assert.deepEqual(
    listing.map((f) => relative(RUNNER, f)),
    [],
  );
});

const build = (library: Library) => ({ record: { id: 'k', library, version: '1', variant: 'default' }, prefix: '/p' });

test('each library is compiled with its own define, headers and static archives', () => {
  assert.deepEqual(linkFlags(build('openssl')), { includes: ['/p/include'], defines: ['-DOBS_LIB_OPENSSL'], libs: ['/p/lib/libssl.a', '/p/lib/libcrypto.a'] });
  // C++ inside: the C++ runtime is linked
  for (const l of ['aws-lc', 'boringssl'] as const)
    assert.deepEqual(linkFlags(build(l)), {
      includes: ['/p/include'],
      defines: [`-D${LIBRARIES[l].cDefine}`],
      libs: ['/p/lib/libssl.a', '/p/lib/libcrypto.a', '-lstdc++'],
    });
  // wolfSSL's OpenSSL compatibility headers first, so <openssl/ssl.h> is its own
  assert.deepEqual(linkFlags(build('wolfssl')), {
    includes: ['/p/include/wolfssl', '/p/include'],
    defines: ['-DOBS_LIB_WOLFSSL'],
    libs: ['/p/lib/libwolfssl.a'],
  });
});

test('c-common/library.h accepts the define of every library and only those', () => {
  const header = readFileSync(join(RUNNER, 'c-common', 'library.h'), 'utf8');
  // the line that refuses a program compiled without any library's define
  const line = /^#if (!defined\(OBS_LIB_\w+\)(?: && )?)+$/m.exec(header)?.[0] ?? '';
  const known = [...line.matchAll(/defined\((\w+)\)/g)].map((m) => m[1]).sort();
  assert.deepEqual(known, Library.options.map((l) => LIBRARIES[l].cDefine).sort(), "add the library's cDefine to library.h");
  assert.equal(new Set(known).size, Library.options.length, 'one define per library');
});

test("OpenSSL's functions that arrived during a release's development are announced from its installed headers", () => {
  const prefix = mkdtempSync(join(tmpdir(), 'header-features-'));
  try {
    const at = (version: string) => ({ record: { id: 'k', library: 'openssl' as const, version, variant: 'default' }, prefix });
    mkdirSync(join(prefix, 'include', 'openssl'), { recursive: true });
    // a 3.0 development commit of 2020: SSL_get_negotiated_group, but no SSL_group_to_name or EVP_PKEY_Q_keygen yet
    writeFileSync(join(prefix, 'include', 'openssl', 'ssl.h'), '__owur int SSL_get_negotiated_group(SSL *s);\n');
    writeFileSync(join(prefix, 'include', 'openssl', 'evp.h'), 'int EVP_PKEY_keygen(EVP_PKEY_CTX *ctx, EVP_PKEY **ppkey);\n');
    assert.deepEqual(linkFlags(at('3.0.0-alpha4-dev')).defines, ['-DOBS_LIB_OPENSSL']);
    writeFileSync(join(prefix, 'include', 'openssl', 'ssl.h'), 'const char *SSL_group_to_name(SSL *s, int id);\n');
    writeFileSync(join(prefix, 'include', 'openssl', 'evp.h'), 'EVP_PKEY *EVP_PKEY_Q_keygen(OSSL_LIB_CTX *libctx, const char *propq,\n');
    assert.deepEqual(linkFlags(at('3.0.0')).defines, ['-DOBS_LIB_OPENSSL', '-DOBS_HAVE_SSL_GROUP_TO_NAME', '-DOBS_HAVE_EVP_PKEY_Q_KEYGEN']);
  } finally {
    rmSync(prefix, { recursive: true, force: true });
  }
});

test('every define the header probe can pass is read by the C sources', () => {
  const sources = [...cCommonSources(), join(RUNNER, 'handshake', 'handshake.c')].map((f) => readFileSync(f, 'utf8')).join('\n');
  const defines = HEADER_FEATURES.map((f) => f.define);
  assert.ok(defines.length >= 2);
  for (const d of defines) assert.match(sources, new RegExp(`\\b${d}\\b`), `${d} is passed but no C source reads it`);
});

test('OpenSSL version checks go through OBS_OPENSSL_AT_LEAST (library.h), never OPENSSL_VERSION_NUMBER itself', () => {
  const cFiles = (dir: string): string[] =>
    readdirSync(dir, { withFileTypes: true }).flatMap((e) =>
      e.isDirectory() ? (e.name === 'fixtures' ? [] : cFiles(join(dir, e.name))) : /\.[ch]$/.test(e.name) ? [join(dir, e.name)] : [],
    );
  const bare = cFiles(RUNNER)
    .filter((f) => !f.endsWith(join('c-common', 'library.h')))
    .filter((f) => /\bOPENSSL_VERSION_NUMBER\b/.test(readFileSync(f, 'utf8')));
  assert.deepEqual(
    bare.map((f) => relative(RUNNER, f)),
    [],
    'other libraries claim 1.1.x in it, and 3.0.0-dev of 2018-19 defined it with a cast #if cannot evaluate',
  );
});
