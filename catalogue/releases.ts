// Looking releases up and ordering them: what a command line names, the default matrix, the previous
// release and the baseline of a version.
import type { Library } from '../schema/index.ts';
import { LIBRARY_NAMES, LIBRARY_RELEASES, OTHER_LIBRARIES, type LibraryRelease } from './libraries.ts';
import { SERIES, VARIANTS, VERSIONS, type CatalogueVersion, type ReleaseSeries } from './openssl.ts';

/** Every release we can build, OpenSSL first. */
export const allReleases = (): CatalogueVersion[] => [...VERSIONS, ...LIBRARY_RELEASES];

export const libraryOf = (v: Pick<CatalogueVersion, 'library'>): Library => v.library ?? 'openssl';

/** The catalogue's release of a build (its library and version), if it has it. */
export const cataloguedRelease = (b: { library: Library; version: string }): CatalogueVersion | undefined =>
  allReleases().find((v) => libraryOf(v) === b.library && v.version === b.version);

/**
 * One build to make or measure: a catalogued release (its `library` is set for every library but
 * OpenSSL; libraryOf(version) reads it) and a variant of it. What resolveBuildSpec returns, what
 * runner/build/ builds and runner/run.ts measures.
 */
export interface BuildRequest {
  version: CatalogueVersion;
  variant: string;
}

/**
 * What a user typed on a command line: an OpenSSL version or series ("3.5.7", "3.5"), or another library
 * ("aws-lc", "aws-lc@5.12.0"), each with an optional ":variant".
 */
export function resolveBuildSpec(spec: string): BuildRequest {
  const [what = '', variant = 'default', ...extra] = spec.split(':');
  if (extra.length) throw new Error(`"${spec}": one ":" at most (version:variant)`);
  const [name = '', at] = what.split('@');
  const library = OTHER_LIBRARIES.find((l) => l === name);
  if (!library) {
    if (at !== undefined) throw new Error(`"${spec}": "@" names a release of another library (aws-lc@5.12.0); OpenSSL takes a version or series`);
    const version = resolveVersion(what);
    const bad = variantAllowed(version, variant);
    if (bad) throw new Error(bad);
    return { version, variant };
  }
  const releases = LIBRARY_RELEASES.filter((r) => r.library === library);
  if (!releases.length) throw new Error(`no release of ${LIBRARY_NAMES[library]} is catalogued`);
  const release = at === undefined ? releases.at(-1)! : releases.find((r) => r.version === at);
  if (!release) throw new Error(`"${spec}": ${LIBRARY_NAMES[library]} ${at} is not catalogued (known: ${releases.map((r) => r.version).join(', ')})`);
  if (!release.variants[variant])
    throw new Error(`"${spec}": ${LIBRARY_NAMES[release.library]} has no variant "${variant}" (known: ${Object.keys(release.variants).join(', ')})`);
  return { version: release, variant };
}

/** Display order: OpenSSL by version, then the other libraries by name and version. */
export function compareReleases(a: Pick<CatalogueVersion, 'library' | 'version'>, b: Pick<CatalogueVersion, 'library' | 'version'>): number {
  const la = libraryOf(a);
  const lb = libraryOf(b);
  if (la !== lb) return la === 'openssl' ? -1 : lb === 'openssl' ? 1 : la.localeCompare(lb);
  if (la === 'openssl') return compareVersions(a.version, b.version);
  return a.version.localeCompare(b.version, 'en', { numeric: true });
}

/** Compare release series numerically: '1.1.1' < '3.0' < '3.10'. */
export function compareSeries(a: string, b: string): number {
  const pa = a.split('.').map(Number);
  const pb = b.split('.').map(Number);
  for (let i = 0; i < Math.max(pa.length, pb.length); i++) {
    const d = (pa[i] ?? 0) - (pb[i] ?? 0);
    if (d !== 0) return d;
  }
  return 0;
}

/** Compare full versions: 1.1.1u < 1.1.1w < 3.0.2 < 3.0.22. */
export function compareVersions(a: string, b: string): number {
  const parse = (v: string) => {
    const m = /^(\d+)\.(\d+)\.(\d+)([a-z]?)$/.exec(v);
    if (!m) throw new Error(`not an OpenSSL version: ${v}`);
    return [Number(m[1]), Number(m[2]), Number(m[3]), m[4] ? m[4].charCodeAt(0) - 96 : 0];
  };
  const pa = parse(a);
  const pb = parse(b);
  for (let i = 0; i < 4; i++) if (pa[i] !== pb[i]) return pa[i]! - pb[i]!;
  return 0;
}

/** The release every OpenSSL release is also compared with, where a run measured it. */
export const BASELINE_VERSION = '1.1.1w';

/**
 * What an OpenSSL release's figure is compared with in one run (the summary's vsPreviousSeries and
 * vsBaseline; a run measured until decided stops a series by these comparisons): among `others`, the
 * releases of the same run and series key, the newest release of the newest older series, and the baseline.
 */
export function comparedWith<T extends { series: string; version: string }>(e: T, others: readonly T[]): { previous?: T; baseline?: T } {
  const previous = others
    .filter((o) => compareSeries(o.series, e.series) < 0)
    .sort((a, b) => compareSeries(b.series, a.series) || compareVersions(b.version, a.version))[0];
  const baseline = others.find((o) => o.version === BASELINE_VERSION && o !== e);
  return { ...(previous ? { previous } : {}), ...(baseline ? { baseline } : {}) };
}

export function seriesOf(version: string): ReleaseSeries {
  const v = VERSIONS.find((x) => x.version === version);
  const s = SERIES.find((x) => x.series === (v?.series ?? ''));
  if (!s) throw new Error(`unknown version ${version}`);
  return s;
}

export function isDefective(version: string): string[] {
  return seriesOf(version)
    .knownDefects.filter((d) => d.versions.includes(version))
    .map((d) => d.id);
}

/** The newest obtainable patch of a series that has no known measurement-affecting defect. */
export function newestOf(series: string): CatalogueVersion {
  const candidates = VERSIONS.filter((v) => v.series === series).sort((a, b) => compareVersions(b.version, a.version));
  const clean = candidates.find((v) => isDefective(v.version).length === 0) ?? candidates[0];
  if (!clean) throw new Error(`no obtainable version of series ${series}`);
  return clean;
}

/** The default matrix: the newest clean patch of every series, oldest series first. */
export const DEFAULT_MATRIX: string[] = SERIES.map((s) => newestOf(s.series).version);

/** Resolve what a user typed: a full version ("3.5.7") or a series ("3.5" -> its newest clean patch). */
export function resolveVersion(spec: string): CatalogueVersion {
  const exact = VERSIONS.find((v) => v.version === spec);
  if (exact) return exact;
  if (SERIES.some((s) => s.series === spec)) return newestOf(spec);
  const known = SERIES.map((s) => s.series).join(', ');
  throw new Error(`unknown OpenSSL version or series "${spec}": use a series (${known}) or a version listed by \`npm run openssl -- list\``);
}

export function variantAllowed(
  version: Pick<CatalogueVersion, 'version' | 'series' | 'library'> & { variants?: LibraryRelease['variants'] },
  variant: string,
): string | null {
  // a release object carries its variants; a bare (library, version) is looked up
  const variants = version.variants ?? LIBRARY_RELEASES.find((r) => r.library === version.library && r.version === version.version)?.variants;
  if (version.library && version.library !== 'openssl')
    return variants?.[variant] ? null : `unknown variant "${variant}" of ${LIBRARY_NAMES[version.library]} ${version.version}`;
  const v = VARIANTS[variant];
  if (!v) return `unknown variant "${variant}" (known: ${Object.keys(VARIANTS).join(', ')})`;
  if (compareSeries(version.series, v.minSeries) < 0) return `variant ${variant} needs OpenSSL ${v.minSeries} or newer, not ${version.version}`;
  return null;
}
