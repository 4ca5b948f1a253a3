import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { checkWorkflow, checkWorkflows, npmScriptsUsed, runScripts } from './check-workflows.ts';
import { get, parseWorkflowYaml, YamlSubsetError, type YamlNode } from './workflow-yaml.ts';
import { machineId, nameOfMachine } from '../schema/machine.ts';

const SHA = 'a'.repeat(40);
const SCRIPTS = new Set(['test', 'validate', 'aggregate']);
const good = `name: ok
on:
  pull_request:
permissions: {}
jobs:
  check:
    runs-on: ubuntu-24.04
    permissions:
      contents: read
    steps:
      - uses: actions/checkout@${SHA} # v7
      - run: npm ci
      - name: many lines
        run: |
          npm run -s validate -- --base "$BASE"
          npm test
      - run: >-
          npm run aggregate
          --quiet
`;

test('a workflow that follows the rules passes', () => {
  assert.deepEqual(checkWorkflow('ok.yml', good, SCRIPTS), []);
});

test('run: scripts are found, block scalars included, and the npm scripts they call', () => {
  const scripts = runScripts(good);
  assert.deepEqual(
    scripts.map((s) => s.line),
    [12, 14, 17],
  );
  assert.equal(scripts[1]!.script, 'npm run -s validate -- --base "$BASE"\nnpm test');
  assert.equal(scripts[2]!.script, 'npm run aggregate --quiet', 'a folded block is one line, as GitHub runs it');
  assert.deepEqual(
    scripts.flatMap((s) => npmScriptsUsed(s.script)),
    ['validate', 'test', 'aggregate'],
  );
  assert.deepEqual(npmScriptsUsed('npm run-script --silent site:build && npm t'), ['site:build', 'test']);
});

test('each broken rule is reported with its line', () => {
  const cases: [string, string, RegExp][] = [
    ['unknown npm script', good.replace('npm run aggregate', 'npm run agregate'), /:17: runs npm script "agregate"/],
    ['tag instead of SHA', good.replace(`@${SHA}`, '@v7'), /:11: action "actions\/checkout@v7" is not pinned/],
    ['short SHA', good.replace(`@${SHA}`, '@aaaaaaa'), /not pinned by a full commit SHA/],
    ['no top-level permissions', good.replace('permissions: {}\n', ''), /no top-level permissions/],
    ['job without permissions', good.replace('    permissions:\n      contents: read\n', ''), /job "check" does not set its own permissions/],
    ['self-hosted on pull requests', good.replace('ubuntu-24.04', '[self-hosted, linux]'), /:7: job "check" runs on a self-hosted runner/],
    ['secrets on pull requests', good.replace('npm ci', 'npm ci --token ${{ secrets.NPM }}'), /:12: a workflow that pull requests reach must not use secrets/],
    ['secrets inherited on pull requests', good.replace('    steps:', '    secrets: inherit\n    steps:'), /must not use secrets/],
    ['write token on pull requests', good.replace('contents: read', 'contents: write'), /:9: a workflow that pull requests reach gets read-only permissions/],
    [
      'pull_request_target with the default checkout persisting the token',
      good.replace('  pull_request:', '  pull_request_target:'),
      /:11: .*pull_request_target.*persist-credentials: false/,
    ],
  ];
  for (const [what, yaml, expected] of cases) {
    const problems = checkWorkflow('x.yml', yaml, SCRIPTS);
    assert.ok(
      problems.some((p) => expected.test(p)),
      `${what}: got ${JSON.stringify(problems)}`,
    );
  }
  // the same self-hosted job is fine when pull requests cannot trigger it
  const scheduled = good.replace('  pull_request:', '  schedule:\n    - cron: "0 1 * * *"').replace('ubuntu-24.04', '[self-hosted, linux]');
  assert.deepEqual(checkWorkflow('x.yml', scheduled, SCRIPTS), []);
});

const FIXTURES = join(import.meta.dirname, 'fixtures', 'workflows');
/** A fixture folder as the workflows of one repository. */
const fixture = (name: string) =>
  readdirSync(join(FIXTURES, name))
    .sort()
    .map((f) => ({ file: `.github/workflows/${f}`, yaml: readFileSync(join(FIXTURES, name, f), 'utf8') }));

test('fixture workflows that follow the rules pass: GitHub-hosted labels, a matrix of them, self-hosted where no pull request reaches, a read-only workflow_run', () => {
  assert.deepEqual(checkWorkflows(fixture('ok'), new Set(['test'])), []);
});

// one fixture folder per pattern the lint must flag, and the problem it must report
const FLAGGED: Record<string, RegExp> = {
  'self-hosted-label': /pr\.yml:7: job "check" runs on a self-hosted runner.*triggered by pull_request/,
  'labels-only-array': /pr\.yml:7: job "check" names the project runner label "bench-obs-epyc9454p"/,
  'labels-block-list': /pr\.yml:7: job "check" names the project runner label "bench-obs-graviton3"/,
  'custom-label': /pr\.yml:7: job "check" runs on "big-box", which is not a GitHub-hosted runner label/,
  'runner-group': /pr\.yml:7: job "check" runs on runner group "benchmarks"/,
  'unresolvable-expression': /pr\.yml:7: job "check" picks its runner with "\$\{\{ fromJSON\(vars\.RUNNER\) \}\}", which this lint cannot resolve/,
  'matrix-expression': /pr\.yml:11: job "check" names the project runner label "bench-obs-epyc9454p"/,
  'review-trigger': /runs on a self-hosted runner.*triggered by pull_request_review\)/,
  'comment-trigger': /runs on a self-hosted runner.*triggered by issue_comment\)/,
  'event-list-scalar': /runs on a self-hosted runner.*triggered by pull_request\)/,
  'workflow-run-chain': /after\.yml:10: job "publish" runs on a self-hosted runner.*started by workflow_run after "pr checks" \(triggered by pull_request\)/,
  'workflow-run-chain-two-steps': /last\.yml:8: job "bench" names the project runner label.*after "middle" \(started by workflow_run after "pr checks"/,
  'workflow-run-write': /after\.yml:10: a workflow_run workflow runs with the base repository's token .* no write permission/,
  'workflow-run-write-all': /after\.yml:5: a workflow_run workflow .* no write permission/,
  'reusable-called-by-pr': /helper\.yml:6: job "work" runs on a self-hosted runner.*called by \.github\/workflows\/pr\.yml \(triggered by pull_request\)/,
  'publish-in-concurrency-group': /bench\.yml:7: job "publish" can push \(contents: write\) and sits in a concurrency group/,
  'yaml-alias': /pr\.yml:4: anchors, aliases and tags .* plain block YAML only/,
  'target-checkout-head':
    /pr\.yml:11: .*pull_request_target.* checks out "\$\{\{ github\.event\.pull_request\.head\.sha \}\}": only the base branch's code may be checked out/,
  'target-git-checkout': /pr\.yml:17: pull_request_target: .* "git checkout" puts a commit's files in a work tree/,
  'target-head-expression': /pr\.yml:14: .*pull_request_target.* the pull request's head.*inside a run: script/,
};

test('every fixture folder has its expected problem, and the list covers every folder', () => {
  const folders = readdirSync(FIXTURES)
    .filter((f) => f !== 'ok')
    .sort();
  assert.deepEqual(folders, Object.keys(FLAGGED).sort());
});
for (const [name, expected] of Object.entries(FLAGGED)) {
  test(`lint flags ${name}`, () => {
    const problems = checkWorkflows(fixture(name), new Set(['test']));
    assert.ok(
      problems.some((p) => expected.test(p)),
      JSON.stringify(problems, null, 1),
    );
  });
}

test('the workflow reader keeps every scalar as written, with its line, and refuses what the rules would have to resolve, with the line', () => {
  const plain = (n: YamlNode): unknown =>
    n.kind === 'scalar' ? n.value : n.kind === 'seq' ? n.items.map(plain) : Object.fromEntries(n.entries.map((e) => [e.key, plain(e.value)]));
  const text = [
    'a: plain # comment',
    "b: 'it''s # not a comment'",
    'c: "x\\ty"',
    'd: [one, "two, three", {k: v}, \'${{ x }}\']',
    'e:',
    '- same-indent item',
    '- k: v',
    '  k2: |',
    '    line 1',
    '',
    '    line 3',
    'f: >-',
    '  folded',
    '  text',
    'g:',
    '  h: a plain',
    '    continued scalar',
  ].join('\n');
  assert.deepEqual(plain(parseWorkflowYaml(text)), {
    a: 'plain',
    b: "it's # not a comment",
    c: 'x\ty',
    d: ['one', 'two, three', { k: 'v' }, '${{ x }}'],
    e: ['same-indent item', { k: 'v', k2: 'line 1\n\nline 3\n' }],
    f: 'folded text',
    g: { h: 'a plain continued scalar' },
  });
  assert.deepEqual(plain(parseWorkflowYaml('x: false\ny: ~\nz: 010\non:\n')), { x: 'false', y: '~', z: '010', on: '' }, 'scalars are the text written');
  const lines = parseWorkflowYaml('a:\n  b: |\n    text\n  c:\n  d: [x, y]\n');
  assert.deepEqual(
    [get(lines, 'a'), get(get(lines, 'a'), 'b'), get(get(lines, 'a'), 'c'), get(get(lines, 'a'), 'd')].map((n) => n?.line),
    [2, 2, 4, 5],
  );
  const refused: [string, RegExp, number][] = [
    ['a: 1\nb: &x 1\nc: *x', /anchors, aliases and tags/, 2],
    ['a: 1\nb: !!str 1', /anchors, aliases and tags/, 2],
    ['a: 1\n<<: {a: 1}', /merge keys/, 2],
    ['a: 1\n---\nb: 2', /multiple documents/, 2],
    ['a: 1\na: 2', /keys must be unique/, 2],
    ['a:\n\t- x', /Tabs are not allowed/, 2],
  ];
  for (const [yaml, message, line] of refused)
    assert.throws(
      () => parseWorkflowYaml(yaml),
      (e: Error) => e instanceof YamlSubsetError && message.test(e.message) && e.line === line,
      yaml,
    );
});

test("the project's workflows follow the rules, and only bench.yml uses self-hosted runners", () => {
  const dir = join(import.meta.dirname, '..', '.github', 'workflows');
  const scripts = new Set(Object.keys(JSON.parse(readFileSync(join(import.meta.dirname, '..', 'package.json'), 'utf8')).scripts));
  const all = readdirSync(dir).map((f) => ({ file: `.github/workflows/${f}`, yaml: readFileSync(join(dir, f), 'utf8') }));
  assert.deepEqual(checkWorkflows(all, scripts), []);
  for (const f of readdirSync(dir)) {
    const yaml = readFileSync(join(dir, f), 'utf8');
    assert.equal(/self-hosted/.test(yaml.replace(/#.*$/gm, '')), f === 'bench.yml', f);
    if (f === 'bench.yml') assert.doesNotMatch(yaml, /^\s+pull_request/m, 'bench.yml must never run on pull requests');
  }
});

test('the workflows read machine folders as schema/machine.ts writes them: the name is the id without its last dot and what follows', () => {
  const dir = join(import.meta.dirname, '..', '.github', 'workflows');
  const forms = ['bench.yml', 'publish.yml'].flatMap((f) =>
    [...readFileSync(join(dir, f), 'utf8').matchAll(/machine_re='([^']*)'/g)].map((m) => ({ file: f, re: m[1]!.replace('^data/runs/', '^') })),
  );
  assert.equal(forms.length, 3, 'the plan, the prepare and the push step each hold the machine folder form');
  const hardware = { arch: 'x64', cpuModel: 'AMD EPYC 9454P 48-Core Processor', cpuFlags: { avx2: true }, logicalCpus: 96 };
  const machines = ['obs-epyc9454p', 'obs-a.b', 'obs-a-', 'Obs Box_2'].flatMap((name) => [
    machineId(name, hardware),
    machineId(name, { ...hardware, cpuModel: '', arch: 'arm64' }),
  ]);
  const others = ['obs-a', 'obs-a.x', 'obs-a.amd-epyc-3FA2C1', 'obs-a.amd-epyc-3fa2c', 'obs-a.amd--epyc-3fa2c1', 'obs-a.amd_epyc-3fa2c1', '.amd-epyc-3fa2c1'];
  for (const { file, re } of forms) {
    // bash's own regex matching, as the steps run it: the name it captures, or nothing
    const names = spawnSync(
      'bash',
      ['-c', 're="$1"; shift; for m in "$@"; do if [[ "$m" =~ $re ]]; then echo "${BASH_REMATCH[1]}"; else echo -; fi; done', '_', re, ...machines, ...others],
      { encoding: 'utf8' },
    );
    assert.equal(names.status, 0, names.stderr);
    assert.deepEqual(names.stdout.trim().split('\n'), [...machines.map(nameOfMachine), ...others.map(() => '-')], `${file}: ${re}`);
  }
  assert.ok(
    machines.every((m) => nameOfMachine(m) !== m),
    'every sample is a machine id',
  );
});

test("the merge gate: pr-validate runs the base branch's workflow on every pull request; test aggregates before it tests", () => {
  const dir = join(import.meta.dirname, '..', '.github', 'workflows');
  const tree = (f: string) => parseWorkflowYaml(readFileSync(join(dir, f), 'utf8'));
  const on = get(tree('pr-validate.yml'), 'on');
  // pull_request would run the pull request's own copy of this file: a change to it could fake its own check
  assert.deepEqual(on?.kind === 'map' ? on.entries.map((e) => e.key) : on, ['pull_request_target']);
  assert.equal(get(get(on, 'pull_request_target'), 'paths'), undefined, 'a required check must report on every pull request');
  const test = readFileSync(join(dir, 'test.yml'), 'utf8');
  const aggregate = test.search(/npm run aggregate/);
  assert.ok(aggregate > 0 && aggregate < test.search(/run: npm test/), 'test.yml derives data/timeseries/ for the submitted runs before npm test checks them');
});
