// Provenance attacks (issue 30, item 9): each is a run that passed the validator before provenance.ts,
// and must be refused through checkRunFile now.
import { after, test } from 'node:test';
import assert from 'node:assert/strict';
import { checkRunFile } from './submission/run-file.ts';
import { makeTestRun, removeScratch, runPath, scratchRoot, writeAt } from '../scripts/fixtures/submissions/test-run.ts';
import { join } from 'node:path';
import { listRunFiles, type Run } from '../schema/index.ts';

after(removeScratch);

/** The problems the validator finds in one run file (in both modes: a bench runner is held to the same provenance). */
function problems(run: Run, mode: 'submission' | 'runner' = 'submission'): string[] {
  const root = scratchRoot();
  writeAt(root, runPath(run), JSON.stringify(run));
  return checkRunFile(root, runPath(run), mode, new Date('2026-11-21T00:00:00Z')).problems.map((p) => `${p.path}: ${p.message}`);
}
const changed = (edit: (r: Run) => void): Run => {
  const r = makeTestRun();
  edit(r);
  return r;
};

test('the fixture run has a clean provenance', () => {
  assert.deepEqual(problems(makeTestRun()), []);
  assert.deepEqual(problems(makeTestRun(), 'runner'), []);
});

const ATTACKS: [string, Run, RegExp][] = [
  ['gitCommit "deadbeef"', changed((r) => (r.harness.gitCommit = 'deadbeef')), /\$\.harness\.gitCommit: .*40 hex/],
  ['a 7-digit abbreviation', changed((r) => (r.harness.gitCommit = 'f97371a')), /\$\.harness\.gitCommit: .*40 hex/],
  [
    'resumed from a dirty checkout',
    changed(
      (r) =>
        (r.harness.resumedAt = [
          {
            at: '2026-11-20T10:05:00Z',
            gitCommit: r.harness.gitCommit,
            gitDirty: true,
          },
        ]),
    ),
    /\$\.harness\.resumedAt\[0\]\.gitDirty: .*uncommitted changes/,
  ],
  [
    'resumed at a short commit',
    changed((r) => (r.harness.resumedAt = [{ at: '2026-11-20T10:05:00Z', gitCommit: 'abc1234', gitDirty: false }])),
    /\$\.harness\.resumedAt\[0\]\.gitCommit: .*40 hex/,
  ],
  ['a default build with no-asm', changed((r) => r.builds[0]!.configureArgs.push('no-asm')), /\$\.builds\[0\]\.configureArgs: .*not the recipe's/],
  [
    'a default build without a recipe option',
    changed((r) => (r.builds[0]!.configureArgs = r.builds[0]!.configureArgs.filter((a) => a !== 'no-tests'))),
    /\$\.builds\[0\]\.configureArgs/,
  ],
  ['a default build at -O0', changed((r) => (r.builds[0]!.cflags = '-Wall -O0 -Wa,--noexecstack')), /\$\.builds\[0\]\.cflags: .*-O0/],
  ['a default build with -O3 then -O0', changed((r) => (r.builds[0]!.cflags = '-Wall -O3 -Wa,--noexecstack -O0')), /\$\.builds\[0\]\.cflags/],
  [
    'a default build with an extra code-generation flag',
    changed((r) => (r.builds[0]!.cflags = '-Wall -O3 -Wa,--noexecstack -fno-tree-vectorize')),
    /\$\.builds\[0\]\.cflags: .*-fno-tree-vectorize/,
  ],
  ['another compiler (clang)', changed((r) => (r.builds[0]!.compiler = 'Debian clang version 14.0.6')), /\$\.builds\[0\]\.compiler: .*GCC/],
  [
    'a version string of another version',
    changed((r) => (r.builds[0]!.versionString = 'OpenSSL 3.4.1 11 Feb 2025 (Library: OpenSSL 3.4.1 11 Feb 2025)')),
    /\$\.builds\[0\]\.versionString: .*contradicts/,
  ],
  [
    'a library version that contradicts the app',
    changed((r) => (r.builds[0]!.versionString = `OpenSSL ${r.builds[0]!.version} 9 Jun 2026 (Library: OpenSSL 3.0.2 15 Mar 2022)`)),
    /\$\.builds\[0\]\.versionString: .*contradicts/,
  ],
  [
    'a version string that is a prefix trick',
    changed((r) => (r.builds[0]!.versionString = `OpenSSL ${r.builds[0]!.version}1`)),
    /\$\.builds\[0\]\.versionString/,
  ],
  ['the same build listed twice (another id)', changed((r) => r.builds.push({ ...r.builds[0]!, id: 'copy-of-35' })), /\$\.builds\[1\]: .*listed twice/],
  ['the same build id twice', changed((r) => r.builds.push({ ...r.builds[0]! })), /\$\.builds\[1\]: .*listed twice/],
];

for (const [what, run, expected] of ATTACKS) {
  test(`provenance: refused: ${what}`, () => {
    for (const mode of ['submission', 'runner'] as const) {
      const found = problems(run, mode);
      assert.ok(
        found.some((p) => expected.test(p)),
        `${mode}: ${JSON.stringify(found, null, 1)}`,
      );
    }
  });
}

test('a second compiler within one run is refused; each library is held to its own recipe', () => {
  /** the run with a no-ml-kem build of its build, recorded as the recipe gives it (and `o`) */
  const withVariant = (o: Partial<Run['builds'][number]> = {}) =>
    changed(
      (r) => void r.builds.push({ ...r.builds[0]!, id: 'b-nomlkem', variant: 'no-ml-kem', configureArgs: [...r.builds[0]!.configureArgs, 'no-ml-kem'], ...o }),
    );
  const two = withVariant({ compiler: 'gcc (Debian 14.2.0-19) 14.2.0' });
  assert.ok(
    problems(two).some((p) => /\$\.builds\[1\]\.compiler: .*another compiler than/.test(p)),
    JSON.stringify(problems(two)),
  );
  const variant = withVariant();
  assert.deepEqual(
    problems(variant).filter((p) => /builds\[1\]/.test(p)),
    [],
    'a variant with its own recorded option is what the recipe gives',
  );
});

test('every committed run file has a clean provenance', () => {
  const root = join(import.meta.dirname, '..');
  const files = listRunFiles(join(root, 'data'));
  assert.ok(files.length > 0);
  for (const f of files) {
    const rel = `data/${f}`;
    assert.deepEqual(checkRunFile(root, rel, 'runner').problems, [], rel);
  }
});
