// What goes into a build of a TLS library and into its cache key: OpenSSL's common Configure options and
// target, the compiler, and the other libraries' recipe options (runner/recipes.ts).
import { execFileSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { compareSeries, libraryOf, VARIANTS, type BuildRequest, type CatalogueVersion, type LibraryRelease } from '../../catalogue/index.ts';
import { recipeOf } from '../recipes.ts';

/** Bumped when runner/build/ changes how a binary is produced, so old cache entries stop matching. */
const BUILD_RECIPE = 2;

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

export const LIBDIR = '--libdir=lib';
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

/** Everything that changes the binary goes into the key. */
export function cacheKey(parts: { sourceSha256: string; configure: string[]; compiler: string; cflagsEnv: string; target: string }): string {
  const text = JSON.stringify({ recipe: BUILD_RECIPE, ...parts });
  return createHash('sha256').update(text).digest('hex').slice(0, 16);
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

/** The release of another library, or undefined for OpenSSL. */
export const otherLibrary = (v: CatalogueVersion): LibraryRelease | undefined => (libraryOf(v) === 'openssl' ? undefined : (v as LibraryRelease));
