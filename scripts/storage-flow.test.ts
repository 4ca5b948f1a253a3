// One run through the whole flow: the run loop writes it straight into the layout, the validator
// accepts it where it lies, the aggregation reads it, and the site's loaders list it.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, relative } from 'node:path';
import { parseRunFilePath, type Build } from '../schema/index.ts';
import { executeRun } from '../runner/run.ts';
import { writeAll } from './aggregate/derived-files.ts';
import { validateSubmission } from '../checks/validate-submission.ts';
import { resolveVersion } from '../catalogue/index.ts';
import { REGISTERED, handshakeKey } from './fixtures/submissions/test-run.ts';
import { standInBuild, standInPlan } from '../runner/stand-in-build.ts';
import { loadRunIndex } from '../site/src/lib/data.ts';

// a build of the catalogue, from the source bytes it pins (the validator checks the meaning)
const CATALOGUED = resolveVersion('3.5');
const PIN = CATALOGUED.sources[0]!;

test('a run written by the runner is in the layout, valid, aggregated and listed by the site', async () => {
  const root = mkdtempSync(join(tmpdir(), 'flow-'));
  const record: Build = { ...standInBuild(CATALOGUED.version, 'b357').record, source: { kind: PIN.kind, name: PIN.file, sha256: PIN.sha256 } };
  // a stand-in for the handshake benchmark writing one of its registered series (the validator takes
  // series from the runner's registry): the point is the file the run loop writes, not the number
  const bench = {
    id: 'handshake',
    description: 'a stand-in',
    tasks: () => [{ id: 'one', run: async () => [{ spec: REGISTERED.get(handshakeKey())!, value: 1000 }] }],
  };
  const build = { record, prefix: '/nonexistent' };
  const plan = standInPlan([build], {
    hostName: 'flow-host',
    benchmarks: ['handshake'],
    harness: { gitCommit: 'abcdef1234567890abcdef1234567890abcdef12', gitDirty: false, node: process.version },
  });
  const { path, run } = await executeRun(plan, [build], [bench], join(root, 'data/runs'), { progress: () => {} });
  const rel = relative(join(root, 'data'), path);
  assert.deepEqual(parseRunFilePath(rel), {
    host: run.host.id,
    year: new Date(run.startedAt).getUTCFullYear(),
    month: new Date(run.startedAt).getUTCMonth() + 1,
    runId: run.runId,
  });
  const report = validateSubmission({ root, changed: [{ path: `data/${rel}`, status: 'added' }], mode: 'runner' });
  assert.deepEqual(
    report.files.flatMap((f) => f.problems),
    [],
  );
  const result = writeAll(join(root, 'data'));
  assert.equal(result.runs, 1);
  assert.equal(result.read, 1);
  const before = process.env.OBSERVATORY_DATA_DIR;
  process.env.OBSERVATORY_DATA_DIR = join(root, 'data');
  try {
    const index = loadRunIndex();
    assert.deepEqual(
      index.map((r) => [r.runId, r.path]),
      [[run.runId, rel]],
    );
  } finally {
    if (before === undefined) delete process.env.OBSERVATORY_DATA_DIR;
    else process.env.OBSERVATORY_DATA_DIR = before;
  }
});
