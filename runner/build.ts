// Build OpenSSL releases with one set of options (and the other libraries with their own recipes,
// runner/recipes.ts) into a content-addressed cache.
//
// A cache entry is <cache>/builds/<version>-<variant>-<key>/ (another library: <library>-<version>-...)
// with install/, build.log and build.json. A build happens in <entry>.tmp-<pid>/, which gets its
// build.json last and then takes the entry's name by one rename, under a per-key lock (<entry>.lock):
// an entry is always whole, a killed build leaves only its .tmp-<pid>, and two builders of one key never
// delete each other's entry. build.json records the sha256 of every installed file; an entry counts as a
// build only while they all match (a truncated `openssl`, a changed libcrypto.a is rebuilt, not used).
import { once } from 'node:events';
import { execFileSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { createWriteStream, existsSync, lstatSync, mkdirSync, readFileSync, readdirSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { cpus } from 'node:os';
import { basename, join } from 'node:path';
import { z } from 'zod';
import { Build } from '../schema/index.ts';
import {
  LIBRARY_RELEASES,
  compareReleases,
  compareSeries,
  libraryOf,
  resolveBuildSpec,
  variantAllowed,
  VARIANTS,
  type BuildRequest,
  type CatalogueVersion,
  type LibraryRelease,
} from '../catalogue/index.ts';
import { installedVersionString, missingTool, recipeOf } from './recipes.ts';
import { programEnv, spawnGroup } from './child-guard.ts';
import { withFileLock, withSharedLock } from './host-lock.ts';
import { cacheRoot, obtainSource } from './sources.ts';

/** Bumped when this file changes how a binary is produced, so old cache entries stop matching. */
const BUILD_RECIPE = 2;

export const buildsDir = () => join(cacheRoot(), 'builds');

/**
 * The common options. Static libraries and the `openssl` app; no tests, no docs, no loadable modules
 * (the crate drops util/*.num, which shared libraries and modules need). Options that a series does
 * not know are left out for that series only: 1.1.1 has no `no-module`, `no-docs` appeared in 3.2.
 */
export function configureArgs(series: string, variant: string): string[] {
  const args = ['no-shared', 'no-tests'];
  if (compareSeries(series, '3.0') >= 0) args.push('no-module');
  if (compareSeries(series, '3.2') >= 0) args.push('no-docs');
  return [...args, ...(VARIANTS[variant]?.configureArgs ?? [])];
}

export function configureTarget(arch: string = process.arch): string {
  if (arch === 'x64') return 'linux-x86_64';
  if (arch === 'arm64') return 'linux-aarch64';
  throw new Error(`no OpenSSL Configure target known for ${process.platform}/${arch}`);
}

const LIBDIR = '--libdir=lib';
/** The Configure arguments an OpenSSL build records (the install paths left out): what provenance checks hold a run to. */
export function recordedConfigureArgs(series: string, variant: string, arch: string = process.arch): string[] {
  return [configureTarget(arch), LIBDIR, ...configureArgs(series, variant)];
}

/**
 * The flags OpenSSL's own Configure gives the targets we build (CFLAGS + cflags of configdata.pm), when
 * no CFLAGS are set in the environment: the optimisation level is -O3 and nothing else changes code.
 */
export const OPENSSL_DEFAULT_CFLAGS = ['-Wall', '-O3', '-Wa,--noexecstack', '-pthread'];

export function toolVersion(cmd: string, args = ['--version']): string {
  try {
    return execFileSync(cmd, args, { encoding: 'utf8', stdio: ['ignore', 'pipe', 'pipe'] })
      .split('\n')[0]!
      .trim();
  } catch {
    throw new Error(`${cmd} is not installed (needed to build the TLS libraries): install it, e.g. apt-get install ${cmd === 'cc' ? 'gcc' : cmd}`);
  }
}

export type { BuildRequest } from '../catalogue/index.ts';

/** Everything that changes the binary goes into the key. */
export function cacheKey(parts: { sourceSha256: string; configure: string[]; compiler: string; cflagsEnv: string; target: string }): string {
  const text = JSON.stringify({ recipe: BUILD_RECIPE, ...parts });
  return createHash('sha256').update(text).digest('hex').slice(0, 16);
}

/** "3.5.7" for OpenSSL (as always), "aws-lc-5.12.0" for another library: the start of its cache entry's name. */
export const releaseName = (v: Pick<CatalogueVersion, 'library' | 'version'>): string => (libraryOf(v) === 'openssl' ? v.version : `${v.library}-${v.version}`);

export function entryDir(v: Pick<CatalogueVersion, 'library' | 'version'>, variant: string, key: string): string {
  return join(buildsDir(), `${releaseName(v)}-${variant}-${key}`);
}

/** The catalogue entry a build record belongs to, or undefined when the catalogue has none. */
export function releaseOfRecord(record: Pick<Build, 'library' | 'version'>): CatalogueVersion | undefined {
  try {
    return record.library === 'openssl'
      ? resolveBuildSpec(record.version).version
      : LIBRARY_RELEASES.find((r) => r.library === record.library && r.version === record.version);
  } catch {
    return undefined;
  }
}

export interface CachedBuild {
  dir: string;
  prefix: string;
  record: Build;
}

/** What build.json holds: the build record and the sha256 of every installed file. */
const EntryFile = z.object({ installed: z.record(z.string(), z.string().regex(/^[0-9a-f]{64}$/)) });

/** sha256 of every regular file under an install prefix (bin/openssl, lib/libcrypto.a, headers...), by path relative to it. */
export function installedHashes(prefix: string): Record<string, string> {
  const out: Record<string, string> = {};
  for (const rel of (readdirSync(prefix, { recursive: true }) as string[]).sort()) {
    const path = join(prefix, rel);
    if (lstatSync(path).isFile()) out[rel] = createHash('sha256').update(readFileSync(path)).digest('hex');
  }
  return out;
}

/**
 * The binary identity of a cached build: one sha256 over the sha256 of every installed file that its
 * build.json recorded at build time (path and hash, in path order); undefined when it records none.
 * Deterministic results are reused by it (runner/deterministic.ts).
 */
export function binarySha256(dir: string): string | undefined {
  const installed = readEntry(dir)?.installed;
  if (!installed || !Object.keys(installed).length) return undefined;
  const lines = Object.keys(installed)
    .sort()
    .map((rel) => `${rel} ${installed[rel]}\n`);
  return createHash('sha256').update(lines.join('')).digest('hex');
}

/** A cache entry whose build.json exists and validates (not yet checked against its files). */
function readEntry(dir: string): (CachedBuild & { installed?: Record<string, string> }) | undefined {
  try {
    const json = JSON.parse(readFileSync(join(dir, 'build.json'), 'utf8'));
    const parsed = Build.safeParse(json);
    if (!parsed.success) return undefined;
    const files = EntryFile.safeParse(json);
    const entry = { dir, prefix: join(dir, 'install'), record: parsed.data };
    if (files.success) return { ...entry, installed: files.data.installed };
    const adopted = adoptUnhashed(entry, json);
    return adopted ? { ...entry, installed: adopted } : entry;
  } catch {
    return undefined;
  }
}

/**
 * An entry built before build.json recorded hashes: its hashes are recorded now, once, if its files work
 * (every static library reads as an archive; OpenSSL's `openssl version` names the recorded version),
 * and build.json says they were recorded afterwards. Else null, and the entry is rebuilt. Spares every
 * machine a rebuild of its whole cache; from then on the entry is checked like any other.
 */
function adoptUnhashed(entry: CachedBuild, json: Record<string, unknown>): Record<string, string> | null {
  try {
    const libs = join(entry.prefix, 'lib');
    const archives = existsSync(libs) ? readdirSync(libs).filter((n) => n.endsWith('.a')) : [];
    if (archives.length === 0) return null;
    for (const a of archives) execFileSync('ar', ['t', join(libs, a)], { stdio: 'ignore' });
    const app = join(entry.prefix, 'bin', 'openssl');
    if (entry.record.library === 'openssl' && !execFileSync(app, ['version'], { encoding: 'utf8' }).includes(` ${entry.record.version} `)) return null;
    const installed = installedHashes(entry.prefix);
    const file = join(entry.dir, 'build.json');
    writeFileSync(`${file}.tmp-${process.pid}`, JSON.stringify({ ...json, installed, hashesRecordedAfterBuild: new Date().toISOString() }, null, 2) + '\n');
    renameSync(`${file}.tmp-${process.pid}`, file);
    return installed;
  } catch {
    return null;
  }
}

/** Why an entry's installed files are not what its build installed, or null when every recorded hash matches. */
export function damage(entry: CachedBuild & { installed?: Record<string, string> }): string | null {
  if (!entry.installed || !Object.keys(entry.installed).length)
    return 'its build.json records no hashes of the installed files (built by an older version of this tool)';
  for (const [rel, sha256] of Object.entries(entry.installed)) {
    const path = join(entry.prefix, rel);
    if (!existsSync(path)) return `install/${rel} is missing`;
    if (createHash('sha256').update(readFileSync(path)).digest('hex') !== sha256) return `install/${rel} is not the file the build installed (sha256 differs)`;
  }
  return null;
}

/** An entry that is a build: build.json validates and every installed file is the one it records. */
function wholeEntry(dir: string): CachedBuild | undefined {
  const entry = readEntry(dir);
  return entry && damage(entry) === null ? entry : undefined;
}

/** A cached build made from anything but the catalogue's pinned source is refused, never used. */
export class CacheIntegrityError extends Error {}

/**
 * Throws when the build's recorded source is not one the catalogue pins for its version: a cache is
 * not a trust anchor, and the key alone cannot tell (it is computed from the recorded hash).
 */
export function verifyCachedSource(b: CachedBuild, v: CatalogueVersion | undefined = releaseOfRecord(b.record)): void {
  if (!v)
    throw new CacheIntegrityError(`the cached build ${b.dir} is of ${b.record.library} ${b.record.version}, which the catalogue does not list: delete it`);
  const src = b.record.source;
  if (v.sources.some((pin) => pin.sha256 === src.sha256 && pin.file === src.name)) return;
  const pins = v.sources.map((pin) => `${pin.file} ${pin.sha256}`).join(', ');
  throw new CacheIntegrityError(
    `the cached build ${b.dir} of ${b.record.library} ${b.record.version} was made from ${src.name} with sha256 ${src.sha256}, ` +
      `which is not the catalogue's pin (${pins}). Refusing to use it: delete that directory and build again (npm run openssl -- build ${b.record.library === 'openssl' ? b.record.version : b.record.library}).`,
  );
}

const pidAlive = (pid: number) => {
  try {
    process.kill(pid, 0);
    return true;
  } catch (e) {
    return (e as NodeJS.ErrnoException).code === 'EPERM';
  }
};

/**
 * Remove what killed builds, compiles and downloads left behind: `<name>.tmp-<pid>` (build directories,
 * compiled helpers) and `<name>.partial-<pid>-<time>` (downloads) whose process is gone. A live
 * process's temporary files are left alone. Returns what was removed.
 */
export function cleanStaleTemps(): string[] {
  const removed: string[] = [];
  for (const dir of [buildsDir(), join(cacheRoot(), 'downloads'), ...toolDirs()]) {
    if (!existsSync(dir)) continue;
    for (const name of readdirSync(dir)) {
      const pid = /\.(?:tmp|partial|stale)-(\d+)(?:-\d+)?$/.exec(name)?.[1];
      if (!pid || pidAlive(Number(pid))) continue;
      rmSync(join(dir, name), { recursive: true, force: true });
      removed.push(join(dir, name));
    }
  }
  return removed;
}

function toolDirs(): string[] {
  const tools = join(cacheRoot(), 'tools');
  return existsSync(tools) ? readdirSync(tools).map((n) => join(tools, n)) : [];
}

export function listCached(): CachedBuild[] {
  if (!existsSync(buildsDir())) return [];
  return readdirSync(buildsDir())
    .map((name) => readEntry(join(buildsDir(), name)))
    .filter((b): b is CachedBuild => b !== undefined);
}

/** The key a request would have now, or an error saying what is missing. */
export function plannedKey(req: BuildRequest, sourceSha256: string): { key: string; configure: string[] } {
  const release = otherLibrary(req.version);
  // OpenSSL's key parts are exactly what they always were, so existing cache entries keep matching
  const configure = release ? recipeOf(release).options(release, req.variant) : configureArgs(req.version.series, req.variant);
  const key = cacheKey({
    sourceSha256,
    configure,
    compiler: toolVersion('cc'),
    cflagsEnv: process.env.CFLAGS ?? '',
    target: release ? `${release.library}/${release.recipe}/${process.arch}` : configureTarget(),
  });
  return { key, configure };
}

const otherLibrary = (v: CatalogueVersion): LibraryRelease | undefined => (libraryOf(v) === 'openssl' ? undefined : (v as LibraryRelease));

/**
 * The cached build of a version (or any build spec: "3.5", "aws-lc") and variant; throws
 * CacheIntegrityError for one made from an unpinned source.
 */
export function findCached(spec: string | CatalogueVersion, variant: string): CachedBuild | undefined {
  const v = typeof spec === 'string' ? resolveBuildSpec(spec).version : spec;
  const library = libraryOf(v);
  const matches = listCached().filter((b) => b.record.library === library && b.record.version === v.version && b.record.variant === variant);
  for (const b of matches) {
    const { key } = plannedKey({ version: v, variant }, b.record.source.sha256);
    if (b.record.id !== key) continue;
    verifyCachedSource(b, v);
    const why = damage(b);
    if (why)
      throw new CacheIntegrityError(
        `the cached build ${b.dir} cannot be used: ${why}. Build it again: npm run openssl -- build ${spec === v ? v.version : spec}${variant === 'default' ? '' : ` --variant ${variant}`}`,
      );
    return b;
  }
  return undefined;
}

/**
 * Cached builds of the named versions or series (every cached build of the variant when none is named),
 * oldest first, for the scripts that capture fixtures and time things by hand. A version that is not
 * built is an error saying how to build it.
 */
export function requireBuilds(versions: string[], variant = 'default'): CachedBuild[] {
  const builds = versions.length
    ? versions.map((v) => {
        const hit = findCached(v, variant);
        if (!hit) throw new Error(`${v} (${variant}) is not built: npm run openssl -- build ${v}${variant === 'default' ? '' : `:${variant}`}`);
        return hit;
      })
    : listCached().filter((b) => b.record.variant === variant);
  if (!builds.length) throw new Error(`no cached ${variant} build: npm run openssl -- build <version or library>`);
  return builds.sort((a, b) => compareReleases(a.record, b.record));
}

export type Progress = (version: string, variant: string, step: string) => void;

/**
 * One build step, logged. It runs as a guarded process group (runner/child-guard.ts): a killed build
 * leaves no make or cc running into the next measurement.
 */
export function runLogged(cmd: string, args: string[], cwd: string, log: NodeJS.WritableStream, env: NodeJS.ProcessEnv): Promise<void> {
  return new Promise((resolve, reject) => {
    log.write(`\n$ ${cmd} ${args.join(' ')}\n`);
    const child = spawnGroup(cmd, args, { cwd, env, stdio: ['ignore', 'pipe', 'pipe'] });
    child.stdout!.pipe(log, { end: false });
    child.stderr!.pipe(log, { end: false });
    child.on('error', (e) => reject(new Error(`${cmd}: ${e.message}`)));
    child.on('close', (code, signal) => (code === 0 ? resolve() : reject(new Error(`${cmd} ${args[0] ?? ''} exited with ${code ?? signal}`))));
  });
}

function readVersionInfo(srcDir: string): { releaseDate?: string } {
  const dat = join(srcDir, 'VERSION.dat');
  if (existsSync(dat)) {
    const m = /RELEASE_DATE="([^"]+)"/.exec(readFileSync(dat, 'utf8'));
    return m ? { releaseDate: m[1] } : {};
  }
  const h = join(srcDir, 'include', 'openssl', 'opensslv.h');
  const m = existsSync(h) ? /OPENSSL_VERSION_TEXT\s+"OpenSSL \S+\s+(\d+ \w+ \d{4})"/.exec(readFileSync(h, 'utf8')) : null;
  return m ? { releaseDate: m[1] } : {};
}

/** Build one version+variant unless a complete cache entry exists. Never throws for a build failure: returns it. */
export async function buildOne(
  req: BuildRequest,
  jobs: number,
  progress: Progress,
): Promise<{ ok: true; build: CachedBuild; cached: boolean } | { ok: false; error: string; log?: string }> {
  const { version: v, variant } = req;
  const name = releaseName(v);
  const other = otherLibrary(v);
  const not = variantAllowed(v, variant) ?? (other ? missingTool(other.library, recipeOf(other)) : null);
  if (not) return { ok: false, error: not };
  let log: string | undefined;
  try {
    progress(name, variant, 'fetch');
    const { source, path: archive } = await obtainSource(v, undefined, (m) => progress(name, variant, m));
    const { key, configure } = plannedKey(req, source.sha256);
    const dir = entryDir(v, variant, key);
    const cached = readEntry(dir);
    if (cached?.record.id === key) {
      verifyCachedSource(cached, v);
      const why = damage(cached);
      if (!why) return { ok: true, build: cached, cached: true };
      progress(name, variant, `the cached build cannot be used (${why}): building it again`);
    }
    // the entry (damaged, or an older tool's interrupted build) is replaced below by rename, never deleted in place
    const tmp = `${dir}.tmp-${process.pid}`;
    rmSync(tmp, { recursive: true, force: true });
    mkdirSync(join(tmp, 'src'), { recursive: true });
    // one log per builder: two builders of one key must not write into one file
    log = join(buildsDir(), 'logs', `${basename(tmp)}.log`);
    mkdirSync(join(buildsDir(), 'logs'), { recursive: true });
    const logStream = createWriteStream(log);
    // the stream opens its file asynchronously: a fast build could otherwise rename the log before it exists
    await once(logStream, 'open');
    const started = Date.now();
    const env = { ...process.env, LC_ALL: 'C' };
    const run = (cmd: string, args: string[], cwd: string) => runLogged(cmd, args, cwd, logStream, env);
    try {
      progress(name, variant, 'unpack');
      await run('tar', ['xzf', archive, '-C', join(tmp, 'src')], tmp);
      const srcDir = join(tmp, 'src', source.root);
      const step = (s: string) => progress(name, variant, s);
      const built = other
        ? await buildWithRecipe(other, { srcDir, workDir: tmp, installDir: join(tmp, 'install'), options: configure, jobs, run, step })
        : await buildOpenSSL(v, { srcDir, tmp, prefix: join(dir, 'install'), configure, jobs, run, step });
      rmSync(join(tmp, 'src'), { recursive: true, force: true });
      rmSync(join(tmp, 'cmake-build'), { recursive: true, force: true });
      const record: Build = {
        id: key,
        library: libraryOf(v),
        version: v.version,
        series: v.series,
        variant,
        versionString: '',
        source: { kind: source.kind, name: source.file, sha256: source.sha256, ...(source.kind === 'upstream-tarball' ? { url: source.ref } : {}) },
        configureArgs: built.recordedArgs,
        compiler: toolVersion('cc'),
        cflags: built.cflags,
        builtAt: new Date().toISOString(),
        buildSeconds: (Date.now() - started) / 1000,
        ...(built.releaseDate ? { releaseDate: built.releaseDate } : {}),
      };
      // the entry is complete inside tmp/ (its record last) before it takes the entry's name
      const staged = join(tmp, 'install');
      record.versionString = other ? installedVersionString(other, staged) : opensslVersion(staged);
      writeFileSync(join(tmp, 'build.json'), JSON.stringify({ ...Build.parse(record), installed: installedHashes(staged) }, null, 2) + '\n');
      renameSync(log, join(tmp, 'build.log'));
      const aside = `${dir}.stale-${process.pid}`;
      const theirs = await withFileLock(`${dir}.lock`, () => {
        // another process may have finished the same build meanwhile: theirs is as good as ours
        const raced = wholeEntry(dir);
        if (raced?.record.id === key) return raced;
        // a damaged entry is moved aside in one rename, so no reader ever sees half of it
        if (existsSync(dir)) renameSync(dir, aside);
        renameSync(tmp, dir);
        return undefined;
      });
      rmSync(aside, { recursive: true, force: true });
      if (theirs) return { ok: true, build: theirs, cached: true };
      return { ok: true, build: { dir, prefix: join(dir, 'install'), record }, cached: false };
    } finally {
      logStream.end();
      rmSync(tmp, { recursive: true, force: true });
    }
  } catch (e) {
    return { ok: false, error: (e as Error).message, ...(log ? { log } : {}) };
  }
}

type Built = { recordedArgs: string[]; cflags: string; releaseDate?: string };
type Run = (cmd: string, args: string[], cwd: string) => Promise<void>;

/** OpenSSL: Configure with the common options, build, install into the final prefix through DESTDIR. */
async function buildOpenSSL(
  v: CatalogueVersion,
  o: { srcDir: string; tmp: string; prefix: string; configure: string[]; jobs: number; run: Run; step: (s: string) => void },
): Promise<Built> {
  const { srcDir, tmp, prefix, configure, jobs, run, step } = o;
  step('configure');
  const args = [configureTarget(), `--prefix=${prefix}`, LIBDIR, `--openssldir=${join(prefix, 'ssl')}`, ...configure];
  await run('perl', ['./Configure', ...args], srcDir);
  const cflags = execFileSync('perl', ['-e', 'require "./configdata.pm"; print join(" ", @{$configdata::config{CFLAGS}}, @{$configdata::config{cflags}})'], {
    cwd: srcDir,
    encoding: 'utf8',
  }).trim();
  // 1.1.1 has no build_sw target; its default target builds no docs
  const target = compareSeries(v.series, '3.0') >= 0 ? ['build_sw'] : [];
  step('make');
  await run('make', [`-j${jobs}`, ...target], srcDir);
  step('install');
  // install into the final path (OpenSSL bakes the prefix in), then move the entry into place
  const tmpPrefix = join(tmp, 'install');
  await run('make', ['install_sw', `DESTDIR=${tmpPrefix}`], srcDir);
  renameSync(join(tmpPrefix, prefix), join(tmp, 'staged'));
  rmSync(tmpPrefix, { recursive: true, force: true });
  renameSync(join(tmp, 'staged'), join(tmp, 'install'));
  // install_sw does not install openssl.cnf; give the app an explicit, empty one
  mkdirSync(join(tmp, 'install', 'ssl'), { recursive: true });
  writeFileSync(join(tmp, 'install', 'ssl', 'openssl.cnf'), '# intentionally empty: benchmarks use library defaults\n');
  const { releaseDate } = readVersionInfo(srcDir);
  return { recordedArgs: args.filter((a) => !a.startsWith('--prefix=') && !a.startsWith('--openssldir=')), cflags, ...(releaseDate ? { releaseDate } : {}) };
}

/** Another library: its recipe (runner/recipes.ts) installs static libraries and headers into installDir. */
async function buildWithRecipe(release: LibraryRelease, ctx: Parameters<ReturnType<typeof recipeOf>['build']>[0]): Promise<Built> {
  const { cflags } = await recipeOf(release).build(ctx);
  return { recordedArgs: ctx.options, cflags };
}

/** Environment for running a built `openssl` app with its own, explicit config file. */
/** What the `openssl` app of a build is run with, on top of programEnv: its own (empty) config file, the C locale. */
export function appEnv(prefix: string): Record<string, string> {
  return { OPENSSL_CONF: join(prefix, 'ssl', 'openssl.cnf'), LC_ALL: 'C' };
}

export function opensslVersion(prefix: string): string {
  return execFileSync(join(prefix, 'bin', 'openssl'), ['version'], { encoding: 'utf8', env: programEnv(appEnv(prefix)) }).trim();
}

/** The complete, pinned cache entry a request would use, if there is one (no fetch, no lock). */
function alreadyBuilt(req: BuildRequest): boolean {
  try {
    return req.version.sources.some((src) => {
      const hit = wholeEntry(entryDir(req.version, req.variant, plannedKey(req, src.sha256).key));
      return hit !== undefined && hit.record.source.sha256 === src.sha256;
    });
  } catch {
    return false; // no compiler: buildOne says so
  }
}

/**
 * Build many, in parallel up to the core count; a failure never stops the others. Building holds the
 * host lock shared (runner/host-lock.ts): builds run beside each other, never beside a measurement.
 * When everything is cached, nothing is built and no lock is taken.
 */
export async function buildMany(
  reqs: BuildRequest[],
  progress: Progress,
): Promise<{ built: { req: BuildRequest; build: CachedBuild; cached: boolean }[]; failed: { req: BuildRequest; error: string; log?: string }[] }> {
  if (reqs.every(alreadyBuilt)) return buildAll(reqs, progress);
  const what = reqs.map((r) => `${releaseName(r.version)}${r.variant === 'default' ? '' : `/${r.variant}`}`).join(' ');
  return withSharedLock(`building ${what}`, () => {
    cleanStaleTemps();
    return buildAll(reqs, progress);
  });
}

async function buildAll(
  reqs: BuildRequest[],
  progress: Progress,
): Promise<{ built: { req: BuildRequest; build: CachedBuild; cached: boolean }[]; failed: { req: BuildRequest; error: string; log?: string }[] }> {
  const cores = Math.max(1, cpus().length);
  const lanes = Math.min(cores, reqs.length) || 1;
  const jobs = Math.max(1, Math.floor(cores / lanes));
  const built: { req: BuildRequest; build: CachedBuild; cached: boolean }[] = [];
  const failed: { req: BuildRequest; error: string; log?: string }[] = [];
  const queue = [...reqs];
  await Promise.all(
    Array.from({ length: lanes }, async () => {
      for (let req = queue.shift(); req; req = queue.shift()) {
        const r = await buildOne(req, jobs, progress);
        if (r.ok) built.push({ req, build: r.build, cached: r.cached });
        else failed.push({ req, error: r.error, ...(r.log ? { log: r.log } : {}) });
      }
    }),
  );
  return { built, failed };
}
