// `npm run test:workflows`: lint .github/workflows/ with actionlint (which also runs shellcheck on every
// `run:` script when shellcheck is installed), then check this project's own rules, which actionlint
// does not know:
//   - every action and reusable workflow is pinned by a full commit SHA;
//   - every workflow sets top-level `permissions:` and every job sets its own;
//   - a pull_request_target workflow checks out only the base branch (without persisting the token) and
//     never puts the pull request's commit in a work tree or its head in a run: script; a workflow_run
//     workflow gets no write permission;
//   - a workflow a pull request can start (pull_request and the other PR_EVENTS, a workflow_run chain
//     after one, a reusable workflow one calls) runs only on GitHub-hosted runner labels: not
//     `self-hosted`, not a project label (`bench-…`), not a runner group, not an expression that cannot
//     be resolved (a matrix of literal labels can), and uses no secrets and no write permission;
//   - a job that can push (contents: write) is in no concurrency group (a newer pending run would cancel it);
//   - every `npm run <script>` / `npm test` in a `run:` step names a script that package.json has.
// The rules read the workflows with the yaml package (workflow-yaml.ts), refusing anchors, aliases, tags
// and merge keys rather than guess how GitHub resolves them; actionlint parses the YAML itself.
import { execFileSync, spawnSync } from 'node:child_process';
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { delimiter, join } from 'node:path';
import { commandLine, openingComment } from '../runner/cli.ts';
import { get, parseWorkflowYaml, scalars, YamlSubsetError, type YamlMap, type YamlNode, type YamlScalar } from './workflow-yaml.ts';

export const ACTIONLINT_VERSION = 'v1.7.12';
export const INSTALL_HINT = `GOBIN="$PWD/.cache/tools/bin" go install github.com/rhysd/actionlint/cmd/actionlint@${ACTIONLINT_VERSION}`;

/** Every `run:` script with the line of its key, as GitHub reads it (a block scalar without its final newlines). */
export function runScripts(workflow: string | YamlNode): { line: number; script: string }[] {
  const out: { line: number; script: string }[] = [];
  const walk = (n: YamlNode): void => {
    if (n.kind === 'seq') n.items.forEach(walk);
    if (n.kind === 'map')
      for (const e of n.entries) {
        if (e.key === 'run' && e.value.kind === 'scalar') out.push({ line: e.line, script: e.value.value.replace(/\n+$/, '') });
        else walk(e.value);
      }
  };
  walk(typeof workflow === 'string' ? parseWorkflowYaml(workflow) : workflow);
  return out;
}

/** The `run:` script of the step with this `name:` (for tests that execute a step's shell). */
export function stepScript(yaml: string, name: string): string {
  const tree = parseWorkflowYaml(yaml);
  const steps = (get(tree, 'jobs')?.kind === 'map' ? (get(tree, 'jobs') as YamlMap).entries : []).flatMap((job) => {
    const list = get(job.value, 'steps');
    return list?.kind === 'seq' ? list.items : [];
  });
  const run = steps
    .map((step) => (get(step, 'name')?.kind === 'scalar' && (get(step, 'name') as YamlScalar).value === name ? get(step, 'run') : undefined))
    .find((r) => r?.kind === 'scalar');
  if (run?.kind !== 'scalar') throw new Error(`no step named "${name}" with a run: script`);
  return run.value.replace(/\n+$/, '');
}

/** npm scripts a shell script runs: `npm run [-s] name`, `npm run-script name`, `npm test`. */
export function npmScriptsUsed(script: string): string[] {
  const names: string[] = [];
  for (const m of script.matchAll(/\bnpm\s+(?:run|run-script)((?:\s+-{1,2}[a-z-]+)*)\s+([A-Za-z0-9:._-]+)/g)) names.push(m[2]!);
  for (const m of script.matchAll(/\bnpm\s+(test|t|start)\b/g)) names.push(m[1] === 't' ? 'test' : m[1]!);
  return names;
}

/** Events through which a pull request (or a comment on one, from anyone) starts a workflow. */
export const PR_EVENTS = ['pull_request', 'pull_request_target', 'pull_request_review', 'pull_request_review_comment', 'issue_comment', 'merge_group'];
/** Labels of GitHub-hosted runners: the only runners a workflow that pull requests reach may use. */
const GITHUB_HOSTED = /^(ubuntu|windows|macos)-(latest|slim|\d+(\.\d+)?)(-(arm|arm64|large|xlarge|xl))?$/i;
/** The project's own machines, by name (`bench-<name>`, docs/runners.md): a job naming one lands on a self-hosted runner. */
const PROJECT_RUNNER_LABEL = /^bench-/i;

interface Workflow {
  file: string;
  tree: YamlNode;
  name: string;
  events: Map<string, YamlNode>;
}

function eventsOf(tree: YamlNode): Map<string, YamlNode> {
  const on = get(tree, 'on');
  const out = new Map<string, YamlNode>();
  if (!on) return out;
  if (on.kind === 'scalar') out.set(on.value, on);
  else if (on.kind === 'seq') for (const e of on.items) if (e.kind === 'scalar') out.set(e.value, e);
  if (on.kind === 'map') for (const e of on.entries) out.set(e.key, e.value);
  return out;
}

const jobsOf = (w: Workflow) => {
  const jobs = get(w.tree, 'jobs');
  return jobs?.kind === 'map' ? jobs.entries : [];
};

/** Workflows a pull request can start: directly, through workflow_run chains, or as reusable workflows they call. */
export function prReachable(workflows: Workflow[]): Map<string, string> {
  const why = new Map<string, string>();
  for (const w of workflows) {
    const ev = PR_EVENTS.find((e) => w.events.has(e));
    if (ev) why.set(w.file, `triggered by ${ev}`);
  }
  for (let changed = true; changed;) {
    changed = false;
    for (const w of workflows) {
      if (why.has(w.file)) continue;
      const names = scalars(get(w.events.get('workflow_run'), 'workflows') ?? { kind: 'seq', items: [], line: 0 }).map((s) => s.value);
      const upstream = workflows.find((u) => why.has(u.file) && names.includes(u.name));
      const caller = workflows.find(
        (u) =>
          why.has(u.file) &&
          w.events.has('workflow_call') &&
          jobsOf(u).some((j) => get(j.value, 'uses')?.kind === 'scalar' && (get(j.value, 'uses') as YamlScalar).value === `./${w.file}`),
      );
      if (upstream) why.set(w.file, `started by workflow_run after "${upstream.name}" (${why.get(upstream.file)})`);
      else if (caller) why.set(w.file, `called by ${caller.file} (${why.get(caller.file)})`);
      else continue;
      changed = true;
    }
  }
  return why;
}

/** The labels a runs-on may resolve to, or why they cannot be known. */
function runnerLabels(runsOn: YamlNode, job: YamlNode): { labels: string[]; unknown: string[]; group?: string } {
  const out = { labels: [] as string[], unknown: [] as string[], group: undefined as string | undefined };
  const matrix = get(get(job, 'strategy'), 'matrix');
  const fromMatrix = (expr: string): string[] | null => {
    const m = /^\$\{\{\s*matrix\.([A-Za-z0-9_-]+)((?:\.[A-Za-z0-9_-]+)*)\s*\}\}$/.exec(expr);
    if (!m || matrix?.kind !== 'map') return null;
    const path = m[2]!.split('.').filter(Boolean);
    const pick = (n: YamlNode | undefined): YamlNode | undefined => path.reduce<YamlNode | undefined>((acc, k) => get(acc, k), n);
    const values: YamlNode[] = [];
    const axis = get(matrix, m[1]!);
    if (axis?.kind === 'seq') values.push(...axis.items.map(pick).filter((v): v is YamlNode => !!v));
    else if (axis) return null; // an expression such as fromJSON(...): not known before the run
    const include = get(matrix, 'include');
    if (include?.kind === 'seq')
      for (const inc of include.items) {
        const v = pick(get(inc, m[1]!));
        if (v) values.push(v);
      }
    else if (include) return null;
    if (!values.length || values.some((v) => v.kind !== 'scalar' || /\$\{\{/.test(v.value))) return null;
    return values.map((v) => (v as YamlScalar).value);
  };
  const add = (n: YamlNode) => {
    if (n.kind === 'seq') return n.items.forEach(add);
    if (n.kind === 'map') {
      const group = get(n, 'group');
      if (group) out.group = group.kind === 'scalar' ? group.value : '(expression)';
      const labels = get(n, 'labels');
      if (labels) add(labels);
      return;
    }
    if (!/\$\{\{/.test(n.value)) return void out.labels.push(n.value);
    const resolved = fromMatrix(n.value.trim());
    if (resolved) out.labels.push(...resolved);
    else out.unknown.push(n.value);
  };
  add(runsOn);
  return out;
}

/** Every permission a node grants: `write-all`, `read-all`, or scope: level pairs. */
function grantsWrite(perms: YamlNode | undefined): boolean {
  if (!perms) return false;
  if (perms.kind === 'scalar') return perms.value === 'write-all';
  return perms.kind === 'map' && perms.entries.some((e) => e.value.kind === 'scalar' && e.value.value === 'write');
}

/** Expressions that name the pull request's own commit or branch (its code). */
const PR_HEAD = /github\.event\.pull_request\.head\b|github\.head_ref\b|refs\/pull\/|\.merge_commit_sha\b/;
/** Git commands that put a commit's files into a work tree (a `worktree add` or `clone` with --no-checkout does not). */
const MATERIALISES =
  /\bgit\s+(?:-C\s+\S+\s+)?(checkout|switch|restore|reset\s+--hard|pull|stash\s+pop|worktree\s+add(?![^\n]*--no-checkout)|clone(?![^\n]*--no-checkout))\b/;

/**
 * A pull_request_target workflow runs the base branch's workflow file with the base repository's token,
 * so it must never check out or run the pull request's code: actions/checkout only of the base (no
 * `ref` naming the pull request, no other `repository`, no token left in .git/config), no git command in
 * a run: script that writes a commit's files into a work tree, and no expression naming the pull
 * request's head inside a run: script (it reaches the shell as code; pass it through env:).
 */
function baseCodeOnly(w: Workflow): { line: number; message: string }[] {
  const out: { line: number; message: string }[] = [];
  for (const job of jobsOf(w)) {
    const steps = get(job.value, 'steps');
    for (const step of steps?.kind === 'seq' ? steps.items : []) {
      const uses = get(step, 'uses');
      if (uses?.kind === 'scalar' && /^actions\/checkout@/.test(uses.value)) {
        const ref = get(get(step, 'with'), 'ref');
        const repo = get(get(step, 'with'), 'repository');
        const persist = get(get(step, 'with'), 'persist-credentials');
        if (ref?.kind === 'scalar' && !/^\$\{\{\s*(github\.event\.pull_request\.base\.(sha|ref)|github\.base_ref)\s*\}\}$/.test(ref.value))
          out.push({ line: uses.line, message: `job "${job.key}" checks out "${ref.value}": only the base branch's code may be checked out` });
        if (repo?.kind === 'scalar' && !/^\$\{\{\s*github\.repository\s*\}\}$/.test(repo.value))
          out.push({ line: uses.line, message: `job "${job.key}" checks out repository "${repo.value}": only the base repository` });
        if (persist?.kind !== 'scalar' || persist.value !== 'false')
          out.push({ line: uses.line, message: `job "${job.key}" checks out without persist-credentials: false, leaving the token in .git/config` });
      }
      const run = get(step, 'run');
      if (run?.kind !== 'scalar') continue;
      const git = MATERIALISES.exec(run.value);
      if (git)
        out.push({
          line: run.line,
          message: `job "${job.key}": "git ${git[1]!.split(/\s+/)[0]}" puts a commit's files in a work tree; read the pull request with git show / git archive of data only`,
        });
      for (const m of run.value.matchAll(/\$\{\{([^}]*)\}\}/g))
        if (PR_HEAD.test(m[1]!))
          out.push({ line: run.line, message: `job "${job.key}" names the pull request's head (${m[0]}) inside a run: script: pass it through env:` });
    }
  }
  return out;
}

/** Check a set of workflows together (pull-request reach crosses files: workflow_run, reusable workflows). */
export function checkWorkflows(files: { file: string; yaml: string }[], scripts: ReadonlySet<string>): string[] {
  const problems: string[] = [];
  const workflows: Workflow[] = [];
  for (const { file, yaml } of files) {
    const at = (line: number, message: string) => problems.push(`${file}:${line}: ${message}`);
    let tree: YamlNode;
    try {
      tree = parseWorkflowYaml(yaml);
    } catch (e) {
      if (!(e instanceof YamlSubsetError)) throw e;
      at(e.line, `${e.message}: the workflow rules read plain block YAML only (write it plainly)`);
      continue;
    }
    const name = get(tree, 'name');
    workflows.push({ file, tree, name: name?.kind === 'scalar' ? name.value : file, events: eventsOf(tree) });
    const w = workflows.at(-1)!;
    const uses = (n: YamlNode | undefined) => (n?.kind === 'scalar' ? [n] : []);
    for (const job of jobsOf(w)) {
      const steps = get(job.value, 'steps');
      const refs = [...uses(get(job.value, 'uses')), ...(steps?.kind === 'seq' ? steps.items.flatMap((st) => uses(get(st, 'uses'))) : [])];
      for (const ref of refs)
        if (!ref.value.startsWith('./') && !/^[\w.-]+\/[\w./-]+@[0-9a-f]{40}$/.test(ref.value))
          at(ref.line, `action "${ref.value}" is not pinned by a full commit SHA`);
    }
    if (!get(tree, 'permissions')) at(1, 'no top-level permissions: (set `permissions: {}` and grant per job)');
    for (const job of jobsOf(w)) {
      if (!get(job.value, 'permissions')) at(job.line, `job "${job.key}" does not set its own permissions:`);
      // GitHub keeps one pending run per concurrency group and cancels the older one: a job that pushes must never wait in one
      const perms = get(job.value, 'permissions');
      if (
        perms?.kind === 'map' &&
        perms.entries.some((e) => e.key === 'contents' && e.value.kind === 'scalar' && e.value.value === 'write') &&
        (get(job.value, 'concurrency') || get(tree, 'concurrency'))
      )
        at(job.line, `job "${job.key}" can push (contents: write) and sits in a concurrency group: a newer pending run would cancel it and drop the publish`);
    }
    if (w.events.has('pull_request_target'))
      for (const p of baseCodeOnly(w))
        at(p.line, `pull_request_target: ${p.message} (it runs with the base repository's token: it may read the pull request only as data)`);
    const runWrite = [get(tree, 'permissions'), ...jobsOf(w).map((j) => get(j.value, 'permissions'))].find(grantsWrite);
    if (w.events.has('workflow_run') && runWrite)
      at(runWrite.line, "a workflow_run workflow runs with the base repository's token after workflows a pull request can start: it gets no write permission");
  }
  const reach = prReachable(workflows);
  for (const w of workflows) {
    const why = reach.get(w.file);
    if (!why) continue;
    const at = (line: number, message: string) => problems.push(`${w.file}:${line}: ${message} (a pull request can start this workflow: ${why})`);
    for (const job of jobsOf(w)) {
      const runsOn = get(job.value, 'runs-on');
      const runsOnLine = job.value.kind === 'map' ? (job.value.entries.find((e) => e.key === 'runs-on')?.line ?? job.line) : job.line;
      const called = get(job.value, 'uses');
      if (called?.kind === 'scalar' && !called.value.startsWith('./'))
        at(called.line, `job "${job.key}" calls a workflow of another repository, whose runners this lint cannot see`);
      if (!runsOn) continue;
      const { labels, unknown, group } = runnerLabels(runsOn, job.value);
      if (group) at(runsOnLine, `job "${job.key}" runs on runner group "${group}": only GitHub-hosted runners are allowed here`);
      for (const l of labels) {
        if (l.toLowerCase() === 'self-hosted') at(runsOnLine, `job "${job.key}" runs on a self-hosted runner: never for code a pull request can change`);
        else if (PROJECT_RUNNER_LABEL.test(l))
          at(runsOnLine, `job "${job.key}" names the project runner label "${l}", which only self-hosted bench machines carry`);
        else if (!GITHUB_HOSTED.test(l))
          at(runsOnLine, `job "${job.key}" runs on "${l}", which is not a GitHub-hosted runner label: only GitHub-hosted runners are allowed here`);
      }
      for (const u of unknown) at(runsOnLine, `job "${job.key}" picks its runner with "${u}", which this lint cannot resolve to GitHub-hosted labels`);
    }
    for (const s of scalars(w.tree)) {
      if (s.value === 'secrets' || /\$\{\{[^}]*\bsecrets\b/.test(s.value)) at(s.line, 'a workflow that pull requests reach must not use secrets');
    }
    const writes = [get(w.tree, 'permissions'), ...jobsOf(w).map((j) => get(j.value, 'permissions'))].filter(grantsWrite);
    for (const p of writes) at(p!.line, 'a workflow that pull requests reach gets read-only permissions');
  }
  for (const { file, tree } of workflows) {
    for (const { line, script } of runScripts(tree)) {
      for (const name of npmScriptsUsed(script))
        if (!scripts.has(name)) problems.push(`${file}:${line}: runs npm script "${name}", which package.json does not define`);
    }
  }
  return problems;
}

/** One workflow on its own. */
export const checkWorkflow = (file: string, yaml: string, scripts: ReadonlySet<string>) => checkWorkflows([{ file, yaml }], scripts);

export function findActionlint(root: string): string | null {
  const candidates = [
    process.env.ACTIONLINT,
    join(root, '.cache/tools/bin/actionlint'),
    ...(process.env.PATH ?? '').split(delimiter).map((d) => join(d, 'actionlint')),
  ];
  return candidates.find((c): c is string => !!c && existsSync(c)) ?? null;
}

function main(): void {
  const cli = commandLine('test:workflows', openingComment(import.meta.url), {});
  if (cli.positionals.length) cli.fail(`takes no arguments, not ${cli.positionals.join(' ')}`);
  const root = process.cwd();
  const dir = join(root, '.github', 'workflows');
  const files = readdirSync(dir)
    .filter((f) => /\.ya?ml$/.test(f))
    .sort();
  const scripts = new Set(Object.keys((JSON.parse(readFileSync(join(root, 'package.json'), 'utf8')) as { scripts?: object }).scripts ?? {}));
  const problems = checkWorkflows(
    files.map((f) => ({ file: `.github/workflows/${f}`, yaml: readFileSync(join(dir, f), 'utf8') })),
    scripts,
  );
  const actionlint = findActionlint(root);
  if (!actionlint) {
    problems.push(`actionlint is not installed. Install it (needs Go) with:\n  ${INSTALL_HINT}\nor set ACTIONLINT=/path/to/actionlint`);
  } else {
    const shellcheck = spawnSync('shellcheck', ['--version']).status === 0;
    if (!shellcheck) console.log('note: shellcheck not found, so actionlint does not check the run: scripts (apt-get install shellcheck)');
    try {
      execFileSync(actionlint, ['-no-color', ...files.map((f) => join(dir, f))], { encoding: 'utf8', stdio: ['ignore', 'pipe', 'pipe'] });
    } catch (e) {
      const err = e as { stdout?: string; stderr?: string; message: string };
      problems.push(`actionlint:\n${err.stdout || err.stderr || err.message}`);
    }
  }
  if (problems.length) {
    console.error(problems.join('\n'));
    process.exit(1);
  }
  console.log(`workflows ok: ${files.join(', ')} (actionlint ${ACTIONLINT_VERSION} and project rules)`);
}

if (import.meta.main) main();
