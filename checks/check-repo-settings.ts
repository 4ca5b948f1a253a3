// `npm run check:repo-settings [-- --repo owner/name]`: checks, through the GitHub REST API, the
// repository settings docs/runners.md requires (the real guard between pull requests and the
// self-hosted bench machines; the workflow lint only checks the files). Needs GITHUB_TOKEN (read
// access to the repository's administration settings, and to the organization's runner groups);
// without it, it says so and checks nothing. Exit status: 0 every setting holds, 1 one does not,
// 2 some could not be read with this token (and none failed).
import { execFileSync } from 'node:child_process';
import { commandLine } from '../runner/cli.ts';

export type Api = (path: string) => Promise<{ status: number; body: unknown }>;
export type Outcome = 'ok' | 'fail' | 'unknown';
export interface Finding {
  setting: string;
  outcome: Outcome;
  detail: string;
}

/** The one workflow allowed on the bench machines, as a runner group's selected_workflows names it. */
export const benchWorkflowRef = (repo: string) => `${repo}/.github/workflows/bench.yml@refs/heads/main`;
/** Required status checks on main: the job names of pr-validate.yml and test.yml. */
export const REQUIRED_CHECKS = ['validate', 'test'];

type Json = Record<string, unknown>;
const obj = (v: unknown): Json => (v !== null && typeof v === 'object' && !Array.isArray(v) ? (v as Json) : {});
const list = (v: unknown): unknown[] => (Array.isArray(v) ? v : []);

export async function checkRepoSettings(repo: string, api: Api): Promise<Finding[]> {
  const findings: Finding[] = [];
  const add = (setting: string, outcome: Outcome, detail: string) => findings.push({ setting, outcome, detail });
  /** GET, or null after recording the setting as unknown (the token cannot see it). */
  const read = async (setting: string, path: string): Promise<Json | unknown[] | null> => {
    const r = await api(path);
    if (r.status === 200) return r.body as Json | unknown[];
    add(
      setting,
      'unknown',
      `GET ${path} answered ${r.status}${r.status === 403 || r.status === 404 ? ': the token cannot read it (needs admin read access)' : ''}`,
    );
    return null;
  };

  const info = obj(await read('repository', `/repos/${repo}`));
  const owner = obj(info.owner);
  const isOrg = owner.type === 'Organization';

  const approval = await read('approval for outside contributors', `/repos/${repo}/actions/permissions/fork-pr-contributor-approval`);
  if (approval) {
    const policy = obj(approval).approval_policy;
    if (policy === 'all_external_contributors')
      add('approval for outside contributors', 'ok', 'workflow runs of every outside contributor wait for a maintainer');
    else
      add(
        'approval for outside contributors',
        'fail',
        `approval_policy is ${JSON.stringify(policy)}: set Settings → Actions → General → "Require approval for all outside collaborators"`,
      );
  }

  const token = await read('workflow token', `/repos/${repo}/actions/permissions/workflow`);
  if (token) {
    const t = obj(token);
    const problems = [
      t.default_workflow_permissions !== 'read' ? `default_workflow_permissions is ${JSON.stringify(t.default_workflow_permissions)} (must be "read")` : '',
      t.can_approve_pull_request_reviews !== false ? 'workflows may approve pull requests (must not)' : '',
    ].filter(Boolean);
    add(
      'workflow token',
      problems.length ? 'fail' : 'ok',
      problems.length
        ? `${problems.join('; ')}: Settings → Actions → General → Workflow permissions`
        : 'read-only by default; workflows cannot approve pull requests',
    );
  }

  const actions = await read('actions pinned by SHA', `/repos/${repo}/actions/permissions`);
  if (actions) {
    const pinned = obj(actions).sha_pinning_required;
    if (pinned === true) add('actions pinned by SHA', 'ok', 'GitHub refuses actions not pinned to a full commit SHA');
    else if (pinned === false)
      add(
        'actions pinned by SHA',
        'fail',
        'sha_pinning_required is false: Settings → Actions → General → "Require actions to be pinned to a full-length commit SHA"',
      );
    else add('actions pinned by SHA', 'unknown', 'the API did not report sha_pinning_required');
  }

  const repoRunners = await read('no repository-level runners', `/repos/${repo}/actions/runners?per_page=100`);
  if (repoRunners) {
    const names = list(obj(repoRunners).runners).map((r) => String(obj(r).name));
    if (names.length)
      add(
        'no repository-level runners',
        'fail',
        `self-hosted runners registered to the repository (${names.join(', ')}) cannot be limited to bench.yml: register them in the organization's restricted runner group`,
      );
    else add('no repository-level runners', 'ok', 'no self-hosted runner is registered to the repository itself');
  }

  if (!isOrg) {
    add(
      'runner group restricted to bench.yml on main',
      owner.type === 'User' ? 'fail' : 'unknown',
      owner.type === 'User'
        ? 'a repository owned by a user has no runner groups: move it into an organization before adding bench machines'
        : 'the repository owner could not be read',
    );
  } else {
    const org = String(owner.login);
    const name = repo.split('/')[1]!;
    const groups = await read(
      'runner group restricted to bench.yml on main',
      `/orgs/${org}/actions/runner-groups?visible_to_repository=${encodeURIComponent(name)}&per_page=100`,
    );
    if (groups) {
      const expected = benchWorkflowRef(repo);
      let withRunners = 0;
      for (const g of list(obj(groups).runner_groups).map(obj)) {
        const runners = await read('runner group restricted to bench.yml on main', `/orgs/${org}/actions/runner-groups/${String(g.id)}/runners?per_page=100`);
        if (!runners) continue;
        const names = list(obj(runners).runners).map((r) => String(obj(r).name));
        if (!names.length) continue;
        withRunners++;
        const selected = list(g.selected_workflows).map(String);
        if (g.restricted_to_workflows === true && selected.length === 1 && selected[0] === expected)
          add('runner group restricted to bench.yml on main', 'ok', `group "${String(g.name)}" (${names.join(', ')}) runs only ${expected}`);
        else
          add(
            'runner group restricted to bench.yml on main',
            'fail',
            `group "${String(g.name)}" holds runners (${names.join(', ')}) this repository can use, but ${g.restricted_to_workflows === true ? `allows ${JSON.stringify(selected)}` : 'is not restricted to workflows'}: allow only ${expected}`,
          );
      }
      if (!withRunners)
        add('runner group restricted to bench.yml on main', 'ok', 'no runner group visible to this repository holds a runner (no bench machine yet)');
    }
  }

  const rules = await read('main protected', `/repos/${repo}/rules/branches/main`);
  if (rules) {
    const byType = new Map(list(rules).map((r) => [String(obj(r).type), obj(obj(r).parameters)]));
    const missing: string[] = [];
    const pr = byType.get('pull_request');
    if (!pr || !(Number(pr.required_approving_review_count) >= 1)) missing.push('pull requests with at least one approving review');
    const checks = byType.get('required_status_checks');
    const contexts = list(checks?.required_status_checks).map((c) => String(obj(c).context));
    for (const c of REQUIRED_CHECKS) if (!contexts.includes(c)) missing.push(`the required status check "${c}"`);
    // two submissions valid alone may clash once both are merged (same run id): each must be checked against the newest main
    if (checks && checks.strict_required_status_checks_policy !== true) missing.push('branches up to date before merging (strict status checks)');
    if (!byType.has('non_fast_forward')) missing.push('no force pushes');
    if (!byType.has('deletion')) missing.push('no deletion');
    add(
      'main protected',
      missing.length ? 'fail' : 'ok',
      missing.length ? `a ruleset on main must require: ${missing.join('; ')}` : `rules on main: ${[...byType.keys()].join(', ')}`,
    );
  }
  return findings;
}

/** owner/name from --repo, GITHUB_REPOSITORY, or the origin remote. */
export function repoName(given: string | undefined, cwd = process.cwd()): string | null {
  const candidate = given ?? process.env.GITHUB_REPOSITORY;
  if (candidate) return /^[\w.-]+\/[\w.-]+$/.test(candidate) ? candidate : null;
  try {
    const url = execFileSync('git', ['-C', cwd, 'remote', 'get-url', 'origin'], { encoding: 'utf8', stdio: ['ignore', 'pipe', 'ignore'] }).trim();
    return /github\.com[/:]([\w.-]+\/[\w.-]+?)(?:\.git)?$/.exec(url)?.[1] ?? null;
  } catch {
    return null;
  }
}

/** The GitHub REST API with a token, a timeout and no retries. */
export function githubApi(token: string, base = process.env.GITHUB_API_URL ?? 'https://api.github.com'): Api {
  return async (path) => {
    const r = await fetch(`${base}${path}`, {
      headers: {
        authorization: `Bearer ${token}`,
        accept: 'application/vnd.github+json',
        'x-github-api-version': '2022-11-28',
        'user-agent': 'openssl-observatory-check-repo-settings',
      },
      signal: AbortSignal.timeout(30_000),
    });
    return { status: r.status, body: r.status === 200 ? await r.json() : null };
  };
}

export function exitStatus(findings: Finding[]): number {
  return findings.some((f) => f.outcome === 'fail') ? 1 : findings.some((f) => f.outcome === 'unknown') ? 2 : 0;
}

export function formatFindings(findings: Finding[]): string {
  const mark = { ok: 'ok     ', fail: 'FAIL   ', unknown: 'UNKNOWN' };
  return findings.map((f) => `${mark[f.outcome]} ${f.setting}: ${f.detail}`).join('\n');
}

async function main(): Promise<void> {
  const cli = commandLine('check:repo-settings', 'usage: npm run check:repo-settings [-- --repo owner/name]   (needs GITHUB_TOKEN; see docs/runners.md)', {
    repo: { type: 'string' },
  });
  const { values } = cli;
  const token = process.env.GITHUB_TOKEN;
  if (!token) {
    console.log(
      "skipped: GITHUB_TOKEN is not set, so the repository settings docs/runners.md requires were not checked. Set it (a token with admin read access to the repository and its organization's runner groups) and run again.",
    );
    return;
  }
  const repo = repoName(values.repo);
  if (!repo) return cli.fail('name the repository with --repo owner/name (or GITHUB_REPOSITORY)');
  const findings = await checkRepoSettings(repo, githubApi(token));
  console.log(`${repo}:\n${formatFindings(findings)}`);
  process.exit(exitStatus(findings));
}

if (import.meta.main) await main();
