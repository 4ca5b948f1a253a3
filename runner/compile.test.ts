// How our C programs are compiled: from their own .c file and every .c file of runner/c-common, against a
// library with the flags of its catalogue record, and the C side knows every define the records can pass.
import assert from 'node:assert/strict';
import { readdirSync, readFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { test } from 'node:test';
import { fileURLToPath } from 'node:url';
import { Library } from '../schema/index.ts';
import { LIBRARIES } from '../catalogue/index.ts';
import { cCommonSources, linkFlags } from './compile.ts';

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
