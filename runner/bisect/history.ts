// The commits between two points of a git history, as one linear path that bisect.ts can halve.
//
// From an older release to a newer one the code travels: back along the older release's branch to where it
// left the trunk (those commits are undone), then along the trunk to where the newer release's branch
// left it, then along that branch to the newer tag. The path follows first parents, where a project's
// trunk is; a step that lands on a merge commit is followed into the merged side (`mergeSide`).
import { execFileSync } from 'node:child_process';

export const git = (repo: string, args: string[]): string =>
  execFileSync('git', ['--git-dir', repo, ...args], { encoding: 'utf8', maxBuffer: 1 << 28, stdio: ['ignore', 'pipe', 'pipe'] }).trim();

const lines = (s: string) => (s ? s.split('\n') : []);

/** A commit id for a tag, branch or id; throws naming what was asked when the repository has no such commit. */
export function resolve(repo: string, ref: string): string {
  try {
    return git(repo, ['rev-parse', '--verify', '--quiet', `${ref}^{commit}`]);
  } catch {
    throw new Error(`${repo} has no commit "${ref}"`);
  }
}

export interface PathCommit {
  id: string;
  /**
   * how the path reaches this commit from the one before it: 'forward' (the commit is applied) or
   * 'undone' (the path steps back from this commit to its parent, along the older release's branch;
   * the change is the reverse of the commit before it in the path)
   */
  direction: 'forward' | 'undone';
}

/**
 * The path from `from` to `to` (both included): `from`, its first-parent ancestors down to the merge base
 * (undone), then the first-parent line from the merge base up to `to`.
 */
export function commitPath(repo: string, fromRef: string, toRef: string): PathCommit[] {
  const from = resolve(repo, fromRef);
  const to = resolve(repo, toRef);
  const base = git(repo, ['merge-base', from, to]);
  // first-parent lines, oldest first, base excluded
  const line = (tip: string) => lines(git(repo, ['rev-list', '--first-parent', '--reverse', '--ancestry-path', `${base}..${tip}`]));
  const back = line(from); // base+1 .. from
  const ahead = line(to); // base+1 .. to
  const path: PathCommit[] = [{ id: from, direction: 'forward' }];
  // stepping back: from's parent, its parent, ... down to the base
  for (const id of [...back.slice(0, -1)].reverse()) path.push({ id, direction: 'undone' });
  if (from !== base) path.push({ id: base, direction: 'undone' });
  for (const id of ahead) path.push({ id, direction: 'forward' });
  if (ahead.length === 0 && to !== path[path.length - 1]!.id)
    throw new Error(`${toRef} is not reachable from the merge base of ${fromRef} and ${toRef} by first parents`);
  return path;
}

/**
 * The commit a step between path[i-1] and path[i] is charged to: path[i] when applied forward, path[i-1]
 * when the path steps back from it (undoing it).
 */
export function culprit(path: readonly PathCommit[], at: number): { id: string; undone: boolean } {
  const c = path[at]!;
  return c.direction === 'forward' ? { id: c.id, undone: false } : { id: path[at - 1]!.id, undone: true };
}

/** The parents of a commit. */
export const parents = (repo: string, id: string): string[] => git(repo, ['rev-list', '--parents', '-n', '1', id]).split(' ').slice(1);

/**
 * A merge commit's merged side as a path: its first parent, the second parent's first-parent line since
 * the merge base (oldest first), then the merge itself. Null for a commit that is not a merge.
 */
export function mergeSide(repo: string, merge: string): PathCommit[] | null {
  const ps = parents(repo, merge);
  if (ps.length < 2) return null;
  const [p1, p2] = ps as [string, string];
  const side = lines(git(repo, ['rev-list', '--first-parent', '--reverse', `${p1}..${p2}`]));
  return [p1, ...side, merge].map((id) => ({ id, direction: 'forward' as const }));
}

export interface CommitInfo {
  id: string;
  subject: string;
  /** committer date, ISO 8601 */
  date: string;
  author: string;
}

export function commitInfo(repo: string, id: string): CommitInfo {
  const [full, date, author, ...subject] = git(repo, ['show', '-s', '--format=%H%n%cI%n%an%n%s', id]).split('\n');
  return { id: full!, date: date!, author: author!, subject: subject.join(' ') };
}

/** A file of a commit's tree, or null where the commit has none. */
export function fileAt(repo: string, id: string, path: string): string | null {
  try {
    return git(repo, ['show', `${id}:${path}`]);
  } catch {
    return null;
  }
}

/**
 * Paths under `dir` in a commit's tree whose content the repository lacks (a partial snapshot can omit large
 * test-data blobs). Empty for a complete clone.
 */
export function absentBlobs(repo: string, id: string, dir: string): string[] {
  const entries = lines(git(repo, ['ls-tree', '-r', id, '--', dir]))
    .map((l) => l.match(/^\d+ blob ([0-9a-f]+)\t(.+)$/))
    .filter((m): m is RegExpMatchArray => m !== null);
  if (entries.length === 0) return [];
  const checked = execFileSync('git', ['--git-dir', repo, 'cat-file', '--batch-check'], {
    input: entries.map((m) => m[1]).join('\n') + '\n',
    encoding: 'utf8',
    maxBuffer: 1 << 26,
  });
  const missing = new Set(
    lines(checked.trim())
      .filter((l) => l.endsWith(' missing'))
      .map((l) => l.split(' ')[0]),
  );
  return entries.filter((m) => missing.has(m[1]!)).map((m) => m[2]!);
}
