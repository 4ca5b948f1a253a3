// Provenance: what a run says about where its numbers came from must be what the harness really
// records, so a run cannot claim the project's builds while measuring others. Called by the validator
// (validate-submission.ts) for every run file, submissions and bench runners alike:
//   - the harness commit, and the commit of every resume, is a full 40-hex commit (one that can be
//     checked out), and no resume was made from a checkout with uncommitted changes;
//   - every build was configured exactly as its recipe does (runner/build/options.ts for OpenSSL,
//     runner/recipes.ts for the other libraries): the same options, no more, no fewer;
//   - its compiler flags are the recipe's: OpenSSL's own defaults, or the recipe's optimisation level
//     and no other -O flag;
//   - it was compiled by GCC (the system compiler the builds are defined with), the same one for every
//     build of the run;
//   - its version string names its own version;
//   - no build is listed twice (by id, or by library, version and variant).
import { LIBRARIES, LIBRARY_RELEASES, libraryOf, recordedVersionString, type LibraryRelease } from '../catalogue/index.ts';
import { OPENSSL_DEFAULT_CFLAGS, recordedConfigureArgs } from '../runner/build/options.ts';
import { recipeOf } from '../runner/recipes.ts';
import type { Build, Run } from '../schema/index.ts';

type Add = (path: PropertyKey[], message: string) => void;

const FULL_COMMIT = /^[0-9a-f]{40}$/;
/** `cc --version`'s first line from GCC: "cc (Debian 12.2.0-14+deb12u1) 12.2.0", "gcc (GCC) 14.2.1 ...". */
const GCC = /^(cc|gcc|x86_64-linux-gnu-gcc(-\d+)?|aarch64-linux-gnu-gcc(-\d+)?) \([^)]*\) \d+\.\d+/;

const escape = (s: string) => s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

/** Why a version string contradicts the build's version, or null when it names it. */
function versionStringProblem(b: Build): string | null {
  // OpenSSL: the app's version, then (3.0+) "(Library: OpenSSL <version> ...)": both must be this build's;
  // another library: what its recipe records for the value its release's header holds (catalogue LIBRARIES)
  const expected =
    b.library === 'openssl'
      ? new RegExp(`^OpenSSL ${escape(b.version)}(?: |$)`)
      : new RegExp(`^${escape(recordedVersionString(b.library, LIBRARIES[b.library].versionHeader.expected?.(b.version) ?? b.version))}$`);
  if (!expected.test(b.versionString)) return `"${b.versionString}" contradicts the build's version ${b.version}`;
  const library = /\(Library: OpenSSL (\S+)/.exec(b.versionString)?.[1];
  if (b.library === 'openssl' && library !== undefined && library !== b.version)
    return `"${b.versionString}" contradicts the build's version ${b.version}: the library says ${library}`;
  return null;
}

function checkBuild(b: Build, arch: string, at: PropertyKey[], add: Add): void {
  const release =
    libraryOf(b) === 'openssl' ? undefined : LIBRARY_RELEASES.find((r): r is LibraryRelease => r.library === b.library && r.version === b.version);
  // an uncatalogued version or an unknown variant is the validator's own refusal (checkBuilds)
  if (libraryOf(b) !== 'openssl' && (!release || !release.variants[b.variant])) return;
  let expected: string[];
  try {
    expected = release ? recipeOf(release).options(release, b.variant) : recordedConfigureArgs(b.series, b.variant, arch);
  } catch {
    return add([...at, 'configureArgs'], `no recipe builds ${b.library} on ${arch}`);
  }
  if (JSON.stringify(b.configureArgs) !== JSON.stringify(expected))
    add(
      [...at, 'configureArgs'],
      `${JSON.stringify(b.configureArgs)} is not the recipe's ${JSON.stringify(expected)} for the ${b.variant} build: a build with other options (no-asm, another variant's) is another build`,
    );
  const flags = b.cflags.split(/\s+/).filter(Boolean);
  const levels = flags.filter((f) => /^-O/.test(f));
  if (release) {
    const level = recipeOf(release).optimisation;
    if (!levels.length || levels.some((l) => l !== level)) add([...at, 'cflags'], `optimisation ${levels.join(' ') || '(none)'} is not the recipe's ${level}`);
  } else {
    const foreign = flags.filter((f) => !OPENSSL_DEFAULT_CFLAGS.includes(f));
    if (foreign.length || !flags.includes('-O3'))
      add(
        [...at, 'cflags'],
        `"${b.cflags}" is not OpenSSL's default flags (${OPENSSL_DEFAULT_CFLAGS.join(' ')})${foreign.length ? `: ${foreign.join(' ')} changes the code` : ': -O3 is missing'}`,
      );
  }
  if (!GCC.test(b.compiler)) add([...at, 'compiler'], `"${b.compiler}" is not GCC, the system compiler the builds are defined with`);
  const version = versionStringProblem(b);
  if (version) add([...at, 'versionString'], version);
}

export function checkProvenance(run: Run, add: Add): void {
  const { harness } = run;
  if (!FULL_COMMIT.test(harness.gitCommit))
    add(['harness', 'gitCommit'], `"${harness.gitCommit}" is not a full commit (40 hex digits): the harness must be traceable to one commit`);
  (harness.resumedAt ?? []).forEach((r, i) => {
    if (!FULL_COMMIT.test(r.gitCommit)) add(['harness', 'resumedAt', i, 'gitCommit'], `"${r.gitCommit}" is not a full commit (40 hex digits)`);
    if (r.gitDirty)
      add(
        ['harness', 'resumedAt', i, 'gitDirty'],
        'the run was resumed from a checkout with uncommitted changes: its later rounds cannot be traced to any commit',
      );
  });
  const seen = new Map<string, number>();
  run.builds.forEach((b, i) => {
    for (const key of [`id ${b.id}`, `${b.library} ${b.version} ${b.variant}`]) {
      const first = seen.get(key);
      if (first !== undefined) add(['builds', i], `the build ${key} is listed twice (also builds[${first}]): one run measures each build once`);
      else seen.set(key, i);
    }
    checkBuild(b, run.host.arch, ['builds', i], add);
  });
  const compiler = run.builds[0]?.compiler;
  run.builds.forEach((b, i) => {
    if (b.compiler !== compiler)
      add(['builds', i, 'compiler'], `"${b.compiler}" is another compiler than the run's first build's ("${compiler}"): one run, one compiler`);
  });
}

/** The provenance problems of one build record on its own (for the integration test of real builds). */
export function provenanceProblems(b: Build, arch: string): string[] {
  const out: string[] = [];
  checkBuild(b, arch, [], (path, message) => out.push(`${path.join('.')}: ${message}`));
  return out;
}
