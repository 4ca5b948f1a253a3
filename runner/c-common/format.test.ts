// The C programs' formatting: clang-format --dry-run --Werror with the repository's .clang-format. Where
// clang-format is not installed the check is skipped, except in CI (CI=true, as GitHub Actions sets it),
// where scripts/setup-machine.sh installs it and its absence is a broken machine, not a pass.
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { readdirSync } from 'node:fs';
import { join, relative } from 'node:path';
import { test } from 'node:test';
import { fileURLToPath } from 'node:url';

const ROOT = fileURLToPath(new URL('../..', import.meta.url));

/** Every .c and .h file under runner/, relative to the repository. */
function cFiles(dir = join(ROOT, 'runner')): string[] {
  return readdirSync(dir, { withFileTypes: true })
    .flatMap((e) =>
      e.name === 'node_modules' || e.name.startsWith('.')
        ? []
        : e.isDirectory()
          ? cFiles(join(dir, e.name))
          : /\.[ch]$/.test(e.name)
            ? [relative(ROOT, join(dir, e.name))]
            : [],
    )
    .sort();
}

const installed = spawnSync('clang-format', ['--version']).status === 0;
const skip = installed ? false : 'clang-format is not installed (apt-get install clang-format, or sudo bash scripts/setup-machine.sh)';

test('clang-format finds a CI machine with clang-format installed', { skip: process.env.CI === 'true' ? false : 'not in CI' }, () => {
  assert.ok(installed, 'clang-format is not installed on this CI machine: scripts/setup-machine.sh installs it');
});

test('every C file under runner/ is formatted as .clang-format says (clang-format -i <file> formats one)', { skip }, () => {
  const files = cFiles();
  assert.ok(files.length >= 20, `only ${files.length} C files found`);
  const r = spawnSync('clang-format', ['--dry-run', '--Werror', '--style=file', ...files], { cwd: ROOT, encoding: 'utf8' });
  assert.equal(r.status, 0, `not formatted:\n${r.stderr.slice(0, 4000)}`);
});
