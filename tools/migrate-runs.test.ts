import { test } from 'node:test';
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { gunzipSync, gzipSync } from 'node:zlib';
import { machineId, parseRunFilePath, readRunText, writeRunFile } from '../schema/index.ts';
import { assignMachineIds, gitBlobId, migrateRuns, outsideLayout, type Relabelled } from './migrate-runs.ts';

const MANIFEST = 'data/archive/contaminated/migrated-runs.json';
interface Entry {
  from: string;
  bytes: number;
  sha256: string;
  gitBlob: string;
  to: string;
}
const manifest = JSON.parse(readFileSync(MANIFEST, 'utf8')) as Entry[];
// the second move: the gzip files of the layout re-encoded as brotli
const BROTLI_MANIFEST = 'data/migrated-to-brotli.json';
const brotliManifest = JSON.parse(readFileSync(BROTLI_MANIFEST, 'utf8')) as (Entry & { jsonSha256: string })[];
// the third: the files written before machine ids moved to their machine's folder
const MACHINE_MANIFEST = 'data/migrated-to-machine-ids.json';
const machineManifest = JSON.parse(readFileSync(MACHINE_MANIFEST, 'utf8')) as Relabelled[];
const movedTo = new Map(machineManifest.map((m) => [m.from, m]));
/** The JSON text a file held before the machine-id move: host.id put back, host.name removed, key order kept. */
function beforeMachineIds(path: string): string {
  const m = movedTo.get(path);
  if (!m) return readRunText(path);
  const value = JSON.parse(readRunText(m.to));
  value.host.id = value.host.name;
  delete value.host.name;
  return JSON.stringify(value) + '\n';
}

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
    assert.ok(parseRunFilePath(m.to.replace(/^data\/archive\/contaminated\//, '')), `${m.to} follows runs/<host>/<YYYY>/<MM>/<runId>.json.br`);
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

test('the gzip run files became brotli files holding the same JSON, byte for byte', () => {
  assert.equal(brotliManifest.length, 11);
  for (const m of brotliManifest) {
    assert.match(m.from, /\.json\.gz$/);
    assert.equal(m.to, m.from.replace(/\.gz$/, '.br'));
    assert.ok(!existsSync(m.from), `${m.from} is still there`);
    // the JSON text is the same bytes: every value, in the same order and spelling (through the machine-id move)
    assert.equal(createHash('sha256').update(beforeMachineIds(m.to)).digest('hex'), m.jsonSha256, m.to);
  }
  // and the manifest's sums are those of the old files in git history, where the clone has it
  for (const m of brotliManifest) {
    let old: Buffer;
    try {
      old = execFileSync('git', ['cat-file', 'blob', m.gitBlob], { maxBuffer: 64 << 20, stdio: ['ignore', 'pipe', 'ignore'] });
    } catch {
      continue;
    }
    assert.equal(createHash('sha256').update(old).digest('hex'), m.sha256, m.from);
    assert.equal(createHash('sha256').update(gunzipSync(old)).digest('hex'), m.jsonSha256, m.from);
  }
});

test('migrateRuns moves old-layout files into the layout and leaves files already there', () => {
  const dir = mkdtempSync(join(tmpdir(), 'migrate-'));
  const run = JSON.parse(readRunText(manifest.at(-1)!.to));
  mkdirSync(join(dir, 'runs', run.host.id), { recursive: true });
  const old = join(dir, 'runs', run.host.id, `${run.runId}.json`);
  writeFileSync(old, JSON.stringify(run, null, 1) + '\n');
  assert.deepEqual(outsideLayout(dir), [old]);
  const [moved] = migrateRuns(dir, outsideLayout(dir));
  assert.equal(moved!.to, join(dir, 'runs', run.host.id, '2026', '11', `${run.runId}.json.br`));
  assert.ok(!existsSync(old));
  assert.deepEqual(JSON.parse(readRunText(moved!.to)), run);
  assert.deepEqual(outsideLayout(dir), []);
  // a gzip file of the layout before brotli becomes the brotli file beside it
  rmSync(moved!.to);
  const gz = moved!.to.replace(/\.br$/, '.gz');
  writeFileSync(gz, gzipSync(JSON.stringify(run) + '\n'));
  assert.deepEqual(outsideLayout(dir), [gz]);
  const [again] = migrateRuns(dir, outsideLayout(dir));
  assert.equal(again!.to, moved!.to);
  assert.ok(!existsSync(gz));
  assert.equal(readRunText(again!.to), JSON.stringify(run) + '\n');
  writeFileSync(join(dir, 'runs', 'broken.json'), '{"kind":"run"}');
  assert.throws(() => migrateRuns(dir, outsideLayout(dir)), /broken\.json: not a run file/);
});

test('the files written before machine ids moved to their machine: two CPUs under one name became two machines, nothing else changed', () => {
  assert.equal(machineManifest.length, 11);
  const machines = new Set<string>();
  for (const m of machineManifest) {
    assert.ok(!existsSync(m.from), `${m.from} is still there`);
    const text = m.to.endsWith('.json.br') ? readRunText(m.to) : readFileSync(m.to, 'utf8');
    const value = JSON.parse(text);
    assert.equal(value.host.name, m.host.from);
    assert.equal(value.host.id, machineId(value.host.name, value.host), `${m.to}: the id is the machine id of its own hardware`);
    assert.equal(m.host.to, value.host.id);
    value.host.id = value.host.name;
    delete value.host.name;
    const old = m.to.endsWith('.json.br') ? JSON.stringify(value) + '\n' : JSON.stringify(value, null, 1) + '\n';
    assert.equal(createHash('sha256').update(old).digest('hex'), m.jsonSha256, `${m.to}: only host.id and host.name changed`);
    machines.add(m.host.to);
  }
  // the VAES EPYC (22-23 Nov) and the EPYC without VAES (26 Nov)
  assert.equal(machines.size, 2);
});

test('assignMachineIds gives a pre-machine-id run its machine folder and leaves runs that have one', () => {
  const dir = mkdtempSync(join(tmpdir(), 'machine-ids-'));
  const run = JSON.parse(beforeMachineIds(machineManifest[0]!.from));
  assert.equal(run.host.name, undefined);
  const old = writeRunFile(join(dir, 'runs'), run);
  const [moved] = assignMachineIds(dir);
  assert.equal(moved!.from, old);
  assert.ok(!existsSync(old));
  const now = JSON.parse(readRunText(moved!.to));
  assert.equal(now.host.id, machineId(run.host.id, run.host));
  assert.deepEqual(assignMachineIds(dir), [], 'a second pass changes nothing');
});
