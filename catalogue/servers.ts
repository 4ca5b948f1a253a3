// The real servers the observatory builds against each TLS library build (runner/servers/): one release
// each, pinned by the sha256 of its source archive like every source. Debian's orig tarballs are the
// upstream release archives (nginx.org's and haproxy.org's), served by Debian's mirror.
import type { SourceRef } from './index.ts';

export type ServerName = 'nginx' | 'haproxy';

export interface ServerRelease {
  server: ServerName;
  version: string;
  source: SourceRef;
}

const debianOrig = (pkg: string, version: string, sha256: string): SourceRef => ({
  kind: 'upstream-tarball',
  package: pkg,
  ref: `http://deb.debian.org/debian/pool/main/${pkg[0]}/${pkg}/${pkg}_${version}.orig.tar.gz`,
  file: `${pkg}_${version}.orig.tar.gz`,
  sha256,
  root: `${pkg}-${version}`,
});

export const SERVERS: ServerRelease[] = [
  { server: 'nginx', version: '1.26.3', source: debianOrig('nginx', '1.26.3', '69ee2b237744036e61d24b836668aad3040dda461fe6f570f1787eab570c75aa') },
  { server: 'haproxy', version: '3.0.11', source: debianOrig('haproxy', '3.0.11', 'a133e2d550c5fd9a849b5c7ab17bb945bcdad209ca140d41f45ebf31943ae783') },
];

export const SERVER_NAMES: Record<ServerName, string> = { nginx: 'nginx', haproxy: 'HAProxy' };
