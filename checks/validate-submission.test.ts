import { after, test } from 'node:test';
import assert from 'node:assert/strict';
import { execFileSync, spawnSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { randomBytes } from 'node:crypto';
import { readdirSync, readFileSync, renameSync, rmSync, statSync, symlinkSync, writeFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { gzipSync } from 'node:zlib';
import { encodeRunFile, listRunFiles, type HostRegistry, type Run } from '../schema/index.ts';
import { resolveVersion } from '../catalogue/index.ts';
import { registeredSeries } from '../runner/series-registry.ts';
import type { Unit } from '../schema/index.ts';
import { aggregateSkipping } from '../scripts/aggregate/derived-files.ts';
import { BOUNDS, LIMITS, SUMMARY_ENTRY_BYTES } from './submission/limits.ts';
import { checkRunFile, duplicateKeys } from './submission/run-file.ts';
import { formatSummary, type ChangedFile, type Report } from './submission/report.ts';
import { parseNameStatus } from './submission/changes.ts';
import { validateSubmission } from './validate-submission.ts';
import {
  REGISTERED,
  handshakeKey,
  makeTestRun,
  registeredSeriesOf,
  removeScratch,
  runPath,
  scratchRoot,
  writeAt,
} from '../scripts/fixtures/submissions/test-run.ts';
import { HOSTILE, hostilePath } from '../scripts/fixtures/submissions/hostile.ts';
import { makeQuietEvidence } from '../schema/test-data.ts';

after(removeScratch);

const NOW = new Date('2026-11-21T00:00:00Z');
const added = (...paths: string[]): ChangedFile[] => paths.map((path) => ({ path, status: 'added' }));
const problems = (r: Report) => [...r.problems, ...r.files.flatMap((f) => f.problems)];

/** Submit one run (as an object or raw text) into a scratch checkout holding `accepted`, `existing` files and the `owners` registry. */
function submit(
  run: Run | string,
  opts: {
    accepted?: Run[];
    path?: string;
    mode?: Report['mode'];
    owners?: HostRegistry['hosts'];
    existing?: Record<string, string>;
    author?: string;
    authorId?: number;
  } = {},
): Report {
  const root = scratchRoot(opts.accepted, opts.owners);
  for (const [path, text] of Object.entries(opts.existing ?? {})) writeAt(root, path, text);
  const path = opts.path ?? runPath(typeof run === 'string' ? makeTestRun() : run);
  writeAt(root, path, typeof run === 'string' ? run : JSON.stringify(run));
  return validateSubmission({ root, changed: added(path), mode: opts.mode ?? 'submission', now: NOW, author: opts.author, authorId: opts.authorId });
}

/** test-host-a registered to alice, and a pull request of hers: what a second run of a name needs */
const OWNED = { owners: [{ id: 'test-host-a', owner: 'alice', ownerId: 1001 }], author: 'alice', authorId: 1001 };

/** Rejected, with a problem at exactly this JSON path whose message matches. */
function assertRejected(r: Report, path: string, message: RegExp): void {
  assert.equal(r.ok, false, 'should be rejected');
  const found = problems(r).some((p) => p.path === path && message.test(p.message));
  assert.ok(
    found,
    `expected a problem at ${path} matching ${message}, got:\n${problems(r)
      .map((p) => `${p.path}: ${p.message}`)
      .join('\n')}`,
  );
}

test('the hand-made test run is accepted, as a new host flagged for review', () => {
  const r = submit(makeTestRun(), { author: 'alice', authorId: 1001 });
  assert.deepEqual(problems(r), []);
  assert.equal(r.ok, true);
  assert.equal(r.files[0]?.newHost, true);
  assert.deepEqual(r.files[0]?.review, [
    'new host "test-host-a": not in data/hosts.json. Check the machine description, then register it with owner alice (account id 1001) when merging',
  ]);
  assert.match(formatSummary(r), /valid, needs a maintainer's review[\s\S]*needs review:\*\* new host/);
});

for (const c of HOSTILE) {
  test(`hostile: ${c.name}`, () => {
    const r = submit(c.file(), {
      path: hostilePath(c),
      accepted: c.accepted?.(),
      existing: c.existing,
      owners: c.owners,
      author: c.author,
      authorId: c.authorId,
    });
    assertRejected(r, c.expect.path, c.expect.message);
  });
}

test('the owner of a registered host may add runs (by account id, whatever the login is now), with nothing to review', () => {
  const owners = [{ id: 'test-host-a', owner: 'Alice', ownerId: 1001 }];
  const r = submit(makeTestRun({ seed: 2 }), { accepted: [makeTestRun({ seed: 1 })], owners, author: 'alice', authorId: 1001 });
  assert.deepEqual(problems(r), []);
  assert.deepEqual(r.files[0]?.review, []);
  assert.match(formatSummary(r), /^## Run submission: accepted/);
  // the owner renamed their account: the id still matches
  assert.deepEqual(problems(submit(makeTestRun({ seed: 2 }), { accepted: [makeTestRun({ seed: 1 })], owners, author: 'alice-renamed', authorId: 1001 })), []);
  // with the login only (no --author-id), the login is compared and the maintainer told the id was not
  const byLogin = submit(makeTestRun({ seed: 2 }), { accepted: [makeTestRun({ seed: 1 })], owners, author: 'alice' });
  assert.equal(byLogin.ok, true);
  assert.match(byLogin.files[0]!.review![0]!, /belongs to Alice \(account 1001, data\/hosts\.json\).*account id was not given/);
  // without an author (a local check) ownership cannot be checked: said, not refused
  const local = submit(makeTestRun({ seed: 2 }), { owners });
  assert.equal(local.ok, true);
  assert.match(local.files[0]!.review![0]!, /belongs to Alice .* ownership was not checked/);
});

test('a name already on main is never its own lookalike, even beside a name two characters away (issue 30 item 1)', () => {
  const owners = [
    { id: 'test-host-a', owner: 'alice', ownerId: 1001 },
    { id: 'test-host-b', owner: 'bob', ownerId: 1002 },
  ];
  const r = submit(makeTestRun({ seed: 3 }), {
    accepted: [makeTestRun({ seed: 1 }), makeTestRun({ seed: 2, hostId: 'test-host-b', cpuModel: 'B' })],
    owners,
    author: 'alice',
    authorId: 1001,
  });
  assert.deepEqual(problems(r), []);
});

test('a missing or broken host registry refuses the submission (ownership cannot be checked); bench runners need none', () => {
  const root = scratchRoot();
  const run = makeTestRun();
  writeAt(root, runPath(run), JSON.stringify(run));
  writeAt(
    root,
    'data/hosts.json',
    '{"schemaVersion":1,"kind":"host-registry","hosts":[{"id":"a","owner":"x","ownerId":1},{"id":"A","owner":"y","ownerId":2}]}',
  );
  assertRejected(
    validateSubmission({ root, changed: added(runPath(run)), mode: 'submission', now: NOW }),
    '$',
    /data\/hosts\.json is not a valid host registry: hosts\.1\.id: host id A is listed twice/,
  );
  rmSync(join(root, 'data/hosts.json'));
  assertRejected(validateSubmission({ root, changed: added(runPath(run)), mode: 'submission', now: NOW }), '$', /data\/hosts\.json is missing/);
  const ours = makeTestRun({ hostId: 'obs-x64-1', seed: 5 });
  writeAt(root, runPath(ours), JSON.stringify(ours));
  assert.deepEqual(problems(validateSubmission({ root, changed: added(runPath(ours)), mode: 'runner', now: NOW })), []);
});

test('real values near the floors and ceilings pass: a multi-threaded rate, an instruction count of 0, plain text', () => {
  const run = makeTestRun();
  const threaded = registeredSeriesOf(handshakeKey('X25519', 2), structuredClone(run.series[0]!.iterations));
  threaded.iterations[1]!.value = 1.5e6; // over one core's bound, inside two threads'
  const count = registeredSeriesOf(
    handshakeKey('X25519').replace('handshakes-per-cpu-second', 'instructions-per-handshake'),
    structuredClone(run.series[0]!.iterations),
  );
  count.iterations[1]!.value = 0;
  run.series.push(threaded, count);
  run.host.note = 'Ryzen 9 7950X, Turbo aus, Gehäuse offen: 3 < 4 GHz \t(tab)';
  assert.deepEqual(problems(submit(run)), []);
});

test('duplicate keys are found in the raw text with their path, escaped spellings included', () => {
  assert.deepEqual(duplicateKeys('{"a":1,"b":{"c":[1,{"d":2,"d":3}],"e":"x"},"\\u0061":4}'), [['b', 'c', 1, 'd'], ['a']]);
  assert.deepEqual(duplicateKeys('{"a":"}\\"{","b":[[],{}],"c":{"a":1}}'), []);
  assert.deepEqual(duplicateKeys('[{"x":1},{"x":2}]'), []);
});

test('100,000 nested brackets are refused as too deep, not a stack overflow (issue 30 item 10)', () => {
  // and ten times deeper (JSON.parse itself takes 8,000,000, as deep as the 16 MiB cap allows)
  for (const [open, close, n] of [
    ['[', ']', 100_000],
    ['{"a":', '}', 100_000],
    ['[', ']', 1_000_000],
  ] as const) {
    const r = submit(open.repeat(n) + '1' + close.repeat(n));
    assert.equal(r.ok, false);
    assert.ok(
      problems(r).some((p) => /nested deeper than 16 levels/.test(p.message)),
      problems(r)
        .map((p) => p.message)
        .join('\n'),
    );
  }
});

test("every committed run and hypothesis result passes the checks of meaning (series registered, units the runner's)", () => {
  const root = join(import.meta.dirname, '..');
  // run files are data/runs/<machine>/<YYYY>/<MM>/<runId>.json.br: listed by the one lister of the layout
  const files = [...listRunFiles(join(root, 'data')), ...listRunFiles(join(root, 'data'), 'hypothesis').filter((p) => p.endsWith('.json'))];
  assert.ok(
    files.some((p) => p.startsWith('runs/')),
    'the committed runs are checked',
  );
  for (const p of files) assert.deepEqual(checkRunFile(root, `data/${p}`, 'runner').problems, [], p);
});

test("a run written by the real run loop on this machine's host description passes", async () => {
  const { executeRun } = await import('../runner/run.ts');
  const { harnessInfo } = await import('../runner/run/identity.ts');
  const { standInPlan } = await import('../runner/stand-in-build.ts');
  const root = scratchRoot();
  const record = makeTestRun().builds[0]!;
  // a stand-in for the handshake benchmark (hashing in Node) writing one of its series: the point is the
  // file the run loop writes, not the number
  const bench = {
    id: 'handshake',
    description: 'sha256 of 64 KiB in Node',
    tasks: () => [
      {
        id: 'sha256',
        run: async () => {
          const t = process.hrtime.bigint();
          for (let i = 0; i < 50; i++) createHash('sha256').update(Buffer.alloc(65536)).digest();
          const seconds = Number(process.hrtime.bigint() - t) / 1e9;
          return [{ spec: REGISTERED.get(handshakeKey())!, value: 50 / seconds }];
        },
      },
    ],
  };
  const build = { record, prefix: '/nonexistent' };
  const plan = standInPlan([build], {
    mode: 'full',
    hostName: 'this-machine',
    benchmarks: ['handshake'],
    rounds: 5,
    harness: { ...harnessInfo(), gitCommit: 'f97371a2c1d0e4b5a6978812345678900abcdef1', gitDirty: false },
  });
  const { path } = await executeRun(plan, [build], [bench], join(root, 'data/runs'), { progress: () => {} });
  const r = validateSubmission({ root, changed: added(relative(root, path)), mode: 'submission' });
  assert.deepEqual(problems(r), []);
  assert.equal(r.files[0]?.run?.series[0]?.iterations.length, 6);
});

test('wrong types are rejected at their JSON path', () => {
  const run = makeTestRun() as any;
  run.series[0].iterations[1].value = '1000';
  run.host.logicalCpus = 2.5;
  const r = submit(run);
  assertRejected(r, '$.series[0].iterations[1].value', /number/i);
  assertRejected(r, '$.host.logicalCpus', /int/i);
});

test('"NaN", "Infinity" strings and 1e999 are rejected', () => {
  const run = makeTestRun() as any;
  run.series[0].iterations[1].value = 'NaN';
  run.series[0].iterations[2].value = 'Infinity';
  assertRejected(submit(run), '$.series[0].iterations[1].value', /number/i);
  assertRejected(submit(run), '$.series[0].iterations[2].value', /number/i);
  const text = JSON.stringify(makeTestRun()).replace('"value":1013', '"value":1e999');
  assert.ok(text.includes('1e999'));
  assertRejected(submit(text), '$.series[0].iterations[3].value', /finite|number/i);
});

test('negative rates are rejected', () => {
  const run = makeTestRun();
  run.series[0]!.iterations[2]!.value = -5;
  assertRejected(submit(run), '$.series[0].iterations[2].value', />= 0/);
});

test('absurd values are rejected with the bound and its reason', () => {
  const run = makeTestRun();
  run.series[0]!.iterations[4]!.value = 1e12;
  assertRejected(submit(run), '$.series[0].iterations[4].value', /not plausible.*handshake/);
  // the bound is per core: the CPUs a host claims do not raise it for a single-threaded series
  const oneThread = makeTestRun();
  oneThread.series[0]!.iterations[4]!.value = 1.5e6;
  assertRejected(submit(oneThread), '$.series[0].iterations[4].value', /not plausible \(bound 1\.0e\+6:/);
});

test('oversize files and strings are rejected, with how to split the run', () => {
  const huge = makeTestRun();
  huge.host.note = 'x'.repeat(LIMITS.maxJsonBytes);
  assertRejected(submit(huge), '$', /decompresses to more than 16777216 bytes .*measure fewer versions per run/);
  // stored bytes: a file that does not compress
  const root = scratchRoot();
  const path = runPath(makeTestRun());
  writeAt(root, path.replace(/\.br$/, ''), randomBytes(LIMITS.maxFileBytes + 1));
  renameSync(join(root, path.replace(/\.br$/, '')), join(root, path));
  assertRejected(
    validateSubmission({ root, changed: added(path), mode: 'submission', now: NOW }),
    '$',
    /bytes stored \(limit 0.5 MiB\): a run this large .*measure fewer versions/,
  );
  const long = makeTestRun();
  long.notes = ['y'.repeat(100_000)];
  assertRejected(submit(long), '$.notes[0]', /100000 characters/);
});

test('HTML or script in a host name, a note or any text is rejected', () => {
  const run = makeTestRun();
  run.host.note = 'fast box <img src=x onerror=alert(1)>';
  run.host.cpuModel = '<script>alert(1)</script>';
  run.notes = ['see javascript:alert(1)'];
  const r = submit(run);
  assertRejected(r, '$.host.note', /HTML or a script/);
  assertRejected(r, '$.host.cpuModel', /HTML or a script/);
  assertRejected(r, '$.notes[0]', /HTML or a script/);
  const named = makeTestRun();
  named.host.id = '<b>evil</b>';
  assertRejected(submit(named, { path: 'data/runs/test-host-a/2026/11/20261120T100000Z-full-0001.json.br' }), '$.host.id', /HTML or a script/);
  const spoof = makeTestRun();
  spoof.host.cpuModel = 'Intel\u202e lacoL';
  assertRejected(submit(spoof), '$.host.cpuModel', /text-direction/);
  // plain comparisons in prose are not markup
  const prose = makeTestRun();
  prose.host.note = 'turbo off, so 3 < 4 GHz';
  assert.equal(submit(prose).ok, true);
});

test('path traversal in a run id or a file path is rejected', () => {
  const run = makeTestRun();
  run.runId = '../../../etc/passwd';
  assertRejected(submit(run, { path: 'data/runs/test-host-a/2026/11/passwd.json.br' }), '$.runId', /letters, digits/);
  for (const path of [
    'data/runs/test-host-a/../../summary.json',
    'data/runs/../runs/test-host-a/2026/11/x.json.br',
    'data/runs/a/b/c.json',
    'data/runs/.hidden/2026/11/x.json.br',
    'data/runs/test-host-a/2026/11/x/y.json.br',
    'data/runs/test-host-a/x.json.br',
    'data/runs/test-host-a/20261120T100000Z-full-0001.json',
  ]) {
    const root = scratchRoot();
    const r = validateSubmission({ root, changed: added(path), mode: 'submission', now: NOW });
    assert.equal(r.ok, false, path);
    assert.equal(problems(r)[0]?.path, '$', path);
  }
});

test('runId, host.id and the start month must match the file path', () => {
  const run = makeTestRun();
  const r = submit(run, { path: 'data/runs/other-host/2026/11/another-run.json.br' });
  assertRejected(r, '$.host.id', /does not match the folder data\/runs\/other-host/);
  assertRejected(r, '$.runId', /does not match the file name another-run\.json\.br/);
  const month = submit(run, { path: `data/runs/${run.host.id}/2026/10/${run.runId}.json.br` });
  assertRejected(month, '$.startedAt', /started 2026-11-20T09:59:00Z, which belongs at runs\/test-host-a\.[^/]+\/2026\/11\//);
});

test('a .json.br that is not brotli, is gzip, or is damaged, is refused naming the problem', () => {
  const root = scratchRoot();
  const path = runPath(makeTestRun());
  writeAt(root, path, '');
  writeFileSync(join(root, path), JSON.stringify(makeTestRun()));
  assertRejected(validateSubmission({ root, changed: added(path), mode: 'submission', now: NOW }), '$', /not brotli data, or damaged/);
  writeFileSync(join(root, path), gzipSync(JSON.stringify(makeTestRun())));
  assertRejected(
    validateSubmission({ root, changed: added(path), mode: 'submission', now: NOW }),
    '$',
    /holds gzip data although the name ends in \.br \(name it \.json\.gz\)/,
  );
  writeFileSync(join(root, path), encodeRunFile(makeTestRun()).subarray(0, 100));
  assertRejected(validateSubmission({ root, changed: added(path), mode: 'submission', now: NOW }), '$', /not brotli data, or damaged .*truncated/);
});

test("a machine is its hardware: the same name on another CPU is a new machine for review; an id that is not its own hardware's is refused", () => {
  const theirs = makeTestRun({ seed: 1 });
  // the same name on other hardware: its own machine id, accepted, and a maintainer is told
  const other = makeTestRun({ seed: 2, cpuModel: 'Some Other CPU' });
  assert.notEqual(other.host.id, theirs.host.id);
  const r0 = submit(other, { accepted: [theirs], ...OWNED });
  assert.deepEqual(problems(r0), []);
  assert.equal(r0.files[0]?.newHost, true);
  assert.ok(
    r0.files[0]?.review?.some((l) => l.includes(`new machine "${other.host.id}"`) && l.includes(`already has "${theirs.host.id}"`)),
    JSON.stringify(r0.files[0]?.review),
  );
  // claiming the known machine's id from other hardware (or editing the hardware afterwards) is refused, naming the id to use
  const forged = makeTestRun({ seed: 3, cpuModel: 'Some Other CPU' });
  forged.host.id = theirs.host.id;
  assertRejected(
    submit(forged, { accepted: [theirs], ...OWNED }),
    '$.host.id',
    new RegExp(`is not the machine id of the hardware this run describes .*expected "${other.host.id.replace(/\./g, '\\.')}"`),
  );
  const flagsEdited = makeTestRun({ seed: 4 });
  flagsEdited.host.cpuFlags.vaes = true;
  assertRejected(submit(flagsEdited, { accepted: [theirs], ...OWNED }), '$.host.id', /is not the machine id of the hardware/);
  // a run without a name comes from a runner older than machine ids
  const unnamed = makeTestRun({ seed: 5 });
  delete unnamed.host.name;
  assertRejected(submit(unnamed), '$.host.name', /older than machine ids/);
  // the same machine may add runs
  const sameMachine = makeTestRun({ seed: 6 });
  const r = submit(sameMachine, { accepted: [theirs], ...OWNED });
  assert.deepEqual(problems(r), []);
  assert.equal(r.files[0]?.newHost, false);
  // an id differing only in letter case from a known machine's
  const caseTwin = makeTestRun({ seed: 7 });
  caseTwin.host.id = theirs.host.id.toUpperCase();
  assertRejected(submit(caseTwin, { accepted: [theirs], ...OWNED }), '$.host.id', /letter case/);
});

test('the summary says what a run adds; more than 20 files at once are refused', () => {
  const first = makeTestRun({ seed: 1 });
  const second = makeTestRun({ seed: 2 });
  second.series.push(registeredSeriesOf(handshakeKey('default'), structuredClone(second.series[0]!.iterations)));
  const r = submit(second, { accepted: [first] });
  assert.deepEqual(r.files[0]?.adds, {
    newKeys: 1,
    earlierRunsOfHost: 1,
    summaryBytes: 2 * SUMMARY_ENTRY_BYTES + second.series.reduce((n, s) => n + s.label.length, 0),
  });
  assert.match(formatSummary(r), /adds 1 measured series that no accepted run has; 1 earlier run\(s\) from this host/);
  const root = scratchRoot();
  const many = Array.from({ length: 21 }, (_, i) => makeTestRun({ seed: 100 + i }));
  for (const run of many) writeAt(root, runPath(run), JSON.stringify(run));
  assertRejected(
    validateSubmission({ root, changed: added(...many.map(runPath)), mode: 'submission', now: NOW }),
    '$',
    /at most 20 files per submission: split the pull request/,
  );
});

test('a pull request whose files add up to more than the cap is told how to split it', () => {
  const root = scratchRoot([], OWNED.owners);
  const runs = Array.from({ length: 3 }, (_, i) => makeTestRun({ seed: 200 + i }));
  for (const run of runs) writeAt(root, runPath(run), JSON.stringify(run));
  const cap = LIMITS.maxChangeBytes;
  // the real cap holds 20 full runs; here it is lowered to two of these small files
  LIMITS.maxChangeBytes = 2 * statSync(join(root, runPath(runs[0]!))).size + 10;
  try {
    const r = validateSubmission({ root, changed: added(...runs.map(runPath)), mode: 'submission', now: NOW });
    assert.ok(
      r.files.every((f) => f.problems.length === 0),
      'each file alone is fine',
    );
    assertRejected(
      r,
      '$',
      /bytes in all \(limit .*\): split the pull request: at most 20 run files and 6 MiB per pull request, e\.g\. one per host or per month/,
    );
    assert.equal(validateSubmission({ root, changed: added(...runs.slice(0, 2).map(runPath)), mode: 'submission', now: NOW }).ok, true);
  } finally {
    LIMITS.maxChangeBytes = cap;
  }
});

/** The test run with more series (three groups), so a replay of part of it can be told from a copy. */
function wideRun(opts: Parameters<typeof makeTestRun>[0] = {}): Run {
  const run = makeTestRun(opts);
  const base = run.series[0]!;
  run.series = [handshakeKey('X25519'), handshakeKey('default'), handshakeKey('X25519', 2)].map((key, g) =>
    registeredSeriesOf(
      key,
      base.iterations.map((it) => ({ ...it, value: it.value * (1 + g / 10) })),
    ),
  );
  return run;
}

test('a replay is found by its values, within 0.5%, whatever the order of series, rounds or keys (issue 30 item 2)', () => {
  const first = wideRun({ seed: 1 });
  const replays: [string, (r: Run) => void][] = [
    ['one value changed by 1e-12', (r) => void (r.series[1]!.iterations[3]!.value *= 1 + 1e-12)],
    ['every value times 1.0001', (r) => r.series.forEach((s) => s.iterations.forEach((it) => void (it.value *= 1.0001)))],
    ['values jittered by 0.3% one way or the other', (r) => r.series.forEach((s) => s.iterations.forEach((it, j) => void (it.value *= j % 2 ? 1.003 : 0.997)))],
    ['series in another order', (r) => void r.series.reverse()],
    [
      'rounds in another order',
      (r) =>
        r.series.forEach((s) => {
          const v = s.iterations.map((it) => it.value).reverse();
          s.iterations.forEach((it, j) => void (it.value = v[j]!));
        }),
    ],
    [
      'params written in another key order, another build id',
      (r) => {
        r.builds[0]!.id = 'other-build';
        r.plan.order = [['other-build']];
        r.series.forEach((s) => void ((s.buildId = 'other-build'), (s.params = Object.fromEntries(Object.entries(s.params).reverse()))));
      },
    ],
  ];
  for (const [what, change] of replays) {
    const copy = { ...structuredClone(first), runId: 'replayed-copy' };
    change(copy);
    // under another name too (a new host on the same hardware)
    for (const hostId of ['test-host-a', 'second-box']) {
      const host = { ...copy, host: { ...copy.host, id: copy.host.id.replace('test-host-a', hostId), name: hostId } };
      assertRejected(submit(host, { accepted: [first] }), '$.series', /duplicate: the measurements of .* within 0\.5% of data\/runs\/test-host-a\./);
    }
    assert.ok(what);
  }
  // a genuine second run of the same machine (values about 2% away) is not a replay
  assert.deepEqual(problems(submit(wideRun({ seed: 2 }), { accepted: [first], ...OWNED })), []);
});

test('a new name on hardware an accepted machine of another name has is flagged for review (issue 30 item 2)', () => {
  const theirs = makeTestRun({ seed: 1 });
  const mine = makeTestRun({ seed: 3, hostId: 'second-box' });
  const r = submit(mine, { accepted: [theirs] });
  assert.deepEqual(problems(r), []);
  assert.ok(
    r.files[0]?.review?.some((l) => /same hardware as "test-host-a\.[^"]+" \(another name\)/.test(l)),
    JSON.stringify(r.files[0]?.review),
  );
});

test('caps: series per build, distinct keys per run, and the growth of summary.json a pull request causes (issue 30 item 5)', () => {
  const run = wideRun({ seed: 1 });
  const saved = { ...LIMITS };
  try {
    LIMITS.maxSeriesPerBuild = 2;
    assertRejected(submit(run), '$.series', /3 series of build test-build-35 \(limit 2\): a run this large/);
    Object.assign(LIMITS, saved, { maxKeysPerRun: 2 });
    assertRejected(submit(run), '$.series', /3 distinct series keys \(limit 2\)/);
    // three new summary entries and their labels; a fourth file of the same entries adds nothing
    const entries = 3 * SUMMARY_ENTRY_BYTES + run.series.reduce((n, s) => n + s.label.length, 0);
    Object.assign(LIMITS, saved, { maxSummaryGrowthBytes: entries - 1 });
    assertRejected(submit(run), '$', /would grow data\/summary\.json by about .* MiB \(limit .*\): split the pull request/);
    Object.assign(LIMITS, saved, { maxSummaryGrowthBytes: entries });
    const ok = submit(run);
    assert.deepEqual(problems(ok), []);
    assert.equal(ok.files[0]?.adds?.summaryBytes, entries);
    // entries main's summary already has are not growth
    const build = run.builds[0]!;
    const summary = {
      entries: run.series.slice(1).map((s) => ({ host: run.host.id, library: build.library, version: build.version, variant: build.variant, key: s.key })),
    };
    const smaller = submit(run, { existing: { 'data/summary.json': JSON.stringify(summary) } });
    assert.equal(smaller.files[0]?.adds?.summaryBytes, SUMMARY_ENTRY_BYTES + run.series[0]!.label.length);
  } finally {
    Object.assign(LIMITS, saved);
  }
});

/** Quiet-host evidence for a test run: every check passed (the aggregation uses only quiet runs). */
function quietRun(run: Run): Run {
  const rounds = [...new Set(run.series.flatMap((s) => s.iterations.map((it) => it.round)))];
  run.quiet = makeQuietEvidence(run.startedAt, { rounds, snapshot: { windowSeconds: 1, governor: 'performance' } });
  return run;
}

test('every run the validator accepts aggregates without being skipped: both take units and bounds from the registry (issue 30 item 6)', () => {
  const v34 = resolveVersion('3.4');
  const older = registeredSeries({ library: 'openssl', version: v34.version, series: v34.series, variant: 'default' });
  // one registered series per unit that 3.4 and 3.5 both have, so the aggregation compares 3.5 with 3.4
  const byUnit = new Map<string, string>();
  for (const [key, spec] of REGISTERED) if (older.has(key) && !byUnit.has(spec.unit) && !((spec.params.threads as number) > 1)) byUnit.set(spec.unit, key);
  assert.equal(byUnit.size, Object.keys(BOUNDS).length, 'every unit has a series on both builds');
  const candidates: Run[] = [];
  const runWith = (key: string, newer: number[], old: number[], unit?: Unit) => {
    const run = makeTestRun({ hostId: `corpus-${candidates.length}`, seed: candidates.length + 1 });
    const pin = v34.sources[0]!;
    run.builds.push({
      ...structuredClone(run.builds[0]!),
      id: 'test-build-34',
      version: v34.version,
      series: v34.series,
      versionString: `OpenSSL ${v34.version} (test data)`,
      source: { kind: pin.kind, name: pin.file, sha256: pin.sha256 },
    });
    run.plan.order = [['test-build-35', 'test-build-34']];
    const iterations = (values: number[]) => run.series[0]!.iterations.map((it, j) => ({ ...it, value: values[j % values.length]! }));
    run.series = [registeredSeriesOf(key, iterations(newer)), { ...registeredSeriesOf(key, iterations(old)), buildId: 'test-build-34' }];
    if (unit) for (const s of run.series) s.unit = unit;
    candidates.push(quietRun(run));
  };
  for (const [unit, key] of byUnit) {
    const b = BOUNDS[unit as Unit];
    runWith(key, [b.max], [b.min]);
    runWith(key, [b.min], [b.max]);
    runWith(key, [b.min, b.max], [b.max, b.min]);
    if (b.zero) {
      runWith(key, [0], [b.min]);
      runWith(key, [b.min], [0]);
      runWith(key, [0], [0]);
      runWith(key, [0, b.max], [b.max, 0]);
      runWith(key, [500], [500, 500, 500, 0]);
      runWith(key, [500, 500, 500, 0], [500]);
    }
  }
  // the attack: an s_time series declared a count, with 0 in one round of the build compared with
  runWith(byUnit.get('connections/s')!, [500], [500, 500, 500, 0], 'count');
  const accepted = candidates.filter((run) => submit(run).ok);
  assert.ok(accepted.length >= 3 * byUnit.size, `${accepted.length} of ${candidates.length} accepted`);
  const { result, skipped } = aggregateSkipping(accepted.map((run) => ({ run, path: runPath(run).slice('data/'.length) })));
  assert.deepEqual(skipped, []);
  assert.ok(
    result.summary.entries.some((e) => e.vsPreviousSeries !== null),
    'the aggregation compared builds',
  );
});

test('a duplicate run is rejected: same run id, or identical measurements under a new name', () => {
  const first = makeTestRun({ seed: 1 });
  const sameId = makeTestRun({ seed: 2, hostId: 'test-host-b', runId: first.runId, cpuModel: 'B' });
  assertRejected(submit(sameId, { accepted: [first] }), '$.runId', /duplicate: run id already used by data\/runs\/test-host-a\.[^/]+\//);
  const copy = { ...structuredClone(first), runId: 'renamed-copy' };
  assertRejected(submit(copy, { accepted: [first] }), '$.series', /duplicate: the measurements of/);
  // two new files in one submission are checked against each other too
  const root = scratchRoot();
  const a = makeTestRun({ seed: 5 });
  const b = { ...structuredClone(a), runId: 'copy-of-a' };
  writeAt(root, runPath(a), JSON.stringify(a));
  writeAt(root, runPath(b), JSON.stringify(b));
  assertRejected(
    validateSubmission({ root, changed: added(runPath(a), runPath(b)), mode: 'submission', now: NOW }),
    '$.series',
    /duplicate: the measurements of/,
  );
});

test('any file outside data/runs/, or a change to an accepted run, is rejected', () => {
  const run = makeTestRun();
  const root = scratchRoot([makeTestRun({ seed: 9 })]);
  writeAt(root, runPath(run), JSON.stringify(run));
  const changed: ChangedFile[] = [
    ...added(runPath(run), 'data/summary.json', '.github/workflows/bench.yml', 'checks/validate-submission.ts'),
    { path: runPath(makeTestRun({ seed: 9 })), status: 'modified' },
    { path: 'data/runs/test-host-a/gone.json', status: 'deleted' },
  ];
  const r = validateSubmission({ root, changed, mode: 'submission', now: NOW });
  assert.equal(r.ok, false);
  const byFile = new Map(r.problems.map((p) => [p.file, p.message]));
  for (const f of ['data/summary.json', '.github/workflows/bench.yml', 'checks/validate-submission.ts'])
    assert.match(byFile.get(f) ?? '', /only files under data\/runs\//, f);
  assert.match(byFile.get(runPath(makeTestRun({ seed: 9 }))) ?? '', /^modified: runs already accepted are never changed/);
  assert.match(byFile.get('data/runs/test-host-a/gone.json') ?? '', /^deleted/);
  assert.deepEqual(
    r.files.map((f) => f.problems),
    [[]],
    'the run file itself is fine',
  );
});

test('validation never changes anything under data/', () => {
  const root = scratchRoot([makeTestRun({ seed: 1 })]);
  const bad = makeTestRun({ seed: 2, cpuModel: '<script>x</script>' });
  writeAt(root, runPath(bad), JSON.stringify(bad));
  const snapshot = () => {
    const out: string[] = [];
    const walk = (dir: string): void => {
      for (const name of readdirSync(dir).sort()) {
        const p = join(dir, name);
        if (statSync(p).isDirectory()) walk(p);
        else out.push(`${p} ${statSync(p).mtimeMs} ${createHash('sha256').update(readFileSync(p)).digest('hex')}`);
      }
    };
    walk(root);
    return out;
  };
  const before = snapshot();
  assert.equal(validateSubmission({ root, changed: added(runPath(bad), 'data/summary.json'), mode: 'submission', now: NOW }).ok, false);
  assert.deepEqual(snapshot(), before);
});

test('symbolic links, unknown fields, invalid JSON and prototype keys are rejected', () => {
  const root = scratchRoot();
  const run = makeTestRun();
  writeAt(root, 'elsewhere.json', JSON.stringify(run));
  writeAt(root, `data/runs/${makeTestRun().host.id}/2026/11/.keep`, '');
  symlinkSync(join(root, 'elsewhere.json'), join(root, runPath(run)));
  assertRejected(validateSubmission({ root, changed: added(runPath(run)), mode: 'submission', now: NOW }), '$', /symbolic link/);
  const extra = { ...makeTestRun(), tracking: 'x' };
  assertRejected(submit(extra as Run), '$.tracking', /unknown field/);
  assertRejected(submit(JSON.stringify(makeTestRun()).slice(0, 500)), '$', /not valid UTF-8 JSON/);
  assertRejected(submit(Buffer.from([0x7b, 0xff, 0xfe, 0x7d]).toString('latin1')), '$', /not valid UTF-8 JSON/);
  const proto = JSON.stringify(makeTestRun()).replace('"params":{', '"params":{"__proto__":{"polluted":true},');
  assertRejected(submit(proto), '$.series[0].params.__proto__', /forbidden key/);
  assertRejected(submit('['.repeat(5000) + ']'.repeat(5000)), '$' + '[0]'.repeat(17), /nested deeper/);
});

test('bench runners may also add ML-KEM hypothesis results, checked against their own schema; submissions may not', () => {
  const base = makeTestRun({ hostId: 'obs-x64-1' });
  // TEST DATA: the smallest result the hypothesis schema accepts (no configurations measured)
  const result = {
    schemaVersion: 2,
    kind: 'mlkem-hypothesis',
    runId: 'hyp-1',
    mode: 'quick',
    startedAt: base.startedAt,
    finishedAt: base.finishedAt,
    host: base.host,
    harness: base.harness,
    builds: base.builds,
    conclusion: 'test',
    design: {
      protocol: 'TLS 1.3',
      resumption: 'none',
      handshakesPerBlock: { rsa2048: 200 },
      blockTargetSeconds: 0.04,
      calibration: 'test',
      pinnedCpu: null,
      pinning: 'test',
      warmupRounds: 1,
      equivalenceMargin: 0.05,
      instructionThreshold: 0.005,
      alpha: 0.05,
      stopping: 'test',
      looks: [3],
      alphaPerLook: [0.05],
      budgetSeconds: null,
      ciMethod: 'test',
      order: 'test',
    },
    progress: { rounds: 3, seconds: 1, totalSeconds: 2, stoppedBecause: 'fixed-rounds', looksTaken: [], noiseCv: null },
    configurations: [],
    blocks: [],
    instructionCounts: [],
    claims: [],
    decomposition: [],
    notes: [],
  };
  const path = `data/hypothesis/${base.host.id}/hyp-1.json`;
  const root = scratchRoot();
  writeAt(root, path, JSON.stringify(result));
  const runner = validateSubmission({ root, changed: added(path), mode: 'runner', now: NOW });
  assert.deepEqual(problems(runner), []);
  assert.match(formatSummary(runner), /mlkem-hypothesis result/);
  assertRejected(validateSubmission({ root, changed: added(path), mode: 'submission', now: NOW }), '$', /only files under data\/runs\//);
  writeAt(root, 'data/hypothesis/obs-x64-2/hyp-1.json', JSON.stringify({ ...result, design: { ...result.design, protocol: 'TLS 1.2' } }));
  const bad = validateSubmission({ root, changed: added('data/hypothesis/obs-x64-2/hyp-1.json'), mode: 'runner', now: NOW });
  assertRejected(bad, '$.design.protocol', /TLS 1\.3/);
});

test('timestamps must be plausible and inside the run', () => {
  const run = makeTestRun();
  run.series[0]!.iterations[1]!.at = '2026-11-25T00:00:00Z';
  assertRejected(submit(run), '$.series[0].iterations[1].at', /outside the run/);
  const future = makeTestRun();
  future.finishedAt = '2027-01-01T00:00:00Z';
  assertRejected(submit(future), '$.finishedAt', /future/);
  const old = makeTestRun();
  old.startedAt = '2019-01-01T00:00:00Z';
  assertRejected(submit(old), '$.startedAt', /harness did not exist/);
});

test('submission rules: reserved host ids, full mode, clean harness; the bench runners are exempt', () => {
  const ours = makeTestRun({ hostId: 'obs-x64-1' });
  assertRejected(submit(ours), '$.host.id', /reserved/);
  assert.deepEqual(problems(submit(ours, { mode: 'runner' })), []);
  const quick = makeTestRun();
  quick.mode = 'quick';
  quick.plan.rounds = 2;
  assertRejected(submit(quick), '$.mode', /full runs/);
  assertRejected(submit(quick), '$.plan.rounds', /at least 5/);
  assert.equal(submit(quick, { mode: 'runner' }).ok, true);
  // a reproduction of a write-up (npm run reproduce) stops by its own rule: quick mode and few rounds pass
  const repro = makeTestRun();
  repro.mode = 'quick';
  repro.plan.rounds = 1;
  repro.plan.reproduces = 'known-issue-aead-tiny-records';
  assert.deepEqual(
    problems(submit(repro)).filter((p) => /mode|rounds|reproduces/.test(p.path)),
    [],
  );
  repro.plan.reproduces = 'no-such-write-up';
  assertRejected(submit(repro), '$.plan.reproduces', /does not exist/);
  // the words of a note do not make a run a reproduction
  delete repro.plan.reproduces;
  repro.notes = ['reproduction of write-up known-issue-aead-tiny-records (npm run reproduce -- known-issue-aead-tiny-records): ...'];
  assertRejected(submit(repro), '$.mode', /full runs/);
  const dirty = makeTestRun();
  dirty.harness.gitDirty = true;
  assertRejected(submit(dirty), '$.harness', /clean checkout/);
});

test('the Markdown summary escapes every submitted string', () => {
  const run = makeTestRun();
  run.host.os = 'Linux | [click](javascript:x) `code` <b>';
  // not valid (markup), but the summary still renders what was claimed, escaped
  const r = submit(run, { mode: 'runner' });
  const md = formatSummary({ ...r, files: r.files.map((f) => ({ ...f, run })) });
  assert.match(md, /rejected/);
  assert.ok(!md.includes('<b>') && !md.includes('[click]') && !md.includes('| [') && !md.includes('`code`'), md);
  assert.match(md, /Linux &#124; &#91;click&#93;/);
});

test('git --name-status -z output is read without trusting file names', () => {
  const z = ['A', 'data/runs/h/r.json', 'M', 'data/summary.json', 'R100', 'old name', 'new\nname', 'D', 'x'].join('\0') + '\0';
  assert.deepEqual(parseNameStatus(z), [
    { path: 'data/runs/h/r.json', status: 'added' },
    { path: 'data/summary.json', status: 'modified' },
    { path: 'new\nname', status: 'other' },
    { path: 'x', status: 'deleted' },
  ]);
});

test('CLI: --base finds the changed files with git, exits 1 on a bad run and writes the summary', () => {
  const root = scratchRoot([makeTestRun({ seed: 1 })], [{ id: 'test-host-a', owner: 'alice', ownerId: 1001 }]);
  const git = (...args: string[]) => execFileSync('git', ['-C', root, ...args], { encoding: 'utf8' });
  git('init', '-q', '-b', 'main');
  git('-c', 'user.name=t', '-c', 'user.email=t@t', 'commit', '-q', '--allow-empty', '-m', 'empty');
  git('add', '-A');
  git('-c', 'user.name=t', '-c', 'user.email=t@t', 'commit', '-q', '-m', 'base');
  const good = makeTestRun({ seed: 2 });
  writeAt(root, runPath(good), JSON.stringify(good));
  git('add', '-A');
  git('-c', 'user.name=t', '-c', 'user.email=t@t', 'commit', '-q', '-m', 'good run');
  const cli = (...args: string[]) =>
    spawnSync(process.execPath, [join(import.meta.dirname, 'validate-submission.ts'), '--root', root, ...args], { encoding: 'utf8' });
  const ok = cli('--base', 'HEAD~1', '--summary', join(root, 'summary.md'), '--author', 'alice');
  assert.equal(ok.status, 0, ok.stderr);
  assert.match(readFileSync(join(root, 'summary.md'), 'utf8'), /valid, needs a maintainer's review[\s\S]*test-host-a[\s\S]*versions: 3\.5/);
  assert.match(ok.stdout, /needs review: data\/runs\/test-host-a\.[^/]+\/.*belongs to alice \(account 1001, data\/hosts\.json\).*account id was not given/);
  assert.equal(cli('--base', 'HEAD~1', '--author', 'alice', '--author-id', '1001').status, 0);
  assert.equal(cli('--base', 'HEAD~1', '--author', 'alice', '--author-id', '6666').status, 1, 'another account under the same login');
  assert.equal(cli('--base', 'HEAD~1', '--author', 'alice', '--author-id', 'x1').status, 64, 'an account id that is no number is a usage error');
  assert.equal(cli('--base', 'HEAD~1', '--author-id', '1001').status, 64, 'an account id without its login is a usage error');
  writeAt(root, 'data/summary.json', '{}');
  git('add', '-A');
  git('-c', 'user.name=t', '-c', 'user.email=t@t', 'commit', '-q', '-m', 'sneaky');
  const bad = cli('--base', 'HEAD~2');
  assert.equal(bad.status, 1);
  assert.match(bad.stderr, /data\/summary\.json: \$: only files under data\/runs\//);
  assert.equal(cli().status, 64, 'no files and no --base is a usage error');
  assert.equal(cli('--base', 'HEAD~2', '--author', 'not a login').status, 64, 'an author that is no GitHub login is a usage error');
});

test('CLI: a file name or parameter value with a newline cannot start a workflow command in the log (issue 30 item 8)', () => {
  const root = scratchRoot();
  const spoof = '\n::error ::spoof';
  const run = makeTestRun();
  run.series[0]!.params.cert = `X${spoof}`; // the key no longer matches: the message names the expected key
  const path = runPath(run);
  writeAt(root, path, JSON.stringify(run));
  const badName = `data/runs/x${spoof}/2026/11/r.json.br`;
  const cli = spawnSync(process.execPath, [join(import.meta.dirname, 'validate-submission.ts'), '--root', root, path, badName], {
    encoding: 'utf8',
    env: { ...process.env, GITHUB_ACTIONS: 'true' },
  });
  assert.equal(cli.status, 1);
  assert.match(cli.stderr, /expected "handshake\/handshakes-per-cpu-second\[cert=X%0A::error ::spoof,/);
  assert.match(cli.stderr, /data\/runs\/x%0A::error ::spoof\/2026/);
  const lines = (cli.stdout + cli.stderr).split(/\r?\n|\r/);
  // the only workflow commands are the validator's own review annotations
  assert.deepEqual(
    lines.filter((l) => l.startsWith('::') && !l.startsWith('::warning::needs review: ')),
    [],
    'no line starts a workflow command of the file',
  );
});

test('CLI: --untracked validates what a bench run just wrote, against the runs in --accepted-root', () => {
  const root = scratchRoot();
  execFileSync('git', ['-C', root, 'init', '-q']);
  const cli = (...args: string[]) =>
    spawnSync(process.execPath, [join(import.meta.dirname, 'validate-submission.ts'), '--root', root, ...args], { encoding: 'utf8' });
  assert.match(cli('--untracked', '--runner').stderr, /no changed files/, 'a bench that wrote nothing fails');
  const quick = makeTestRun({ hostId: 'obs-x64-1' });
  quick.mode = 'quick';
  writeAt(root, runPath(quick), JSON.stringify(quick));
  writeAt(root, 'data/runs/obs-x64-1/x.partial.jsonl', 'journal lines are ignored by git and by the validator');
  writeFileSync(join(root, '.gitignore'), '*.partial.jsonl\n');
  const ok = cli('--untracked', '--runner');
  assert.equal(ok.status, 0, ok.stderr);
  assert.match(ok.stdout, /ok: 1 run file/);
  assert.equal(cli('--untracked').status, 1, 'a submission may not use a reserved host id');
  const elsewhere = scratchRoot([{ ...structuredClone(quick), runId: 'same-measurements' }]);
  const dup = cli('--untracked', '--runner', '--accepted-root', elsewhere);
  assert.equal(dup.status, 1);
  assert.match(dup.stderr, /duplicate: the measurements of .* data\/runs\/obs-x64-1\.[^/]+\/2026\/11\/same-measurements\.json\.br/);
});

test('random damage to a valid run never crashes the validator: it answers with problems or accepts', () => {
  let seed = 42;
  const rand = (n: number) => ((seed = (seed * 1103515245 + 12345) % 2147483648), seed % n);
  const junk = [null, '', -1, 1e308, '<script>', [], {}, true, 'x'.repeat(3000), 'NaN', 0.5, '../..'];
  const paths: (string | number)[][] = [];
  const walk = (v: unknown, p: (string | number)[]): void => {
    paths.push(p);
    if (Array.isArray(v)) v.forEach((x, i) => walk(x, [...p, i]));
    else if (v && typeof v === 'object') for (const [k, x] of Object.entries(v)) walk(x, [...p, k]);
  };
  walk(makeTestRun(), []);
  const root = scratchRoot([makeTestRun({ seed: 99 })]);
  const path = runPath(makeTestRun());
  for (let i = 0; i < 300; i++) {
    const run = makeTestRun() as any;
    const p = paths[1 + rand(paths.length - 1)]!;
    let parent = run;
    for (const k of p.slice(0, -1)) parent = parent[k];
    parent[p.at(-1)!] = junk[rand(junk.length)];
    const text = JSON.stringify(run);
    writeAt(root, path, i % 5 === 0 ? text.slice(0, rand(text.length)) : text);
    const r = validateSubmission({ root, changed: added(path), mode: 'submission', now: NOW });
    assert.equal(r.ok, problems(r).length === 0, 'accepted exactly when no problem was found');
    for (const pr of problems(r)) assert.ok(pr.path.startsWith('$') && pr.message.length > 0, JSON.stringify(pr));
  }
});

test("another library's build is checked against its own pin: a catalogued crate passes, other bytes do not", () => {
  const run = makeTestRun();
  const awslc = {
    library: 'aws-lc' as const,
    version: '5.12.0',
    series: '5.12',
    source: { kind: 'crate' as const, name: 'aws-lc-sys-0.47.0.crate', sha256: '8bfbe32ac36b3c428696ce315464181bc4029d689fd58e3f2a4e58c252242f52' },
    // as the cmake recipe records it (checks/provenance.ts holds a build to its recipe)
    versionString: 'AWS-LC 5.12.0',
    configureArgs: ['-DCMAKE_BUILD_TYPE=Release', '-DBUILD_SHARED_LIBS=OFF', '-DBUILD_TESTING=OFF', '-DBUILD_TOOL=OFF', '-DDISABLE_GO=ON', '-DDISABLE_PERL=ON'],
    cflags: '-Wall -O3 -DNDEBUG',
  };
  const withBuild = (b: Partial<Run['builds'][number]>): Run => ({ ...run, builds: [{ ...run.builds[0]!, ...b }, ...run.builds.slice(1)] });
  const buildProblems = (r: Report) => problems(r).filter((p) => JSON.stringify(p).includes('builds'));
  assert.deepEqual(buildProblems(submit(withBuild(awslc), { author: 'alice' })), []);
  assert.match(
    JSON.stringify(buildProblems(submit(withBuild({ ...awslc, source: { ...awslc.source, sha256: 'e'.repeat(64) } }), { author: 'alice' }))),
    /not the catalogue's pin for 5\.12\.0/,
  );
  assert.match(
    JSON.stringify(buildProblems(submit(withBuild({ ...awslc, version: '5.13.0', series: '5.13' }), { author: 'alice' }))),
    /AWS-LC 5\.13\.0 is not in the catalogue/,
  );
});
