import { after, test } from 'node:test';
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { HostRegistry, Run } from '../schema/index.ts';
import { submit, SubmitError, type SubmitIo } from './submit.ts';
import { makeTestRun, removeScratch, runPath, scratchRoot, writeAt } from './fixtures/submissions/test-run.ts';

after(removeScratch);

/** A clean git checkout, and a stand-in for `npm run bench` that writes the given run (test data). */
function setup(opts: { accepted?: Run[]; owners?: HostRegistry['hosts']; writes?: Run | null; status?: number } = {}) {
  const root = scratchRoot(opts.accepted, opts.owners);
  const git = (...args: string[]) => execFileSync('git', ['-C', root, ...args], { encoding: 'utf8' });
  git('init', '-q');
  writeFileSync(join(root, 'README'), 'test checkout\n');
  git('add', '-A');
  git('-c', 'user.name=t', '-c', 'user.email=t@t', 'commit', '-q', '-m', 'base');
  const calls: string[][] = [];
  const logs: string[] = [];
  const io: SubmitIo = {
    root,
    host: makeTestRun().host,
    log: (l) => logs.push(l),
    bench: (args) => {
      calls.push(args);
      const run = opts.writes === undefined ? makeTestRun({ seed: 7 }) : opts.writes;
      if (run) writeAt(root, runPath(run), JSON.stringify(run));
      return opts.status ?? 0;
    },
  };
  return { root, io, calls, logs };
}

test('a valid full run: bench runs --full for the chosen host, then the git steps are printed', () => {
  const { io, calls } = setup();
  const out = submit(['--host-id', 'test-host-a', '3.5', '3.4'], io);
  assert.deepEqual(calls, [['--full', '--host-id', 'test-host-a', '3.5', '3.4']]);
  const file = runPath(makeTestRun({ seed: 7 }));
  assert.match(out, new RegExp(`${file} is valid`));
  assert.match(out, new RegExp(`git add ${file}`));
  assert.match(out, /git switch -c run\/test-host-a\.test-model-1000-[0-9a-f]{6}\//);
});

test('options a submission cannot take, and reserved host ids, are refused before benchmarking', () => {
  for (const args of [
    ['--quick'],
    ['--rounds', '2'],
    ['--benchmarks', 'speed'],
    ['--out', '/tmp/x'],
    ['--host-id', 'obs-x64-1'],
    ['--host-id', 'obs_x64-1'],
    ['--nonsense'],
  ]) {
    const { io, calls } = setup();
    assert.throws(() => submit(args, io), SubmitError, args.join(' '));
    assert.equal(calls.length, 0, `bench must not start for ${args.join(' ')}`);
  }
});

test('a name already used on other hardware is another machine: the run goes ahead under its own machine id', () => {
  const other = makeTestRun({ seed: 1, cpuModel: 'Someone Else CPU' });
  // a name with runs takes more only once registered (data/hosts.json)
  const { io, calls, logs } = setup({ accepted: [other], owners: [{ id: 'test-host-a', owner: 'alice', ownerId: 1001 }] });
  const out = submit(['--host-id', 'test-host-a'], io);
  assert.equal(calls.length, 1);
  const mine = makeTestRun({ seed: 7 }).host.id;
  assert.notEqual(mine, other.host.id);
  assert.ok(
    logs.some((l) => l.startsWith(`this machine: ${mine} (Test CPU Model 1000 @ 3.00GHz, 2 logical CPUs`)),
    logs.join('\n'),
  );
  assert.match(out, new RegExp(`git switch -c run/${mine.replace(/\./g, '\\.')}/`));
});

test('a dirty checkout is refused: the run could not be traced to a commit', () => {
  const { root, io, calls } = setup();
  writeFileSync(join(root, 'README'), 'changed\n');
  assert.throws(() => submit(['--host-id', 'test-host-a'], io), /uncommitted changes/);
  assert.equal(calls.length, 0);
});

test('a failed bench, no run file, or an invalid run is an error that says what to do', () => {
  assert.throws(() => submit(['--host-id', 'test-host-a'], setup({ status: 3 }).io), /npm run bench failed \(exit 3\).*--resume/s);
  assert.throws(() => submit(['--host-id', 'test-host-a'], setup({ writes: null }).io), /found 0/);
  const bad = makeTestRun({ seed: 7 });
  bad.series[0]!.iterations[1]!.value = 1e15;
  assert.throws(
    () => submit(['--host-id', 'test-host-a'], setup({ writes: bad }).io),
    /would be rejected[\s\S]*\$\.series\[0\]\.iterations\[1\]\.value: .*not plausible/,
  );
});
