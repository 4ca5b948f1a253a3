// Deterministic results (instruction counts, call counts: tasks marked oncePerRun) do not depend on the
// machine's load, so the run loop measures them in a phase of their own, several at once, and keeps them
// in a reuse cache: <cache>/deterministic/<machine id>/<key>.json, in the build cache beside the journals.
//
// The key (all of it must match for a later run to reuse a value instead of measuring):
//   - the machine id (the folder): the same binary on other hardware takes other code paths;
//   - the build's binary identity: the sha256 of every installed file as build.json recorded it at build
//     time (build/cache.ts binarySha256), so a rebuilt or different binary is measured again;
//   - the benchmark, the task id and the run mode (quick and full run the same task differently);
//   - the harness revision (catalogue/harness-steps.ts);
//   - the benchmark's own sources (benchmarkSourcesSha256 below): the module it names in
//     Benchmark.source, every file of runner/ that module imports, transitively, every other file in the
//     folders of those (the C programs and headers the module compiles) and runner/c-common/, the C
//     library every program is compiled with. Tests (*.test.ts), fixtures/ and *.md do not count: they do not
//     change what is measured. schema/ and catalogue/ do not count either: a change of the library
//     measured changes the binary, a change of the file format does not change a count.
// Not in the key: the C compiler that builds the benchmark program (the build id covers the library's
// compiler, which is the same one) and valgrind's and the C library's versions; a change of either is a
// harness step to declare (a new revision), which invalidates every entry.
import { createHash } from 'node:crypto';
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { RunMode } from '../schema/index.ts';
import type { Outcome } from './benchmark.ts';
import { keyedRecords } from './keyed-records.ts';

export interface ReuseKey {
  machine: string;
  binarySha256: string;
  benchmark: string;
  task: string;
  mode: RunMode;
  harnessRevision: number;
  sourcesSha256: string;
}

export interface StoredOutcomes {
  key: ReuseKey;
  /** sha256 of the key, the file's name */
  keySha256: string;
  runId: string;
  measuredAt: string;
  outcomes: Outcome[];
}

const sha256 = (text: string | Buffer) => createHash('sha256').update(text).digest('hex');

const records = keyedRecords<ReuseKey, Omit<StoredOutcomes, 'key' | 'keySha256'>>(
  'deterministic',
  (k) => [k.machine, k.binarySha256, k.benchmark, k.task, k.mode, k.harnessRevision, k.sourcesSha256],
  (r) => Array.isArray(r.outcomes),
);

/** The key's hash (runner/keyed-records.ts), the file's name and what a reusing series cites. */
export const keySha256 = (k: ReuseKey): string => records.keySha256(k);

export const reuseDir = (machine: string): string => records.dir(machine);

/** The outcomes a run stored under this key, or undefined (none, unreadable, or stored under another key). */
export const findStored = (k: ReuseKey): StoredOutcomes | undefined => records.find(k) as StoredOutcomes | undefined;

/** Keep a task's outcomes for later runs: only a clean result (no series failed; unsupported is a result). */
export function store(k: ReuseKey, runId: string, measuredAt: string, outcomes: Outcome[]): boolean {
  if (!outcomes.length || outcomes.some((o) => 'status' in o && o.status === 'failed')) return false;
  records.write(k, { runId, measuredAt, outcomes });
  return true;
}

const RUNNER = dirname(fileURLToPath(import.meta.url));
const pathOf = (entry: string) => (entry.startsWith('file:') ? fileURLToPath(entry) : resolve(entry));
/** runner/, or for a module elsewhere (a test's), the parent of its folder */
const rootOf = (entry: string) => (relative(RUNNER, pathOf(entry)).startsWith('..') ? dirname(dirname(pathOf(entry))) : RUNNER);
const counts = (rel: string) => !/(^|\/)fixtures\//.test(rel) && !rel.endsWith('.test.ts') && !rel.endsWith('.md');
const filesUnder = (dir: string): string[] =>
  (readdirSync(dir, { recursive: true }) as string[]).map((r) => join(dir, r)).filter((p) => statSync(p).isFile() && counts(relative(dir, p)));

/**
 * The files that define what a benchmark measures (the top of this file lists them), for the module at
 * `entry` (a file URL or path), under `root` (runner/ for the benchmarks there).
 */
export function benchmarkSources(entry: string, root = rootOf(entry)): string[] {
  const start = pathOf(entry);
  const inside = (p: string) => !relative(root, p).startsWith('..');
  const files = new Set<string>();
  const folders = new Set<string>();
  const queue = [start];
  while (queue.length) {
    const file = queue.pop()!;
    if (files.has(file) || !existsSync(file) || !inside(file)) continue;
    files.add(file);
    if (dirname(file) !== root) folders.add(dirname(file));
    if (!file.endsWith('.ts')) continue;
    for (const m of readFileSync(file, 'utf8').matchAll(/(?:from\s+|import\()\s*'(\.{1,2}\/[^']+)'/g)) queue.push(resolve(dirname(file), m[1]!));
  }
  const common = join(root, 'c-common');
  if (existsSync(common)) folders.add(common);
  for (const dir of folders) for (const f of filesUnder(dir)) files.add(f);
  return [...files].filter((f) => counts(relative(root, f))).sort();
}

/** One hash over those files: each one's path relative to `root` and its sha256. */
export function benchmarkSourcesSha256(entry: string, root = rootOf(entry)): string {
  return sha256(
    benchmarkSources(entry, root)
      .map((f) => `${relative(root, f)} ${sha256(readFileSync(f))}\n`)
      .join(''),
  );
}

/** Run `work` on every item, at most `jobs` at a time; resolves when all have finished. */
export async function inParallel<T>(items: readonly T[], jobs: number, work: (item: T) => Promise<void>): Promise<void> {
  let next = 0;
  const worker = async () => {
    while (next < items.length) await work(items[next++]!);
  };
  await Promise.all(Array.from({ length: Math.max(1, Math.min(jobs, items.length)) }, worker));
}
