// The path between two releases and the bisection over it, on a synthetic repository built here: a stand-in
// "library" whose figure per commit is the number in cost.txt (a commit with a file BROKEN does not build),
// with a release branch, a merge and two steps in one interval.
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, test } from 'node:test';
import { bisect, relativeDifference } from './bisect.ts';
import { commitPath, culprit, fileAt, mergeSide, resolve } from './history.ts';
import { releaseSteps } from './releases.ts';

const dir = mkdtempSync(join(tmpdir(), 'bisect-repo-'));
after(() => rmSync(dir, { recursive: true, force: true }));
const env = { ...process.env, GIT_AUTHOR_NAME: 't', GIT_AUTHOR_EMAIL: 't@t', GIT_COMMITTER_NAME: 't', GIT_COMMITTER_EMAIL: 't@t' };
const sh = (...args: string[]) => execFileSync('git', args, { cwd: dir, env, encoding: 'utf8' }).trim();
let n = 0;
function commit(cost: number, opts: { broken?: boolean; msg?: string } = {}): string {
  writeFileSync(join(dir, 'cost.txt'), `${cost}\n`);
  if (opts.broken) writeFileSync(join(dir, 'BROKEN'), 'x');
  else rmSync(join(dir, 'BROKEN'), { force: true });
  sh('add', '-A');
  sh('commit', '-q', '-m', opts.msg ?? `c${++n} cost ${cost}`, '--allow-empty');
  return sh('rev-parse', 'HEAD');
}

sh('init', '-q', '-b', 'main');
const c = (k: number, cost: number) => Array.from({ length: k }, () => commit(cost));
c(5, 100);
const branchPoint = commit(100, { msg: 'branch point' });
sh('checkout', '-q', '-b', 'rel-1');
commit(100);
const backport = commit(90, { msg: 'release branch: a fix that costs less' });
sh('tag', 'v1');
sh('checkout', '-q', 'main');
c(10, 100);
const stepA = commit(120, { msg: 'step A' });
commit(120, { broken: true });
const stepB = commit(150, { msg: 'step B, next to an unbuildable commit' });
c(20, 150);
// a side branch merged into main: its step shows up on the merge commit of the first-parent line
sh('checkout', '-q', '-b', 'feature');
commit(150);
const sideStep = commit(170, { msg: 'side: step inside a merge' });
sh('checkout', '-q', 'main');
commit(150);
sh('merge', '-q', '--no-ff', '-X', 'theirs', 'feature', '-m', 'merge feature');
const merge = sh('rev-parse', 'HEAD');
c(15, 170);
sh('tag', 'v2');
const repo = join(dir, '.git');
const measure = (path: { id: string }[]) => async (at: number) => {
  const id = path[at]!.id;
  return fileAt(repo, id, 'BROKEN') !== null ? null : Number(fileAt(repo, id, 'cost.txt'));
};

test('the path from a release to a newer one: back along its branch to the branch point, then the trunk', () => {
  const path = commitPath(repo, 'v1', 'v2');
  assert.equal(path[0]!.id, resolve(repo, 'v1'));
  assert.equal(path.at(-1)!.id, resolve(repo, 'v2'));
  const bp = path.findIndex((p) => p.id === branchPoint);
  assert.equal(bp, 2, 'two steps back: v1 -> its parent -> the branch point');
  assert.ok(path.slice(1, bp + 1).every((p) => p.direction === 'undone'));
  assert.ok(path.slice(bp + 1).every((p) => p.direction === 'forward'));
  assert.ok(!path.some((p) => p.id === sideStep), 'first parents only: the side branch is inside the merge');
});

test('bisection over the path finds the undone backport, a step, a range around an unbuildable commit, and the merge', async () => {
  const path = commitPath(repo, 'v1', 'v2');
  const r = await bisect(path.length, measure(path), { differs: relativeDifference(0.001), budget: 40 });
  const found = r.steps.map((s) => ({ ...culprit(path, s.at), before: s.before, after: s.after }));
  assert.deepEqual(found, [
    { id: backport, undone: true, before: 90, after: 100 },
    { id: stepA, undone: false, before: 100, after: 120 },
    { id: merge, undone: false, before: 150, after: 170 },
  ]);
  // step B follows a commit that does not build: either may have made it, so it is a range of two commits
  assert.deepEqual(
    r.unresolved.map((u) => [path[u.from]!.id, path[u.to]!.id, u.before, u.after, u.reason]),
    [[stepA, stepB, 120, 150, 'unbuildable']],
  );
  // the merge's side, bisected in turn, names the commit that made the step
  const side = mergeSide(repo, merge)!;
  const inside = await bisect(side.length, measure(side), { differs: relativeDifference(0.001), budget: 20 });
  assert.deepEqual(
    inside.steps.map((s) => culprit(side, s.at).id),
    [sideStep],
  );
  assert.equal(mergeSide(repo, stepA), null, 'an ordinary commit has no merged side');
});

test('a reference the repository does not have is named', () => {
  assert.throws(() => commitPath(repo, 'v1', 'v9'), /has no commit "v9"/);
});

test('a release is its tag only where the archive it was measured from has the same files', async () => {
  const { compareWithArchive } = await import('./releases.ts');
  const out = mkdtempSync(join(tmpdir(), 'archive-'));
  try {
    // the tree of v2 as a tarball, with a generated file the tree lacks and the test data left out
    const make = (name: string, edit?: () => void) => {
      const stage = join(out, `stage-${name}`);
      execFileSync('sh', ['-c', `mkdir -p "$2/lib-1" && git --git-dir "$1" archive v2 | tar -x -C "$2/lib-1"`, 'sh', repo, stage]);
      writeFileSync(join(stage, 'lib-1', 'generated.h'), '#define MADE_BY_THE_RELEASE 1\n');
      edit?.();
      execFileSync('tar', ['czf', join(out, `${name}.tar.gz`), '-C', stage, 'lib-1']);
      return join(out, `${name}.tar.gz`);
    };
    const good = compareWithArchive(repo, resolve(repo, 'v2'), make('good'), 'lib-1', 'v2');
    assert.deepEqual([good.same, good.differing, good.generated], [1, [], ['generated.h']]);
    const bad = make('bad', () => writeFileSync(join(out, 'stage-bad', 'lib-1', 'cost.txt'), '999\n'));
    assert.throws(() => compareWithArchive(repo, resolve(repo, 'v2'), bad, 'lib-1', 'v2'), /1 files differ \(cost\.txt\)/);
    assert.throws(() => compareWithArchive(repo, resolve(repo, 'v1'), make('other'), 'lib-1', 'v1'), /differ/);
  } finally {
    rmSync(out, { recursive: true, force: true });
  }
});

test('--all: each series newest catalogued release with a tag, pairs of neighbouring series, the rest named as skipped', () => {
  sh('tag', 'openssl-3.4.0', branchPoint);
  sh('tag', 'openssl-3.4.1', 'v1');
  sh('tag', 'openssl-3.5.5', 'v2');
  const steps = releaseSteps(repo);
  const done = steps.filter((s) => !('skipped' in s));
  assert.deepEqual(done, [{ from: '3.4.1', to: '3.5.5' }]);
  const skipped = steps.filter((s) => 'skipped' in s);
  assert.ok(skipped.length >= 2, 'the other neighbouring pairs are listed');
  const into34 = skipped.find((s) => s.to === '3.4.1');
  assert.ok(into34 && 'skipped' in into34 && /3\.3/.test(into34.skipped), 'the pair into 3.4 names the series without a tag');
});
