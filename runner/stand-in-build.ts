// A build that was never built, for tests of the run loop and its users: the record of an OpenSSL release
// with placeholder provenance, and no install prefix.
import type { Build } from '../schema/index.ts';
import type { BuildUnderTest } from './benchmark.ts';
import { recordedConfigureArgs } from './build.ts';

export const standInBuild = (version: string, id = `b-${version}`): BuildUnderTest => {
  const series = version.split('.').slice(0, 2).join('.');
  return {
    prefix: '/nonexistent',
    record: {
      id,
      library: 'openssl',
      version,
      series,
      variant: 'default',
      versionString: `OpenSSL ${version}`,
      source: { kind: 'crate', name: 'x.crate', sha256: 'a'.repeat(64) },
      // what runner/build.ts records for the default recipe, so a stand-in run passes the provenance checks
      configureArgs: recordedConfigureArgs(series, 'default'),
      compiler: 'cc (Debian 12.2.0-14+deb12u1) 12.2.0',
      cflags: '-Wall -O3 -Wa,--noexecstack',
      builtAt: '2026-01-01T00:00:00.000Z',
      buildSeconds: 1,
    } satisfies Build,
  };
};
