// The TLS libraries measured beside OpenSSL: one record of facts each, and their catalogued releases.
import { Library } from '../schema/index.ts';
import { crateSource, type CatalogueVersion } from './openssl.ts';
import type { BuildRequest } from './releases.ts';

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

/** Each library's display name (LIBRARIES' `name`). */
export const LIBRARY_NAMES = Object.fromEntries(Library.options.map((l) => [l, LIBRARIES[l].name])) as Record<Library, string>;
