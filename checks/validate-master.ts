// Checks what a bench runner's night brought for master (runner/bisect/master-watch.ts) before publish
// takes it: data/master/<machine>/nights.json, rewritten each night, and new bisection reports in
// data/bisect/<machine>/. The nights file only grows: every night already on main keeps its commit, date
// and figures, and its changes stay as they were, except that a pending change may be bisected. A change
// that names a report needs that report, on main or brought alongside. Read-only.
import { execFileSync } from 'node:child_process';
import { existsSync, lstatSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { isDeepStrictEqual } from 'node:util';
import type { z } from 'zod';
import { BisectReport, MasterWatch, bisectReportName, type MasterChange } from '../schema/index.ts';
import type { ChangedFile, FileReport, Problem, Report } from './submission/report.ts';

/** data/master/<machine>/nights.json or data/bisect/<machine>/<report>.json */
const MASTER_PATH = /^data\/(?:master\/([A-Za-z0-9][A-Za-z0-9._-]*)\/nights\.json|bisect\/([A-Za-z0-9][A-Za-z0-9._-]*)\/([A-Za-z0-9][A-Za-z0-9._-]*\.json))$/;
/** far above a year of nights of three metrics (about 0.5 KB each) or any bisection report */
export const MAX_MASTER_FILE_BYTES = 8 << 20;

/** Files under data/master/ and data/bisect/ that differ from the checkout's commit: new ones and rewritten ones. */
export function masterChanges(root: string): ChangedFile[] {
  const list = (...args: string[]) =>
    execFileSync('git', ['-C', root, 'ls-files', '-z', ...args, '--', 'data/master', 'data/bisect'], { encoding: 'utf8', maxBuffer: 64 << 20 })
      .split('\0')
      .filter(Boolean);
  const deleted = new Set(list('--deleted'));
  return [
    ...list('--others', '--exclude-standard').map((path) => ({ path, status: 'added' as const })),
    ...list('--modified').map((path) => ({ path, status: deleted.has(path) ? ('deleted' as const) : ('modified' as const) })),
  ];
}

/** The file as the checkout's commit has it, or null when the commit has no such file. */
export function committedText(root: string, path: string): string | null {
  try {
    return execFileSync('git', ['-C', root, 'show', `HEAD:${path}`], { encoding: 'utf8', maxBuffer: 64 << 20, stdio: ['ignore', 'pipe', 'ignore'] });
  } catch {
    return null;
  }
}

function readJson<S extends z.ZodType>(root: string, file: string, schema: S, add: (path: string, message: string) => void): z.infer<S> | undefined {
  const abs = join(root, file);
  const st = lstatSync(abs, { throwIfNoEntry: false });
  if (!st?.isFile()) return void add('$', st ? 'not a regular file' : 'missing');
  if (st.size > MAX_MASTER_FILE_BYTES) return void add('$', `${st.size} bytes, more than the ${MAX_MASTER_FILE_BYTES} a master or bisection file may have`);
  let raw: unknown;
  try {
    raw = JSON.parse(readFileSync(abs, 'utf8'));
  } catch (e) {
    return void add('$', `not JSON: ${(e as Error).message}`);
  }
  const parsed = schema.safeParse(raw);
  if (!parsed.success) {
    for (const issue of parsed.error.issues.slice(0, 10)) add(`$.${issue.path.join('.')}`, issue.message);
    return undefined;
  }
  return parsed.data;
}

/** What may change in a change already published: a pending change may be bisected, nothing else. */
function changeKept(before: MasterChange, after: MasterChange | undefined): boolean {
  if (!after) return false;
  if (!before.pending) return isDeepStrictEqual(before, after);
  const same = (c: MasterChange) => [c.metric, c.fromCommit, c.before, c.after];
  return isDeepStrictEqual(same(before), same(after));
}

/** Every problem of a nights file against the one on main (`committed`, or null for a machine's first night). */
export function nightsProblems(now: MasterWatch, committed: MasterWatch | null, reportExists: (name: string) => boolean): { path: string; message: string }[] {
  const problems: { path: string; message: string }[] = [];
  const add = (path: string, message: string) => problems.push({ path, message });
  if (committed) {
    for (const key of ['repo', 'ref', 'host'] as const)
      if (!isDeepStrictEqual(now[key], committed[key]))
        add(`$.${key}`, `changed from ${JSON.stringify(committed[key])}: a machine's watch of a branch keeps its ${key}`);
    committed.nights.forEach((old, i) => {
      const night = now.nights[i];
      const where = `$.nights[${i}]`;
      if (!night) return add(where, `the night of ${old.at} (${old.commit.slice(0, 10)}) is on main and missing here: nights are never removed`);
      const { changes: oldChanges, ...oldFigures } = old;
      const { changes, ...figures } = night;
      if (!isDeepStrictEqual(figures, oldFigures))
        return add(where, `the night of ${old.at} (${old.commit.slice(0, 10)}) differs from main's: a published night's commit, date and figures never change`);
      if (changes.length !== oldChanges.length) return add(`${where}.changes`, `${oldChanges.length} change(s) on main, ${changes.length} here`);
      oldChanges.forEach((c, j) => {
        if (!changeKept(c, changes[j]))
          add(
            `${where}.changes[${j}]`,
            c.pending ? 'a pending change may be bisected; its metric, commits and figures stay' : 'a bisected change never changes',
          );
      });
    });
  }
  now.nights.forEach((night, i) =>
    night.changes.forEach((c, j) => {
      if (c.report !== null && !reportExists(c.report))
        add(`$.nights[${i}].changes[${j}].report`, `names ${c.report}, which is neither on main nor brought with this night`);
    }),
  );
  return problems;
}

/** One runner's master files (masterChanges), every problem named. */
export function validateMasterFiles(root: string, changed: readonly ChangedFile[]): Report {
  const problems: Problem[] = [];
  const files: FileReport[] = [];
  for (const c of changed) {
    const report: FileReport = { file: c.path, problems: [] };
    const add = (path: string, message: string) => void report.problems.push({ file: c.path, path, message });
    files.push(report);
    const m = MASTER_PATH.exec(c.path);
    if (!m) {
      add('$', 'must be data/master/<machine>/nights.json or data/bisect/<machine>/<report>.json');
      continue;
    }
    const machine = (m[1] ?? m[2])!;
    if (m[1]) {
      report.kind = 'master watch';
      if (c.status !== 'added' && c.status !== 'modified') {
        add('$', `${c.status}: a machine's nights file is only ever added or extended`);
        continue;
      }
      const now = readJson(root, c.path, MasterWatch, add);
      if (!now) continue;
      if (now.host.id !== machine) add('$.host.id', `"${now.host.id}" does not match the folder data/master/${machine}/`);
      const text = committedText(root, c.path);
      let committed: MasterWatch | null = null;
      if (text !== null) {
        const parsed = MasterWatch.safeParse(JSON.parse(text));
        if (parsed.success) committed = parsed.data;
        else add('$', "main's version of this file does not read as a master watch: a maintainer must repair it first");
      }
      const reportExists = (name: string) => /^[A-Za-z0-9][A-Za-z0-9._-]*\.json$/.test(name) && existsSync(join(root, 'data', 'bisect', machine, name));
      for (const p of nightsProblems(now, committed, reportExists)) add(p.path, p.message);
    } else {
      report.kind = 'bisection report';
      if (c.status !== 'added') {
        add('$', `${c.status}: a published bisection report is never changed or removed`);
        continue;
      }
      const r = readJson(root, c.path, BisectReport, add);
      if (!r) continue;
      if (r.host.id !== machine) add('$.host.id', `"${r.host.id}" does not match the folder data/bisect/${machine}/`);
      if (bisectReportName(r) !== m[3]) add('$', `named ${m[3]}; its ends and metric name it ${bisectReportName(r)}`);
    }
  }
  const ok = !problems.length && files.every((f) => !f.problems.length);
  return { ok, mode: 'runner', files, problems };
}
