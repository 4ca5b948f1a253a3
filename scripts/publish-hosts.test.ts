import { after, test } from 'node:test';
import assert from 'node:assert/strict';
import { execFileSync, spawnSync } from 'node:child_process';
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { decideHosts, describeOutcomes, hostOfFile } from './publish-hosts.ts';
import { validateSubmission } from '../checks/validate-submission.ts';
import { type ChangedFile } from '../checks/submission/report.ts';
import { makeTestRun, removeScratch, runPath, scratchRoot, writeAt } from './fixtures/submissions/test-run.ts';
import { masterNight, masterWatch } from '../checks/fixtures/master/nights.ts';

after(removeScratch);
const NOW = new Date('2026-11-21T00:00:00Z');
const added = (...paths: string[]): ChangedFile[] => paths.map((path) => ({ path, status: 'added' }));

/** obs-a brings a valid run, obs-b an artifact that is no run (truncated), obs-c nothing (offline). */
function night() {
  const root = scratchRoot();
  const a = makeTestRun({ hostId: 'obs-a' });
  const b = makeTestRun({ hostId: 'obs-b', cpuModel: 'Other CPU', seed: 3 });
  writeAt(root, runPath(a), JSON.stringify(a));
  writeAt(root, runPath(b), JSON.stringify(b).slice(0, 200));
  return { root, a: runPath(a), b: runPath(b) };
}

test('publish per host: a host with a bad artifact is refused and named, a host without one is missing, the others are published', () => {
  const { root, a, b } = night();
  assert.equal(hostOfFile(a), 'obs-a');
  // before: one validation of every host's new files, so obs-b's bad artifact held back obs-a's run too
  assert.equal(validateSubmission({ root, changed: added(a, b), mode: 'runner', now: NOW }).ok, false);
  const outcomes = decideHosts(['obs-a', 'obs-b', 'obs-c'], added(a, b), (files) => validateSubmission({ root, changed: files, mode: 'runner', now: NOW }));
  assert.deepEqual(
    outcomes.map((o) => [o.host, o.status, o.files]),
    [
      ['obs-a', 'published', [a]],
      ['obs-b', 'refused', [b]],
      ['obs-c', 'missing', []],
    ],
  );
  const lines = describeOutcomes(outcomes);
  assert.match(lines[0]!, /^published obs-a: 1 new or extended file/);
  assert.match(lines[1]!, /^refused obs-b: its files fail validation; left out, the other hosts are published%0A.*obs-b/);
  assert.match(lines[2]!, /^missing obs-c: no new run/);
  // files of a host that was not planned are refused under its name, never published
  const stray = decideHosts(['obs-a'], added(a, b), (files) => validateSubmission({ root, changed: files, mode: 'runner', now: NOW }));
  assert.deepEqual(
    stray.map((o) => [o.host, o.status]),
    [
      ['obs-a', 'published'],
      ['obs-b', 'refused'],
    ],
  );
});

test('npm run publish:hosts: the refused host’s files leave the checkout, the outputs name each host', () => {
  const { root, a, b } = night();
  execFileSync('git', ['-C', root, 'init', '-q']);
  const output = join(root, '.github-output');
  writeFileSync(output, '');
  const hosts = JSON.stringify([
    { id: 'obs-a', arch: 'x64' },
    { id: 'obs-b', arch: 'x64' },
    { id: 'obs-c', arch: 'arm64' },
  ]);
  const r = spawnSync(
    process.execPath,
    [join(import.meta.dirname, 'publish-hosts.ts'), '--hosts', hosts, '--root', root, '--summary', join(root, 'summary.md')],
    {
      encoding: 'utf8',
      env: { ...process.env, GITHUB_OUTPUT: output, GITHUB_ACTIONS: 'true' },
    },
  );
  assert.equal(r.status, 0, r.stderr);
  assert.ok(existsSync(join(root, a)));
  assert.ok(!existsSync(join(root, b)));
  assert.equal(readFileSync(output, 'utf8'), 'published=obs-a\nrefused=obs-b\nmissing=obs-c\n');
  assert.match(r.stdout, /^::error::refused obs-b/m);
  assert.match(readFileSync(join(root, 'summary.md'), 'utf8'), /\| obs-a \| published \| 1 \|\n\| obs-b \| refused \| 1 \|\n\| obs-c \| missing \| 0 \|/);
});

test("npm run publish:hosts: master's nights: a host whose file only grew is published; one whose file rewrites history is refused and main's file restored", () => {
  const root = scratchRoot();
  const [a, b] = ['obs-a.amd-epyc-3fa2c1', 'obs-b.neoverse-v1-7d04aa'];
  const file = (m: string) => `data/master/${m}/nights.json`;
  for (const m of [a, b]) writeAt(root, file(m), JSON.stringify(masterWatch(m, [masterNight(1)])));
  const git = (...args: string[]) => execFileSync('git', ['-C', root, '-c', 'user.name=t', '-c', 'user.email=t@t', ...args], { encoding: 'utf8' });
  git('init', '-q');
  git('add', '-A');
  git('commit', '-q', '-m', 'main');
  const onMain = readFileSync(join(root, file(b)), 'utf8');
  writeAt(root, file(a), JSON.stringify(masterWatch(a, [masterNight(1), masterNight(2)])));
  writeAt(root, file(b), JSON.stringify(masterWatch(b, [masterNight(2)])));
  const output = join(root, '.github-output');
  writeFileSync(output, '');
  const hosts = JSON.stringify([
    { id: 'obs-a', arch: 'x64' },
    { id: 'obs-b', arch: 'arm64' },
  ]);
  const r = spawnSync(process.execPath, [join(import.meta.dirname, 'publish-hosts.ts'), '--hosts', hosts, '--root', root], {
    encoding: 'utf8',
    env: { ...process.env, GITHUB_OUTPUT: output },
  });
  assert.equal(r.status, 0, r.stderr);
  assert.equal(readFileSync(output, 'utf8'), 'published=obs-a\nrefused=obs-b\nmissing=\n');
  assert.match(
    r.stdout,
    /refused obs-b: its files fail validation.*nights\.json: \$\.nights\[0\]: the night of 2026-11-11T02:00:00\.000Z \(0000000000\) differs from main's/,
  );
  assert.equal(readFileSync(join(root, file(b)), 'utf8'), onMain, "main's nights restored");
  assert.equal(JSON.parse(readFileSync(join(root, file(a)), 'utf8')).nights.length, 2);
});
