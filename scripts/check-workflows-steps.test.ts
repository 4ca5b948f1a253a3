// Runs the shell of some workflow steps for real, in scratch git repositories, the way GitHub runs
// them (env vars in, files and GITHUB_OUTPUT out).
import { after, test } from 'node:test';
import assert from 'node:assert/strict';
import { execFileSync, spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync, mkdirSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { stepScript } from './check-workflows.ts';

/** How GitHub runs a `run:` step on Linux (shell: bash). */
const GITHUB_SHELL = ['--noprofile', '--norc', '-eo', 'pipefail', '-c'];
const yaml = readFileSync(join(import.meta.dirname, '..', '.github', 'workflows', 'bench.yml'), 'utf8');
const script = stepScript(yaml, 'Hosts that are due (at most one run per host per UTC day)');
const HOSTS = JSON.stringify([{ id: 'obs-a', arch: 'x64' }, { id: 'obs-b', arch: 'arm64' }]);

function repo(): string {
  const dir = scratch('bench-plan-');
  const git = (...args: string[]) => execFileSync('git', ['-C', dir, '-c', 'user.name=t', '-c', 'user.email=t@t', ...args], { encoding: 'utf8' });
  git('init', '-q');
  mkdirSync(join(dir, 'data/runs/obs-a'), { recursive: true });
  writeFileSync(join(dir, 'data/runs/obs-a/old.json'), '{}');
  git('add', '-A');
  git('commit', '-q', '-m', 'old run', '--date', '2020-01-01T00:00:00Z');
  execFileSync('git', ['-C', dir, 'commit', '-q', '--amend', '--no-edit', '--reset-author'], {
    env: { ...process.env, GIT_COMMITTER_DATE: '2020-01-01T00:00:00Z', GIT_AUTHOR_NAME: 't', GIT_AUTHOR_EMAIL: 't@t', GIT_COMMITTER_NAME: 't', GIT_COMMITTER_EMAIL: 't@t' },
  });
  return dir;
}

function plan(dir: string, env: Record<string, string>): { status: number | null; due: unknown; out: string } {
  const output = join(dir, '.github-output');
  writeFileSync(output, '');
  const r = spawnSync('bash', [...GITHUB_SHELL, script], { cwd: dir, encoding: 'utf8', env: { PATH: process.env.PATH, GITHUB_OUTPUT: output, ONLY: '', FORCE: 'false', ...env } });
  const line = readFileSync(output, 'utf8').split('\n').find((l) => l.startsWith('hosts='));
  return { status: r.status, due: line ? JSON.parse(line.slice(6)) : null, out: r.stdout + r.stderr };
}

const made: string[] = [];
/** A scratch directory, removed when the file's tests end. */
function scratch(prefix: string): string {
  const dir = mkdtempSync(join(tmpdir(), prefix));
  made.push(dir);
  return dir;
}
after(() => made.forEach((d) => rmSync(d, { recursive: true, force: true })));

const ids = (due: unknown) => (due as { id: string }[]).map((h) => h.id);

test('every host is due when none ran today; an old run does not count', () => {
  const r = plan(repo(), { BENCH_HOSTS: HOSTS });
  assert.equal(r.status, 0, r.out);
  assert.deepEqual(r.due, JSON.parse(HOSTS));
});

test('a host with a run committed today is skipped, unless forced; a dispatch can pick hosts', () => {
  const dir = repo();
  writeFileSync(join(dir, 'data/runs/obs-a/today.json'), '{}');
  execFileSync('git', ['-C', dir, '-c', 'user.name=t', '-c', 'user.email=t@t', 'add', '-A']);
  execFileSync('git', ['-C', dir, '-c', 'user.name=t', '-c', 'user.email=t@t', 'commit', '-q', '-m', 'run today']);
  const r = plan(dir, { BENCH_HOSTS: HOSTS });
  assert.deepEqual(ids(r.due), ['obs-b']);
  assert.match(r.out, /obs-a: a run was already committed today/);
  assert.deepEqual(ids(plan(dir, { BENCH_HOSTS: HOSTS, FORCE: 'true' }).due), ['obs-a', 'obs-b']);
  assert.deepEqual(ids(plan(dir, { BENCH_HOSTS: HOSTS, ONLY: ' obs-b ' }).due), ['obs-b']);
  assert.deepEqual(ids(plan(dir, { BENCH_HOSTS: HOSTS, ONLY: 'obs-a', FORCE: 'true' }).due), ['obs-a']);
});

test('no hosts configured gives an empty plan; a malformed host list fails before becoming runner labels', () => {
  assert.deepEqual(plan(repo(), { BENCH_HOSTS: '' }).due, []);
  for (const bad of ['not json', '{"id":"obs-a"}', '[{"id":"obs-a"}]', '[{"id":"laptop","arch":"x64"}]', '[{"id":"obs-a,self-hosted","arch":"x64"}]', '[{"id":"obs-a","arch":"x64; rm -rf /"}]']) {
    const r = plan(repo(), { BENCH_HOSTS: bad });
    assert.equal(r.status, 1, bad);
    assert.match(r.out, /BENCH_HOSTS must be a JSON array/, bad);
    assert.equal(r.due, null, bad);
  }
});

function gitRepo(dir: string, files: Record<string, string>): (...args: string[]) => string {
  const git = (...args: string[]) => execFileSync('git', ['-C', dir, '-c', 'user.name=t', '-c', 'user.email=t@t', ...args], { encoding: 'utf8' }).trim();
  mkdirSync(dir, { recursive: true });
  git('init', '-q');
  for (const [path, text] of Object.entries(files)) {
    mkdirSync(join(dir, path, '..'), { recursive: true });
    writeFileSync(join(dir, path), text);
  }
  git('add', '-A');
  git('commit', '-q', '-m', 'base');
  return git;
}

test('bench.yml collects only new run and hypothesis files for the artifact', () => {
  const dir = scratch('bench-collect-');
  gitRepo(dir, { 'data/runs/obs-a/old.json': '{}', '.gitignore': '*.partial.jsonl\n' });
  for (const f of ['data/runs/obs-a/new.json', 'data/hypothesis/obs-a/h.json', 'data/runs/obs-a/r.partial.jsonl', 'data/summary.json', 'site/x.html']) {
    mkdirSync(join(dir, f, '..'), { recursive: true });
    writeFileSync(join(dir, f), 'x');
  }
  const r = spawnSync('bash', [...GITHUB_SHELL, stepScript(yaml, 'Collect the new files')], { cwd: dir, encoding: 'utf8' });
  assert.equal(r.status, 0, r.stderr);
  const found = execFileSync('find', ['outbox', '-type', 'f'], { cwd: dir, encoding: 'utf8' }).trim().split('\n').sort();
  assert.deepEqual(found, ['outbox/data/hypothesis/obs-a/h.json', 'outbox/data/runs/obs-a/new.json']);
});

test('pr-validate.yml copies only the added run files of the pull request into the scratch checkout', () => {
  const pr = readFileSync(join(import.meta.dirname, '..', '.github', 'workflows', 'pr-validate.yml'), 'utf8');
  const work = scratch('pr-copy-');
  gitRepo(join(work, 'trusted'), { 'README': 'base' });
  const git = gitRepo(join(work, 'submission'), { 'README': 'base', 'data/runs/h/accepted.json': 'old' });
  const base = git('rev-parse', 'HEAD');
  for (const [f, t] of Object.entries({ 'data/runs/h/new.json': 'new', 'data/runs/h/accepted.json': 'changed', 'README': 'changed' })) writeFileSync(join(work, 'submission', f), t);
  git('add', '-A');
  git('commit', '-q', '-m', 'submission');
  const env = { PATH: process.env.PATH, BASE_SHA: base, HEAD_SHA: git('rev-parse', 'HEAD') };
  const r = spawnSync('bash', [...GITHUB_SHELL, stepScript(pr, 'Add the accepted runs to the scratch checkout')], { cwd: work, encoding: 'utf8', env });
  assert.equal(r.status, 0, r.stderr);
  const found = execFileSync('find', ['trusted', '-type', 'f', '-not', '-path', '*/.git/*'], { cwd: work, encoding: 'utf8' }).trim().split('\n').sort();
  assert.deepEqual(found, ['trusted/README', 'trusted/data/runs/h/new.json']);
  assert.equal(readFileSync(join(work, 'trusted/README'), 'utf8'), 'base');
});

/**
 * bench.yml's publish step against a local bare "origin", with a stand-in `npm` that logs its calls,
 * fails validation on request, writes a fake derived file for `aggregate`, and can push a competing
 * commit to origin the first time it aggregates (main moved while publishing).
 */
function publishSetup(incoming: Record<string, string>, opts: { race?: boolean; validateStatus?: number } = {}) {
  const work = scratch('publish-');
  const origin = join(work, 'origin.git');
  execFileSync('git', ['init', '-q', '--bare', '-b', 'main', origin]);
  const seed = gitRepo(join(work, 'seed'), { 'data/runs/obs-a/old.json': 'accepted' });
  seed('push', '-q', origin, 'HEAD:main');
  execFileSync('git', ['clone', '-q', origin, join(work, 'checkout')]);
  execFileSync('git', ['clone', '-q', origin, join(work, 'other')]);
  for (const [f, t] of Object.entries(incoming)) {
    mkdirSync(join(work, 'incoming', f, '..'), { recursive: true });
    writeFileSync(join(work, 'incoming', f), t);
  }
  mkdirSync(join(work, 'bin'));
  writeFileSync(
    join(work, 'bin', 'npm'),
    `#!/bin/bash
echo "$*" >> "${work}/npm.log"
case "$*" in
  *validate*) exit ${opts.validateStatus ?? 0} ;;
  *aggregate*)
    find data/runs -name '*.json' | wc -l > data/summary.json
    if [ "${opts.race ? 1 : 0}" = 1 ] && [ ! -e "${work}/raced" ]; then
      touch "${work}/raced"
      cd "${work}/other" && echo x > other.txt && git add -A && git -c user.name=o -c user.email=o@o commit -qm race && git push -q origin HEAD:main
    fi ;;
esac
`,
    { mode: 0o755 },
  );
  const run = () =>
    spawnSync('bash', [...GITHUB_SHELL, stepScript(yaml, 'Validate, aggregate, commit and push')], {
      cwd: join(work, 'checkout'),
      encoding: 'utf8',
      env: {
        PATH: `${join(work, 'bin')}:${process.env.PATH}`,
        INCOMING: join(work, 'incoming'),
        GITHUB_STEP_SUMMARY: join(work, 'summary.md'),
        GITHUB_SERVER_URL: 'https://github.example',
        GITHUB_REPOSITORY: 'o/r',
        GITHUB_RUN_ID: '1',
        HOME: work,
      },
    });
  const originGit = (...args: string[]) => execFileSync('git', ['--git-dir', origin, ...args], { encoding: 'utf8' }).trim();
  const npmLog = () => {
    try {
      return readFileSync(join(work, 'npm.log'), 'utf8').trim().split('\n');
    } catch {
      return [];
    }
  };
  return { run, originGit, npmLog, work };
}

test('publish: takes only new run and hypothesis files, aggregates, commits as the bot and pushes', () => {
  const { run, originGit, npmLog, work } = publishSetup({
    'data/runs/obs-a/new.json': 'new run',
    'data/runs/obs-a/old.json': 'a runner trying to rewrite an accepted run',
    'data/hypothesis/obs-a/h.json': 'hypothesis',
    'data/summary.json': 'a runner trying to write derived data',
    'site/index.html': 'a runner trying to change the site',
  });
  const r = run();
  assert.equal(r.status, 0, r.stdout + r.stderr);
  assert.deepEqual(originGit('ls-tree', '-r', '--name-only', 'main').split('\n').sort(), [
    'data/hypothesis/obs-a/h.json',
    'data/runs/obs-a/new.json',
    'data/runs/obs-a/old.json',
    'data/summary.json',
  ]);
  assert.equal(originGit('show', 'main:data/runs/obs-a/old.json'), 'accepted');
  assert.equal(originGit('show', 'main:data/summary.json'), '2', 'derived by aggregate, not taken from the runner');
  assert.equal(originGit('log', '-1', '--format=%an <%ae>|%s', 'main'), 'github-actions[bot] <41898282+github-actions[bot]@users.noreply.github.com>|bench: obs-a/new.json');
  assert.deepEqual(npmLog(), [`run -s validate -- --runner --untracked --summary ${join(work, 'summary.md')}`, 'run aggregate']);
});

test('publish: when main moves meanwhile, it rebuilds on the new main and pushes again', () => {
  const { run, originGit, npmLog } = publishSetup({ 'data/runs/obs-a/new.json': 'new run' }, { race: true });
  const r = run();
  assert.equal(r.status, 0, r.stdout + r.stderr);
  assert.match(r.stdout, /push refused \(main moved\); attempt 1/);
  assert.deepEqual(originGit('log', '--format=%s', 'main').split('\n'), ['bench: obs-a/new.json', 'race', 'base']);
  assert.equal(npmLog().filter((l) => l === 'run aggregate').length, 2);
});

test('publish: a failed validation pushes nothing; nothing new is not an error', () => {
  const bad = publishSetup({ 'data/runs/obs-a/new.json': 'new run' }, { validateStatus: 1 });
  assert.notEqual(bad.run().status, 0);
  assert.equal(bad.originGit('log', '--format=%s', 'main'), 'base');
  assert.deepEqual(bad.npmLog().length, 1, 'aggregate never ran');
  const nothing = publishSetup({ 'data/runs/obs-a/old.json': 'replay of an accepted run' });
  const r = nothing.run();
  assert.equal(r.status, 0, r.stderr);
  assert.match(r.stdout, /nothing new to publish/);
  assert.deepEqual(nothing.npmLog(), []);
  assert.equal(nothing.originGit('log', '--format=%s', 'main'), 'base');
});

test("bench.yml records the machine's CPU settings and refuses an unwritable build cache", () => {
  const work = scratch('bench-state-');
  const script = stepScript(yaml, "Record the machine's state; find the build cache");
  const env = (cache: string) => ({ PATH: process.env.PATH, OBSERVATORY_HOST_ID: 'obs-a', OBSERVATORY_CACHE: cache, GITHUB_ENV: join(work, 'env'), GITHUB_STEP_SUMMARY: join(work, 'summary.md') });
  const ok = spawnSync('bash', [...GITHUB_SHELL, script], { encoding: 'utf8', env: env(join(work, 'cache')) });
  assert.equal(ok.status, 0, ok.stderr);
  assert.equal(readFileSync(join(work, 'env'), 'utf8'), `OBSERVATORY_CACHE=${join(work, 'cache')}\n`);
  const summary = readFileSync(join(work, 'summary.md'), 'utf8');
  for (const what of ['CPU governor', 'no_turbo', 'boost', 'SMT', 'load average', 'build cache']) assert.match(summary, new RegExp(what));
  writeFileSync(join(work, 'file'), '');
  const bad = spawnSync('bash', [...GITHUB_SHELL, script], { encoding: 'utf8', env: env(join(work, 'file', 'cache')) });
  assert.equal(bad.status, 1);
  assert.match(bad.stdout, /::error::build cache .* is not writable/);
});
