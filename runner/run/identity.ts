// What names a run and what measured it: its id (time, mode, a random tail) and the harness (checkout,
// Node, harness revision). Used by every command that writes a result file.
import { execFileSync } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import type { Run, RunMode } from '../../schema/index.ts';
import { HARNESS_REVISION } from '../../catalogue/harness-steps.ts';

export function newRunId(mode: RunMode | 'sequential', now = new Date()): string {
  const stamp = now
    .toISOString()
    .replace(/[-:]/g, '')
    .replace(/\.\d+Z$/, 'Z');
  return `${stamp}-${mode}-${randomBytes(2).toString('hex')}`;
}

export function harnessInfo(): Run['harness'] {
  const git = (args: string[]) => execFileSync('git', args, { encoding: 'utf8', stdio: ['ignore', 'pipe', 'ignore'] }).trim();
  let gitCommit = 'unknown';
  let gitDirty = true;
  try {
    gitCommit = git(['rev-parse', 'HEAD']);
    gitDirty = git(['status', '--porcelain', '--untracked-files=no']).length > 0;
  } catch {
    // not a git checkout: say so through 'unknown'
  }
  return { gitCommit, gitDirty, node: process.version, revision: HARNESS_REVISION };
}
