// Real servers built against a TLS library build of the cache (issue: servers in the loop): nginx and
// HAProxy from their pinned release archives (catalogue/servers.ts), linked statically against the build's
// libssl.a and libcrypto.a (its lib/ holds only the static archives, so the linker takes them), with the
// modules that would pull in other libraries (PCRE, zlib) left out. Cached per server release and library
// build in <cache>/servers/; a server that does not build against a library is recorded with why and not
// tried again until its recipe changes.
import { createHash } from 'node:crypto';
import { createWriteStream, existsSync, mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { execFileSync } from 'node:child_process';
import { SERVER_NAMES, type ServerRelease } from '../../catalogue/servers.ts';
import type { Build } from '../../schema/index.ts';
import { runLogged } from '../build/build.ts';
import { programEnv } from '../child-guard.ts';
import { cacheRoot, obtainArchive } from '../sources.ts';

/** Bump when a recipe changes: cached results of the old one are built again. */
export const SERVER_RECIPE = 1;

export interface LibraryBuild {
  record: Pick<Build, 'id' | 'library' | 'version' | 'variant'>;
  /** install prefix with include/ and lib/libssl.a, lib/libcrypto.a */
  prefix: string;
}

export interface ServerBuildRecord {
  server: ServerRelease['server'];
  version: string;
  sourceSha256: string;
  library: LibraryBuild['record'];
  recipe: number;
  commands: string[][];
  /** the server binary, relative to the entry */
  binary: string;
  binarySha256: string;
  seconds: number;
  builtAt: string;
}

export type ServerBuild = { ok: true; binary: string; record: ServerBuildRecord; cached: boolean } | { ok: false; reason: string };

export const serversDir = () => join(cacheRoot(), 'servers');
const entryOf = (release: ServerRelease, lib: LibraryBuild) =>
  join(serversDir(), `${release.server}-${release.version}-${lib.record.library}-${lib.record.version}-${lib.record.variant}-${lib.record.id}`);

/**
 * The commands that build a server against a library build, run in the unpacked source tree, installing
 * into `installDir`; the binary's path relative to the cache entry. `unsupported` (with why) where this
 * server cannot use the library.
 */
export function serverRecipe(
  release: ServerRelease,
  lib: LibraryBuild,
  installDir: string,
): { commands: string[][]; binary: string } | { unsupported: string } {
  const inc = join(lib.prefix, 'include');
  const libDir = join(lib.prefix, 'lib');
  const library = lib.record.library ?? 'openssl';
  if (release.server === 'nginx') {
    if (library !== 'openssl')
      return { unsupported: `nginx is built here against OpenSSL only (its build for ${library} needs patches this project does not carry)` };
    return {
      commands: [
        [
          './configure',
          `--prefix=${installDir}`,
          '--with-http_ssl_module',
          // rewrite needs PCRE, gzip needs zlib: neither is measured, both would link other libraries
          '--without-http_rewrite_module',
          '--without-http_gzip_module',
          `--with-cc-opt=-I${inc}`,
          `--with-ld-opt=-L${libDir} -ldl -pthread`,
        ],
        ['make', '-j2'],
        ['make', 'install'],
      ],
      binary: join('install', 'sbin', 'nginx'),
    };
  }
  const flavour: Record<string, string[]> = { openssl: ['USE_OPENSSL=1'], 'aws-lc': ['USE_OPENSSL_AWSLC=1'] };
  if (!flavour[library]) return { unsupported: `HAProxy ${release.version} is built here against OpenSSL and AWS-LC (USE_OPENSSL_AWSLC), not ${library}` };
  return {
    commands: [
      ['make', '-j2', 'TARGET=linux-glibc', ...flavour[library]!, `SSL_INC=${inc}`, `SSL_LIB=${libDir}`, 'ADDLIB=-ldl -pthread'],
      ['install', '-D', 'haproxy', join(installDir, 'haproxy')],
    ],
    binary: join('install', 'haproxy'),
  };
}

/** Build (or take from the cache) one server release against one library build. */
export async function buildServer(release: ServerRelease, lib: LibraryBuild, log: (s: string) => void = () => {}): Promise<ServerBuild> {
  const dir = entryOf(release, lib);
  const recordPath = join(dir, 'build.json');
  const failedPath = join(dir, 'failed.json');
  if (existsSync(recordPath)) {
    const record = JSON.parse(readFileSync(recordPath, 'utf8')) as ServerBuildRecord;
    const binary = join(dir, record.binary);
    if (record.recipe === SERVER_RECIPE && existsSync(binary) && binarySha256Of(binary) === record.binarySha256)
      return { ok: true, binary, record, cached: true };
  }
  if (existsSync(failedPath)) {
    const failed = JSON.parse(readFileSync(failedPath, 'utf8')) as { recipe: number; reason: string };
    if (failed.recipe === SERVER_RECIPE) return { ok: false, reason: failed.reason };
  }
  const what = `${SERVER_NAMES[release.server]} ${release.version}`;
  const { path: archive, source } = await obtainArchive([release.source], what, undefined, log);
  rmSync(dir, { recursive: true, force: true });
  mkdirSync(dir, { recursive: true });
  execFileSync('tar', ['xzf', archive, '-C', dir], { stdio: 'ignore' });
  const src = join(dir, source.root);
  const recipe = serverRecipe(release, lib, join(dir, 'install'));
  const fail = (reason: string): ServerBuild => {
    writeFileSync(failedPath, JSON.stringify({ recipe: SERVER_RECIPE, reason }, null, 2) + '\n');
    return { ok: false, reason };
  };
  if ('unsupported' in recipe) return fail(recipe.unsupported);
  const logPath = join(dir, 'build.log');
  const out = createWriteStream(logPath);
  const started = Date.now();
  log(`building ${what} against ${lib.record.library ?? 'openssl'} ${lib.record.version} (${lib.record.variant})`);
  try {
    for (const [cmd, ...args] of recipe.commands) await runLogged(cmd!, args, src, out, programEnv());
  } catch (e) {
    out.end();
    const text = readFileSync(logPath, 'utf8');
    // the first compiler error says why (against 4.0: "invalid use of incomplete typedef ASN1_INTEGER"), the tail where make stopped
    const firstError = text
      .split('\n')
      .find((l) => /\berror:/.test(l))
      ?.trim();
    const tail = text.trim().split('\n').slice(-12).join('\n');
    return fail(`${(e as Error).message}${firstError ? `: ${firstError}` : ''}\n${tail}`);
  }
  out.end();
  const binary = join(dir, recipe.binary);
  if (!existsSync(binary)) return fail(`the build finished without ${recipe.binary}`);
  rmSync(src, { recursive: true, force: true });
  const record: ServerBuildRecord = {
    server: release.server,
    version: release.version,
    sourceSha256: source.sha256,
    library: lib.record,
    recipe: SERVER_RECIPE,
    commands: recipe.commands,
    binary: recipe.binary,
    binarySha256: binarySha256Of(binary),
    seconds: (Date.now() - started) / 1000,
    builtAt: new Date().toISOString(),
  };
  writeFileSync(recordPath, JSON.stringify(record, null, 2) + '\n');
  return { ok: true, binary, record, cached: false };
}

const binarySha256Of = (file: string): string => createHash('sha256').update(readFileSync(file)).digest('hex');
