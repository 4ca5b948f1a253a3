// Which files a change adds, from git: read without trusting file names.
import { execFileSync } from 'node:child_process';
import type { ChangeStatus, ChangedFile } from './report.ts';

/** `git diff --name-status -z` output, read without trusting file names (they may contain anything). */
export function parseNameStatus(z: string): ChangedFile[] {
  const parts = z.split('\0').filter((p) => p !== '');
  const out: ChangedFile[] = [];
  for (let i = 0; i < parts.length;) {
    const code = parts[i++]!;
    const status: ChangeStatus = code === 'A' ? 'added' : code === 'M' ? 'modified' : code === 'D' ? 'deleted' : 'other';
    // renames and copies carry two paths; report the new one (the change is refused as 'other')
    if (/^[RC]/.test(code)) i++;
    out.push({ path: parts[i++] ?? '', status });
  }
  return out;
}

export function changedSince(root: string, base: string): ChangedFile[] {
  const z = execFileSync('git', ['-C', root, 'diff', '--name-status', '-z', '--no-renames', `${base}...HEAD`], { encoding: 'utf8', maxBuffer: 64 << 20 });
  return parseNameStatus(z);
}

/** Files under data/runs/ (and the other folders given) that git does not track yet: what a bench run just wrote. */
export function untrackedRuns(root: string, folders = ['runs']): ChangedFile[] {
  const dirs = folders.map((f) => `data/${f}`);
  const z = execFileSync('git', ['-C', root, 'ls-files', '-z', '--others', '--exclude-standard', '--', ...dirs], { encoding: 'utf8', maxBuffer: 64 << 20 });
  return z
    .split('\0')
    .filter(Boolean)
    .map((path) => ({ path, status: 'added' as const }));
}
