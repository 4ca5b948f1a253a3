// A build that was never built, for tests of the run loop and its users: the record of an OpenSSL release
// with placeholder provenance, and no install prefix.
import type { Build } from '../schema/index.ts';
import type { BuildUnderTest } from './benchmark.ts';

export const standInBuild = (version: string, id = `b-${version}`): BuildUnderTest => ({
  prefix: '/nonexistent',
  record: {
    id,
    library: 'openssl',
    version,
    series: version.split('.').slice(0, 2).join('.'),
    variant: 'default',
    versionString: `OpenSSL ${version}`,
    source: { kind: 'crate', name: 'x.crate', sha256: 'a'.repeat(64) },
    configureArgs: ['no-shared'],
    compiler: 'cc',
    cflags: '-O2',
    builtAt: '2026-01-01T00:00:00.000Z',
    buildSeconds: 1,
  } satisfies Build,
});
