// A build of a TLS library: what it was built from and how.
import { z } from 'zod';
import { isoTime, nonNegative, safeId, sha256Hex, shortText } from './primitives.ts';

export const SourceKind = z.enum(['upstream-tarball', 'debian-orig', 'crate']);
export const BuildSource = z.object({
  kind: SourceKind,
  name: shortText(200).describe('file name of the archive, e.g. openssl-3.5.7.tar.gz'),
  sha256: sha256Hex,
  url: shortText(500).optional(),
});
export type BuildSource = z.infer<typeof BuildSource>;

/** The TLS library a build is of. Files written before other libraries existed are all OpenSSL. */
export const Library = z.enum(['openssl', 'aws-lc', 'boringssl', 'wolfssl']);
export type Library = z.infer<typeof Library>;
const OPENSSL_VERSION = /^\d+\.\d+\.\d+[a-z]?$/;
const OPENSSL_SERIES = /^\d+\.\d+(\.\d+)?$/;
/** a release of another library: 5.12.0, or an identifier where the library has no releases */
const RELEASE_ID = /^[0-9A-Za-z][0-9A-Za-z.+-]{0,39}$/;

/** A build's fields; Build adds the rule that an OpenSSL build carries an OpenSSL release number. */
export const BuildFields = z.object({
  id: safeId.describe('cache key: a hash of everything that changes the binary'),
  library: Library.default('openssl'),
  version: z.string().regex(RELEASE_ID, 'a release such as 3.5.7, 1.1.1w or 5.12.0'),
  series: z.string().regex(RELEASE_ID).describe('OpenSSL release series (3.5); for another library its major.minor, or what stands in for it'),
  variant: safeId.describe('"default", or a named variant such as "no-ml-kem"'),
  versionString: shortText(200).describe("the library's own version string (OpenSSL: what `openssl version` printed)"),
  source: BuildSource,
  configureArgs: z.array(shortText(200)).max(100).describe('every option given to the build system (OpenSSL Configure, cmake or configure), as given'),
  compiler: shortText(300).describe('first line of `cc --version`'),
  cflags: shortText(1000).describe('compiler flags as the build system configured them'),
  builtAt: isoTime,
  buildSeconds: nonNegative,
  releaseDate: shortText(40).optional().describe('release date as the source itself states it'),
  cpuCapabilities: shortText(1000)
    .optional()
    .describe(
      'the CPU capability vector the library itself reported on this host when the run started (e.g. OPENSSL_ia32cap); set per run, not per cached build',
    ),
});
export const Build = BuildFields.refine((b) => b.library !== 'openssl' || OPENSSL_VERSION.test(b.version), {
  path: ['version'],
  message: 'an OpenSSL release number such as 3.5.7 or 1.1.1w',
}).refine((b) => b.library !== 'openssl' || OPENSSL_SERIES.test(b.series), { path: ['series'], message: 'an OpenSSL release series such as 3.5 or 1.1.1' });
export type Build = z.infer<typeof Build>;
