// Moves run files that are not in the storage layout into it (runs/<host>/<YYYY>/<MM>/<runId>.json.br,
// compact JSON, brotli): files of the first layout (data/runs/<host>/<runId>.json, indented JSON) and
// gzip files of the layout before brotli (.json.gz), losing nothing: each new file is read back and
// compared value by value with the old one before the old one is removed.
//
//   node tools/migrate-runs.ts [--to DIR] [--manifest FILE] [FILE...]
//     --to DIR         the folder whose runs/ receives the files (default: data)
//     FILE...          old run files to move (default: every run file under DIR/runs/ outside the layout)
//     --manifest FILE  record each move: old path, size, sha256 and git blob id of the old bytes, new path
//                      (tools/migrate-runs.test.ts proves from it that nothing changed)
//   node tools/migrate-runs.ts --machine-ids [--to DIR] [--manifest FILE]
//                    gives the run, hypothesis and MTU files written before machine ids their machine id
//                    (schema/machine.ts): host.name keeps the old id, host.id becomes <name>.<cpu>-<hash>,
//                    and the file moves to that machine's folder; nothing else changes
import { createHash } from 'node:crypto';
import { existsSync, mkdirSync, readdirSync, readFileSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { deepStrictEqual } from 'node:assert/strict';
import { join, relative } from 'node:path';
import { commandLine, openingComment } from '../runner/cli.ts';
import { DataFileError, listRunFiles, machineId, parseRunFilePath, readRunText, writeRunFile, type Host, type Run } from '../schema/index.ts';

export interface Moved {
  /** the old file, relative to the working directory */
  from: string;
  bytes: number;
  sha256: string;
  /** what `git hash-object` says of the old bytes: the blob git history keeps */
  gitBlob: string;
  /** sha256 of the old file's JSON text (decompressed): the new file decompresses to these bytes when the old was compact */
  jsonSha256: string;
  /** the new file, relative to the working directory */
  to: string;
}

export const gitBlobId = (bytes: Buffer) => createHash('sha1').update(`blob ${bytes.length}\0`).update(bytes).digest('hex');

/**
 * Moves `files` into <to>/runs/ in the layout. The JSON is kept as it is (not re-validated into the
 * current schema: these are records), so the new file decodes to exactly the old value.
 */
export function migrateRuns(to: string, files: readonly string[]): Moved[] {
  const moved: Moved[] = [];
  for (const file of files) {
    const bytes = readFileSync(file);
    const text = readRunText(file);
    const raw = JSON.parse(text) as Run;
    if (typeof raw?.runId !== 'string' || typeof raw.startedAt !== 'string' || typeof raw.host?.id !== 'string')
      throw new DataFileError(`${file}: not a run file (no runId, startedAt or host.id)`);
    const written = writeRunFile(join(to, 'runs'), raw);
    deepStrictEqual(JSON.parse(readRunText(written)), raw, `${written} does not hold what ${file} held`);
    moved.push({
      from: file,
      bytes: bytes.length,
      sha256: createHash('sha256').update(bytes).digest('hex'),
      gitBlob: gitBlobId(bytes),
      jsonSha256: createHash('sha256').update(text).digest('hex'),
      to: written,
    });
    if (written !== file) rmSync(file);
  }
  return moved;
}

export interface Relabelled {
  from: string;
  /** sha256 of the old file's JSON text: the new file's JSON with host.id put back and host.name removed has it */
  jsonSha256: string;
  to: string;
  host: { from: string; to: string };
}

/** The host record with its machine id: the old id becomes its name, in the id's place in key order. */
export function withMachineId(host: Host): Host {
  return { ...host, id: machineId(host.id, host), name: host.id };
}

/**
 * Gives every run, hypothesis and MTU file under `to` whose host has no name yet (written before machine
 * ids) its machine id, and moves it to that machine's folder. Each file is read back and checked to
 * differ from the old one in host.id and host.name only.
 */
export function assignMachineIds(to: string): Relabelled[] {
  const out: Relabelled[] = [];
  const sha = (t: string) => createHash('sha256').update(t).digest('hex');
  const check = (text: string, newText: string, file: string) => {
    const back = JSON.parse(newText);
    const oldId = back.host.name;
    back.host.id = oldId;
    delete back.host.name;
    deepStrictEqual(back, JSON.parse(text), `${file}: more than the host id changed`);
  };
  for (const rel of listRunFiles(to)) {
    const file = join(to, rel);
    const text = readRunText(file);
    const raw = JSON.parse(text) as Run;
    if (raw.host.name !== undefined) continue;
    const next = { ...raw, host: withMachineId(raw.host) };
    const written = writeRunFile(join(to, 'runs'), next);
    check(text, readRunText(written), written);
    out.push({ from: file, jsonSha256: sha(text), to: written, host: { from: raw.host.id, to: next.host.id } });
    if (written !== file) rmSync(file);
  }
  // hypothesis/<host>/<runId>.json and mtu/<host>.json: indented JSON, as their writers write it
  const jsonFiles: { file: string; place: (id: string) => string }[] = [];
  const hyp = join(to, 'hypothesis');
  if (existsSync(hyp))
    for (const h of readdirSync(hyp))
      for (const f of readdirSync(join(hyp, h))) if (f.endsWith('.json')) jsonFiles.push({ file: join(hyp, h, f), place: (id) => join(hyp, id, f) });
  const mtu = join(to, 'mtu');
  if (existsSync(mtu))
    for (const f of readdirSync(mtu)) if (f.endsWith('.json')) jsonFiles.push({ file: join(mtu, f), place: (id) => join(mtu, `${id}.json`) });
  for (const { file, place } of jsonFiles) {
    const text = readFileSync(file, 'utf8');
    const raw = JSON.parse(text) as { host: Host };
    if (raw.host.name !== undefined) continue;
    const next = { ...raw, host: withMachineId(raw.host) };
    const target = place(next.host.id);
    const newText = JSON.stringify(next, null, 1) + '\n';
    check(text, newText, target);
    mkdirSync(join(target, '..'), { recursive: true });
    writeFileSync(`${target}.tmp`, newText);
    renameSync(`${target}.tmp`, target);
    if (target !== file) rmSync(file);
    out.push({ from: file, jsonSha256: sha(text), to: target, host: { from: raw.host.id, to: next.host.id } });
  }
  for (const dir of [hyp, join(to, 'runs')]) if (existsSync(dir)) removeEmptyDirs(dir);
  return out;
}

function removeEmptyDirs(dir: string): boolean {
  let empty = true;
  for (const e of readdirSync(dir, { withFileTypes: true })) {
    if (e.isDirectory() && removeEmptyDirs(join(dir, e.name))) rmSync(join(dir, e.name), { recursive: true });
    else empty = false;
  }
  return empty;
}

/** Run files under <to>/runs/ that are not where the layout puts them. */
export const outsideLayout = (to: string) =>
  listRunFiles(to)
    .filter((p) => !parseRunFilePath(p))
    .map((p) => join(to, p));

if (import.meta.main) {
  const { values, positionals } = commandLine('migrate-runs', openingComment(import.meta.url), {
    to: { type: 'string', default: 'data' },
    manifest: { type: 'string' },
    'machine-ids': { type: 'boolean' },
  });
  if (values['machine-ids']) {
    const relabelled = assignMachineIds(values.to).map((m) => ({ ...m, from: relative('.', m.from), to: relative('.', m.to) }));
    for (const m of relabelled) console.log(`${m.from} -> ${m.to}`);
    if (values.manifest) writeFileSync(values.manifest, JSON.stringify(relabelled, null, 1) + '\n');
    console.log(`${relabelled.length} file(s) given their machine id; run npm run aggregate -- --rebuild next`);
    process.exit(0);
  }
  const files = positionals.length ? positionals : outsideLayout(values.to);
  const moved = migrateRuns(values.to, files);
  for (const m of moved) console.log(`${m.from} -> ${m.to}`);
  if (values.manifest)
    writeFileSync(
      values.manifest,
      JSON.stringify(
        moved.map((m) => ({ ...m, to: relative('.', m.to) })),
        null,
        1,
      ) + '\n',
    );
  console.log(`${moved.length} run file(s) moved into ${join(values.to, 'runs')}/<host>/<YYYY>/<MM>/; run npm run aggregate next`);
}
