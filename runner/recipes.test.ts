// The build recipes of the other TLS libraries: the options each is given, and a whole build through
// buildOne on a stand-in wolfSSL-shaped tree (a configure script and a Makefile that install what the
// real one would, in a second), so the cache entry, the record and a tampered source are tested without
// a real build. Real builds are checked in the integration tier (npm run test:builds builds them).
import { after, test } from 'node:test';
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { basename, join } from 'node:path';
import type { LibraryRelease } from '../catalogue/index.ts';

const cache = mkdtempSync(join(tmpdir(), 'observatory-recipes-test-'));
process.env.OBSERVATORY_CACHE = cache;
after(() => rmSync(cache, { recursive: true, force: true }));
const { buildOne } = await import('./build/build.ts');
const { findCached, listCached } = await import('./build/cache.ts');
const { cacheKey, configureArgs, plannedKey } = await import('./build/options.ts');
const { RECIPES, recipeOf } = await import('./recipes.ts');
const { LIBRARY_RELEASES, resolveBuildSpec } = await import('../catalogue/index.ts');

const release = (library: string) => LIBRARY_RELEASES.find((r) => r.library === library)!;

test('AWS-LC and BoringSSL get a Release static cmake build without tests; AWS-LC without its tool, Go and Perl', () => {
  assert.deepEqual(recipeOf(release('aws-lc')).options(release('aws-lc'), 'default'), [
    '-DCMAKE_BUILD_TYPE=Release',
    '-DBUILD_SHARED_LIBS=OFF',
    '-DBUILD_TESTING=OFF',
    '-DBUILD_TOOL=OFF',
    '-DDISABLE_GO=ON',
    '-DDISABLE_PERL=ON',
  ]);
  assert.deepEqual(recipeOf(release('boringssl')).options(release('boringssl'), 'default'), [
    '-DCMAKE_BUILD_TYPE=Release',
    '-DBUILD_SHARED_LIBS=OFF',
    '-DBUILD_TESTING=OFF',
  ]);
  // nothing turns the assembly off
  for (const lib of ['aws-lc', 'boringssl'])
    assert.ok(
      !recipeOf(release(lib))
        .options(release(lib), 'default')
        .some((o) => /NO_ASM/.test(o)),
      lib,
    );
});

test('wolfSSL default has the performance options; no-perf-options turns exactly those off', () => {
  const w = release('wolfssl');
  const features = [
    '--disable-shared',
    '--enable-static',
    '--disable-examples',
    '--disable-crypttests',
    '--disable-benchmark',
    '--enable-opensslall',
    '--enable-opensslextra',
    '--enable-tls13',
    '--enable-session-ticket',
    '--enable-curve25519',
    '--enable-mlkem',
    '--enable-certgen',
    '--enable-keygen',
  ];
  assert.deepEqual(RECIPES.autotools.options(w, 'default'), [...features, '--enable-sp', '--enable-sp-asm', '--enable-intelasm', '--enable-aesni']);
  assert.deepEqual(RECIPES.autotools.options(w, 'no-perf-options'), [...features, '--disable-sp', '--disable-sp-asm', '--disable-intelasm', '--disable-aesni']);
});

test("OpenSSL's cache keys are what they were before the other libraries came (existing builds still match)", () => {
  // the key of the 3.5.7 builds in a cache made before issue 18, with this compiler
  // (the key hashes the parts in this order, the order plannedKey gives them)
  const parts = (variant: string) => ({
    sourceSha256: 'a8c0d28a529ca480f9f36cf5792e2cd21984552a3c8e4aa11a24aa31aeac98e8',
    configure: configureArgs('3.5', variant),
    compiler: 'cc (Debian 12.2.0-14+deb12u1) 12.2.0',
    cflagsEnv: '',
    target: 'linux-x86_64',
  });
  assert.equal(cacheKey(parts('default')), 'b0c998cf4eb7c59e');
  assert.equal(cacheKey(parts('no-ml-kem')), '10c5b8edd177e4b1');
  // and plannedKey hands OpenSSL exactly those parts
  const { configure } = plannedKey({ version: resolveBuildSpec('3.5').version, variant: 'default' }, parts('default').sourceSha256);
  assert.deepEqual(configure, ['no-shared', 'no-tests', 'no-module', 'no-docs']);
});

// A wolfSSL-shaped stand-in: configure writes a Makefile whose install puts version.h and a library
// where the real one does, and records its arguments so the test can see them.
const CONFIGURE = String.raw`#!/bin/sh
prefix=
for a in "$@"; do case "$a" in --prefix=*) prefix=$(echo "$a" | cut -d= -f2-);; esac; done
echo "$@" > configure.args
cat > Makefile <<MK
CFLAGS = -O2 -stand-in
all:
	touch libwolfssl.a
install:
	mkdir -p $prefix/include/wolfssl $prefix/lib
	printf '#define LIBWOLFSSL_VERSION_STRING "9.9.9"\n' > $prefix/include/wolfssl/version.h
	cp libwolfssl.a $prefix/lib/
MK
`;

function makeCrate(name: string): { file: string; sha256: string } {
  const src = mkdtempSync(join(tmpdir(), 'standin-lib-'));
  const root = join(src, `${name}-9.9.9`, 'wolfssl-src');
  mkdirSync(root, { recursive: true });
  writeFileSync(join(root, 'configure'), CONFIGURE);
  mkdirSync(join(cache, 'downloads'), { recursive: true });
  const file = `${name}-9.9.9.crate`;
  const path = join(cache, 'downloads', file);
  execFileSync('tar', ['czf', path, '-C', src, `${name}-9.9.9`]);
  rmSync(src, { recursive: true });
  return { file, sha256: createHash('sha256').update(readFileSync(path)).digest('hex') };
}

function standIn(name: string, sha256: string): LibraryRelease {
  return {
    ...release('wolfssl'),
    version: '9.9.9',
    series: '9.9',
    sources: [{ kind: 'crate', package: name, ref: '9.9.9', file: `${name}-9.9.9.crate`, sha256, root: `${name}-9.9.9/wolfssl-src` }],
  };
}

test('another library builds through its recipe into <library>-<version>-<variant>-<key>, with every option recorded', async () => {
  const { sha256 } = makeCrate('standin-sys');
  const v = standIn('standin-sys', sha256);
  const steps: string[] = [];
  const r = await buildOne({ version: v, variant: 'no-perf-options' }, 1, (_v, _var, step) => steps.push(step));
  assert.ok(r.ok, !r.ok ? `${r.error} ${r.log ? readFileSync(r.log, 'utf8') : ''}` : '');
  if (!r.ok) return;
  assert.deepEqual(steps, ['fetch', 'unpack', 'configure', 'make', 'install']);
  const { key } = plannedKey({ version: v, variant: 'no-perf-options' }, sha256);
  assert.equal(basename(r.build.dir), `wolfssl-9.9.9-no-perf-options-${key}`);
  assert.equal(r.build.record.library, 'wolfssl');
  assert.equal(r.build.record.versionString, 'wolfSSL 9.9.9');
  assert.deepEqual(r.build.record.configureArgs, RECIPES.autotools.options(v, 'no-perf-options'));
  assert.equal(r.build.record.cflags, '-O2 -stand-in');
  assert.ok(existsSync(join(r.build.prefix, 'lib', 'libwolfssl.a')));
  assert.ok(existsSync(join(r.build.dir, 'build.log')));
  // the variant is part of the key: default is another entry
  assert.notEqual(plannedKey({ version: v, variant: 'default' }, sha256).key, key);
  const again = await buildOne({ version: v, variant: 'no-perf-options' }, 1, () => {});
  assert.ok(again.ok && again.cached);
  assert.equal(findCached(v, 'no-perf-options')?.dir, r.build.dir);
});

test('a library source whose hash differs from its pin is refused and never built', async () => {
  const { sha256 } = makeCrate('tampered-sys');
  const pinned = sha256.replace(/^./, (c) => (c === '0' ? '1' : '0'));
  const before = listCached().length;
  const r = await buildOne({ version: standIn('tampered-sys', pinned), variant: 'default' }, 1, () => {});
  assert.equal(r.ok, false);
  assert.match(!r.ok ? r.error : '', /tampered-sys-9\.9\.9\.crate: sha256 is [0-9a-f]{64}, the catalogue pins [0-9a-f]{64}\. Refused/);
  assert.ok(readdirSync(join(cache, 'downloads')).some((f) => f.startsWith('tampered-sys-9.9.9.crate.rejected-')));
  assert.equal(listCached().length, before);
});

test('a missing build tool is named with the Debian package that has it', async () => {
  const { missingTool } = await import('./recipes.ts');
  const fake = { ...RECIPES.cmake, tools: [{ command: 'no-such-build-tool-xyz', debianPackage: 'xyz-tools' }] };
  assert.match(missingTool('aws-lc', fake) ?? '', /no-such-build-tool-xyz is not installed \(needed to build aws-lc\): apt-get install xyz-tools/);
  assert.equal(missingTool('wolfssl', { ...RECIPES.autotools, tools: [{ command: 'sh', debianPackage: 'dash' }] }), null);
});

test("wolfSSL's recorded flags leave out the feature macros (options.h has them) and keep the compiler's", async () => {
  const { autotoolsCFlags } = await import('./recipes.ts');
  assert.equal(autotoolsCFlags('-O2 -g', '-DHAVE_AESGCM -Wall  -DWOLFSSL_SP_X86_64_ASM -maes -mavx2'), '-O2 -g -Wall -maes -mavx2');
});
