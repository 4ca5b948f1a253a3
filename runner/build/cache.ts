// The content-addressed cache of builds.
//
// A cache entry is <cache>/builds/<version>-<variant>-<key>/ (another library: <library>-<version>-...)
// with install/, build.log and build.json. A build happens in <entry>.tmp-<pid>/, which gets its
// build.json last and then takes the entry's name by one rename, under a per-key lock (<entry>.lock):
// an entry is always whole, a killed build leaves only its .tmp-<pid>, and two builders of one key never
// delete each other's entry. build.json records the sha256 of every installed file; an entry counts as a
// build only while they all match (a truncated `openssl`, a changed libcrypto.a is rebuilt, not used).
import { execFileSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { existsSync, lstatSync, readFileSync, readdirSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { z } from 'zod';
import { Build } from '../../schema/index.ts';
import { LIBRARY_RELEASES, compareReleases, libraryOf, resolveBuildSpec, type BuildRequest, type CatalogueVersion } from '../../catalogue/index.ts';
import { cacheRoot } from '../sources.ts';
import { plannedKey } from './options.ts';

export const buildsDir = () => join(cacheRoot(), 'builds');

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
export function readEntry(dir: string): (CachedBuild & { installed?: Record<string, string> }) | undefined {
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
export function wholeEntry(dir: string): CachedBuild | undefined {
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

/** The complete, pinned cache entry a request would use, if there is one (no fetch, no lock). */
export function alreadyBuilt(req: BuildRequest): boolean {
  try {
    return req.version.sources.some((src) => {
      const hit = wholeEntry(entryDir(req.version, req.variant, plannedKey(req, src.sha256).key));
      return hit !== undefined && hit.record.source.sha256 === src.sha256;
    });
  } catch {
    return false; // no compiler: buildOne says so
  }
}
