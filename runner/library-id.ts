// What our C programs report as their library (c-common/library.c library_version()) and whether it is
// the build that was asked for: a static binary carries its library, so a mismatch means numbers from
// another build.
import type { Build } from '../schema/index.ts';
import { listCached, requireBuilds, type CachedBuild } from './build/cache.ts';
import { buildSlug, LIBRARY_NAMES, versionWords } from '../catalogue/index.ts';

/** Any library our programs can report ("OpenSSL 3.5.7 1 Jul 2025", "AWS-LC 5.12.0", "BoringSSL API 44", "wolfSSL 5.9.4"). */
export const LIBRARY_VERSION_PATTERN = new RegExp(`^(${Object.values(LIBRARY_NAMES).join('|')}) \\S+`);

/**
 * Null when `reported` is the library of `build`, else why not. OpenSSL adds its release date; another
 * library reports its name and its release number as readers know it (catalogue versionWords: BoringSSL,
 * which has no releases, its API version).
 */
export function libraryMismatch(reported: string, build: Pick<Build, 'library' | 'version'>): string | null {
  const library = build.library ?? 'openssl'; // records written before the library dimension are OpenSSL
  const expected = `${LIBRARY_NAMES[library]} ${versionWords({ library, version: build.version, variant: 'default' })}`;
  const ok = library === 'openssl' ? reported.startsWith(`${expected} `) : reported === expected;
  return ok ? null : `the binary reports "${reported}", not ${expected}`;
}

/**
 * Cached builds for the capture scripts: each spec is a build slug ("aws-lc-5.12.0", "3.5.7") of a
 * cached build, or a spec the catalogue resolves (requireBuilds). No specs: every cached default build.
 */
export function buildsForCapture(specs: string[]): CachedBuild[] {
  const cached = listCached();
  const bySlug = (s: string) => cached.find((b) => buildSlug(b.record) === s);
  const unresolved = specs.filter((s) => !bySlug(s));
  return [...specs.map(bySlug).filter((b): b is CachedBuild => b !== undefined), ...(unresolved.length || !specs.length ? requireBuilds(unresolved) : [])];
}
