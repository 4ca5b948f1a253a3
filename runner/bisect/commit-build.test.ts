// What a commit of OpenSSL's history calls itself (commitVersion), in each of the forms the history has
// used, and which test files a partial snapshot lacks (absentBlobs), on small repositories built here.
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, test } from 'node:test';
import { commitVersion } from './commit-build.ts';
import { absentBlobs } from './history.ts';

const dir = mkdtempSync(join(tmpdir(), 'commit-version-'));
after(() => rmSync(dir, { recursive: true, force: true }));
const env = { ...process.env, GIT_AUTHOR_NAME: 't', GIT_AUTHOR_EMAIL: 't@t', GIT_COMMITTER_NAME: 't', GIT_COMMITTER_EMAIL: 't@t' };
const sh = (...args: string[]) => execFileSync('git', args, { cwd: dir, env, encoding: 'utf8' }).trim();
sh('init', '-q', '-b', 'main');
const repo = join(dir, '.git');

/** A commit whose tree is exactly `files`. */
function commitFiles(files: Record<string, string>): string {
  sh('rm', '-rq', '--cached', '--ignore-unmatch', '.');
  rmSync(join(dir, 'include'), { recursive: true, force: true });
  for (const f of ['VERSION', 'VERSION.dat']) rmSync(join(dir, f), { force: true });
  for (const [path, text] of Object.entries(files)) {
    mkdirSync(join(dir, path, '..'), { recursive: true });
    writeFileSync(join(dir, path), text);
    sh('add', path);
  }
  sh('commit', '-q', '--allow-empty', '-m', Object.keys(files).join(' '));
  return sh('rev-parse', 'HEAD');
}

const versionFile = (pre: string) => `MAJOR=3\nMINOR=0\nPATCH=0\nPRE_RELEASE_TAG=${pre}\nBUILD_METADATA=\nRELEASE_DATE=""\n`;

test('VERSION.dat, and VERSION in the same format (3.0 development from October 2019)', () => {
  assert.deepEqual(commitVersion(repo, commitFiles({ 'VERSION.dat': versionFile('') })), { version: '3.0.0', series: '3.0' });
  assert.deepEqual(commitVersion(repo, commitFiles({ VERSION: versionFile('alpha4-dev') })), { version: '3.0.0-alpha4-dev', series: '3.0' });
});

test('the version macros of opensslv.h (3.0 development before VERSION existed); an old VERSION text is not read', () => {
  const h =
    '# define OPENSSL_VERSION_MAJOR  3\n# define OPENSSL_VERSION_MINOR  0\n# define OPENSSL_VERSION_PATCH  0\n# define OPENSSL_VERSION_PRE_RELEASE "-dev"\n';
  const id = commitFiles({ VERSION: 'SSLeay 0.8.1\n', 'include/openssl/opensslv.h': h });
  assert.deepEqual(commitVersion(repo, id), { version: '3.0.0-dev', series: '3.0' });
});

test('OPENSSL_VERSION_TEXT: 1.1.1 releases and master as 1.1.2-dev', () => {
  const text = (v: string) => ({ 'include/openssl/opensslv.h': `# define OPENSSL_VERSION_TEXT  "OpenSSL ${v}  11 Sep 2018"\n` });
  assert.deepEqual(commitVersion(repo, commitFiles(text('1.1.1w'))), { version: '1.1.1w', series: '1.1.1' });
  assert.deepEqual(commitVersion(repo, commitFiles(text('1.1.2-dev'))), { version: '1.1.2-dev', series: '1.1' });
});

test('a tree without any of them is named as not an OpenSSL tree', () => {
  assert.throws(() => commitVersion(repo, commitFiles({ 'README.md': 'x\n' })), /not an OpenSSL tree/);
});

test('absentBlobs names the files under a folder whose content the repository lacks', () => {
  const id = commitFiles({ 'test/big_data.c': 'large\n', 'test/small.c': 'small\n', 'crypto/x.c': 'x\n' });
  assert.deepEqual(absentBlobs(repo, id, 'test'), []);
  const blob = sh('rev-parse', `${id}:test/big_data.c`);
  rmSync(join(repo, 'objects', blob.slice(0, 2), blob.slice(2)));
  assert.deepEqual(absentBlobs(repo, id, 'test'), ['test/big_data.c']);
  assert.deepEqual(absentBlobs(repo, id, 'crypto'), []);
});
