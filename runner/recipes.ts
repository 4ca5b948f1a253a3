// How each library's source becomes an install prefix of static libraries and headers. OpenSSL goes
// through its own Configure (runner/build/build.ts keeps that path, so its cache keys never change); the
// other libraries through cmake or autotools, as their catalogue release says. Every option given to the
// build system is returned by `options` and recorded in the build record; the version string is read
// from the installed header the library's catalogue record names.
import { execFileSync } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Library } from '../schema/index.ts';
import { LIBRARIES, recordedVersionString, type LibraryRelease } from '../catalogue/index.ts';

export type RunLogged = (cmd: string, args: string[], cwd: string) => Promise<void>;

export interface RecipeContext {
  srcDir: string;
  /** scratch directory for out-of-tree builds */
  workDir: string;
  /** where `install` must put include/ and lib/ (it becomes the cache entry's install/) */
  installDir: string;
  options: string[];
  jobs: number;
  run: RunLogged;
  /** reports the build's steps: configure, make, install */
  step: (s: string) => void;
}

export interface LibraryRecipe {
  /** the build-system options for a variant, in the order given: part of the cache key */
  options(release: LibraryRelease, variant: string): string[];
  build(ctx: RecipeContext): Promise<{ cflags: string }>;
  /** the optimisation level the build system gives a release build: the only -O flag its recorded cflags may hold */
  optimisation: string;
  /** commands the recipe needs, with their Debian packages */
  tools: { command: string; debianPackage: string }[];
}

const header = (installDir: string, rel: string): string => {
  const file = join(installDir, 'include', rel);
  if (!existsSync(file)) throw new Error(`the install has no include/${rel}: not the library the catalogue names?`);
  return readFileSync(file, 'utf8');
};
const define = (text: string, name: string): string | undefined => new RegExp(`#\\s*define\\s+${name}\\s+"?([^"\\n]+)"?`).exec(text)?.[1]?.trim();

// ---------------------------------------------------------------- cmake (AWS-LC, BoringSSL)

/** Options every cmake build gets: an optimised static build without tests or tools. */
const CMAKE_COMMON = ['-DCMAKE_BUILD_TYPE=Release', '-DBUILD_SHARED_LIBS=OFF', '-DBUILD_TESTING=OFF'];

/**
 * The C (or, for C++ sources, C++) flags libcrypto was really compiled with: the project's CMakeLists add most of them (-O3,
 * warnings, visibility) beyond CMAKE_C_FLAGS, so they are read from the crypto target's flags.make,
 * and from the cache's CMAKE_C_FLAGS(_RELEASE) only when that file is not where cmake puts it.
 */
export function cmakeCFlags(buildDir: string): string {
  for (const rel of ['CMakeFiles/crypto.dir/flags.make', 'crypto/CMakeFiles/crypto.dir/flags.make']) {
    const file = join(buildDir, rel);
    const text = existsSync(file) ? readFileSync(file, 'utf8') : '';
    // BoringSSL's libcrypto is C++ now: its sources compile with CXX_FLAGS
    const line = (/^C_FLAGS = (.*)$/m.exec(text) ?? /^CXX_FLAGS = (.*)$/m.exec(text))?.[1]?.trim();
    if (line) return line;
  }
  const cache = readFileSync(join(buildDir, 'CMakeCache.txt'), 'utf8');
  const flag = (name: string) => new RegExp(`^${name}:STRING=(.*)$`, 'm').exec(cache)?.[1] ?? '';
  return [flag('CMAKE_C_FLAGS'), flag('CMAKE_C_FLAGS_RELEASE')].filter(Boolean).join(' ');
}

const cmake: LibraryRecipe = {
  options: (release, variant) => [...CMAKE_COMMON, ...(release.variants[variant]?.options ?? [])],
  async build({ srcDir, workDir, installDir, options, jobs, run, step }) {
    const buildDir = join(workDir, 'cmake-build');
    step('configure');
    await run('cmake', ['-S', srcDir, '-B', buildDir, `-DCMAKE_INSTALL_PREFIX=${installDir}`, ...options], srcDir);
    step('make');
    await run('cmake', ['--build', buildDir, '--parallel', String(jobs)], srcDir);
    step('install');
    await run('cmake', ['--install', buildDir], srcDir);
    return { cflags: cmakeCFlags(buildDir) };
  },
  // CMAKE_BUILD_TYPE=Release
  optimisation: '-O3',
  tools: [
    { command: 'cmake', debianPackage: 'cmake' },
    { command: 'c++', debianPackage: 'g++' },
  ],
};

// ---------------------------------------------------------------- autotools (wolfSSL)

/**
 * The compiler flags of a wolfSSL build without its feature macros: configure passes every feature as
 * a -D in AM_CFLAGS (well over the 1000 characters a record's cflags may have), and the same macros are
 * installed in include/wolfssl/options.h, which is where to read them.
 */
export function autotoolsCFlags(cflags: string, amCflags: string): string {
  return [...cflags.split(/\s+/), ...amCflags.split(/\s+/)].filter((f) => f && !f.startsWith('-D')).join(' ');
}

const AUTOTOOLS_LIBRARY_ONLY = ['--disable-examples', '--disable-crypttests', '--disable-benchmark'];

const autotools: LibraryRecipe = {
  // the library only: the crate leaves out tests/unit.c, and examples, tests and benchmarks are not ours
  options: (release, variant) => ['--disable-shared', '--enable-static', ...AUTOTOOLS_LIBRARY_ONLY, ...(release.variants[variant]?.options ?? [])],
  async build({ srcDir, installDir, options, jobs, run, step }) {
    step('configure');
    // a release tarball ships configure; a git-shaped tree (the crate's) needs autogen.sh first
    if (!existsSync(join(srcDir, 'configure'))) await run('sh', ['./autogen.sh'], srcDir);
    await run('sh', ['./configure', `--prefix=${installDir}`, ...options], srcDir);
    step('make');
    await run('make', [`-j${jobs}`], srcDir);
    step('install');
    await run('make', ['install'], srcDir);
    const makefile = readFileSync(join(srcDir, 'Makefile'), 'utf8');
    const line = (name: string) => new RegExp(`^${name} = (.*)$`, 'm').exec(makefile)?.[1]?.trim() ?? '';
    return { cflags: autotoolsCFlags(line('CFLAGS'), line('AM_CFLAGS')) };
  },
  // configure's default CFLAGS (-g -O2)
  optimisation: '-O2',
  tools: [
    { command: 'autoreconf', debianPackage: 'autoconf' },
    { command: 'automake', debianPackage: 'automake' },
    { command: 'libtoolize', debianPackage: 'libtool' },
    { command: 'make', debianPackage: 'make' },
  ],
};

export const RECIPES: Record<LibraryRelease['recipe'], LibraryRecipe> = { cmake, autotools };

export function recipeOf(release: LibraryRelease): LibraryRecipe {
  return RECIPES[release.recipe];
}

/** An installed build's own version string (there is no `openssl` app), from the header its catalogue record names. */
export function installedVersionString(release: Pick<LibraryRelease, 'library'>, installDir: string): string {
  const { file, define: name } = LIBRARIES[release.library].versionHeader;
  const value = define(header(installDir, file), name);
  if (!value) throw new Error(`${file} has no ${name}: not the library the catalogue names?`);
  return recordedVersionString(release.library, value);
}

/** For the error a missing tool gives: which package has it. */
export function missingTool(library: Library, recipe: LibraryRecipe): string | null {
  for (const t of recipe.tools) {
    try {
      execFileSync('sh', ['-c', `command -v ${t.command}`], { stdio: 'ignore' });
    } catch {
      return `${t.command} is not installed (needed to build ${library}): apt-get install ${t.debianPackage}, or sudo bash scripts/setup-machine.sh`;
    }
  }
  return null;
}
