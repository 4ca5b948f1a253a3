// Which releases we measure (OpenSSL, and the other TLS libraries beside it) and where their exact
// source bytes come from. Imported by the runner, the scripts and the site alike.
//
// Every source is pinned by the sha256 of the archive we fetch. Crate hashes are the `cksum` field of
// the crates.io index for the crate (the sha256 of the .crate file: for aws-lc-sys, boring-sys and
// wolfssl-sys we hashed the .crate cargo fetched and checked it equals the cksum of that version in the
// index entry cargo cached, ~/.cargo/registry/index/*/.cache/); Debian hashes are the sha256 of
// the orig tarball as listed in its .dsc. Debian's orig tarball of OpenSSL is upstream's release tarball
// (it ships upstream's .asc signature beside it), so the same hash pins the upstream download.
import { z } from 'zod';
import { Library } from '../schema/index.ts';

export type SupportStatus = 'lts' | 'standard';

export interface ReleaseSeries {
  series: string;
  /** first release of the series (x.y.0), from upstream's release announcements */
  released: string;
  support: SupportStatus;
  /** end of upstream support; null where upstream has not fixed a date we could verify */
  endOfLife: string | null;
  /** known defects in some patch releases of this series that change what we would measure */
  knownDefects: { versions: string[]; id: string; effect: string }[];
}

export interface SourceRef {
  kind: 'crate' | 'debian-orig' | 'upstream-tarball';
  /** crate version, Debian source version, or tarball URL: what the fetcher asks for */
  ref: string;
  /** crates.io crate or Debian source package the ref belongs to */
  package: string;
  /** archive file name as it lands in the download cache */
  file: string;
  sha256: string;
  /** path of the OpenSSL tree inside the archive */
  root: string;
}

export interface CatalogueVersion {
  /** absent for OpenSSL (the catalogue's first dimension); set for every other library's release */
  library?: Library;
  version: string;
  series: string;
  /** why this version is in the catalogue beyond being the newest of its series */
  studiedBy?: string[];
  sources: SourceRef[];
}

export const SERIES: ReleaseSeries[] = [
  { series: '1.1.1', released: '2018-09-11', support: 'lts', endOfLife: '2023-09-11', knownDefects: [] },
  { series: '3.0', released: '2021-09-07', support: 'lts', endOfLife: '2026-09-07', knownDefects: [] },
  { series: '3.1', released: '2023-03-14', support: 'standard', endOfLife: '2025-03-14', knownDefects: [] },
  { series: '3.2', released: '2023-11-23', support: 'standard', endOfLife: '2025-11-23', knownDefects: [] },
  { series: '3.3', released: '2024-04-09', support: 'standard', endOfLife: '2026-04-09', knownDefects: [] },
  { series: '3.4', released: '2024-10-22', support: 'standard', endOfLife: '2026-10-22', knownDefects: [] },
  {
    series: '3.5',
    released: '2025-04-08',
    support: 'lts',
    endOfLife: '2030-04-08',
    knownDefects: [
      {
        versions: ['3.5.0', '3.5.1', '3.5.2', '3.5.3', '3.5.4', '3.5.5'],
        id: 'CVE-2026-2673',
        effect: 'a server configured with the DEFAULT groups keyword can negotiate a less preferred group',
      },
    ],
  },
  {
    series: '3.6',
    released: '2025-10-01',
    support: 'standard',
    endOfLife: '2026-11-01',
    knownDefects: [
      {
        versions: ['3.6.0', '3.6.1'],
        id: 'CVE-2026-2673',
        effect: 'a server configured with the DEFAULT groups keyword can negotiate a less preferred group',
      },
    ],
  },
  { series: '4.0', released: '2026-04-14', support: 'standard', endOfLife: null, knownDefects: [] },
];

/** A crate from crates.io; `root` is the library's tree inside the crate. */
export const crateSource = (crateName: string, crateVersion: string, sha256: string, root: string): SourceRef => ({
  kind: 'crate',
  package: crateName,
  ref: crateVersion,
  file: `${crateName}-${crateVersion}.crate`,
  sha256,
  root: `${crateName}-${crateVersion}/${root}`,
});
const crate = (crateVersion: string, sha256: string): SourceRef => crateSource('openssl-src', crateVersion, sha256, 'openssl');
const debian = (debianVersion: string, upstream: string, sha256: string): SourceRef[] => [
  { kind: 'debian-orig', package: 'openssl', ref: debianVersion, file: `openssl_${upstream}.orig.tar.gz`, sha256, root: `openssl-${upstream}` },
  {
    kind: 'upstream-tarball',
    package: 'openssl',
    ref: `https://github.com/openssl/openssl/releases/download/openssl-${upstream}/openssl-${upstream}.tar.gz`,
    file: `openssl-${upstream}.tar.gz`,
    sha256,
    root: `openssl-${upstream}`,
  },
];

export const VERSIONS: CatalogueVersion[] = [
  { version: '1.1.1w', series: '1.1.1', sources: [crate('111.28.2+1.1.1w', 'bb1830e20a48a975ca898ca8c1d036a36c3c6c5cb7dabc1c216706587857920f')] },
  {
    version: '1.1.1u',
    series: '1.1.1',
    studiedBy: ['seed 003'],
    sources: [crate('111.26.0+1.1.1u', 'efc62c9f12b22b8f5208c23a7200a442b2e5999f8bdf80233852122b5a4f6f37')],
  },
  { version: '3.0.22', series: '3.0', sources: debian('3.0.22-1~deb12u2', '3.0.22', '67ebca7e50d17383028045486653492195b83db95f8558709701bb47b5c1ef81') },
  {
    version: '3.0.8',
    series: '3.0',
    studiedBy: ['seed 003'],
    sources: [crate('300.0.13+3.0.8', 'f00789a63ec8951fcda9adb0f2258582afdcfe1b2435e332d3a859896f814f0a')],
  },
  {
    version: '3.0.2',
    series: '3.0',
    studiedBy: ['seed 000', 'seed 002'],
    sources: [crate('300.0.5+3.0.2', '9bd053af511ee4439768d9b839a1cdb32eee00f52fe5f748d64c0e8f73194ba1')],
  },
  { version: '3.1.4', series: '3.1', sources: [crate('300.1.6+3.1.4', '439fac53e092cd7442a3660c85dde4643ab3b5bd39040912388dcdabf6b88085')] },
  {
    version: '3.1.3',
    series: '3.1',
    studiedBy: ['seed 002'],
    sources: [crate('300.1.5+3.1.3', '559068e4c12950d7dcaa1857a61725c0d38d4fc03ff8e070ab31a75d6e316491')],
  },
  {
    version: '3.1.2',
    series: '3.1',
    studiedBy: ['seed 003'],
    sources: [crate('300.1.4+3.1.2', '80b6658b21fe1eba923af26cfe9c57a1a075a8190df2cd869a9bcd730093ffa2')],
  },
  { version: '3.2.1', series: '3.2', sources: [crate('300.2.3+3.2.1', '5cff92b6f71555b61bb9315f7c64da3ca43d87531622120fea0195fc761b4843')] },
  { version: '3.3.2', series: '3.3', sources: [crate('300.3.2+3.3.2', 'a211a18d945ef7e648cc6e0058f4c548ee46aab922ea203e0d30e966ea23647b')] },
  {
    version: '3.3.0',
    series: '3.3',
    studiedBy: ['seed 000'],
    sources: [crate('300.3.0+3.3.0', 'eba8804a1c5765b18c4b3f907e6897ebabeedebc9830e1a0046c4a4cf44663e1')],
  },
  { version: '3.4.1', series: '3.4', sources: [crate('300.4.2+3.4.1', '168ce4e058f975fe43e89d9ccf78ca668601887ae736090aacc23ae353c298e2')] },
  {
    version: '3.4.0',
    series: '3.4',
    studiedBy: ['seed 003'],
    sources: [crate('300.4.1+3.4.0', 'faa4eac4138c62414b5622d1b31c5c304f34b406b013c079c2bbc652fdd6678c')],
  },
  { version: '3.5.7', series: '3.5', sources: debian('3.5.7-1~deb13u2', '3.5.7', 'a8c0d28a529ca480f9f36cf5792e2cd21984552a3c8e4aa11a24aa31aeac98e8') },
  { version: '3.5.5', series: '3.5', sources: [crate('300.5.5+3.5.5', '3f1787d533e03597a7934fd0a765f0d28e94ecc5fb7789f8053b1e699a56f709')] },
  { version: '3.6.3', series: '3.6', sources: [crate('300.6.1+3.6.3', '46eb8fb9fb3b61ce1c0f8a026c4c1a0714d3a9e138e7fbde78753ce2babc3846')] },
  { version: '4.0.3', series: '4.0', sources: [crate('400.0.2+4.0.3', 'd2093956673b8dbda85c87fa4fb78e70698ce6c5978a2837d1613f661d3bef76')] },
];

export const VARIANTS: Record<string, { configureArgs: string[]; minSeries: string; what: string }> = {
  default: { configureArgs: [], minSeries: '1.1.1', what: 'the common options only' },
  'no-ml-kem': { configureArgs: ['no-ml-kem'], minSeries: '3.5', what: 'ML-KEM compiled out (and with it every hybrid group)' },
};

// ---------------------------------------------------------------- the TLS libraries

/**
 * What the harness knows of a library, one record each: the only place a library is named (its id is
 * schema's Library, the data's name for it). Its releases are LIBRARY_RELEASES below; everything else
 * (display names, compiling our programs, reading and checking version strings, command-line specs,
 * the site's lists) is derived from these records.
 */
export interface LibraryFacts {
  /** display name; every version string of the library, ours and its own, starts with it */
  name: string;
  /** the macro runner/compile.ts defines when it compiles our C programs against the library (runner/c-common/library.h) */
  cDefine: string;
  /** linking our programs: a directory under include/ searched first, the static archives under lib/ in link order, C++ inside */
  link: { includeFirst?: string; archives: string[]; cxx?: boolean };
  /**
   * Where an installed build states its release (another library has no `openssl` app to ask); the
   * build record's versionString is `<name> <value>`, or `<name> (<define> <value>)` with `withDefineName`.
   * `expected`: the value a catalogued release's headers hold (default: its version).
   */
  versionHeader?: { file: string; define: string; withDefineName?: boolean; expected?: (version: string) => string };
  /** a release's number as readers know it and as our programs print it after the name (default: the version) */
  releaseNumber?: (version: string) => string;
}

/** BoringSSL makes no releases: its catalogued identifier starts with the API version of its tree ("44-boring-sys-5.4.0"). */
const boringApiVersion = (version: string): string => /^(\d+)-/.exec(version)?.[1] ?? version;

/** Every library but OpenSSL, the catalogue's first dimension. */
export type OtherLibrary = Exclude<Library, 'openssl'>;

export const LIBRARIES: { openssl: LibraryFacts } & Record<OtherLibrary, LibraryFacts & Required<Pick<LibraryFacts, 'versionHeader'>>> = {
  openssl: { name: 'OpenSSL', cDefine: 'OBS_LIB_OPENSSL', link: { archives: ['libssl.a', 'libcrypto.a'] } },
  'aws-lc': {
    name: 'AWS-LC',
    cDefine: 'OBS_LIB_AWSLC',
    link: { archives: ['libssl.a', 'libcrypto.a'], cxx: true },
    versionHeader: { file: 'openssl/base.h', define: 'AWSLC_VERSION_NUMBER_STRING' },
  },
  boringssl: {
    name: 'BoringSSL',
    cDefine: 'OBS_LIB_BORINGSSL',
    link: { archives: ['libssl.a', 'libcrypto.a'], cxx: true },
    versionHeader: { file: 'openssl/base.h', define: 'BORINGSSL_API_VERSION', withDefineName: true, expected: boringApiVersion },
    releaseNumber: (version) => (/^\d+-boring-sys-/.test(version) ? `API ${boringApiVersion(version)}` : version),
  },
  // its OpenSSL compatibility headers live under include/wolfssl, so `#include <openssl/ssl.h>` finds them
  wolfssl: {
    name: 'wolfSSL',
    cDefine: 'OBS_LIB_WOLFSSL',
    link: { includeFirst: 'wolfssl', archives: ['libwolfssl.a'] },
    versionHeader: { file: 'wolfssl/version.h', define: 'LIBWOLFSSL_VERSION_STRING' },
  },
};

/** Libraries the libraries page names but the harness cannot measure, and why (said on the page rather than left out). */
export const NOT_MEASURED_LIBRARIES: { name: string; why: string }[] = [
  { name: 'LibreSSL', why: 'no source of it is obtainable from the package registries this harness can reach, so it is not built or measured.' },
  {
    name: 'rustls',
    why: 'its source is in the registries, but it has no OpenSSL-like TLS API for our C programs to call; measuring it through rustls-ffi with a small adapter of its own is future work.',
  },
];

/** The libraries measured beside OpenSSL, in the schema's order. */
export const OTHER_LIBRARIES = Library.options.filter((l): l is OtherLibrary => l !== 'openssl');

/** "AWS-LC, BoringSSL and wolfSSL": the other libraries in words, for pages and help texts. */
export const otherLibrariesText = (): string => {
  const names = OTHER_LIBRARIES.map((l) => LIBRARIES[l].name);
  return names.length > 1 ? `${names.slice(0, -1).join(', ')} and ${names.at(-1)}` : (names[0] ?? '');
};

/** The version string a build record holds for a header's value: "AWS-LC 5.12.0", "BoringSSL (BORINGSSL_API_VERSION 44)". */
export function recordedVersionString(library: OtherLibrary, value: string): string {
  const { name, versionHeader } = LIBRARIES[library];
  return versionHeader.withDefineName ? `${name} (${versionHeader.define} ${value})` : `${name} ${value}`;
}

/** How a library's source becomes static libraries: OpenSSL's Configure, cmake, or autotools. */
export type Recipe = 'openssl-configure' | 'cmake' | 'autotools';

export interface LibraryRelease extends CatalogueVersion {
  library: OtherLibrary;
  recipe: Exclude<Recipe, 'openssl-configure'>;
  /** the build-system options of every variant; `default` is what the maintainers recommend for production */
  variants: Record<string, { options: string[]; what: string }>;
}

/** wolfSSL features our programs use (OpenSSL API, X25519, ML-KEM, TLS 1.3 tickets, test certificates). */
const WOLFSSL_FEATURES = [
  '--enable-opensslall',
  '--enable-opensslextra',
  '--enable-tls13',
  '--enable-session-ticket',
  '--enable-curve25519',
  '--enable-mlkem',
  '--enable-certgen',
  '--enable-keygen',
];
/** wolfSSL's documented performance options on x86-64 (the contested choice: the no-perf-options variant leaves them out). */
const WOLFSSL_PERFORMANCE = ['--enable-sp', '--enable-sp-asm', '--enable-intelasm', '--enable-aesni'];

/**
 * The other libraries, each pinned like OpenSSL. Options follow each project's own build documentation
 * for a production build on x86-64/arm64 (AWS-LC and BoringSSL: BUILDING.md; wolfSSL: its manual's
 * configure chapter and performance options); every option lands in the build record and on the page.
 */
export const LIBRARY_RELEASES: LibraryRelease[] = [
  // aws-lc-sys 0.47.0 bundles AWS-LC 5.12.0 (include/openssl/base.h: AWSLC_VERSION_NUMBER_STRING "5.12.0")
  // with ssl/ and pre-generated assembly (generated-src/), so neither Go nor Perl is needed.
  // Options: AWS-LC's BUILDING.md (a Release build; BUILD_TESTING/BUILD_TOOL off; DISABLE_GO and
  // DISABLE_PERL use the checked-in generated sources). The assembly stays enabled (no OPENSSL_NO_ASM).
  {
    library: 'aws-lc',
    version: '5.12.0',
    series: '5.12',
    recipe: 'cmake',
    sources: [crateSource('aws-lc-sys', '0.47.0', '8bfbe32ac36b3c428696ce315464181bc4029d689fd58e3f2a4e58c252242f52', 'aws-lc')],
    variants: {
      default: {
        options: ['-DBUILD_TOOL=OFF', '-DDISABLE_GO=ON', '-DDISABLE_PERL=ON'],
        what: "the maintainers' Release build, assembly enabled, no Go or Perl",
      },
    },
  },
  // BoringSSL makes no releases. boring-sys 5.4.0 vendors a BoringSSL tree (deps/boringssl) whose
  // include/openssl/base.h says BORINGSSL_API_VERSION 44; the crate's git metadata names the boring
  // repository's commit, not BoringSSL's, so the identifier is "<API version>-boring-sys-<crate version>":
  // the API version says roughly how new the tree is, the crate version (with the pin) says exactly
  // which bytes. The series is the API version. The crate's optional patches (rpk, pq, ...) are NOT
  // applied: we build the vendored tree as it is.
  // Options: BoringSSL's BUILDING.md (CMAKE_BUILD_TYPE=Release; Go and Perl are only needed for tests
  // and FIPS, which BUILD_TESTING=OFF leaves out; the pre-generated assembly in gen/ is used).
  {
    library: 'boringssl',
    version: '44-boring-sys-5.4.0',
    series: '44',
    recipe: 'cmake',
    sources: [crateSource('boring-sys', '5.4.0', '4986392770df40d11d0d6294b0dd8399570f4a6e76d6953c7a34f7dd1defbd76', 'deps/boringssl')],
    variants: {
      default: { options: [], what: "the maintainers' Release build, assembly enabled" },
    },
  },
  // wolfssl-sys 5.3.0 bundles wolfSSL 5.9.4 (wolfssl/version.h: LIBWOLFSSL_VERSION_STRING "5.9.4") as a
  // git-shaped tree (configure.ac + autogen.sh). The crate's own patches are NOT applied.
  // Options: wolfSSL's manual (chapter 2, building; "wolfSSL performance": --enable-sp --enable-sp-asm
  // for the single-precision maths in assembly, --enable-intelasm and --enable-aesni for AES-NI/AVX on
  // x86-64), plus what our programs need: the OpenSSL compatibility layer (--enable-opensslall
  // --enable-opensslextra), X25519 (--enable-curve25519), ML-KEM hybrids (--enable-mlkem), TLS 1.3
  // with tickets (--enable-tls13 --enable-session-ticket), and certificate/RSA key generation for our
  // test certificates (--enable-certgen --enable-keygen). Whether the performance options belong in a
  // fair comparison is contested (a plain build is several times slower), so both are measured.
  {
    library: 'wolfssl',
    version: '5.9.4',
    series: '5.9',
    recipe: 'autotools',
    sources: [crateSource('wolfssl-sys', '5.3.0', 'e04fb531435ec8ba1852ee9df66ab351cdb1e3aec1da4013787ae93efa3adac6', 'wolfssl-src')],
    variants: {
      default: {
        options: [...WOLFSSL_FEATURES, ...WOLFSSL_PERFORMANCE],
        what: "the maintainers' production-performance options (sp, sp-asm, intelasm, aesni) with the OpenSSL compatibility layer",
      },
      'no-perf-options': {
        // explicit --disable-*: configure turns sp-asm on by itself on x86_64/aarch64 in some configurations
        options: [...WOLFSSL_FEATURES, ...WOLFSSL_PERFORMANCE.map((o) => o.replace('--enable-', '--disable-'))],
        what: "the same features with the performance options turned off (no sp, sp-asm, intelasm, aesni): wolfSSL's generic C maths",
      },
    },
  },
];

/** Every variant of every other library's catalogued release: what `npm run openssl -- build --other-libraries` builds. */
export const otherLibraryBuilds = (): BuildRequest[] =>
  LIBRARY_RELEASES.flatMap((version) => Object.keys(version.variants).map((variant) => ({ version, variant })));

/** Every release we can build, OpenSSL first. */
export const allReleases = (): CatalogueVersion[] => [...VERSIONS, ...LIBRARY_RELEASES];

export const libraryOf = (v: Pick<CatalogueVersion, 'library'>): Library => v.library ?? 'openssl';

/** The catalogue's release of a build (its library and version), if it has it. */
export const cataloguedRelease = (b: { library: Library; version: string }): CatalogueVersion | undefined =>
  allReleases().find((v) => libraryOf(v) === b.library && v.version === b.version);

/**
 * One build to make or measure: a catalogued release (its `library` is set for every library but
 * OpenSSL; libraryOf(version) reads it) and a variant of it. What resolveBuildSpec returns, what
 * runner/build.ts builds and runner/run.ts measures.
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

/** The checks of validateCatalogue for the other libraries' releases (separate so tests can feed it bad ones). */
export function validateLibraryReleases(releases: LibraryRelease[]): string[] {
  const problems: string[] = [];
  for (const r of releases) {
    const name = `${LIBRARY_NAMES[r.library] ?? r.library} ${r.version}`;
    if (!(r.library in LIBRARY_NAMES) || r.library === ('openssl' as Library)) problems.push(`${name}: unknown library ${r.library}`);
    if (!['cmake', 'autotools'].includes(r.recipe)) problems.push(`${name}: unknown recipe ${r.recipe}`);
    if (releases.filter((x) => x.library === r.library && x.version === r.version).length > 1) problems.push(`${name} listed twice`);
    // the schema's rule for a non-OpenSSL Build.version, and a series that is the start of the version
    if (!/^[0-9][0-9A-Za-z.+-]{0,39}$/.test(r.version)) problems.push(`${name}: version must start with a digit and use only [0-9A-Za-z.+-]`);
    if (!r.version.startsWith(`${r.series}.`) && !r.version.startsWith(`${r.series}-`)) problems.push(`${name} is not in series ${r.series}`);
    if (!r.variants.default) problems.push(`${name} has no default variant`);
    for (const [variant, { options, what }] of Object.entries(r.variants)) {
      if (!/^[a-z0-9][a-z0-9-]*$/.test(variant)) problems.push(`${name}: bad variant name "${variant}"`);
      if (!what.trim()) problems.push(`${name} ${variant}: says nothing about what it is`);
      for (const o of options) if (!/^-/.test(o)) problems.push(`${name} ${variant}: "${o}" is not an option`);
      if (new Set(options).size !== options.length) problems.push(`${name} ${variant}: an option is given twice`);
    }
    if (r.sources.length === 0) problems.push(`${name} has no source`);
    for (const src of r.sources) {
      if (!Sha.safeParse(src.sha256).success) problems.push(`${name} ${src.kind}: bad sha256 ${src.sha256}`);
      if (src.kind === 'crate' && (src.file !== `${src.package}-${src.ref}.crate` || !src.root.startsWith(`${src.package}-${src.ref}/`)))
        problems.push(`${name}: crate ${src.package} ${src.ref} must be ${src.package}-${src.ref}.crate with its tree under ${src.package}-${src.ref}/`);
    }
  }
  return problems;
}

// Checked by the tests and at start-up: a typo in a hash or a date must not reach a build.
const Sha = z.string().regex(/^[0-9a-f]{64}$/);
export function validateCatalogue(): string[] {
  const problems: string[] = [];
  const seen = new Set<string>();
  for (const v of VERSIONS) {
    if (seen.has(v.version)) problems.push(`${v.version} listed twice`);
    seen.add(v.version);
    if (!SERIES.some((s) => s.series === v.series)) problems.push(`${v.version}: unknown series ${v.series}`);
    if (!v.version.startsWith(v.series === '1.1.1' ? '1.1.1' : `${v.series}.`)) problems.push(`${v.version} is not in series ${v.series}`);
    if (v.sources.length === 0) problems.push(`${v.version} has no source`);
    for (const s of v.sources) {
      if (!Sha.safeParse(s.sha256).success) problems.push(`${v.version} ${s.kind}: bad sha256 ${s.sha256}`);
      if (s.kind === 'crate' && s.package === 'openssl-src' && !s.ref.endsWith(`+${v.version}`))
        problems.push(`${v.version}: crate ${s.ref} vendors another version`);
      if (s.kind !== 'crate' && !s.file.includes(v.version)) problems.push(`${v.version}: ${s.kind} file ${s.file} names another version`);
    }
  }
  problems.push(...validateLibraryReleases(LIBRARY_RELEASES));
  for (const s of SERIES) {
    for (const d of [s.released, s.endOfLife]) if (d !== null && !/^\d{4}-\d{2}-\d{2}$/.test(d)) problems.push(`${s.series}: bad date ${d}`);
    if (!VERSIONS.some((v) => v.series === s.series)) problems.push(`series ${s.series} has no obtainable version`);
  }
  return problems;
}

// ---------------------------------------------------------------- naming builds (the one place)

/** Each library's display name (LIBRARIES' `name`). */
export const LIBRARY_NAMES = Object.fromEntries(Library.options.map((l) => [l, LIBRARIES[l].name])) as Record<Library, string>;

type Named = { library?: Library; version: string; variant: string };

/** URL slug and comparison key of a build: "3.5.7", "3.5.7-no-ml-kem", "aws-lc-5.12.0", "wolfssl-5.9.4-no-perf-options". */
export function buildSlug(b: Named): string {
  const lib = b.library && b.library !== 'openssl' ? `${b.library}-` : '';
  return `${lib}${b.version}${b.variant === 'default' ? '' : `-${b.variant}`}`;
}

/** What a variant leaves out, in words (each variant's `what` above says how it is built). */
const VARIANT_WORDS: Record<string, string> = {
  'no-ml-kem': 'built without ML-KEM',
  // wolfSSL's WOLFSSL_PERFORMANCE turned off: SP maths (sp, sp-asm) and the Intel assembly (intelasm, aesni)
  'no-perf-options': 'without its SP-math, assembly and AES-NI options',
};

/** A variant in words: "" for the default, "no-ml-kem" -> "built without ML-KEM". */
export function variantWords(variant: string): string {
  if (variant === 'default') return '';
  const m = /^no-(.+)$/.exec(variant);
  return VARIANT_WORDS[variant] ?? (m ? `built without ${m[1]!.toUpperCase()}` : `${variant} build`);
}

/** A release's number as readers know it (LIBRARIES' releaseNumber: BoringSSL's identifier is read as its API version). */
export function versionWords(b: Named): string {
  return LIBRARIES[b.library ?? 'openssl'].releaseNumber?.(b.version) ?? b.version;
}

/**
 * How pages and logs name a build: "3.5.7", "3.5.7 built without ML-KEM", "AWS-LC 5.12.0", "BoringSSL API 44",
 * "wolfSSL 5.9.4 without its SP-math, assembly and AES-NI options". OpenSSL goes by its number alone.
 */
export function buildLabel(b: Named): string {
  const lib = b.library && b.library !== 'openssl' ? `${LIBRARY_NAMES[b.library]} ` : '';
  return `${lib}${versionWords(b)}${b.variant === 'default' ? '' : ` ${variantWords(b.variant)}`}`;
}
