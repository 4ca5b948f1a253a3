import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { checkWorkflow, npmScriptsUsed, runScripts } from './check-workflows.ts';

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
  assert.deepEqual(scripts.map((s) => s.line), [12, 14, 17]);
  assert.equal(scripts[1]!.script, 'npm run -s validate -- --base "$BASE"\nnpm test');
  assert.equal(scripts[2]!.script, 'npm run aggregate --quiet', 'a folded block is one line, as GitHub runs it');
  assert.deepEqual(scripts.flatMap((s) => npmScriptsUsed(s.script)), ['validate', 'test', 'aggregate']);
  assert.deepEqual(npmScriptsUsed('npm run-script --silent site:build && npm t'), ['site:build', 'test']);
});

test('each broken rule is reported with its line', () => {
  const cases: [string, string, RegExp][] = [
    ['unknown npm script', good.replace('npm run aggregate', 'npm run agregate'), /:17: runs npm script "agregate"/],
    ['tag instead of SHA', good.replace(`@${SHA}`, '@v7'), /:11: action "actions\/checkout@v7" is not pinned/],
    ['short SHA', good.replace(`@${SHA}`, '@aaaaaaa'), /not pinned by a full commit SHA/],
    ['no top-level permissions', good.replace('permissions: {}\n', ''), /no top-level permissions/],
    ['job without permissions', good.replace('    permissions:\n      contents: read\n', ''), /job "check" does not set its own permissions/],
    ['self-hosted on pull requests', good.replace('ubuntu-24.04', '[self-hosted, linux]'), /never run on a self-hosted runner/],
    ['secrets on pull requests', good.replace('npm ci', 'npm ci --token ${{ secrets.NPM }}'), /must not use secrets/],
    ['write token on pull requests', good.replace('contents: read', 'contents: write'), /read-only permissions/],
    ['pull_request_target', good.replace('  pull_request:', '  pull_request_target:'), /pull_request_target/],
  ];
  for (const [what, yaml, expected] of cases) {
    const problems = checkWorkflow('x.yml', yaml, SCRIPTS);
    assert.ok(problems.some((p) => expected.test(p)), `${what}: got ${JSON.stringify(problems)}`);
  }
  // the same self-hosted job is fine when pull requests cannot trigger it
  const scheduled = good.replace('  pull_request:', '  schedule:\n    - cron: "0 1 * * *"').replace('ubuntu-24.04', '[self-hosted, linux]');
  assert.deepEqual(checkWorkflow('x.yml', scheduled, SCRIPTS), []);
});

test("the project's workflows follow the rules, and only bench.yml uses self-hosted runners", () => {
  const dir = join(import.meta.dirname, '..', '.github', 'workflows');
  const scripts = new Set(Object.keys(JSON.parse(readFileSync(join(import.meta.dirname, '..', 'package.json'), 'utf8')).scripts));
  for (const f of readdirSync(dir)) {
    const yaml = readFileSync(join(dir, f), 'utf8');
    assert.deepEqual(checkWorkflow(f, yaml, scripts), [], f);
    assert.equal(/self-hosted/.test(yaml.replace(/#.*$/gm, '')), f === 'bench.yml', f);
    if (f === 'bench.yml') assert.doesNotMatch(yaml, /^\s+pull_request/m, 'bench.yml must never run on pull requests');
  }
});
