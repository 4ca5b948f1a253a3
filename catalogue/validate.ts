// Checked by the tests and at start-up: a typo in a hash or a date must not reach a build.
import { z } from 'zod';
import type { Library } from '../schema/index.ts';
import { LIBRARY_NAMES, LIBRARY_RELEASES, type LibraryRelease } from './libraries.ts';
import { SERIES, VERSIONS } from './openssl.ts';

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
