// Build OpenSSL releases with one set of options (build/options.ts; the other libraries with their own
// recipes, runner/recipes.ts) into the content-addressed cache (build/cache.ts): a build happens in a
// temporary directory that takes the entry's name by one rename when it is whole.
import { once } from 'node:events';
import { execFileSync } from 'node:child_process';
import { createWriteStream, existsSync, mkdirSync, readFileSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { cpus } from 'node:os';
import { basename, join } from 'node:path';
import { Build } from '../../schema/index.ts';
import { compareSeries, libraryOf, variantAllowed, type BuildRequest, type CatalogueVersion, type LibraryRelease } from '../../catalogue/index.ts';
import { installedVersionString, missingTool, recipeOf } from '../recipes.ts';
import { programEnv, spawnGroup } from '../child-guard.ts';
import { withFileLock, withSharedLock } from '../host-lock.ts';
import { obtainSource } from '../sources.ts';
import {
  alreadyBuilt,
  buildsDir,
  cleanStaleTemps,
  damage,
  entryDir,
  installedHashes,
  readEntry,
  releaseName,
  verifyCachedSource,
  wholeEntry,
  type CachedBuild,
} from './cache.ts';
import { LIBDIR, configureTarget, otherLibrary, plannedKey, toolVersion } from './options.ts';

export type { BuildRequest } from '../../catalogue/index.ts';

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

/** What the `openssl` app of a build is run with, on top of programEnv: its own (empty) config file, the C locale. */
export function appEnv(prefix: string): Record<string, string> {
  return { OPENSSL_CONF: join(prefix, 'ssl', 'openssl.cnf'), LC_ALL: 'C' };
}

export function opensslVersion(prefix: string): string {
  return execFileSync(join(prefix, 'bin', 'openssl'), ['version'], { encoding: 'utf8', env: programEnv(appEnv(prefix)) }).trim();
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
