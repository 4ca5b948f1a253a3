// Every command of package.json, and the developer tools beside them, answers --help with its usage on
// stdout and does nothing else, and refuses an unknown option with exit status 64 (runner/cli.ts).
import assert from 'node:assert/strict';
import { execFileSync, spawnSync } from 'node:child_process';
import { mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { test } from 'node:test';
import { EXIT } from '../runner/exit-codes.ts';

const root = join(import.meta.dirname, '..');
const scripts: Record<string, string> = JSON.parse(readFileSync(join(root, 'package.json'), 'utf8')).scripts;

/** The program a script runs: `node <file>`, or the one a shell wrapper execs (not the wrapper: it installs dependencies first). */
function program(cmd: string): string | null {
  const direct = /^node ([a-z-]+\/\S+\.ts)$/.exec(cmd)?.[1];
  if (direct) return direct;
  const wrapper = /^bash (scripts\/\S+\.sh)$/.exec(cmd)?.[1];
  return wrapper ? (/^exec \S*node ([a-z-]+\/\S+\.ts) "\$@"$/m.exec(readFileSync(join(root, wrapper), 'utf8'))?.[1] ?? null) : null;
}

// each command with the words its usage shows to run it
const commands = [
  ...Object.entries(scripts).flatMap(([name, cmd]) => {
    const file = program(cmd);
    return file ? [{ name, file, runAs: new RegExp(`npm run (-s )?${name.replace(/[:.]/g, '\\$&')}\\b`) }] : [];
  }),
  ...['tools/simulate-year.ts', 'tools/storage-benchmark.ts', 'tools/migrate-runs.ts'].map((file) => ({ name: file, file, runAs: new RegExp(`node ${file}`) })),
];

const run = (file: string, args: string[], cache: string) =>
  spawnSync(process.execPath, [join(root, file), ...args], {
    cwd: root,
    encoding: 'utf8',
    env: { ...process.env, GITHUB_TOKEN: '', OBSERVATORY_CACHE: cache },
    timeout: 60_000,
  });
const dataStatus = () => execFileSync('git', ['-C', root, 'status', '--porcelain', '--untracked-files=all', '--', 'data'], { encoding: 'utf8' });
/** Runs `fn` with an empty build cache and fails when it changed data/ or wrote into that cache. */
function withoutSideEffects(who: string, fn: (cache: string) => void): void {
  const cache = mkdtempSync(join(tmpdir(), 'cli-help-cache-'));
  try {
    const before = dataStatus();
    fn(cache);
    assert.equal(dataStatus(), before, `${who} changed data/`);
    assert.deepEqual(readdirSync(cache), [], `${who} wrote into the build cache`);
  } finally {
    rmSync(cache, { recursive: true, force: true });
  }
}

test('every command answers --help with its usage on stdout, exit 0, and changes nothing', () => {
  const names = commands.map((c) => c.name);
  for (const expected of ['openssl', 'aggregate', 'validate', 'submit', 'mtu', 'test:workflows', 'test:mlkem-hypothesis', 'tools/migrate-runs.ts'])
    assert.ok(names.includes(expected), `${expected} not found in ${names.join(', ')}`);
  withoutSideEffects('a --help', (cache) => {
    for (const { name, file, runAs } of commands) {
      const r = run(file, ['--help'], cache);
      assert.equal(r.status, 0, `${name} --help: exit ${r.status}\n${r.stderr}`);
      assert.match(r.stdout, runAs, `${name}: --help did not print its usage`);
      assert.equal(r.stderr, '', `${name}: --help wrote to stderr`);
    }
  });
});

test('every command refuses an unknown option with exit status 64 and its usage', () => {
  withoutSideEffects('a refused command', (cache) => {
    for (const { name, file, runAs } of commands) {
      const r = run(file, ['--no-such-option'], cache);
      assert.equal(r.status, EXIT.usage, `${name} --no-such-option: exit ${r.status}\n${r.stderr}`);
      assert.match(r.stderr, /--no-such-option/, `${name}: the error does not name the option`);
      assert.match(r.stderr, runAs, `${name}: the error does not show the usage`);
    }
  });
});

test('a subcommand of npm run openssl answers its own --help and refuses an unknown option', () => {
  withoutSideEffects('an openssl subcommand', (cache) => {
    const help = run('runner/openssl-cli.ts', ['build', '--help'], cache);
    assert.equal(help.status, 0, help.stderr);
    assert.match(help.stdout, /^usage: npm run openssl -- build/);
    const bad = run('runner/openssl-cli.ts', ['list', '--no-such-option'], cache);
    assert.equal(bad.status, EXIT.usage, bad.stderr);
    assert.match(bad.stderr, /usage: npm run openssl -- list/);
  });
});
