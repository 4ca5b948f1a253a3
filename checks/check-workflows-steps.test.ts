// Runs the shell of some workflow steps for real, in scratch git repositories, the way GitHub runs
// them (env vars in, files and GITHUB_OUTPUT out).
import { after, test } from 'node:test';
import assert from 'node:assert/strict';
import { execFileSync, spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, symlinkSync, writeFileSync, mkdirSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { stepScript } from './check-workflows.ts';

/** How GitHub runs a `run:` step on Linux (shell: bash). */
const GITHUB_SHELL = ['--noprofile', '--norc', '-eo', 'pipefail', '-c'];
const yaml = readFileSync(join(import.meta.dirname, '..', '.github', 'workflows', 'bench.yml'), 'utf8');
const script = stepScript(yaml, 'Hosts that are due (at most one run per host per UTC day)');
const HOSTS = JSON.stringify([
  { id: 'obs-a', arch: 'x64' },
  { id: 'obs-b', arch: 'arm64' },
]);
/** Machine folders (schema/machine.ts): two machines of the name obs-a (other hardware), one of obs-b. */
const A = 'obs-a.amd-epyc-3fa2c1';
const A2 = 'obs-a.amd-epyc-9454p-0b12ef';
const B = 'obs-b.neoverse-v1-7d04aa';
/** Folders that are no machine of obs-a: another name that starts like it, the bare name, no fingerprint, a name with a dot. */
const NOT_A = ['obs-ab.amd-epyc-3fa2c1', 'obs-a', 'obs-a.x', 'obs-a.b.amd-epyc-3fa2c1'];

function repo(): string {
  const dir = scratch('bench-plan-');
  const git = (...args: string[]) => execFileSync('git', ['-C', dir, '-c', 'user.name=t', '-c', 'user.email=t@t', ...args], { encoding: 'utf8' });
  git('init', '-q');
  mkdirSync(join(dir, `data/runs/${A}`), { recursive: true });
  writeFileSync(join(dir, `data/runs/${A}/old.json`), '{}');
  git('add', '-A');
  git('commit', '-q', '-m', 'old run', '--date', '2020-01-01T00:00:00Z');
  execFileSync('git', ['-C', dir, 'commit', '-q', '--amend', '--no-edit', '--reset-author'], {
    env: {
      ...process.env,
      GIT_COMMITTER_DATE: '2020-01-01T00:00:00Z',
      GIT_AUTHOR_NAME: 't',
      GIT_AUTHOR_EMAIL: 't@t',
      GIT_COMMITTER_NAME: 't',
      GIT_COMMITTER_EMAIL: 't@t',
    },
  });
  return dir;
}

/** The plan: `hosts` measured in this run, `fanout` dispatched as one run each; `due` is both. */
function plan(dir: string, env: Record<string, string>): { status: number | null; due: unknown; hosts: unknown; fanout: unknown; out: string } {
  const output = join(dir, '.github-output');
  writeFileSync(output, '');
  const r = spawnSync('bash', [...GITHUB_SHELL, script], {
    cwd: dir,
    encoding: 'utf8',
    env: { PATH: process.env.PATH, GITHUB_OUTPUT: output, ONLY: '', FORCE: 'false', ...env },
  });
  const value = (name: string) => {
    const line = readFileSync(output, 'utf8')
      .split('\n')
      .find((l) => l.startsWith(`${name}=`));
    return line ? (JSON.parse(line.slice(name.length + 1)) as unknown[]) : null;
  };
  const [hosts, fanout] = [value('hosts'), value('fanout')];
  return { status: r.status, due: hosts && [...hosts, ...(fanout ?? [])], hosts, fanout, out: r.stdout + r.stderr };
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

/** Commit a run file today in each of these data/runs/ folders. */
function runToday(dir: string, ...folders: string[]): void {
  for (const folder of folders) {
    mkdirSync(join(dir, 'data/runs', folder), { recursive: true });
    writeFileSync(join(dir, 'data/runs', folder, 'today.json'), '{}');
  }
  execFileSync('git', ['-C', dir, '-c', 'user.name=t', '-c', 'user.email=t@t', 'add', '-A']);
  execFileSync('git', ['-C', dir, '-c', 'user.name=t', '-c', 'user.email=t@t', 'commit', '-q', '-m', 'run today']);
}

test('a host with a run committed today is skipped, unless forced; a dispatch can pick hosts', () => {
  const dir = repo();
  runToday(dir, A);
  const r = plan(dir, { BENCH_HOSTS: HOSTS });
  assert.deepEqual(ids(r.due), ['obs-b']);
  assert.match(r.out, /obs-a: a run was already committed today/);
  assert.deepEqual(ids(plan(dir, { BENCH_HOSTS: HOSTS, FORCE: 'true' }).due), ['obs-a', 'obs-b']);
  assert.deepEqual(ids(plan(dir, { BENCH_HOSTS: HOSTS, ONLY: ' obs-b ' }).due), ['obs-b']);
  assert.deepEqual(ids(plan(dir, { BENCH_HOSTS: HOSTS, ONLY: 'obs-a', FORCE: 'true' }).due), ['obs-a']);
});

test('a run today on any machine of the name counts (other hardware too); a folder that is no machine of the name does not', () => {
  const other = repo();
  runToday(other, A2);
  assert.deepEqual(ids(plan(other, { BENCH_HOSTS: HOSTS }).due), ['obs-b']);
  const look = repo();
  runToday(look, ...NOT_A);
  const r = plan(look, { BENCH_HOSTS: HOSTS });
  assert.equal(r.status, 0, r.out);
  assert.deepEqual(ids(r.due), ['obs-a', 'obs-b'], r.out);
  // a name with a dot has machine folders of its own
  const dotted = JSON.stringify([
    { id: 'obs-a.b', arch: 'x64' },
    { id: 'obs-a', arch: 'x64' },
  ]);
  assert.deepEqual(ids(plan(look, { BENCH_HOSTS: dotted }).due), ['obs-a']);
});

test('no hosts configured gives an empty plan; a malformed host list fails before becoming runner labels', () => {
  assert.deepEqual(plan(repo(), { BENCH_HOSTS: '' }).due, []);
  for (const bad of [
    'not json',
    '{"id":"obs-a"}',
    '[{"id":"obs-a"}]',
    '[{"id":"laptop","arch":"x64"}]',
    '[{"id":"obs-a,self-hosted","arch":"x64"}]',
    '[{"id":"obs-a","arch":"x64; rm -rf /"}]',
  ]) {
    const r = plan(repo(), { BENCH_HOSTS: bad });
    assert.equal(r.status, 1, bad);
    assert.match(r.out, /BENCH_HOSTS must be a JSON array/, bad);
    assert.equal(r.due, null, bad);
  }
});

test('publish per host: more than one host due gives one workflow run per host, so no machine waits for another', () => {
  const two = plan(repo(), { BENCH_HOSTS: HOSTS });
  assert.deepEqual([two.hosts, two.fanout], [[], JSON.parse(HOSTS)]);
  const dir = repo();
  runToday(dir, A);
  const one = plan(dir, { BENCH_HOSTS: HOSTS });
  assert.deepEqual([ids(one.hosts), one.fanout], [['obs-b'], []]);
  assert.match(yaml, /\n  bench:\n    needs: plan\n    if: needs\.plan\.outputs\.hosts != '\[\]'\n/);

  // the fan-out job dispatches this workflow on main once per host, the force flag passed on, and runs nothing else
  const work = scratch('bench-fanout-');
  mkdirSync(join(work, 'bin'));
  writeFileSync(join(work, 'bin', 'gh'), '#!/bin/sh\necho "$*" >> "$GH_LOG"\n', { mode: 0o755 });
  const r = spawnSync('bash', [...GITHUB_SHELL, stepScript(yaml, 'One workflow run per host')], {
    cwd: work,
    encoding: 'utf8',
    env: {
      PATH: `${join(work, 'bin')}:${process.env.PATH}`,
      GH_LOG: join(work, 'gh.log'),
      FANOUT: HOSTS,
      FORCE: 'false',
      GITHUB_STEP_SUMMARY: join(work, 'summary.md'),
    },
  });
  assert.equal(r.status, 0, r.stderr);
  assert.equal(
    readFileSync(join(work, 'gh.log'), 'utf8'),
    'workflow run bench.yml --ref main -f hosts=obs-a -f force=false\nworkflow run bench.yml --ref main -f hosts=obs-b -f force=false\n',
  );
  const fanout = yaml.slice(yaml.indexOf('\n  fan-out:\n'), yaml.indexOf('\n  bench:\n'));
  assert.match(fanout, /permissions:\n      actions: write\n/);
  assert.doesNotMatch(fanout.replace(/#.*$/gm, ''), /checkout|npm|contents:/);
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

test('bench.yml collects the new run files and the new hypothesis result into separate artifacts', () => {
  const dir = scratch('bench-collect-');
  gitRepo(dir, { [`data/runs/${A}/old.json`]: '{}', '.gitignore': '*.partial.jsonl\n' });
  for (const f of [`data/runs/${A}/new.json`, `data/hypothesis/${A}/h.json`, `data/runs/${A}/r.partial.jsonl`, 'data/summary.json', 'site/x.html']) {
    mkdirSync(join(dir, f, '..'), { recursive: true });
    writeFileSync(join(dir, f), 'x');
  }
  for (const [step, folder] of [
    ['Collect the new run', 'runs'],
    ['Collect the hypothesis result', 'hypothesis'],
  ]) {
    const r = spawnSync('bash', [...GITHUB_SHELL, stepScript(yaml, step!)], { cwd: dir, encoding: 'utf8', env: { PATH: process.env.PATH, FOLDER: folder } });
    assert.equal(r.status, 0, r.stderr);
  }
  const found = execFileSync('find', ['outbox', '-type', 'f'], { cwd: dir, encoding: 'utf8' }).trim().split('\n').sort();
  assert.deepEqual(found, [`outbox/hypothesis/data/hypothesis/${A}/h.json`, `outbox/runs/data/runs/${A}/new.json`]);
});

test('bench.yml uploads the measured run before the hypothesis test and the validation can fail; no job waits in a concurrency group', () => {
  const steps = yaml
    .slice(yaml.indexOf('\n  bench:\n'))
    .split('\n')
    .filter((l) => /^      - (name|uses|run):/.test(l));
  const index = (pattern: RegExp) => steps.findIndex((l) => pattern.test(l));
  const upload = index(/upload-artifact/);
  assert.ok(index(/Full benchmark/) < index(/Collect the new run/) && index(/Collect the new run/) < upload, steps.join('\n'));
  assert.ok(upload < index(/ML-KEM hypothesis/) && upload < index(/Validate the new files/), steps.join('\n'));
  assert.match(yaml, /name: bench-\$\{\{ matrix\.host\.id \}\}-run\n/);
  assert.doesNotMatch(yaml.replace(/#.*$/gm, ''), /concurrency:|merge-multiple: true/);
  assert.doesNotMatch(publishYaml.replace(/#.*$/gm, ''), /concurrency:|merge-multiple: true/);
});

test('pr-validate.yml copies only the added run files of the pull request into the scratch checkout', () => {
  const pr = readFileSync(join(import.meta.dirname, '..', '.github', 'workflows', 'pr-validate.yml'), 'utf8');
  const work = scratch('pr-copy-');
  gitRepo(join(work, 'trusted'), { README: 'base' });
  const git = gitRepo(join(work, 'submission'), { README: 'base', 'data/runs/h/accepted.json': 'old' });
  const base = git('rev-parse', 'HEAD');
  for (const [f, t] of Object.entries({ 'data/runs/h/new.json': 'new', 'data/runs/h/accepted.json': 'changed', README: 'changed' }))
    writeFileSync(join(work, 'submission', f), t);
  git('add', '-A');
  git('commit', '-q', '-m', 'submission');
  const env = { PATH: process.env.PATH, BASE_SHA: base, HEAD_SHA: git('rev-parse', 'HEAD') };
  const r = spawnSync('bash', [...GITHUB_SHELL, stepScript(pr, 'Add the accepted runs to the scratch checkout')], { cwd: work, encoding: 'utf8', env });
  assert.equal(r.status, 0, r.stderr);
  const found = execFileSync('find', ['trusted', '-type', 'f', '-not', '-path', '*/.git/*'], { cwd: work, encoding: 'utf8' }).trim().split('\n').sort();
  assert.deepEqual(found, ['trusted/README', 'trusted/data/runs/h/new.json']);
  assert.equal(readFileSync(join(work, 'trusted/README'), 'utf8'), 'base');
});

test('pr-validate.yml fetches the pull request as objects and writes out only its data/runs/ files; a pull request without data reports "no runs submitted"', () => {
  const pr = readFileSync(join(import.meta.dirname, '..', '.github', 'workflows', 'pr-validate.yml'), 'utf8');
  for (const [what, files, expectRuns] of [
    [
      'a submission',
      { 'data/runs/h/2026/11/new.json.br': 'new run', 'scripts/evil.ts': 'process.exit(0)', 'package.json': '{"scripts":{"validate":"true"}}' },
      true,
    ],
    ['a code change', { 'scripts/evil.ts': 'process.exit(0)', '.github/workflows/pr-validate.yml': 'name: mine' }, false],
  ] as const) {
    const work = scratch('pr-data-');
    // the base repository: main with an accepted run, and the pull request's commit at refs/pull/7/head
    const seed = gitRepo(join(work, 'seed'), { 'package.json': '{}', 'scripts/aggregate.ts': 'code', 'data/runs/h/2026/11/old.json.br': 'accepted' });
    const base = seed('rev-parse', 'HEAD');
    for (const [f, t] of Object.entries(files)) {
      mkdirSync(join(work, 'seed', f, '..'), { recursive: true });
      writeFileSync(join(work, 'seed', f), t);
    }
    seed('add', '-A');
    seed('commit', '-q', '-m', 'pull request');
    const head = seed('rev-parse', 'HEAD');
    execFileSync('git', ['init', '-q', '--bare', join(work, 'origin.git')]);
    seed('push', '-q', join(work, 'origin.git'), `${base}:refs/heads/main`, `${head}:refs/pull/7/head`);
    // what actions/checkout leaves: the base commit in trusted/, origin pointing at the repository
    execFileSync('git', ['clone', '-q', join(work, 'origin.git'), join(work, 'trusted')]);
    const env = { BASE_SHA: base, HEAD_SHA: head, PR_NUMBER: '7', GITHUB_STEP_SUMMARY: join(work, 'summary.md') };
    const fetched = runStep(pr, 'Fetch the pull request as git objects (nothing checked out)', work, env);
    assert.equal(fetched.status, 0, fetched.log);
    const r = runStep(pr, 'Read the pull request as data', work, env);
    assert.equal(r.status, 0, `${what}: ${r.log}`);
    assert.deepEqual(r.out, { runs: String(expectRuns) }, what);
    const found = execFileSync('find', ['submission', '-not', '-path', 'submission/.git*', '-type', 'f'], { cwd: work, encoding: 'utf8' })
      .trim()
      .split('\n')
      .filter(Boolean)
      .sort();
    // the pull request's code is never written out, only its data/runs/ (accepted runs included: the validator reads them as main has them)
    assert.deepEqual(found, expectRuns ? ['submission/data/runs/h/2026/11/new.json.br', 'submission/data/runs/h/2026/11/old.json.br'] : [], what);
    if (!expectRuns) assert.match(readFileSync(join(work, 'summary.md'), 'utf8'), /No runs submitted/);
    // the validator's --base mode reads the change list from the submission work tree
    const changed = execFileSync('git', ['-C', join(work, 'submission'), 'diff', '--name-status', '--no-renames', `${base}...HEAD`], { encoding: 'utf8' });
    assert.match(changed, expectRuns ? /A\tdata\/runs\/h\/2026\/11\/new\.json\.br/ : /A\tscripts\/evil\.ts/, what);
  }
});

const publishYaml = readFileSync(join(import.meta.dirname, '..', '.github', 'workflows', 'publish.yml'), 'utf8');
const PLANNED = JSON.stringify([
  { id: 'obs-a', arch: 'x64' },
  { id: 'obs-b', arch: 'arm64' },
]);

/** A step's GITHUB_OUTPUT as key -> value. */
function outputs(file: string): Record<string, string> {
  return Object.fromEntries(
    readFileSync(file, 'utf8')
      .trim()
      .split('\n')
      .filter(Boolean)
      .map((l) => [l.slice(0, l.indexOf('=')), l.slice(l.indexOf('=') + 1)]),
  );
}
function runStep(yamlText: string, name: string, cwd: string, env: Record<string, string>) {
  const out = join(cwd, '..', `${Math.random().toString(36).slice(2)}.out`);
  writeFileSync(out, '');
  const r = spawnSync('bash', [...GITHUB_SHELL, stepScript(yamlText, name)], {
    cwd,
    encoding: 'utf8',
    env: { PATH: process.env.PATH, HOME: cwd, GITHUB_OUTPUT: out, ...env },
  });
  return { status: r.status, log: r.stdout + r.stderr, out: outputs(out) };
}

/** main as a local bare "origin" with one accepted run, and a checkout of it (shallow, as the push job has). */
function origin() {
  const work = scratch('publish-');
  const bare = join(work, 'origin.git');
  execFileSync('git', ['init', '-q', '--bare', '-b', 'main', bare]);
  const seed = gitRepo(join(work, 'seed'), {
    [`data/runs/${A}/2026/11/old.json.br`]: 'accepted',
    [`data/master/${A}/nights.json`]: 'nights on main',
    [`data/bisect/${A}/old.json`]: 'a published bisection',
    'data/summary.json': '1',
    'scripts/aggregate.ts': 'code',
  });
  seed('push', '-q', bare, 'HEAD:main');
  const clone = (name: string, depth = false) => {
    execFileSync('git', ['clone', '-q', ...(depth ? ['--depth', '1'] : []), `file://${bare}`, join(work, name)]);
    return (...args: string[]) =>
      execFileSync('git', ['-C', join(work, name), '-c', 'user.name=t', '-c', 'user.email=t@t', ...args], { encoding: 'utf8' }).trim();
  };
  const main = () => execFileSync('git', ['--git-dir', bare, 'rev-parse', 'main'], { encoding: 'utf8' }).trim();
  const log = () => execFileSync('git', ['--git-dir', bare, 'log', '--format=%s', 'main'], { encoding: 'utf8' }).trim().split('\n');
  /** another checkout pushes a commit "meanwhile" to main */
  const moveMain = () => {
    const other = clone('other');
    writeFileSync(join(work, 'other', 'README'), 'meanwhile');
    other('add', '-A');
    other('commit', '-qm', 'meanwhile');
    other('push', '-q', 'origin', 'HEAD:main');
  };
  return { work, bare, clone, main, log, moveMain };
}

/** A prepared commit on top of the checkout's main, bundled as the prepare job bundles it. */
function prepared(git: (...args: string[]) => string, dir: string, files: Record<string, string | null>, opts: { extraCommit?: boolean } = {}): string {
  // a fresh publish branch on origin's main, whatever an earlier case left in this clone
  git('checkout', '-q', '-f', '-B', 'publish', 'origin/main');
  git('clean', '-qfdx');
  const base = git('rev-parse', 'HEAD');
  const commit = () => {
    for (const [f, text] of Object.entries(files)) {
      if (text === null) continue;
      mkdirSync(join(dir, f, '..'), { recursive: true });
      if (text.startsWith('symlink:')) symlinkSync(text.slice(8), join(dir, f));
      else writeFileSync(join(dir, f), text);
    }
    git('add', '-A');
    git('commit', '-q', '-m', 'bench: prepared');
  };
  commit();
  if (opts.extraCommit) {
    writeFileSync(join(dir, 'data/summary.json'), 'again');
    git('commit', '-qam', 'second');
  }
  const bundle = join(dir, '..', `${Math.random().toString(36).slice(2)}.bundle`);
  git('bundle', 'create', '-q', bundle, 'publish', `^${base}`);
  return bundle;
}

/** Write artifact files under <work>/incoming and run the take step in <work>/checkout. */
function take(work: string, artifacts: Record<string, string>) {
  for (const [f, text] of Object.entries(artifacts)) {
    mkdirSync(join(work, 'incoming', f, '..'), { recursive: true });
    if (text.startsWith('symlink:')) symlinkSync(text.slice(8), join(work, 'incoming', f));
    else writeFileSync(join(work, 'incoming', f), text);
  }
  return runStep(publishYaml, "Take each host's new files from its own artifacts", join(work, 'checkout'), {
    INCOMING: join(work, 'incoming'),
    HOSTS: PLANNED,
  });
}
const untracked = (checkout: string) =>
  execFileSync('git', ['-C', checkout, 'ls-files', '--others'], { encoding: 'utf8' }).trim().split('\n').filter(Boolean).sort();

test("publish prepare: each artifact may bring only its own host's machines' files; main's files are never overwritten", () => {
  const { clone, work } = origin();
  clone('checkout');
  const checkout = join(work, 'checkout');
  const r = take(work, {
    [`bench-obs-a-run/data/runs/${A}/2026/11/new.json.br`]: 'new run',
    [`bench-obs-a-run/data/runs/${A}/2026/11/old.json.br`]: 'a runner trying to rewrite an accepted run',
    // the name on other hardware: another machine of obs-a, taken as such
    [`bench-obs-a-run/data/runs/${A2}/2026/11/other.json.br`]: 'run on other hardware',
    [`bench-obs-b-hypothesis/data/hypothesis/${B}/h.json`]: 'hypothesis',
    // obs-b's run artifact also carries a file for a machine of obs-a: the whole artifact is refused
    [`bench-obs-b-run/data/runs/${B}/2026/11/b.json.br`]: 'b run',
    [`bench-obs-b-run/data/runs/${A}/2026/11/forged.json.br`]: 'obs-b writing into obs-a',
    'bench-obs-c-run/data/runs/obs-c.amd-epyc-3fa2c1/2026/11/c.json.br': 'a host that was not planned',
    'bench-obs-a-hypothesis/data/summary.json': 'derived data from a runner',
    [`something-else/data/runs/${A}/2026/11/x.json.br`]: 'not a bench artifact',
  });
  assert.equal(r.status, 0, r.log);
  assert.deepEqual(untracked(checkout), [`data/hypothesis/${B}/h.json`, `data/runs/${A}/2026/11/new.json.br`, `data/runs/${A2}/2026/11/other.json.br`]);
  assert.equal(readFileSync(join(checkout, `data/runs/${A}/2026/11/old.json.br`), 'utf8'), 'accepted');
  assert.match(r.log, /skipped data\/runs\/obs-a\.amd-epyc-3fa2c1\/2026\/11\/old\.json\.br: main already has it/);
  assert.match(
    r.log,
    /artifact bench-obs-b-run refused: it holds data\/runs\/obs-a\.amd-epyc-3fa2c1\S* \(obs-a\.amd-epyc-3fa2c1 is not a machine folder of obs-b\); the artifact of obs-b may hold only data\/runs\/obs-b\.<cpu>-<fingerprint>\/<YYYY>\/<MM>\/<runId>\.json\.br files/,
  );
  assert.match(r.log, /artifact bench-obs-c-run refused: host obs-c was not planned/);
  assert.match(r.log, /artifact bench-obs-a-hypothesis refused: it holds data\/summary\.json;/);
  assert.match(r.log, /artifact something-else refused: not a bench-<host>-run/);
  assert.deepEqual(r.out, { refused: 'bench-obs-a-hypothesis bench-obs-b-run bench-obs-c-run something-else', new: '3' });
});

test("publish prepare: a master artifact brings its machine's nights file (main's is replaced: publish-hosts checks it only grew) and new bisection reports, nothing else", () => {
  const { clone, work } = origin();
  clone('checkout');
  const checkout = join(work, 'checkout');
  const r = take(work, {
    [`bench-obs-a-master/data/master/${A}/nights.json`]: 'tonight',
    [`bench-obs-a-master/data/bisect/${A}/new.json`]: 'a new bisection',
    [`bench-obs-a-master/data/bisect/${A}/old.json`]: 'a runner trying to rewrite a published bisection',
    [`bench-obs-a-master/data/master/${A}/nights.json.tmp`]: 'a killed write',
    // a master artifact holds nothing else, and the other artifacts hold no master files
    [`bench-obs-b-master/data/master/${B}/extra.json`]: 'stray',
    [`bench-obs-a-run/data/master/${A}/nights.json`]: 'nights in a run artifact',
    [`bench-obs-b-hypothesis/data/bisect/${B}/r.json`]: 'a bisection in a hypothesis artifact',
  });
  assert.equal(r.status, 0, r.log);
  assert.equal(readFileSync(join(checkout, `data/master/${A}/nights.json`), 'utf8'), 'tonight');
  assert.equal(readFileSync(join(checkout, `data/bisect/${A}/old.json`), 'utf8'), 'a published bisection');
  assert.deepEqual(untracked(checkout), [`data/bisect/${A}/new.json`]);
  assert.match(
    r.log,
    /artifact bench-obs-b-master refused: it holds data\/master\/obs-b\.neoverse-v1-7d04aa\/extra\.json; the artifact of obs-b may hold only data\/master\/obs-b\.<cpu>-<fingerprint>\/nights\.json or data\/bisect\/obs-b\.<cpu>-<fingerprint>\/<report>\.json files/,
  );
  assert.match(r.log, /artifact bench-obs-a-run refused: it holds data\/master;/);
  assert.match(r.log, /artifact bench-obs-b-hypothesis refused: it holds data\/bisect;/);
  assert.deepEqual(r.out, { refused: 'bench-obs-a-run bench-obs-b-hypothesis bench-obs-b-master', new: '2' });
});

test("bench.yml collects master's night: the rewritten nights file and new bisection reports, not a killed write", () => {
  const dir = scratch('bench-master-');
  gitRepo(dir, {
    '.gitignore': readFileSync(join(import.meta.dirname, '..', '.gitignore'), 'utf8'),
    [`data/master/${A}/nights.json`]: 'old',
    [`data/bisect/${A}/old.json`]: 'old',
    [`data/runs/${A}/old.json.br`]: 'old',
  });
  for (const f of [`data/master/${A}/nights.json`, `data/master/${A}/nights.json.tmp`, `data/bisect/${A}/new.json`, `data/runs/${A}/new.json.br`]) {
    mkdirSync(join(dir, f, '..'), { recursive: true });
    writeFileSync(join(dir, f), 'new');
  }
  const r = spawnSync('bash', [...GITHUB_SHELL, stepScript(yaml, "Collect master's night")], { cwd: dir, encoding: 'utf8', env: { PATH: process.env.PATH } });
  assert.equal(r.status, 0, r.stderr);
  const found = execFileSync('find', ['outbox', '-type', 'f'], { cwd: dir, encoding: 'utf8' }).trim().split('\n').sort();
  assert.deepEqual(found, [`outbox/master/data/bisect/${A}/new.json`, `outbox/master/data/master/${A}/nights.json`]);
  // the night is measured after the run is uploaded, and bisected in a step of its own that may be stopped
  const steps = yaml
    .slice(yaml.indexOf('\n  bench:\n'))
    .split('\n')
    .filter((l) => /^      - (name|uses|run):/.test(l));
  const index = (pattern: RegExp) => steps.findIndex((l) => pattern.test(l));
  assert.ok(
    index(/Collect the new run/) < index(/Master tonight/) &&
      index(/Master tonight/) < index(/Bisect master's pending/) &&
      index(/Bisect master's pending/) < index(/Collect master's night/),
    steps.join('\n'),
  );
  assert.match(yaml, /name: bench-\$\{\{ matrix\.host\.id \}\}-master\n/);
  assert.match(stepScript(yaml, 'Master tonight'), /--bisect-later/);
});

test('a leftover *.tmp (a write killed before its rename) is ignored: publish takes the rest of the artifact, bench and validate --untracked do not collect it', async () => {
  const { clone, work } = origin();
  clone('checkout');
  const r = take(work, {
    [`bench-obs-a-run/data/runs/${A}/2026/11/new.json.br`]: 'new run',
    [`bench-obs-a-run/data/runs/${A}/2026/11/killed.json.br.tmp`]: 'half a run',
  });
  assert.equal(r.status, 0, r.log);
  assert.deepEqual(r.out, { refused: '', new: '1' });
  assert.deepEqual(untracked(join(work, 'checkout')), [`data/runs/${A}/2026/11/new.json.br`]);
  // the machine's side: the repository's own .gitignore decides what the collect step and the validator see
  const dir = scratch('bench-tmp-');
  gitRepo(dir, { '.gitignore': readFileSync(join(import.meta.dirname, '..', '.gitignore'), 'utf8') });
  for (const f of [`data/runs/${A}/2026/11/new.json.br`, `data/runs/${A}/2026/11/killed.json.br.tmp`]) {
    mkdirSync(join(dir, f, '..'), { recursive: true });
    writeFileSync(join(dir, f), 'x');
  }
  const c = spawnSync('bash', [...GITHUB_SHELL, stepScript(yaml, 'Collect the new run')], {
    cwd: dir,
    encoding: 'utf8',
    env: { PATH: process.env.PATH, FOLDER: 'runs' },
  });
  assert.equal(c.status, 0, c.stderr);
  assert.deepEqual(execFileSync('find', ['outbox', '-type', 'f'], { cwd: dir, encoding: 'utf8' }).trim().split('\n'), [
    `outbox/runs/data/runs/${A}/2026/11/new.json.br`,
  ]);
  const { untrackedRuns } = await import('./submission/changes.ts');
  assert.deepEqual(
    untrackedRuns(dir).map((f) => f.path),
    [`data/runs/${A}/2026/11/new.json.br`],
  );
});

test('publish prepare: an artifact of obs-a whose folder is no machine of obs-a is refused, runs and hypothesis alike', () => {
  for (const folder of NOT_A) {
    const { clone, work } = origin();
    clone('checkout');
    const r = take(work, {
      [`bench-obs-a-run/data/runs/${A}/2026/11/good.json.br`]: 'a good file next to a bad one',
      [`bench-obs-a-run/data/runs/${folder}/2026/11/r.json.br`]: 'run',
      [`bench-obs-a-hypothesis/data/hypothesis/${folder}/h.json`]: 'hypothesis',
    });
    assert.equal(r.status, 1, `${folder}: ${r.log}`);
    for (const [art, kind] of [
      ['run', 'runs'],
      ['hypothesis', 'hypothesis'],
    ])
      assert.match(
        r.log,
        new RegExp(
          `artifact bench-obs-a-${art} refused: it holds data/${kind}/${folder.replaceAll('.', '\\.')}\\S* \\(${folder.replaceAll('.', '\\.')} is not a machine folder of obs-a\\)`,
        ),
        `${folder}: ${r.log}`,
      );
    assert.deepEqual(untracked(join(work, 'checkout')), [], folder);
    assert.deepEqual(r.out, { refused: 'bench-obs-a-hypothesis bench-obs-a-run', new: '0' }, folder);
  }
});

test('publish prepare: a symbolic link or a stray file in a machine folder is refused; only refused artifacts is a failure', () => {
  const cases: [Record<string, string>, RegExp][] = [
    [
      { [`bench-obs-a-run/data/runs/${A}/2026/11/r.json.br`]: 'symlink:/etc/passwd' },
      /bench-obs-a-run refused: it holds data\/runs\/obs-a\.amd-epyc-3fa2c1\/2026\/11\/r\.json\.br;/,
    ],
    [
      { [`bench-obs-a-run/data/runs/${A}/r.json.br`]: 'not under <YYYY>/<MM>' },
      /bench-obs-a-run refused: it holds data\/runs\/obs-a\.amd-epyc-3fa2c1\/r\.json\.br;/,
    ],
    [{ [`bench-obs-a-run/data/runs/${A}`]: 'a file where the machine folder goes' }, /bench-obs-a-run refused: it holds data\/runs\/obs-a\.amd-epyc-3fa2c1;/],
    [
      { [`bench-obs-a-hypothesis/data/hypothesis/${A}/sub/h.json`]: 'a folder in the machine folder' },
      /bench-obs-a-hypothesis refused: it holds data\/hypothesis\/obs-a\.amd-epyc-3fa2c1\/sub;/,
    ],
    [{ [`bench-obs-a-run/data/hypothesis/${A}/h.json`]: 'the other kind' }, /bench-obs-a-run refused: it holds data\/hypothesis;/],
  ];
  for (const [artifacts, message] of cases) {
    const { clone, work } = origin();
    clone('checkout');
    const r = take(work, artifacts);
    assert.equal(r.status, 1, r.log);
    assert.match(r.log, message);
    assert.match(r.log, /nothing to publish but refused artifacts/);
  }
});

test('publish: prepare commits and bundles as the bot; the write job checks that commit and pushes it', () => {
  const { clone, work, log, bare } = origin();
  const git = clone('checkout');
  const checkout = join(work, 'checkout');
  // what the take, validate and aggregate steps leave behind
  for (const f of [`data/runs/${A}/2026/11/new.json.br`, `data/hypothesis/${A}/new.json`, `data/timeseries/${A}/2026.json`]) {
    mkdirSync(join(checkout, f, '..'), { recursive: true });
    writeFileSync(join(checkout, f), 'new');
  }
  writeFileSync(join(checkout, 'data/summary.json'), '2');
  const env = { OUTBOX: join(work, 'outbox'), GITHUB_SERVER_URL: 'https://github.example', GITHUB_REPOSITORY: 'o/r', GITHUB_RUN_ID: '1' };
  const prep = runStep(publishYaml, 'Commit and bundle', checkout, env);
  assert.equal(prep.status, 0, prep.log);
  assert.deepEqual(prep.out, { result: 'ready' });
  assert.equal(
    git('log', '-1', '--format=%an <%ae>|%s'),
    `github-actions[bot] <41898282+github-actions[bot]@users.noreply.github.com>|bench: ${A}/2026/11/new.json.br`,
  );
  clone('pusher', true);
  const push = runStep(publishYaml, 'Check the prepared commit and push it', join(work, 'pusher'), {
    BUNDLE: join(work, 'outbox/publish.bundle'),
    HOSTS: PLANNED,
    FINAL: 'false',
  });
  assert.equal(push.status, 0, push.log);
  assert.deepEqual(push.out, { result: 'pushed' });
  assert.deepEqual(log(), [`bench: ${A}/2026/11/new.json.br`, 'base']);
  assert.equal(execFileSync('git', ['--git-dir', bare, 'show', 'main:data/summary.json'], { encoding: 'utf8' }), '2');
  // nothing new (a fresh checkout of the new main): no commit, no bundle
  clone('checkout2');
  const again = runStep(publishYaml, 'Commit and bundle', join(work, 'checkout2'), { ...env, OUTBOX: join(work, 'outbox2') });
  assert.deepEqual(again.out, { result: 'nothing' });
});

test("publish push: master's nights rewritten and a new bisection report of a planned host's machine are pushed", () => {
  const o = origin();
  const prep = o.clone('prep');
  o.clone('pusher', true);
  const bundle = prepared(prep, join(o.work, 'prep'), {
    [`data/master/${A}/nights.json`]: 'tonight',
    [`data/bisect/${A}/new.json`]: 'a new bisection',
    'data/summary.json': '2',
  });
  const r = runStep(publishYaml, 'Check the prepared commit and push it', join(o.work, 'pusher'), { BUNDLE: bundle, HOSTS: PLANNED, FINAL: 'false' });
  assert.equal(r.status, 0, r.log);
  assert.deepEqual(r.out, { result: 'pushed' });
  assert.equal(execFileSync('git', ['--git-dir', o.bare, 'show', `main:data/master/${A}/nights.json`], { encoding: 'utf8' }), 'tonight');
});

test('publish push: main moved before or during the push: "moved" so the next attempt prepares again; on the final attempt a failure', () => {
  // prepared on an older main than the push job checked out
  const a = origin();
  const prep = a.clone('prep');
  const bundle = prepared(prep, join(a.work, 'prep'), { [`data/runs/${A}/2026/11/new.json.br`]: 'new' });
  a.moveMain();
  a.clone('pusher', true);
  const before = a.main();
  const r = runStep(publishYaml, 'Check the prepared commit and push it', join(a.work, 'pusher'), { BUNDLE: bundle, HOSTS: PLANNED, FINAL: 'false' });
  assert.equal(r.status, 0, r.log);
  assert.deepEqual(r.out, { result: 'moved' });
  assert.equal(a.main(), before);
  const last = runStep(publishYaml, 'Check the prepared commit and push it', join(a.work, 'pusher'), { BUNDLE: bundle, HOSTS: PLANNED, FINAL: 'true' });
  assert.equal(last.status, 1);
  assert.match(last.log, /main moved while publishing, on the last attempt/);
  // main moves after the push job checked it out: the push is refused, main is fetched, "moved"
  const b = origin();
  b.clone('pusher', true);
  const prep2 = b.clone('prep');
  const bundle2 = prepared(prep2, join(b.work, 'prep'), { [`data/runs/${A}/2026/11/new.json.br`]: 'new' });
  b.moveMain();
  const raced = runStep(publishYaml, 'Check the prepared commit and push it', join(b.work, 'pusher'), { BUNDLE: bundle2, HOSTS: PLANNED, FINAL: 'false' });
  assert.equal(raced.status, 0, raced.log);
  assert.deepEqual(raced.out, { result: 'moved' });
  assert.deepEqual(b.log(), ['meanwhile', 'base']);
});

test('publish push: a prepared commit that touches anything but new run files of machines of planned hosts and the derived files is refused', () => {
  const cases: [string, Record<string, string | null>, RegExp, { extraCommit?: boolean }?][] = [
    ['code', { [`data/runs/${A}/2026/11/new.json.br`]: 'new', 'scripts/aggregate.ts': 'evil' }, /M scripts\/aggregate\.ts: a publish only adds/],
    ['workflow', { '.github/workflows/x.yml': 'evil' }, /A \.github\/workflows\/x\.yml/],
    ['accepted run', { [`data/runs/${A}/2026/11/old.json.br`]: 'rewritten' }, /M data\/runs\/obs-a\.amd-epyc-3fa2c1\/2026\/11\/old\.json\.br/],
    ['unplanned host', { 'data/runs/obs-z.amd-epyc-3fa2c1/2026/11/new.json.br': 'new' }, /host obs-z was not planned/],
    ['another name that starts like a planned one', { 'data/runs/obs-ab.amd-epyc-3fa2c1/2026/11/new.json.br': 'new' }, /host obs-ab was not planned/],
    ['a name with a dot', { 'data/hypothesis/obs-a.b.amd-epyc-3fa2c1/new.json': 'new' }, /host obs-a\.b was not planned/],
    ['the bare name', { 'data/runs/obs-a/2026/11/new.json.br': 'new' }, /data\/runs\/obs-a\/2026\/11\/new\.json\.br: obs-a is not a machine folder/],
    ['no fingerprint', { 'data/runs/obs-a.x/2026/11/new.json.br': 'new' }, /obs-a\.x is not a machine folder/],
    ['hypothesis under the bare name', { 'data/hypothesis/obs-a/new.json': 'new' }, /data\/hypothesis\/obs-a\/new\.json: obs-a is not a machine folder/],
    ['not a run path', { [`data/runs/${A}/2026/new.json.br/x.json.br`]: 'new' }, /not a <YYYY>\/<MM>\/<runId>\.json\.br path/],
    ['symbolic link', { [`data/runs/${A}/2026/11/link.json.br`]: 'symlink:/etc/passwd' }, /has mode 120000/],
    ['two commits', { [`data/runs/${A}/2026/11/new.json.br`]: 'new' }, /not one commit on top of main/, { extraCommit: true }],
    ['hosts registry', { 'data/hosts.json': '{}' }, /A data\/hosts\.json/],
    ['a published bisection rewritten', { [`data/bisect/${A}/old.json`]: 'rewritten' }, /M data\/bisect\/obs-a\.amd-epyc-3fa2c1\/old\.json/],
    ['a master file other than the nights', { [`data/master/${A}/notes.json`]: 'x' }, /A data\/master\/obs-a\.amd-epyc-3fa2c1\/notes\.json/],
    ['nights one folder down', { [`data/master/${A}/x/nights.json`]: 'x' }, /not <machine>\/nights\.json/],
    ["an unplanned host's nights", { 'data/master/obs-z.amd-epyc-3fa2c1/nights.json': 'x' }, /host obs-z was not planned/],
  ];
  const o = origin();
  const prep = o.clone('prep');
  o.clone('pusher', true);
  const before = o.main();
  for (const [what, files, message, opts] of cases) {
    const bundle = prepared(prep, join(o.work, 'prep'), files, opts);
    const r = runStep(publishYaml, 'Check the prepared commit and push it', join(o.work, 'pusher'), { BUNDLE: bundle, HOSTS: PLANNED, FINAL: 'false' });
    assert.equal(r.status, 1, `${what}: ${r.log}`);
    assert.match(r.log, message, what);
    assert.match(r.log, /the prepared commit is refused/, what);
    assert.equal(o.main(), before, `${what}: nothing pushed`);
  }
});

test("bench.yml records the machine's CPU settings and refuses an unwritable build cache", () => {
  const work = scratch('bench-state-');
  const script = stepScript(yaml, "Record the machine's state; find the build cache");
  const env = (cache: string) => ({
    PATH: process.env.PATH,
    OBSERVATORY_HOST_ID: 'obs-a',
    OBSERVATORY_CACHE: cache,
    GITHUB_ENV: join(work, 'env'),
    GITHUB_STEP_SUMMARY: join(work, 'summary.md'),
  });
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

test("site.yml deploys only main's newest commit: a deploy of an older push never replaces a newer site", () => {
  const site = readFileSync(join(import.meta.dirname, '..', '.github', 'workflows', 'site.yml'), 'utf8');
  const work = scratch('site-head-');
  // a stand-in for the GitHub CLI: answers main's head as the API would
  mkdirSync(join(work, 'bin'));
  writeFileSync(join(work, 'bin', 'gh'), '#!/bin/sh\n[ "$1 $2" = "api repos/o/r/git/ref/heads/main" ] && [ "$4" = .object.sha ] && echo "$MAIN_NOW"\n', {
    mode: 0o755,
  });
  const run = (built: string, now: string) =>
    runStep(site, "Deploy only main's newest commit", work, {
      PATH: `${join(work, 'bin')}:${process.env.PATH}`,
      BUILT: built,
      MAIN_NOW: now,
      REPO: 'o/r',
      GH_TOKEN: 't',
    });
  const newest = run('a'.repeat(40), 'a'.repeat(40));
  assert.equal(newest.status, 0, newest.log);
  assert.deepEqual(newest.out, { current: 'true' });
  const older = run('a'.repeat(40), 'b'.repeat(40));
  assert.equal(older.status, 0, older.log);
  assert.deepEqual(older.out, { current: 'false' });
  assert.match(older.log, /not deployed: main moved on to b{40}/);
  assert.match(
    site,
    /uses: actions\/deploy-pages@\S+[^\n]*\n\s+if: steps\.head\.outputs\.current == 'true'/,
    'the deploy step runs only for the newest commit',
  );
});

test('bench.yml uploads what a failed or killed run measured: the run and the journal steps run always; the journal comes from the build cache', () => {
  const steps = yaml.slice(yaml.indexOf('\n  bench:\n')).split('\n      - ').slice(1);
  const after = steps.slice(steps.findIndex((st) => /Full benchmark/.test(st)) + 1);
  for (const st of after.slice(0, 4)) assert.match(st, /\n        if: always\(\)\n/, `runs after a failure: ${st.split('\n')[0]}`);
  const work = scratch('bench-journal-');
  const cache = join(work, 'cache');
  mkdirSync(join(cache, 'journals', A), { recursive: true });
  writeFileSync(join(cache, 'journals', A, 'r1.partial.jsonl'), '{"plan":{}}\n');
  writeFileSync(join(cache, 'journals', A, 'other.txt'), 'x');
  const r = spawnSync('bash', [...GITHUB_SHELL, stepScript(yaml, 'Collect the journal of an unfinished run')], {
    cwd: work,
    encoding: 'utf8',
    env: { PATH: process.env.PATH, OBSERVATORY_CACHE: cache },
  });
  assert.equal(r.status, 0, r.stderr);
  assert.deepEqual(execFileSync('find', ['outbox', '-type', 'f'], { cwd: work, encoding: 'utf8' }).trim().split('\n'), ['outbox/journal/r1.partial.jsonl']);
  assert.match(yaml, /name: journal-\$\{\{ matrix\.host\.id \}\}\n/, 'not a bench-… artifact: publish takes only finished runs');
});
