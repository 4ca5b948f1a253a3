// Build any commit of OpenSSL's history: the libraries our C programs link (libcrypto.a, libssl.a) and
// the headers, with the same Configure options as the catalogue's builds of its series (runner/build/options.ts
// configureArgs), cached by commit. Compiled through ccache when it is installed, so that neighbouring
// commits rebuild in a fraction of a full build (ccache returns the same object files, so the figures do
// not depend on it). A commit that does not build is recorded as such, with the end of its log, and not
// tried again.
import { execFileSync, spawn } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { z } from 'zod';
import { configureArgs, configureTarget, toolVersion } from '../build/options.ts';
import { cacheRoot } from '../sources.ts';
import { absentBlobs, fileAt, git } from './history.ts';

export const commitBuildsDir = () => join(cacheRoot(), 'commit-builds');
/** Debian's ccache puts compiler names that call it here (masquerade): first on PATH, builds go through it. */
const CCACHE_DIR = '/usr/lib/ccache';

const CommitBuildRecord = z.object({
  commit: z.string().regex(/^[0-9a-f]{40}$/),
  /** "3.5.0-dev", from the commit's VERSION.dat (3.x) or opensslv.h (1.1.1) */
  version: z.string(),
  series: z.string(),
  configureArgs: z.array(z.string()),
  compiler: z.string(),
  ccache: z.boolean(),
  builtAt: z.string(),
  buildSeconds: z.number(),
});
export type CommitBuildRecord = z.infer<typeof CommitBuildRecord>;
const CommitBuildFailure = z.object({ commit: z.string(), failed: z.literal(true), reason: z.string(), logTail: z.string(), recipe: z.int().optional() });
/**
 * Bumped when the way a commit is built changes, so that failures of an older way are tried again (2: the
 * options follow what the commit's Configure knows).
 */
const RECIPE = 2;

/**
 * The catalogue's options for the commit's series, less the ones its Configure does not know yet: a
 * development commit can predate an option of its series' release (no-docs arrived during 3.2's).
 */
export function optionsFor(configure: string, series: string): string[] {
  // the names Configure accepts after no-: its @disablables list
  const list = /my @disablables = \(([\s\S]*?)\);/.exec(configure)?.[1] ?? '';
  return configureArgs(series, 'default').filter((o) => !o.startsWith('no-') || list.includes(`"${o.slice(3)}"`));
}

export type CommitBuild = { ok: true; prefix: string; record: CommitBuildRecord; cached: boolean } | { ok: false; reason: string };

/**
 * The version a commit calls itself, and its series. The history has three places for it: VERSION.dat
 * (from July 2020; called VERSION from October 2019), MAJOR/MINOR/PATCH macros in opensslv.h (3.0's
 * development before that), and the OPENSSL_VERSION_TEXT string (1.1.1 and older, master as 1.1.2-dev
 * and 3.0.0-dev in 2018-19). A series is "1.1.1" or "MAJOR.MINOR" (master's 1.1.2-dev is "1.1").
 */
export function commitVersion(repo: string, commit: string): { version: string; series: string } {
  const named = (major: string, minor: string, patch: string, pre: string) => ({
    version: `${major}.${minor}.${patch}${pre}`,
    series: `${major}.${minor}.${patch}` === '1.1.1' ? '1.1.1' : `${major}.${minor}`,
  });
  const dat = [fileAt(repo, commit, 'VERSION.dat'), fileAt(repo, commit, 'VERSION')].find((f) => f && /^MAJOR=/m.test(f));
  if (dat) {
    const v = (k: string) => new RegExp(`^${k}=(.*)$`, 'm').exec(dat)?.[1]?.replace(/"/g, '').trim() ?? '';
    const pre = v('PRE_RELEASE_TAG');
    return named(v('MAJOR'), v('MINOR'), v('PATCH'), pre ? `-${pre}` : '');
  }
  const h = fileAt(repo, commit, 'include/openssl/opensslv.h') ?? '';
  const macro = (k: string) => new RegExp(`^#\\s*define\\s+OPENSSL_VERSION_${k}\\s+(\\S+)`, 'm').exec(h)?.[1];
  const [major, minor, patch] = [macro('MAJOR'), macro('MINOR'), macro('PATCH')];
  if (major && minor && patch) return named(major, minor, patch, macro('PRE_RELEASE')?.replace(/"/g, '') ?? '');
  const m = /OPENSSL_VERSION_TEXT\s+"OpenSSL (\d+)\.(\d+)\.(\d+)([a-z]*)(-[a-z0-9]+)?/.exec(h);
  if (!m) throw new Error(`commit ${commit} has no VERSION.dat, VERSION, version macros or readable OPENSSL_VERSION_TEXT: not an OpenSSL tree?`);
  return named(m[1]!, m[2]!, m[3]!, `${m[4]}${m[5] ?? ''}`);
}

function run(cmd: string, args: string[], cwd: string, env: NodeJS.ProcessEnv, log: string[]): Promise<void> {
  return new Promise((resolve, reject) => {
    const p = spawn(cmd, args, { cwd, env, stdio: ['ignore', 'pipe', 'pipe'] });
    const keep = (d: Buffer) => {
      log.push(d.toString());
      if (log.length > 400) log.splice(0, log.length - 400);
    };
    p.stdout.on('data', keep);
    p.stderr.on('data', keep);
    p.on('error', reject);
    p.on('close', (code) => (code === 0 ? resolve() : reject(new Error(`${cmd} ${args.slice(0, 3).join(' ')} exited ${code}`))));
  });
}

/** Build (or find cached) one commit of `repo` (a git directory). Never throws for a commit that does not build. */
export async function buildCommit(repo: string, commitId: string, jobs = 2): Promise<CommitBuild> {
  const commit = git(repo, ['rev-parse', '--verify', `${commitId}^{commit}`]);
  const dir = join(commitBuildsDir(), commit);
  const recordPath = join(dir, 'build.json');
  const failedPath = join(dir, 'failed.json');
  if (existsSync(recordPath))
    return { ok: true, prefix: join(dir, 'install'), record: CommitBuildRecord.parse(JSON.parse(readFileSync(recordPath, 'utf8'))), cached: true };
  if (existsSync(failedPath)) {
    const failure = CommitBuildFailure.parse(JSON.parse(readFileSync(failedPath, 'utf8')));
    if (failure.recipe === RECIPE) return { ok: false, reason: failure.reason };
  }
  const { version, series } = commitVersion(repo, commit);
  rmSync(dir, { recursive: true, force: true });
  const src = join(dir, 'src');
  mkdirSync(src, { recursive: true });
  const ccache = existsSync(CCACHE_DIR);
  const env = { ...process.env, LC_ALL: 'C', ...(ccache ? { PATH: `${CCACHE_DIR}:${process.env.PATH}` } : {}) };
  const log: string[] = [];
  const started = Date.now();
  const args = [
    configureTarget(),
    `--prefix=${join(dir, 'install')}`,
    '--libdir=lib',
    `--openssldir=${join(dir, 'install', 'ssl')}`,
    ...optionsFor(fileAt(repo, commit, 'Configure') ?? '', series),
  ];
  try {
    // the library's tree without the test recipes' data, nor any test file a partial snapshot lacks (a
    // no-tests build reads none of them; Configure only reads test/'s build.info files)
    const excluded = ['test/recipes', ...absentBlobs(repo, commit, 'test')].map((p) => `:(exclude,literal)${p}`);
    execFileSync('bash', ['-o', 'pipefail', '-c', 'git --git-dir "$1" archive "$2" -- . "${@:4}" | tar -x -C "$3"', 'bash', repo, commit, src, ...excluded], {
      stdio: ['ignore', 'ignore', 'pipe'],
    });
  } catch (e) {
    // not the commit's fault: nothing is recorded against it
    rmSync(dir, { recursive: true, force: true });
    throw new Error(`cannot extract ${commit} from ${repo}: ${String((e as { stderr?: Buffer }).stderr ?? (e as Error).message).slice(0, 500)}`);
  }
  try {
    await run('perl', ['./Configure', ...args], src, env, log);
    await run('make', [`-j${jobs}`, 'build_libs'], src, env, log);
    await run('make', ['install_dev'], src, env, log);
  } catch (e) {
    const reason = `${(e as Error).message}`;
    rmSync(dir, { recursive: true, force: true });
    mkdirSync(dir, { recursive: true });
    writeFileSync(failedPath, JSON.stringify({ commit, failed: true, reason, logTail: log.join('').slice(-4000), recipe: RECIPE }, null, 2) + '\n');
    return { ok: false, reason };
  }
  rmSync(src, { recursive: true, force: true });
  // the library reads OPENSSLDIR/openssl.cnf at start: an empty one, as the catalogue's builds have
  mkdirSync(join(dir, 'install', 'ssl'), { recursive: true });
  writeFileSync(join(dir, 'install', 'ssl', 'openssl.cnf'), '# intentionally empty: benchmarks use library defaults\n');
  const record: CommitBuildRecord = {
    commit,
    version,
    series,
    configureArgs: args.filter((a) => !a.startsWith('--prefix=') && !a.startsWith('--openssldir=')),
    compiler: toolVersion('cc'),
    ccache,
    builtAt: new Date().toISOString(),
    buildSeconds: (Date.now() - started) / 1000,
  };
  writeFileSync(`${recordPath}.tmp`, JSON.stringify(record, null, 2) + '\n');
  renameSync(`${recordPath}.tmp`, recordPath);
  return { ok: true, prefix: join(dir, 'install'), record, cached: false };
}
