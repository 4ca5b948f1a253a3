// Where run files live and how they are stored. Every part of the project reads a run file through
// readRunFile() and the runner writes one through writeRunFile(): one layout, one reader, one writer.
//
// Layout (relative to data/):  runs/<host>/<YYYY>/<MM>/<runId>.json.br
//   - <YYYY>/<MM> is the UTC month the run started, so no folder grows without limit (a nightly host adds
//     about 30 files a month to one folder, and 12 folders a year);
//   - the file is the run as compact JSON (no indentation), brotli-compressed with a 16 MiB window: a full
//     run is 6-10 MB of JSON whose series repeat the same keys, labels and parameters for every build,
//     hundreds of KB apart, out of gzip's 32 KB reach; brotli stores it in half of gzip's bytes, and every
//     night's run is history git keeps forever (docs/benchmarks/storage-simulation.md).
//     `brotli -dc file.json.br` (Debian package brotli) reads it.
// The reader also takes plain .json (files people unpack to read) and .json.gz (files written before
// brotli), never in data/runs/.
import { brotliCompressSync, brotliDecompressSync, constants as zlibConstants, gunzipSync } from 'node:zlib';
import fs, { existsSync, lstatSync, mkdirSync, readdirSync, readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { DataFileError, safeId } from './primitives.ts';
import { parseRunFile, type Run } from './run.ts';

export const RUN_FILE_SUFFIX = '.json.br';

/** Where a run belongs, relative to the runs folder: <host>/<YYYY>/<MM>/<runId>.json.br (UTC month of startedAt). */
export function runFileName(run: { runId: string; startedAt: string; host: { id: string } }): string {
  const started = new Date(run.startedAt);
  if (Number.isNaN(started.getTime())) throw new DataFileError(`run ${run.runId}: startedAt ${JSON.stringify(run.startedAt)} is not a date`);
  const year = String(started.getUTCFullYear()).padStart(4, '0');
  const month = String(started.getUTCMonth() + 1).padStart(2, '0');
  return `${run.host.id}/${year}/${month}/${run.runId}${RUN_FILE_SUFFIX}`;
}

/** Where a run belongs relative to data/: runs/<host>/<YYYY>/<MM>/<runId>.json.br. */
export const runFilePath = (run: { runId: string; startedAt: string; host: { id: string } }) => `runs/${runFileName(run)}`;

export interface RunFileLocation {
  host: string;
  year: number;
  month: number;
  runId: string;
}

const LAYOUT = /^runs\/([^/]+)\/(\d{4})\/(\d{2})\/([^/]+)\.json\.br$/;

/** The parts of a path relative to data/ that follows the layout, or null. */
export function parseRunFilePath(path: string): RunFileLocation | null {
  const m = LAYOUT.exec(path);
  if (!m) return null;
  const [, host = '', year = '', month = '', runId = ''] = m;
  if (!safeId.safeParse(host).success || !safeId.safeParse(runId).success) return null;
  const mm = Number(month);
  if (mm < 1 || mm > 12) return null;
  return { host, year: Number(year), month: mm, runId };
}

/** Why a run does not belong at `path` (relative to data/), or null when it does. */
export function misplacedRun(path: string, run: { runId: string; startedAt: string; host: { id: string } }): string | null {
  const expected = runFilePath(run);
  return path === expected ? null : `holds run ${run.runId} of host ${run.host.id} started ${run.startedAt}, which belongs at ${expected}`;
}

export interface ReadLimits {
  /** bytes on disk (compressed for .json.br and .json.gz) */
  maxFileBytes?: number;
  /** bytes of JSON text after decompression: a small file can inflate to gigabytes */
  maxJsonBytes?: number;
}

/** Far above any run (a full run is ~5 MB of JSON); it only keeps a corrupt or hostile file from exhausting memory. */
export const DEFAULT_READ_LIMITS: Required<ReadLimits> = { maxFileBytes: 256 << 20, maxJsonBytes: 512 << 20 };

const GZIP_MAGIC = [0x1f, 0x8b];
const isGzip = (b: Buffer) => b.length >= 2 && b[0] === GZIP_MAGIC[0] && b[1] === GZIP_MAGIC[1];

/** The JSON text of a run file: .json.br or .json.gz decompressed, .json as it is, each checked to be UTF-8. */
export function decodeRunBytes(bytes: Buffer, name: string, limits: ReadLimits = {}): string {
  const { maxFileBytes, maxJsonBytes } = { ...DEFAULT_READ_LIMITS, ...limits };
  if (bytes.length > maxFileBytes) throw new DataFileError(`${name}: file is ${bytes.length} bytes (limit ${maxFileBytes})`);
  const tooLarge = (e: unknown) => (e as NodeJS.ErrnoException).code === 'ERR_BUFFER_TOO_LARGE' || e instanceof RangeError;
  let json: Buffer;
  if (name.endsWith('.br')) {
    try {
      json = brotliDecompressSync(bytes, { maxOutputLength: maxJsonBytes });
    } catch (e) {
      if (tooLarge(e)) throw new DataFileError(`${name}: decompresses to more than ${maxJsonBytes} bytes of JSON (limit ${maxJsonBytes})`);
      // brotli has no magic bytes, so gzip's are only a hint once brotli has failed
      if (isGzip(bytes)) throw new DataFileError(`${name}: holds gzip data although the name ends in .br (name it .json.gz)`);
      throw new DataFileError(`${name}: not brotli data, or damaged (${(e as Error).message}); a truncated file?`);
    }
  } else if (name.endsWith('.gz')) {
    if (!isGzip(bytes)) throw new DataFileError(`${name}: not gzip data although the name ends in .gz (compress it with gzip, or name it .json)`);
    try {
      json = gunzipSync(bytes, { maxOutputLength: maxJsonBytes });
    } catch (e) {
      if (tooLarge(e)) throw new DataFileError(`${name}: decompresses to more than ${maxJsonBytes} bytes of JSON (limit ${maxJsonBytes})`);
      throw new DataFileError(`${name}: damaged gzip data (${(e as Error).message}); a truncated file?`);
    }
  } else {
    if (isGzip(bytes)) throw new DataFileError(`${name}: holds gzip data but its name does not end in .gz`);
    json = bytes;
  }
  if (json.length > maxJsonBytes) throw new DataFileError(`${name}: ${json.length} bytes of JSON (limit ${maxJsonBytes})`);
  try {
    return new TextDecoder('utf-8', { fatal: true }).decode(json);
  } catch {
    throw new DataFileError(`${name}: not valid UTF-8 text`);
  }
}

/** The JSON text of the run file at `file` (.json.br, .json.gz or .json). `name` is how errors refer to it. */
export function readRunText(file: string, name = file, limits: ReadLimits = {}): string {
  let bytes: Buffer;
  try {
    bytes = readFileSync(file);
  } catch (e) {
    const err = e as NodeJS.ErrnoException;
    throw new DataFileError(`${name}: ${err.code === 'ENOENT' ? 'no such file' : err.code === 'EISDIR' ? 'is a folder, not a run file' : err.message}`);
  }
  return decodeRunBytes(bytes, name, limits);
}

/**
 * THE reader of run files: .json.br, .json.gz or .json, decompressed, parsed and validated against the run schema.
 * Every failure is a DataFileError that names the file (and the JSON path for schema errors).
 */
export function readRunFile(file: string, name = file, limits: ReadLimits = {}): Run {
  return parseRunFile(readRunText(file, name, limits), name);
}

/**
 * The order of a run file's series: by key, then build, so one key's series for every build sit side by side
 * (the runner writes them so; the simulation of nights too, to store like real runs).
 */
export const bySeriesKeyThenBuild = (a: { key: string; buildId: string }, b: { key: string; buildId: string }): number =>
  a.key < b.key ? -1 : a.key > b.key ? 1 : a.buildId < b.buildId ? -1 : a.buildId > b.buildId ? 1 : 0;

/** Brotli's best (about 10 s for a 10 MB run, once per run); the simulation of years of nights passes a faster one. */
export const RUN_FILE_QUALITY = 11;

/** A run as stored: compact JSON, brotli with a 16 MiB window (a whole run), deterministic for one brotli version. */
export function encodeRunFile(run: Run, quality = RUN_FILE_QUALITY): Buffer {
  const json = JSON.stringify(run) + '\n';
  return brotliCompressSync(json, {
    params: {
      [zlibConstants.BROTLI_PARAM_MODE]: zlibConstants.BROTLI_MODE_TEXT,
      [zlibConstants.BROTLI_PARAM_QUALITY]: quality,
      [zlibConstants.BROTLI_PARAM_LGWIN]: 24,
      [zlibConstants.BROTLI_PARAM_SIZE_HINT]: Buffer.byteLength(json),
    },
  });
}

/**
 * THE writer: stores `run` at <runsDir>/<host>/<YYYY>/<MM>/<runId>.json.br, atomically (a temporary
 * file renamed into place), and returns the path written. It never replaces a different existing run
 * (compared as JSON: another brotli version may compress the same run to other bytes).
 */
export function writeRunFile(runsDir: string, run: Run): string {
  const path = join(runsDir, runFileName(run));
  if (existsSync(path)) {
    if (readRunText(path) !== JSON.stringify(run) + '\n') throw new DataFileError(`${path} already exists and holds other data: a run id is written once`);
    return path;
  }
  const bytes = encodeRunFile(run);
  mkdirSync(dirname(path), { recursive: true });
  writeFileDurably(path, bytes);
  return path;
}

/**
 * Write a file whole or not at all, and on disk before it is visible under its name: written to
 * `<path>.tmp`, flushed (fsync), renamed into place, and the folder flushed so the rename survives a
 * power loss too. A kill leaves the old file (or none) and at most a `.tmp`, which every reader of
 * data/ ignores. (Through the `fs` object, so a test can watch the order.)
 */
export function writeFileDurably(path: string, data: string | Uint8Array): void {
  const tmp = `${path}.tmp`;
  const fd = fs.openSync(tmp, 'w');
  try {
    fs.writeFileSync(fd, data);
    fs.fsyncSync(fd);
  } finally {
    fs.closeSync(fd);
  }
  fs.renameSync(tmp, path);
  const dir = fs.openSync(dirname(path), 'r');
  try {
    fs.fsyncSync(dir);
  } finally {
    fs.closeSync(dir);
  }
}

/**
 * Every run file under <dataDir>/runs (ending in .json, .json.gz or .json.br, whatever the folder), as paths
 * relative to dataDir with '/' separators, sorted. Journals (.partial.jsonl) and temporary files are
 * not run files. Symbolic links are not followed.
 */
export function listRunFiles(dataDir: string, folder = 'runs'): string[] {
  const out: string[] = [];
  const walk = (rel: string) => {
    for (const name of readdirSync(join(dataDir, rel)).sort()) {
      const child = `${rel}/${name}`;
      const st = lstatSync(join(dataDir, child));
      if (st.isDirectory()) walk(child);
      else if (st.isFile() && (name.endsWith('.json') || name.endsWith('.json.gz') || name.endsWith(RUN_FILE_SUFFIX))) out.push(child);
    }
  };
  if (existsSync(join(dataDir, folder))) walk(folder);
  return out.sort();
}
