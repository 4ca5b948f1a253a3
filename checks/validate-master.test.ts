// A runner's night for master (data/master/<machine>/nights.json, data/bisect/<machine>/) is checked before
// publish takes it: the nights file only grows, a pending change may only be bisected, a report it names
// must exist, and every file sits in its own machine's folder under the name its content gives it.
import { after, test } from 'node:test';
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { BisectReport, bisectReportName, type MasterNight } from '../schema/index.ts';
import { bisectedChange, masterNight, masterWatch, pendingChange } from './fixtures/master/nights.ts';
import { masterChanges, nightsProblems, validateMasterFiles } from './validate-master.ts';

const M = 'obs-a.amd-epyc-3fa2c1';
const night = masterNight;
const pending = pendingChange;
const resolvedBase = bisectedChange('r.json');
const watch = (nights: MasterNight[]) => masterWatch(M, nights);
const none = () => false;

test('the nights file grows: new nights appended pass; a removed night, a changed figure or a changed repository do not', () => {
  const main = watch([night(1), night(2)]);
  assert.deepEqual(nightsProblems(watch([night(1), night(2), night(3)]), main, none), []);
  assert.deepEqual(nightsProblems(main, null, none), [], "a machine's first nights file");
  assert.match(nightsProblems(watch([night(1)]), main, none)[0]!.message, /night of 2026-11-12T02:00:00.000Z \(0000000000\) is on main and missing here/);
  const rewritten = watch([night(1), { ...night(2), values: { 'handshake-instructions:client:ecdsa-p256:default': 1 } }]);
  assert.match(nightsProblems(rewritten, main, none)[0]!.message, /differs from main's: a published night's commit, date and figures never change/);
  assert.equal(nightsProblems({ ...main, repo: 'https://example.com/fork.git' }, main, none)[0]!.path, '$.repo');
});

test('a pending change may be bisected (its report brought along), nothing else about a published change may move', () => {
  const main = watch([night(1), night(2, [pending])]);
  assert.deepEqual(
    nightsProblems(watch([night(1), night(2, [resolvedBase])]), main, (n) => n === 'r.json'),
    [],
  );
  assert.match(nightsProblems(watch([night(1), night(2, [resolvedBase])]), main, none)[0]!.message, /names r\.json, which is neither on main nor brought/);
  const moved = { ...resolvedBase, before: 1 };
  assert.match(nightsProblems(watch([night(1), night(2, [moved])]), main, () => true)[0]!.message, /its metric, commits and figures stay/);
  // once bisected, a change is final
  const done = watch([night(1), night(2, [resolvedBase])]);
  const redone = watch([night(1), night(2, [{ ...resolvedBase, culprits: [] }])]);
  assert.match(nightsProblems(redone, done, () => true)[0]!.message, /a bisected change never changes/);
  assert.match(nightsProblems(watch([night(1), night(2)]), main, none)[0]!.message, /1 change\(s\) on main, 0 here/);
});

const made: string[] = [];
after(() => made.forEach((d) => rmSync(d, { recursive: true, force: true })));
const git = (root: string, ...args: string[]) => execFileSync('git', ['-C', root, '-c', 'user.name=t', '-c', 'user.email=t@t', ...args], { encoding: 'utf8' });
const write = (root: string, path: string, text: string) => {
  mkdirSync(dirname(join(root, path)), { recursive: true });
  writeFileSync(join(root, path), text);
};

/** A bisection report as the tool writes it: the first committed one, moved to machine M. */
function report(): BisectReport {
  const dir = join(import.meta.dirname, '..', 'data', 'bisect');
  const machine = readdirSync(dir)[0]!;
  const file = readdirSync(join(dir, machine)).find((f) => f.endsWith('.json'))!;
  const r = BisectReport.parse(JSON.parse(readFileSync(join(dir, machine, file), 'utf8')));
  return { ...r, host: { ...r.host, id: M } };
}

test("validateMasterFiles: a night extended with its bisection passes; a rewritten history, another machine's folder, a misnamed or changed report, a stray file do not", () => {
  const root = mkdtempSync(join(tmpdir(), 'master-'));
  made.push(root);
  git(root, 'init', '-q');
  const nights = `data/master/${M}/nights.json`;
  write(root, nights, JSON.stringify(watch([night(1), night(2, [pending])])));
  const r = report();
  const name = bisectReportName(r);
  write(root, `data/bisect/${M}/old.json`, '{}');
  git(root, 'add', '-A');
  git(root, 'commit', '-q', '-m', 'main');

  // tonight: the pending change bisected, its report, and a new night
  write(root, nights, JSON.stringify(watch([night(1), night(2, [{ ...resolvedBase, report: name }]), night(3)])));
  write(root, `data/bisect/${M}/${name}`, JSON.stringify(r));
  const changed = masterChanges(root);
  assert.deepEqual(changed.map((f) => [f.path, f.status]).sort(), [
    [`data/bisect/${M}/${name}`, 'added'],
    [nights, 'modified'],
  ]);
  const ok = validateMasterFiles(root, changed);
  assert.equal(ok.ok, true, JSON.stringify(ok.files.flatMap((f) => f.problems)));

  const problems = (files: { path: string; status: 'added' | 'modified' | 'deleted' | 'other' }[]) =>
    validateMasterFiles(root, files).files.flatMap((f) => f.problems.map((p) => `${p.file} ${p.path}: ${p.message}`));
  // history rewritten: night 1 gone
  write(root, nights, JSON.stringify(watch([night(2, [{ ...resolvedBase, report: name }]), night(3)])));
  assert.match(
    problems([{ path: nights, status: 'modified' }]).join('\n'),
    /nights\[0\]: the night of 2026-11-11T02:00:00.000Z \(0000000000\) differs from main's/,
  );
  // the file in another machine's folder than its content says
  const other = 'data/master/obs-b.neoverse-v1-7d04aa/nights.json';
  write(root, other, JSON.stringify(watch([night(1)])));
  assert.match(
    problems([{ path: other, status: 'added' }]).join('\n'),
    /\$\.host\.id: "obs-a\.amd-epyc-3fa2c1" does not match the folder data\/master\/obs-b\.neoverse-v1-7d04aa\//,
  );
  // a report under another name than its ends and metric give; a published report changed; a stray file
  write(root, `data/bisect/${M}/renamed.json`, JSON.stringify(r));
  assert.match(problems([{ path: `data/bisect/${M}/renamed.json`, status: 'added' }]).join('\n'), /named renamed\.json; its ends and metric name it /);
  assert.match(
    problems([{ path: `data/bisect/${M}/old.json`, status: 'modified' }]).join('\n'),
    /modified: a published bisection report is never changed or removed/,
  );
  write(root, `data/master/${M}/notes.json`, '{}');
  assert.match(
    problems([{ path: `data/master/${M}/notes.json`, status: 'added' }]).join('\n'),
    /must be data\/master\/<machine>\/nights\.json or data\/bisect\/<machine>\/<report>\.json/,
  );
  // not JSON, and not a master watch
  write(root, nights, '{"nights": [');
  assert.match(problems([{ path: nights, status: 'modified' }]).join('\n'), /\$: not JSON/);
  write(root, nights, '{"nights": []}');
  assert.match(problems([{ path: nights, status: 'modified' }]).join('\n'), /\$\.repo: /);
});
