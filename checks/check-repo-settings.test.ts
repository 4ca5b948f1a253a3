// The repository-settings check against GitHub API responses kept as fixtures: never a live call.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { checkRepoSettings, exitStatus, formatFindings, type Api, type Finding } from './check-repo-settings.ts';

const FIXTURES = join(import.meta.dirname, 'fixtures', 'repo-settings');

/** An API that answers only the recorded paths; anything else fails the test. */
function recorded(name: string): { repo: string; api: Api; asked: string[] } {
  const { repo, responses } = JSON.parse(readFileSync(join(FIXTURES, `${name}.json`), 'utf8')) as {
    repo: string;
    responses: Record<string, { status: number; body: unknown }>;
  };
  const asked: string[] = [];
  const api: Api = async (path) => {
    asked.push(path);
    const r = responses[path];
    if (!r) throw new Error(`no recorded response for GET ${path}`);
    return r;
  };
  return { repo, api, asked };
}
const by = (findings: Finding[], setting: string) => findings.filter((f) => f.setting === setting);

test('an organization repository where every setting holds passes, and every recorded response is used', async () => {
  const { repo, api, asked } = recorded('good-org');
  const findings = await checkRepoSettings(repo, api);
  assert.deepEqual(
    findings.filter((f) => f.outcome !== 'ok'),
    [],
    formatFindings(findings),
  );
  assert.equal(exitStatus(findings), 0);
  assert.match(
    by(findings, 'runner group restricted to bench.yml on main')[0]!.detail,
    /group "bench" \(epyc9454p\) runs only octo-org\/observatory\/\.github\/workflows\/bench\.yml@refs\/heads\/main/,
  );
  const recordedPaths = Object.keys(JSON.parse(readFileSync(join(FIXTURES, 'good-org.json'), 'utf8')).responses);
  assert.deepEqual([...asked].sort(), recordedPaths.sort());
});

test('each wrong setting fails with what to change', async () => {
  const { repo, api } = recorded('bad-org');
  const findings = await checkRepoSettings(repo, api);
  assert.equal(exitStatus(findings), 1);
  const expected: [string, RegExp][] = [
    ['approval for outside contributors', /"first_time_contributors".*Require approval for all outside collaborators/],
    ['workflow token', /default_workflow_permissions is "write".*workflows may approve pull requests/],
    ['actions pinned by SHA', /sha_pinning_required is false/],
    ['no repository-level runners', /old-box.*cannot be limited to bench\.yml/],
    ['main protected', /at least one approving review; the required status check "validate"; branches up to date .*; no force pushes; no deletion/],
  ];
  for (const [setting, message] of expected) {
    const f = by(findings, setting);
    assert.equal(f.length, 1, setting);
    assert.equal(f[0]!.outcome, 'fail', setting);
    assert.match(f[0]!.detail, message, setting);
  }
  // the default group holds a runner and is unrestricted; the bench group allows a second workflow and names main without refs/heads/
  const groups = by(findings, 'runner group restricted to bench.yml on main');
  assert.deepEqual(
    groups.map((g) => g.outcome),
    ['fail', 'fail'],
  );
  assert.match(groups[0]!.detail, /group "Default" holds runners \(graviton3\).*is not restricted to workflows/);
  assert.match(
    groups[1]!.detail,
    /group "bench" .*allows \["octo-org\/observatory\/\.github\/workflows\/bench\.yml@main","octo-org\/observatory\/\.github\/workflows\/test\.yml@refs\/heads\/main"\]/,
  );
});

test('a user-owned repository cannot restrict runners to one workflow; no ruleset on main fails', async () => {
  const { repo, api } = recorded('user-owned');
  const findings = await checkRepoSettings(repo, api);
  assert.equal(by(findings, 'runner group restricted to bench.yml on main')[0]!.outcome, 'fail');
  assert.match(by(findings, 'runner group restricted to bench.yml on main')[0]!.detail, /owned by a user has no runner groups/);
  assert.match(by(findings, 'no repository-level runners')[0]!.detail, /desk/);
  assert.equal(by(findings, 'actions pinned by SHA')[0]!.outcome, 'unknown', 'a field the API does not report is not a pass');
  assert.equal(by(findings, 'main protected')[0]!.outcome, 'fail');
});

test('settings the token cannot read are unknown (exit 2), never passed', async () => {
  const { repo, api } = recorded('limited-token');
  const findings = await checkRepoSettings(repo, api);
  assert.equal(exitStatus(findings), 2);
  assert.deepEqual(
    findings.map((f) => `${f.outcome} ${f.setting}`),
    [
      'unknown approval for outside contributors',
      'unknown workflow token',
      'unknown actions pinned by SHA',
      'unknown no repository-level runners',
      'unknown runner group restricted to bench.yml on main',
      'ok main protected',
    ],
  );
  assert.match(findings[0]!.detail, /answered 403: the token cannot read it/);
});

test('without GITHUB_TOKEN the script says it checked nothing and exits 0', () => {
  const env = { ...process.env };
  delete env.GITHUB_TOKEN;
  const r = spawnSync(process.execPath, [join(import.meta.dirname, 'check-repo-settings.ts'), '--repo', 'octo-org/observatory'], { encoding: 'utf8', env });
  assert.equal(r.status, 0, r.stderr);
  assert.match(r.stdout, /^skipped: GITHUB_TOKEN is not set, so the repository settings docs\/runners\.md requires were not checked/);
});
