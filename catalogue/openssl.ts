// OpenSSL's release series and the releases we measure, with where their exact source bytes come from
// (the other TLS libraries' releases: libraries.ts).
//
// Every source is pinned by the sha256 of the archive we fetch. Crate hashes are the `cksum` field of
// the crates.io index for the crate (the sha256 of the .crate file: for aws-lc-sys, boring-sys and
// wolfssl-sys we hashed the .crate cargo fetched and checked it equals the cksum of that version in the
// index entry cargo cached, ~/.cargo/registry/index/*/.cache/); Debian hashes are the sha256 of
// the orig tarball as listed in its .dsc. Debian's orig tarball of OpenSSL is upstream's release tarball
// (it ships upstream's .asc signature beside it), so the same hash pins the upstream download.
import type { Library } from '../schema/index.ts';

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
