// `npm run test:workflows`: lint .github/workflows/ with actionlint (which also runs shellcheck on every
// `run:` script when shellcheck is installed), then check this project's own rules, which actionlint
// does not know:
//   - every action is pinned by a full commit SHA;
//   - every workflow sets top-level `permissions:` and every job sets its own;
//   - a workflow triggered by pull requests never uses pull_request_target, a self-hosted runner,
//     secrets or a write permission;
//   - every `npm run <script>` / `npm test` in a `run:` step names a script that package.json has.
// The rule checks read the plain block YAML our workflows are written in; actionlint parses the YAML itself.
import { execFileSync, spawnSync } from 'node:child_process';
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { delimiter, join } from 'node:path';

export const ACTIONLINT_VERSION = 'v1.7.12';
export const INSTALL_HINT = `GOBIN="$PWD/.cache/tools/bin" go install github.com/rhysd/actionlint/cmd/actionlint@${ACTIONLINT_VERSION}`;

interface Line {
  no: number;
  indent: number;
  text: string;
}

function lines(yaml: string): Line[] {
  return yaml.split('\n').map((raw, i) => ({ no: i + 1, indent: raw.length - raw.trimStart().length, text: raw.trim() }));
}
const meaningful = (l: Line) => l.text !== '' && !l.text.startsWith('#');

/** The keys directly under a top-level key (`on:`, `jobs:`), with the lines of each. */
function children(all: Line[], key: string): Map<string, Line[]> {
  const out = new Map<string, Line[]>();
  const start = all.findIndex((l) => l.indent === 0 && l.text.startsWith(`${key}:`));
  if (start < 0) return out;
  const inline = all[start]!.text.slice(key.length + 1).replace(/#.*/, '').trim();
  if (inline) {
    for (const name of inline.replace(/[[\]]/g, '').split(',')) out.set(name.trim(), []);
    return out;
  }
  let current: Line[] | undefined;
  for (const l of all.slice(start + 1)) {
    if (!meaningful(l)) continue;
    if (l.indent === 0) break;
    const m = /^([A-Za-z0-9_-]+):/.exec(l.text);
    if (l.indent === 2 && m) out.set(m[1]!, (current = []));
    else current?.push(l);
  }
  return out;
}

/** Every `run:` script with the line it starts on (block scalars `|` and `>` included). */
export function runScripts(yaml: string): { line: number; script: string }[] {
  const all = lines(yaml);
  const out: { line: number; script: string }[] = [];
  all.forEach((l, i) => {
    const m = /^(-\s+)?run:\s*(.*)$/.exec(l.text);
    if (!m) return;
    const value = m[2]!;
    if (!/^[|>][-+]?$/.test(value)) return void out.push({ line: l.no, script: value });
    const keyIndent = l.indent + (m[1]?.length ?? 0);
    const body: string[] = [];
    for (const next of all.slice(i + 1)) {
      if (next.text !== '' && next.indent <= keyIndent) break;
      body.push(next.text);
    }
    // a folded scalar (>) joins its lines with spaces; a blank line stays a line break
    const script = value.startsWith('>') ? body.join('\n').replace(/([^\n])\n(?=[^\n])/g, '$1 ') : body.join('\n');
    out.push({ line: l.no, script: script.replace(/\n+$/, '') });
  });
  return out;
}

/** The `run:` script of the step with this `name:` (for tests that execute a step's shell). */
export function stepScript(yaml: string, name: string): string {
  const nameLine = yaml.split('\n').findIndex((l) => l.trim() === `- name: ${name}`);
  const script = runScripts(yaml).find((s) => s.line > nameLine + 1 && nameLine >= 0);
  if (!script) throw new Error(`no step named "${name}" with a run: script`);
  return script.script;
}

/** npm scripts a shell script runs: `npm run [-s] name`, `npm run-script name`, `npm test`. */
export function npmScriptsUsed(script: string): string[] {
  const names: string[] = [];
  for (const m of script.matchAll(/\bnpm\s+(?:run|run-script)((?:\s+-{1,2}[a-z-]+)*)\s+([A-Za-z0-9:._-]+)/g)) names.push(m[2]!);
  for (const m of script.matchAll(/\bnpm\s+(test|t|start)\b/g)) names.push(m[1] === 't' ? 'test' : m[1]!);
  return names;
}

export function checkWorkflow(file: string, yaml: string, scripts: ReadonlySet<string>): string[] {
  const problems: string[] = [];
  const at = (line: number, message: string) => problems.push(`${file}:${line}: ${message}`);
  const all = lines(yaml);
  const code = all.filter(meaningful);
  for (const l of code) {
    const m = /^(?:-\s+)?uses:\s*([^\s#]+)/.exec(l.text);
    if (m && !m[1]!.startsWith('./') && !/^[\w.-]+\/[\w./-]+@[0-9a-f]{40}$/.test(m[1]!)) at(l.no, `action "${m[1]}" is not pinned by a full commit SHA`);
  }
  if (!code.some((l) => l.indent === 0 && l.text.startsWith('permissions:'))) at(1, 'no top-level permissions: (set `permissions: {}` and grant per job)');
  for (const [job, body] of children(all, 'jobs')) {
    if (!body.some((l) => l.indent === 4 && l.text.startsWith('permissions:'))) at(body[0]?.no ?? 1, `job "${job}" does not set its own permissions:`);
  }
  const triggers = children(all, 'on');
  if (triggers.has('pull_request_target')) at(1, 'pull_request_target runs with the base repository\'s secrets and write token: not allowed');
  if (triggers.has('pull_request')) {
    for (const l of code) {
      if (/self-hosted/.test(l.text)) at(l.no, 'a workflow that pull requests trigger must never run on a self-hosted runner');
      if (/\bsecrets\b/.test(l.text)) at(l.no, 'a workflow that pull requests trigger must not use secrets');
      if (/:\s*write\b/.test(l.text)) at(l.no, 'a workflow that pull requests trigger gets read-only permissions');
    }
  }
  for (const { line, script } of runScripts(yaml)) {
    for (const name of npmScriptsUsed(script)) if (!scripts.has(name)) at(line, `runs npm script "${name}", which package.json does not define`);
  }
  return problems;
}

export function findActionlint(root: string): string | null {
  const candidates = [process.env.ACTIONLINT, join(root, '.cache/tools/bin/actionlint'), ...(process.env.PATH ?? '').split(delimiter).map((d) => join(d, 'actionlint'))];
  return candidates.find((c): c is string => !!c && existsSync(c)) ?? null;
}

function main(): void {
  const root = process.cwd();
  const dir = join(root, '.github', 'workflows');
  const files = readdirSync(dir).filter((f) => /\.ya?ml$/.test(f)).sort();
  const scripts = new Set(Object.keys((JSON.parse(readFileSync(join(root, 'package.json'), 'utf8')) as { scripts?: object }).scripts ?? {}));
  const problems = files.flatMap((f) => checkWorkflow(`.github/workflows/${f}`, readFileSync(join(dir, f), 'utf8'), scripts));
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
