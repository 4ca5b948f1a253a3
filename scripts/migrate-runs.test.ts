import { test } from 'node:test';
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parseRunFilePath, readRunText } from '../schema/index.ts';
import { gitBlobId, migrateRuns, outsideLayout } from './migrate-runs.ts';

const MANIFEST = 'data/archive/contaminated/migrated-runs.json';
interface Entry {
  from: string;
  bytes: number;
  sha256: string;
  gitBlob: string;
  to: string;
}
const manifest = JSON.parse(readFileSync(MANIFEST, 'utf8')) as Entry[];

/** Every leaf of a JSON value with its path: what "every value" means below. */
function leaves(v: unknown, path = '$', out = new Map<string, unknown>()): Map<string, unknown> {
  if (Array.isArray(v)) v.forEach((x, i) => leaves(x, `${path}[${i}]`, out));
  else if (v !== null && typeof v === 'object') for (const [k, x] of Object.entries(v)) leaves(x, `${path}.${k}`, out);
  else out.set(path, v);
  return out;
}

test('the archived runs moved into the layout, and the old copies are gone', () => {
  assert.equal(manifest.length, 8);
  for (const m of manifest) {
    assert.ok(existsSync(m.to), m.to);
    assert.ok(parseRunFilePath(m.to.replace(/^data\/archive\/contaminated\//, '')), `${m.to} follows runs/<host>/<YYYY>/<MM>/<runId>.json.gz`);
    assert.ok(!existsSync(m.from), `${m.from} is still there`);
  }
});

test('each migrated file holds exactly what the old file held: re-written as the runner wrote it, it has the old sha256', () => {
  for (const m of manifest) {
    const value = JSON.parse(readRunText(m.to));
    // the old files were JSON.stringify(run, null, 1) + "\n": the same bytes back means the same values, every one
    const old = Buffer.from(JSON.stringify(value, null, 1) + '\n');
    assert.equal(old.length, m.bytes, m.to);
    assert.equal(createHash('sha256').update(old).digest('hex'), m.sha256, m.to);
    assert.equal(gitBlobId(old), m.gitBlob, m.to);
  }
});

test('every value of the old files (from git history) equals the value at the same path in the new files', (t) => {
  const blob = (id: string) => {
    try {
      return execFileSync('git', ['cat-file', 'blob', id], { maxBuffer: 64 << 20, stdio: ['ignore', 'pipe', 'ignore'] });
    } catch {
      return null;
    }
  };
  const olds = manifest.map((m) => blob(m.gitBlob));
  if (olds.some((b) => b === null)) return t.skip('the old blobs are not in this clone (shallow): the sha256 test above proves the same from the manifest');
  let compared = 0;
  manifest.forEach((m, i) => {
    const before = leaves(JSON.parse(olds[i]!.toString('utf8')));
    const after = leaves(JSON.parse(readRunText(m.to)));
    assert.deepEqual([...after.keys()], [...before.keys()], `${m.to}: same paths in the same order`);
    for (const [path, v] of before) assert.ok(Object.is(after.get(path), v), `${m.to} ${path}: ${String(after.get(path))} != ${String(v)}`);
    compared += before.size;
  });
  assert.ok(compared > 100_000, `compared ${compared} values`);
});

test('migrateRuns moves old-layout files into the layout and leaves files already there', () => {
  const dir = mkdtempSync(join(tmpdir(), 'migrate-'));
  const run = JSON.parse(readRunText(manifest.at(-1)!.to));
  mkdirSync(join(dir, 'runs', run.host.id), { recursive: true });
  const old = join(dir, 'runs', run.host.id, `${run.runId}.json`);
  writeFileSync(old, JSON.stringify(run, null, 1) + '\n');
  assert.deepEqual(outsideLayout(dir), [old]);
  const [moved] = migrateRuns(dir, outsideLayout(dir));
  assert.equal(moved!.to, join(dir, 'runs', run.host.id, '2026', '11', `${run.runId}.json.gz`));
  assert.ok(!existsSync(old));
  assert.deepEqual(JSON.parse(readRunText(moved!.to)), run);
  assert.deepEqual(outsideLayout(dir), []);
  writeFileSync(join(dir, 'runs', 'broken.json'), '{"kind":"run"}');
  assert.throws(() => migrateRuns(dir, outsideLayout(dir)), /broken\.json: not a run file/);
});
