// Compile one of our C programs against one library build (static), cached by source and build.
import { execFileSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { existsSync, mkdirSync, readdirSync, readFileSync, renameSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { BuildUnderTest } from './benchmark.ts';
import { cacheRoot } from './sources.ts';
import { buildLabel, LIBRARIES } from '../catalogue/index.ts';

/** What compiling needs of a build: where it is installed and what names it (a catalogue build, or one commit of a history). */
export type Linkable = { record: Pick<BuildUnderTest['record'], 'id' | 'library' | 'version' | 'variant'>; prefix: string };

/**
 * Per library, from its catalogue record (LIBRARIES): where the headers are, the one define that tells
 * our C sources which library they are compiled against (c-common/library.h), what to link.
 */
export function linkFlags(build: Linkable): { includes: string[]; defines: string[]; libs: string[] } {
  const { cDefine, link } = LIBRARIES[build.record.library];
  const inc = join(build.prefix, 'include');
  return {
    includes: [...(link.includeFirst ? [join(inc, link.includeFirst)] : []), inc],
    defines: [`-D${cDefine}`, ...(build.record.library === 'openssl' ? headerFeatures(inc) : [])],
    // a library with C++ inside needs the C++ runtime
    libs: [...link.archives.map((a) => join(build.prefix, 'lib', a)), ...(link.cxx ? ['-lstdc++'] : [])],
  };
}

/**
 * Functions that arrived during a release's development, where the version number cannot tell: a commit
 * between two releases (one a bisection builds) carries the next release's version before it has all of
 * its API (SSL_group_to_name came in January 2021, two years into 3.0.0-dev; EVP_PKEY_Q_keygen later still). Each is looked up in the
 * build's installed header and announced to the C sources with a define.
 */
export const HEADER_FEATURES = [
  { define: 'OBS_HAVE_SSL_GROUP_TO_NAME', header: 'openssl/ssl.h', declares: /\bSSL_group_to_name\s*\(/ },
  { define: 'OBS_HAVE_EVP_PKEY_Q_KEYGEN', header: 'openssl/evp.h', declares: /\bEVP_PKEY_Q_keygen\s*\(/ },
];

function headerFeatures(includeDir: string): string[] {
  return HEADER_FEATURES.filter((f) => {
    const path = join(includeDir, f.header);
    return existsSync(path) && f.declares.test(readFileSync(path, 'utf8'));
  }).map((f) => `-D${f.define}`);
}

/** A source and the local headers it includes (`#include "x.h"`), recursively: all of them change the binary. */
function withLocalHeaders(file: string, seen = new Set<string>()): string[] {
  if (seen.has(file)) return [];
  seen.add(file);
  const includes = [...readFileSync(file, 'utf8').matchAll(/^#include "([^"]+)"/gm)].map((m) => join(dirname(file), m[1]!));
  return [file, ...includes.flatMap((h) => withLocalHeaders(h, seen))];
}

const C_COMMON = fileURLToPath(new URL('./c-common/', import.meta.url));

/** Every .c file of runner/c-common, the one C library of our programs: each program gets all of them, so none can miss one. */
export const cCommonSources = (): string[] =>
  readdirSync(C_COMMON)
    .filter((f) => f.endsWith('.c'))
    .sort()
    .map((f) => join(C_COMMON, f));

/**
 * Compiles one program (its own .c file, `program`, with all of runner/c-common) and returns the path of
 * the binary. The same compiler flags for every version; the version differences live in the C source
 * behind OPENSSL_VERSION_NUMBER checks.
 */
export function compileAgainst(build: Linkable, program: string, name: string): string {
  const sources = [program, ...cCommonSources()];
  const text = [...new Set(sources.flatMap((s) => withLocalHeaders(s)))].map((s) => readFileSync(s, 'utf8')).join('\n');
  const { includes, defines, libs } = linkFlags(build);
  // the flags come from the catalogue's library record: a change there is another binary
  const hash = createHash('sha256')
    .update(text)
    .update(build.record.id)
    .update(JSON.stringify([includes, defines, libs]))
    .digest('hex')
    .slice(0, 12);
  const lib = build.record.library === 'openssl' ? '' : `${build.record.library}-`;
  const dir = join(cacheRoot(), 'tools', `${lib}${build.record.version}-${build.record.variant}-${build.record.id}`);
  const out = join(dir, `${name}-${hash}`);
  if (existsSync(out)) return out;
  mkdirSync(dir, { recursive: true });
  const tmp = `${out}.tmp-${process.pid}`;
  const args = [
    '-O2',
    '-g',
    '-Wall',
    '-Wno-deprecated-declarations',
    ...defines,
    ...includes.flatMap((d) => ['-I', d]),
    ...sources,
    ...libs,
    '-ldl',
    '-lpthread',
    '-lm',
    '-o',
    tmp,
  ];
  try {
    execFileSync('cc', args, { encoding: 'utf8', stdio: ['ignore', 'pipe', 'pipe'] });
  } catch (e) {
    const err = e as { stderr?: string; message: string };
    throw new Error(`compiling ${name} against ${buildLabel(build.record)} failed:\n${(err.stderr ?? err.message).slice(0, 4000)}`);
  }
  renameSync(tmp, out);
  return out;
}
