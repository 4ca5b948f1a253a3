// Every command of package.json that takes options answers --help with its usage and does nothing else.
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { test } from 'node:test';

const root = join(import.meta.dirname, '..');
const scripts: Record<string, string> = JSON.parse(readFileSync(join(root, 'package.json'), 'utf8')).scripts;
// the commands that run one of our programs directly (not test tiers, builds or shell wrappers)
const commands = Object.entries(scripts).filter(([name, cmd]) => /^node (runner|scripts)\/\S+\.ts$/.test(cmd) && !name.startsWith('test') && name !== 'typecheck');

test('every command answers --help with its usage, exit 0, and writes nothing', () => {
  assert.ok(commands.length >= 8, `found ${commands.map(([n]) => n).join(', ')}`);
  const watched = ['data/summary.json', 'data/detailed-iterations.json'].map((f) => join(root, f));
  const before = watched.map((f) => statSync(f, { throwIfNoEntry: false })?.mtimeMs);
  for (const [name, cmd] of commands) {
    const file = cmd.split(' ')[1]!;
    const out = execFileSync(process.execPath, [join(root, file), '--help'], { cwd: root, encoding: 'utf8', env: { ...process.env, GITHUB_TOKEN: '' }, timeout: 60_000 });
    assert.match(out, /usage|npm run/i, `${name}: --help printed no usage`);
  }
  assert.deepEqual(watched.map((f) => statSync(f, { throwIfNoEntry: false })?.mtimeMs), before, 'a --help changed data/');
});
