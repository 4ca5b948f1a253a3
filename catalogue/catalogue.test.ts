import { test } from 'node:test';
import assert from 'node:assert/strict';
import { Library } from '../schema/index.ts';
import {
  DEFAULT_MATRIX,
  LIBRARIES,
  LIBRARY_NAMES,
  LIBRARY_RELEASES,
  NOT_MEASURED_LIBRARIES,
  OTHER_LIBRARIES,
  buildLabel,
  otherLibraryBuilds,
  otherLibrariesText,
  recordedVersionString,
  SERIES,
  VERSIONS,
  allReleases,
  buildSlug,
  compareReleases,
  compareVersions,
  isDefective,
  newestOf,
  resolveBuildSpec,
  resolveVersion,
  validateCatalogue,
  validateLibraryReleases,
  variantAllowed,
  type LibraryRelease,
} from './index.ts';

test('the catalogue is internally consistent', () => {
  assert.deepEqual(validateCatalogue(), []);
});

test('every release series 1.1.1 .. 4.0 is present, and the default matrix has one version of each', () => {
  assert.deepEqual(
    SERIES.map((s) => s.series),
    ['1.1.1', '3.0', '3.1', '3.2', '3.3', '3.4', '3.5', '3.6', '4.0'],
  );
  assert.equal(DEFAULT_MATRIX.length, SERIES.length);
  for (const [i, s] of SERIES.entries()) assert.equal(resolveVersion(DEFAULT_MATRIX[i]!).series, s.series);
});

test('the versions the seed studies used are catalogued where obtainable', () => {
  for (const v of ['3.0.2', '3.1.3', '3.3.0', '3.4.0', '1.1.1u', '3.0.8', '3.1.2'])
    assert.ok(
      VERSIONS.some((x) => x.version === v),
      v,
    );
});

test('a series resolves to its newest patch without a known measurement defect', () => {
  assert.deepEqual(isDefective('3.5.5'), ['CVE-2026-2673']);
  assert.deepEqual(isDefective('3.5.7'), []);
  assert.equal(newestOf('3.5').version, '3.5.7');
  assert.equal(resolveVersion('1.1.1').version, '1.1.1w');
  assert.equal(resolveVersion('3.0.2').version, '3.0.2');
});

test('unknown versions and impossible variants are refused with a message saying what to do', () => {
  assert.throws(() => resolveVersion('2.0'), /unknown OpenSSL version or series "2.0".*npm run openssl -- list/);
  assert.throws(() => resolveVersion('3.5.99'), /unknown/);
  assert.match(variantAllowed(resolveVersion('3.4'), 'no-ml-kem') ?? '', /needs OpenSSL 3.5 or newer/);
  assert.equal(variantAllowed(resolveVersion('3.5'), 'no-ml-kem'), null);
  assert.match(variantAllowed(resolveVersion('3.5'), 'fips') ?? '', /unknown variant/);
});

test('versions order as OpenSSL numbers them', () => {
  const sorted = ['3.0.22', '1.1.1w', '3.0.2', '1.1.1u', '4.0.3', '3.0.8'].sort(compareVersions);
  assert.deepEqual(sorted, ['1.1.1u', '1.1.1w', '3.0.2', '3.0.8', '3.0.22', '4.0.3']);
});

test('AWS-LC, BoringSSL and wolfSSL are pinned to the crates that vendor them', () => {
  const pins = LIBRARY_RELEASES.filter((r) => ['aws-lc', 'boringssl', 'wolfssl'].includes(r.library)).map((r) => [
    r.library,
    r.version,
    r.sources.map((s) => `${s.package} ${s.ref} ${s.root}`).join(),
  ]);
  assert.deepEqual(pins, [
    ['aws-lc', '5.12.0', 'aws-lc-sys 0.47.0 aws-lc-sys-0.47.0/aws-lc'],
    ['boringssl', '44-boring-sys-5.4.0', 'boring-sys 5.4.0 boring-sys-5.4.0/deps/boringssl'],
    ['wolfssl', '5.9.4', 'wolfssl-sys 5.3.0 wolfssl-sys-5.3.0/wolfssl-src'],
  ]);
  assert.deepEqual(Object.keys(LIBRARY_RELEASES.find((r) => r.library === 'wolfssl')!.variants), ['default', 'no-perf-options']);
});

test('a build spec names an OpenSSL version or series, or another library, each with an optional variant', () => {
  const named = (spec: string) => {
    const { version, variant } = resolveBuildSpec(spec);
    return buildSlug({ ...version, variant });
  };
  assert.equal(named('3.5'), '3.5.7');
  assert.equal(named('3.5.7'), '3.5.7');
  assert.equal(named('3.5:no-ml-kem'), '3.5.7-no-ml-kem');
  assert.equal(named('1.1.1'), '1.1.1w');
  assert.equal(named('aws-lc'), 'aws-lc-5.12.0');
  assert.equal(named('aws-lc@5.12.0'), 'aws-lc-5.12.0');
  assert.equal(named('boringssl'), 'boringssl-44-boring-sys-5.4.0');
  assert.equal(named('wolfssl'), 'wolfssl-5.9.4');
  assert.equal(named('wolfssl:no-perf-options'), 'wolfssl-5.9.4-no-perf-options');
  assert.equal(resolveBuildSpec('wolfssl').version.library, 'wolfssl');
  assert.equal(resolveBuildSpec('3.5').version.library, undefined);
});

test('a build spec that names nothing catalogued is refused, saying what is known', () => {
  assert.throws(() => resolveBuildSpec('aws-lc@1.0.0'), /AWS-LC 1\.0\.0 is not catalogued \(known: 5\.12\.0\)/);
  assert.throws(() => resolveBuildSpec('wolfssl:no-ml-kem'), /wolfSSL has no variant "no-ml-kem" \(known: default, no-perf-options\)/);
  assert.throws(() => resolveBuildSpec('aws-lc:no-perf-options'), /AWS-LC has no variant "no-perf-options" \(known: default\)/);
  assert.throws(() => resolveBuildSpec('3.5@3.5.7'), /"@" names a release of another library/);
  assert.throws(() => resolveBuildSpec('3.4:no-ml-kem'), /needs OpenSSL 3\.5 or newer/);
  // a name the catalogue has no library of reads as an OpenSSL version (a real library's name here would break when it is added)
  assert.throws(() => resolveBuildSpec('no-such-tls'), /unknown OpenSSL version or series "no-such-tls"/);
  assert.throws(() => resolveBuildSpec('wolfssl:a:b'), /one ":" at most/);
  assert.match(variantAllowed(resolveBuildSpec('aws-lc').version, 'no-ml-kem') ?? '', /unknown variant "no-ml-kem" of AWS-LC 5\.12\.0/);
});

test("each library's names come from its one record, as the data has always spelled them", () => {
  // what committed run files and pages say of the libraries measured so far must not change (a library
  // added later only adds to these)
  const pinned = { openssl: 'OpenSSL', 'aws-lc': 'AWS-LC', boringssl: 'BoringSSL', wolfssl: 'wolfSSL' } as const;
  for (const [l, name] of Object.entries(pinned)) assert.equal(LIBRARY_NAMES[l as Library], name);
  assert.deepEqual(Object.keys(LIBRARIES).sort(), [...Library.options].sort());
  assert.deepEqual(
    OTHER_LIBRARIES,
    Library.options.filter((l) => l !== 'openssl'),
  );
  const names = OTHER_LIBRARIES.map((l) => LIBRARY_NAMES[l]);
  assert.equal(otherLibrariesText(), `${names.slice(0, -1).join(', ')} and ${names.at(-1)}`);
  const release = (library: string) => LIBRARY_RELEASES.find((r) => r.library === library && r.variants.default)!;
  const recorded = (library: 'aws-lc' | 'boringssl' | 'wolfssl') => {
    const r = release(library);
    return recordedVersionString(r.library, LIBRARIES[r.library].versionHeader.expected?.(r.version) ?? r.version);
  };
  assert.equal(recorded('aws-lc'), 'AWS-LC 5.12.0');
  assert.equal(recorded('boringssl'), 'BoringSSL (BORINGSSL_API_VERSION 44)');
  assert.equal(recorded('wolfssl'), 'wolfSSL 5.9.4');
  assert.equal(buildLabel({ ...release('boringssl'), variant: 'default' }), 'BoringSSL API 44');
  assert.equal(buildLabel({ ...release('wolfssl'), variant: 'no-perf-options' }), 'wolfSSL 5.9.4 without its SP-math, assembly and AES-NI options');
  // a library the page says is not measured is not one that is
  const measured = Object.values(LIBRARY_NAMES);
  assert.deepEqual(
    NOT_MEASURED_LIBRARIES.filter((l) => measured.includes(l.name)),
    [],
  );
  // --other-libraries builds every variant of every other library's release
  assert.equal(
    otherLibraryBuilds().length,
    LIBRARY_RELEASES.reduce((n, r) => n + Object.keys(r.variants).length, 0),
  );
});

test('builds are shown OpenSSL first by version, then the other libraries by name', () => {
  const order = [...allReleases()]
    .reverse()
    .sort(compareReleases)
    .map((r) => r.library ?? r.version);
  const openssl = VERSIONS.map((v) => v.version).sort(compareVersions);
  assert.deepEqual(order, [...openssl, ...LIBRARY_RELEASES.map((r) => r.library).sort()]);
});

test('a library release with a bad hash, version, series, variant or crate path is caught', () => {
  const good = LIBRARY_RELEASES.find((r) => r.library === 'wolfssl')!;
  assert.deepEqual(validateLibraryReleases([good]), []);
  const bad = (change: Partial<LibraryRelease>, src: Partial<LibraryRelease['sources'][number]> = {}) =>
    validateLibraryReleases([{ ...good, ...change, sources: [{ ...good.sources[0]!, ...src }] }]).join('\n');
  assert.match(bad({}, { sha256: 'E04FB531' }), /bad sha256 E04FB531/);
  assert.match(bad({ version: 'v5.9.4' }), /must start with a digit/);
  assert.match(bad({ series: '5.8' }), /is not in series 5\.8/);
  assert.match(bad({ variants: { fast: { options: ['--enable-sp'], what: 'fast' } } }), /has no default variant/);
  assert.match(
    bad({ variants: { ...good.variants, Fast: { options: ['enable-sp', '--x', '--x'], what: '' } } }),
    /bad variant name "Fast"[^]*says nothing[^]*"enable-sp" is not an option[^]*given twice/,
  );
  assert.match(bad({}, { root: 'wolfssl-src' }), /tree under wolfssl-sys-5\.3\.0\//);
  assert.match(validateLibraryReleases([good, good]).join(), /wolfSSL 5\.9\.4 listed twice/);
});
