// The simulation's scratch git repository and the sizes it reports (loose objects, packs, largest files).
import { execFileSync } from 'node:child_process';
import { readdirSync, statSync } from 'node:fs';
import { join, relative } from 'node:path';

// ---------------------------------------------------------------- the scratch repository

export function git(repo: string, ...args: string[]): string {
  return execFileSync('git', ['-C', repo, ...args], {
    encoding: 'utf8',
    maxBuffer: 256 << 20,
    env: {
      ...process.env,
      GIT_AUTHOR_NAME: 'sim',
      GIT_AUTHOR_EMAIL: 'sim@example.invalid',
      GIT_COMMITTER_NAME: 'sim',
      GIT_COMMITTER_EMAIL: 'sim@example.invalid',
    },
  });
}

/** `git count-objects -v` in bytes: loose objects and packs, zlib-compressed as git stores them. */
export function gitSize(repo: string): { loose: number; pack: number; packs: number } {
  const kv = Object.fromEntries(
    git(repo, 'count-objects', '-v')
      .trim()
      .split('\n')
      .map((l) => l.split(': ') as [string, string]),
  );
  return { loose: Number(kv.size) * 1024, pack: Number(kv['size-pack']) * 1024, packs: Number(kv.packs) };
}

/** The largest file git tracks. */
export function largestCommitted(repo: string): { path: string; bytes: number } {
  let best = { path: '', bytes: 0 };
  for (const path of git(repo, 'ls-files', '-z').split('\0').filter(Boolean)) {
    const bytes = statSync(join(repo, path)).size;
    if (bytes > best.bytes) best = { path, bytes };
  }
  return best;
}

export function largestFile(dir: string): { path: string; bytes: number } {
  let best = { path: '', bytes: 0 };
  const walk = (d: string) => {
    for (const name of readdirSync(d)) {
      const p = join(d, name);
      const st = statSync(p);
      if (st.isDirectory()) walk(p);
      else if (st.size > best.bytes) best = { path: relative(dir, p), bytes: st.size };
    }
  };
  walk(dir);
  return best;
}

export function treeBytes(dir: string): { bytes: number; files: number } {
  let bytes = 0;
  let files = 0;
  const walk = (d: string) => {
    for (const name of readdirSync(d)) {
      const p = join(d, name);
      const st = statSync(p);
      if (st.isDirectory()) walk(p);
      else ((bytes += st.size), files++);
    }
  };
  walk(dir);
  return { bytes, files };
}
