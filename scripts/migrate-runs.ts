// Moves run files that are not in the storage layout into it (runs/<host>/<YYYY>/<MM>/<runId>.json.br,
// compact JSON, brotli): files of the first layout (data/runs/<host>/<runId>.json, indented JSON) and
// gzip files of the layout before brotli (.json.gz), losing nothing: each new file is read back and
// compared value by value with the old one before the old one is removed.
//
//   node scripts/migrate-runs.ts [--to DIR] [--manifest FILE] [FILE...]
//     --to DIR         the folder whose runs/ receives the files (default: data)
//     FILE...          old run files to move (default: every run file under DIR/runs/ outside the layout)
//     --manifest FILE  record each move: old path, size, sha256 and git blob id of the old bytes, new path
//                      (scripts/migrate-runs.test.ts proves from it that nothing changed)
import { createHash } from 'node:crypto';
import { readFileSync, rmSync, writeFileSync } from 'node:fs';
import { deepStrictEqual } from 'node:assert/strict';
import { join, relative } from 'node:path';
import { parseArgs } from 'node:util';
import { DataFileError, listRunFiles, parseRunFilePath, readRunText, writeRunFile, type Run } from '../schema/index.ts';

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
    moved.push({ from: file, bytes: bytes.length, sha256: createHash('sha256').update(bytes).digest('hex'), gitBlob: gitBlobId(bytes), jsonSha256: createHash('sha256').update(text).digest('hex'), to: written });
    if (written !== file) rmSync(file);
  }
  return moved;
}

/** Run files under <to>/runs/ that are not where the layout puts them. */
export const outsideLayout = (to: string) => listRunFiles(to).filter((p) => !parseRunFilePath(p)).map((p) => join(to, p));

if (import.meta.main) {
  const { values, positionals } = parseArgs({ allowPositionals: true, options: { to: { type: 'string', default: 'data' }, manifest: { type: 'string' }, help: { type: 'boolean', short: 'h' } } });
  if (values.help) {
    console.log(readFileSync(new URL(import.meta.url), 'utf8').split('\n').slice(0, 9).join('\n').replace(/^\/\/ ?/gm, ''));
    process.exit(0);
  }
  const files = positionals.length ? positionals : outsideLayout(values.to);
  const moved = migrateRuns(values.to, files);
  for (const m of moved) console.log(`${m.from} -> ${m.to}`);
  if (values.manifest) writeFileSync(values.manifest, JSON.stringify(moved.map((m) => ({ ...m, to: relative('.', m.to) })), null, 1) + '\n');
  console.log(`${moved.length} run file(s) moved into ${join(values.to, 'runs')}/<host>/<YYYY>/<MM>/; run npm run aggregate next`);
}
