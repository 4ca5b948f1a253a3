// The build cache on a tiny stand-in source tree (a Configure script and a Makefile that behave like
// OpenSSL's at the points the cache depends on), so hash refusal, cache keys and interrupted builds are
// tested in seconds. Real builds of 1.1.1w and 4.0.3 are checked in openssl-builds.integration.test.ts.
import { after, test } from 'node:test';
import assert from 'node:assert/strict';
import { execFileSync, spawn } from 'node:child_process';
import { createHash } from 'node:crypto';
import { existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { CatalogueVersion } from '../../catalogue/index.ts';

const cache = mkdtempSync(join(tmpdir(), 'observatory-build-test-'));
process.env.OBSERVATORY_CACHE = cache;
after(() => rmSync(cache, { recursive: true, force: true }));
const { buildOne } = await import('./build.ts');
const { listCached, cleanStaleTemps, findCached, CacheIntegrityError } = await import('./cache.ts');
const { cacheKey, plannedKey } = await import('./options.ts');
const sha256Of = (path: string) => createHash('sha256').update(readFileSync(path)).digest('hex');
const { SourceError, obtainSource } = await import('../sources.ts');
const { resolveVersion } = await import('../../catalogue/index.ts');

const CONFIGURE = String.raw`#!/usr/bin/perl
my ($prefix) = map { /^--prefix=(.*)/ ? $1 : () } @ARGV;
my $mk = <<'MK';
build_sw:
	sleep 0$(SLOW_MAKE)
	touch built
install_sw:
	mkdir -p $(DESTDIR)PREFIX/bin
	printf '#!/bin/sh\nsleep 0$(SLOW_VERSION)\necho "OpenSSL 9.9.9 (stand-in)"\n' > $(DESTDIR)PREFIX/bin/openssl
	mkdir -p $(DESTDIR)PREFIX/lib
	printf 'stand-in libcrypto' > $(DESTDIR)PREFIX/lib/libcrypto.a
	printf 'stand-in libssl' > $(DESTDIR)PREFIX/lib/libssl.a
	chmod +x $(DESTDIR)PREFIX/bin/openssl
MK
$mk =~ s/PREFIX/$prefix/g;
open(my $m, '>', 'Makefile'); print $m $mk;
open(my $c, '>', 'configdata.pm'); print $c "package configdata; our %config = (CFLAGS => ['-O2'], cflags => ['-pthread']); 1;\n";
`;

function makeArchive(name: string, extra = ''): { path: string; sha256: string } {
  const src = mkdtempSync(join(tmpdir(), 'standin-src-'));
  const root = join(src, 'openssl-9.9.9');
  mkdirSync(root);
  writeFileSync(join(root, 'Configure'), CONFIGURE + extra);
  writeFileSync(join(root, 'VERSION.dat'), 'RELEASE_DATE="1 Jan 2026"\n');
  // archives made within one second are otherwise byte-identical (tar keeps whole-second mtimes), and two
  // tests' stand-ins would then share a cache key
  writeFileSync(join(root, 'ARCHIVE_NAME'), name);
  mkdirSync(join(cache, 'downloads'), { recursive: true });
  const path = join(cache, 'downloads', name);
  execFileSync('tar', ['czf', path, '-C', src, 'openssl-9.9.9']);
  return { path, sha256: createHash('sha256').update(readFileSync(path)).digest('hex') };
}

function standIn(file: string, sha256: string): CatalogueVersion {
  return { version: '9.9.9', series: '9.9', sources: [{ kind: 'crate', package: 'openssl-src', ref: '999.0.0+9.9.9', file, sha256, root: 'openssl-9.9.9' }] };
}

/** A stand-in release pinned to a fresh archive `name` in the download cache, and the archive's sha256. */
function standInRelease(name: string, extra = ''): { v: CatalogueVersion; sha256: string } {
  const { sha256 } = makeArchive(name, extra);
  return { v: standIn(name, sha256), sha256 };
}

/** Build (or take from the cache) the default variant of a stand-in release. */
const buildStandIn = (v: CatalogueVersion) => buildOne({ version: v, variant: 'default' }, 1, () => {});

/** The first build of a stand-in release, which has to succeed. */
async function firstBuild(v: CatalogueVersion) {
  const r = await buildStandIn(v);
  if (!r.ok) throw new Error(r.error);
  return r;
}

test('a source whose hash differs from its pin is refused and never built', async () => {
  const { sha256 } = makeArchive('altered.crate');
  const pinned = sha256.replace(/^./, (c) => (c === '0' ? '1' : '0'));
  const r = await buildOne({ version: standIn('altered.crate', pinned), variant: 'default' }, 1, () => {});
  assert.equal(r.ok, false);
  assert.match(!r.ok ? r.error : '', /altered\.crate: sha256 is [0-9a-f]{64}, the catalogue pins/);
  assert.ok(!existsSync(join(cache, 'downloads', 'altered.crate')), 'the rejected file is moved aside');
  assert.ok(readdirSync(join(cache, 'downloads')).some((f) => f.startsWith('altered.crate.rejected-')));
  assert.equal(listCached().length, 0);
  // the refusal is a SourceError naming the file and both hashes, and no other source is tried after it
  makeArchive('altered2.crate');
  await assert.rejects(
    obtainSource(standIn('altered2.crate', pinned)),
    (e: Error) => e instanceof SourceError && /altered2\.crate: sha256 is [0-9a-f]{64}, the catalogue pins [0-9a-f]{64}\. Refused/.test(e.message),
  );
});

test('the cache key changes with the source, the options, the compiler and CFLAGS', () => {
  const base = { sourceSha256: 'a'.repeat(64), configure: ['no-shared'], compiler: 'gcc 12', cflagsEnv: '', target: 'linux-x86_64' };
  const k = cacheKey(base);
  assert.equal(cacheKey({ ...base }), k);
  for (const change of [
    { sourceSha256: 'b'.repeat(64) },
    { configure: ['no-shared', 'no-ml-kem'] },
    { compiler: 'gcc 13' },
    { cflagsEnv: '-O1' },
    { target: 'linux-aarch64' },
  ])
    assert.notEqual(cacheKey({ ...base, ...change }), k, JSON.stringify(change));
});

test('a build is recorded with its provenance and then served from the cache', async () => {
  const { v, sha256 } = standInRelease('good.crate');
  const steps: string[] = [];
  const first = await buildOne({ version: v, variant: 'default' }, 1, (_v, _var, step) => steps.push(step));
  assert.ok(first.ok, !first.ok ? first.error : '');
  if (!first.ok) return;
  assert.equal(first.cached, false);
  assert.deepEqual(
    steps.filter((s) => !s.startsWith('fetching')),
    ['fetch', 'unpack', 'configure', 'make', 'install'],
  );
  assert.equal(first.build.record.versionString, 'OpenSSL 9.9.9 (stand-in)');
  assert.equal(first.build.record.source.sha256, sha256);
  assert.equal(first.build.record.cflags, '-O2 -pthread');
  assert.equal(first.build.record.releaseDate, '1 Jan 2026');
  assert.ok(first.build.record.configureArgs.includes('no-shared'));
  const second = await buildStandIn(v);
  assert.ok(second.ok && second.cached);
});

test('an interrupted build is never taken as good, and the next build recovers', async () => {
  const { v, sha256 } = standInRelease('slow.crate', '# slow variant\n');
  // run the build in a child process and kill it during make
  const script = `
    process.env.OBSERVATORY_CACHE = ${JSON.stringify(cache)};
    const { buildOne } = await import(${JSON.stringify(new URL('./build.ts', import.meta.url).href)});
    await buildOne({ version: ${JSON.stringify(v)}, variant: 'default' }, 1, (_a, _b, step) => console.log(step));`;
  const child = spawn(process.execPath, ['--input-type=module', '-e', script], {
    env: { ...process.env, SLOW_MAKE: '30' },
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  await new Promise<void>((resolve) => child.stdout.on('data', (d: Buffer) => d.toString().includes('make') && resolve()));
  await new Promise((r) => setTimeout(r, 300));
  child.kill('SIGKILL');
  await new Promise((r) => child.on('close', r));
  assert.ok(!listCached().some((b) => b.record.source.sha256 === sha256), 'no complete entry after the kill');
  const again = await buildStandIn(v);
  assert.ok(again.ok && !again.cached, 'rebuilt from scratch');
});

test('temporary files of dead processes are removed; those of live ones are left alone', async () => {
  const dead = spawn('true');
  await new Promise((r) => dead.on('close', r));
  const builds = join(cache, 'builds');
  const tools = join(cache, 'tools', '3.5.7-default-abc');
  for (const d of [builds, tools, join(cache, 'downloads')]) mkdirSync(d, { recursive: true });
  const paths = {
    deadBuild: join(builds, `3.5.7-default-0123.tmp-${dead.pid}`),
    liveBuild: join(builds, `3.4.1-default-4567.tmp-${process.pid}`),
    deadTool: join(tools, `aead-0a1b.tmp-${dead.pid}`),
    deadDownload: join(cache, 'downloads', `x.crate.partial-${dead.pid}-1760000000000`),
    liveDownload: join(cache, 'downloads', `y.crate.partial-${process.pid}-1760000000000`),
  };
  mkdirSync(join(paths.deadBuild, 'src'), { recursive: true });
  mkdirSync(paths.liveBuild);
  writeFileSync(paths.deadTool, '');
  writeFileSync(paths.deadDownload, '');
  writeFileSync(paths.liveDownload, '');
  const removed = cleanStaleTemps();
  for (const p of [paths.deadBuild, paths.deadTool, paths.deadDownload]) assert.ok(removed.includes(p), p);
  assert.ok(existsSync(paths.liveBuild) && existsSync(paths.liveDownload));
  // the build SIGKILLed by the test above left its directory too: gone now, only the live one is left
  assert.deepEqual(
    readdirSync(builds).filter((n) => n.includes('.tmp-')),
    [`3.4.1-default-4567.tmp-${process.pid}`],
  );
  rmSync(paths.liveBuild, { recursive: true });
  rmSync(paths.liveDownload);
});

test('a cached build whose recorded source is not the catalogue pin is refused, not used', async () => {
  const { v } = standInRelease('pinned.crate');
  const first = await firstBuild(v);
  // the entry's record says it was built from other bytes (a tampered or stale cache)
  const recordPath = join(first.build.dir, 'build.json');
  const record = JSON.parse(readFileSync(recordPath, 'utf8'));
  writeFileSync(recordPath, JSON.stringify({ ...record, source: { ...record.source, sha256: 'e'.repeat(64) } }));
  const again = await buildStandIn(v);
  assert.equal(again.ok, false);
  assert.match(
    !again.ok ? again.error : '',
    /made from pinned\.crate with sha256 e{64}, which is not the catalogue's pin \(pinned\.crate [0-9a-f]{64}\)\. Refusing to use it/,
  );

  // findCached on a real catalogue version: an entry whose key matches its own (unpinned) hash
  const real = resolveVersion('1.1.1w');
  const wrong = 'f'.repeat(64);
  const { key } = plannedKey({ version: real, variant: 'default' }, wrong);
  const dir = join(cache, 'builds', `1.1.1w-default-${key}`);
  mkdirSync(join(dir, 'install'), { recursive: true });
  const fake = { ...record, id: key, version: '1.1.1w', series: '1.1.1', source: { kind: 'crate', name: real.sources[0]!.file, sha256: wrong } };
  writeFileSync(join(dir, 'build.json'), JSON.stringify(fake));
  assert.throws(
    () => findCached('1.1.1w', 'default'),
    (e: Error) => e instanceof CacheIntegrityError && /not the catalogue's pin/.test(e.message),
  );
  rmSync(dir, { recursive: true });
});

test('build.json records the sha256 of every installed file; a cached build whose files changed is rebuilt, not used', async () => {
  const { v } = standInRelease('hashed.crate');
  const first = await firstBuild(v);
  const recorded = JSON.parse(readFileSync(join(first.build.dir, 'build.json'), 'utf8')).installed as Record<string, string>;
  for (const f of ['bin/openssl', 'lib/libcrypto.a', 'lib/libssl.a']) assert.equal(recorded?.[f], sha256Of(join(first.build.prefix, f)), f);
  // a truncated openssl binary (a full disk, a killed copy, tampering): the entry no longer counts as a build
  const app = join(first.build.prefix, 'bin/openssl');
  writeFileSync(app, readFileSync(app).subarray(0, 10));
  const again = await buildStandIn(v);
  assert.ok(again.ok, !again.ok ? again.error : '');
  assert.equal(again.ok && again.cached, false, 'rebuilt');
  assert.equal(sha256Of(app), recorded['bin/openssl'], 'the rebuilt binary is whole again');
  // a library changed in place: the same
  writeFileSync(join(first.build.prefix, 'lib/libssl.a'), 'something else');
  const third = await buildStandIn(v);
  assert.equal(third.ok && third.cached, false);
  const fourth = await buildStandIn(v);
  assert.equal(fourth.ok && fourth.cached, true, 'a whole entry is served from the cache');
});

test('an entry built before hashes were recorded is adopted once if its files work, else rebuilt', async () => {
  const { v } = standInRelease('legacy.crate');
  const first = await firstBuild(v);
  const file = join(first.build.dir, 'build.json');
  const legacy = () => {
    const { installed: _, hashesRecordedAfterBuild: __, ...old } = JSON.parse(readFileSync(file, 'utf8'));
    writeFileSync(file, JSON.stringify(old));
  };
  legacy();
  // the stand-in's libraries are not archives; a real build's are (an empty one is the magic line alone)
  for (const lib of ['libcrypto.a', 'libssl.a']) writeFileSync(join(first.build.prefix, 'lib', lib), '!<arch>\n');
  const adopted = await buildStandIn(v);
  assert.equal(adopted.ok && adopted.cached, true, 'served from the cache');
  const json = JSON.parse(readFileSync(file, 'utf8'));
  assert.equal(json.installed['bin/openssl'], sha256Of(join(first.build.prefix, 'bin/openssl')));
  assert.match(json.hashesRecordedAfterBuild, /^\d{4}-/);
  // a legacy entry whose app no longer runs is not adopted: rebuilt
  legacy();
  writeFileSync(join(first.build.prefix, 'bin/openssl'), '#!/bin/sh\nexit 1\n');
  const rebuilt = await buildStandIn(v);
  assert.equal(rebuilt.ok && rebuilt.cached, false, 'rebuilt');
});

test("builders of one key racing each other all get a whole install: none deletes another's entry", async () => {
  const { v } = standInRelease('raced.crate');
  const script = `
    process.env.OBSERVATORY_CACHE = ${JSON.stringify(cache)};
    const { buildOne } = await import(${JSON.stringify(new URL('./build.ts', import.meta.url).href)});
    const r = await buildOne({ version: ${JSON.stringify(v)}, variant: 'default' }, 1, () => {});
    console.log(JSON.stringify(r.ok ? { ok: true, prefix: r.build.prefix } : r));`;
  // make ends at about the same time in every builder; the slow \`openssl version\` widens the moment
  // between an entry's move into place and its record
  const builders = Array.from({ length: 4 }, () => {
    const child = spawn(process.execPath, ['--input-type=module', '-e', script], {
      env: { ...process.env, SLOW_MAKE: '1', SLOW_VERSION: '1' },
      stdio: ['ignore', 'pipe', 'inherit'],
    });
    let out = '';
    child.stdout.on('data', (d: Buffer) => (out += d.toString()));
    return new Promise<{ ok: boolean; prefix?: string; error?: string }>((resolve) =>
      child.on('close', () => resolve(JSON.parse(out.trim() || '{"ok":false,"error":"no output"}'))),
    );
  });
  const results = await Promise.all(builders);
  for (const r of results) {
    assert.ok(r.ok, r.error);
    for (const f of ['bin/openssl', 'lib/libcrypto.a', 'lib/libssl.a']) assert.ok(existsSync(join(r.prefix!, f)), `${r.prefix}/${f} is gone`);
  }
  const entry = await buildStandIn(v);
  assert.ok(entry.ok && entry.cached, 'one whole entry is left, served from the cache');
  if (!entry.ok) return;
  const name = entry.build.dir.split('/').at(-1)!;
  assert.deepEqual(
    readdirSync(join(cache, 'builds')).filter((n) => n.startsWith(`${name}.`) && n !== `${name}.lock`),
    [],
    'no temporary or aside folder left behind',
  );
});
