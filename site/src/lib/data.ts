// Reads the repository's data/ folder at build time. Absent files are "not measured yet" (null);
// present but invalid files fail the build with zod's message naming the JSON path.
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { DetailedIterations, Run, Summary } from '../../../schema/index.ts';
import type { z } from 'zod';

export class SiteDataError extends Error {}

/** Repository root: set by astro.config.ts, else found relative to this file (tests, scripts). */
export function repoRoot(): string {
  return process.env.OBSERVATORY_REPO_ROOT ?? fileURLToPath(new URL('../../../', import.meta.url));
}

/** data/ of the repository, or OBSERVATORY_DATA_DIR (used only by test builds against fixtures). */
export function dataDir(): string {
  const override = process.env.OBSERVATORY_DATA_DIR;
  return override ? resolve(override) : join(repoRoot(), 'data');
}

/** True when the site is built from something other than the repository's data/ (a test fixture). */
export function usingFixtureData(): boolean {
  return Boolean(process.env.OBSERVATORY_DATA_DIR);
}

function readJson(file: string): unknown {
  const text = readFileSync(file, 'utf8');
  try {
    return JSON.parse(text);
  } catch (e) {
    throw new SiteDataError(`${file}: not valid JSON (${(e as Error).message})`);
  }
}

function describe(error: z.ZodError): string {
  const lines = error.issues.slice(0, 10).map((i) => `  ${i.path.length ? i.path.join('.') : '(root)'}: ${i.message}`);
  if (error.issues.length > 10) lines.push(`  ... and ${error.issues.length - 10} more`);
  return lines.join('\n');
}

export function parseWith<T>(schema: z.ZodType<T>, value: unknown, file: string): T {
  const parsed = schema.safeParse(value);
  if (!parsed.success) throw new SiteDataError(`${file} does not match its schema:\n${describe(parsed.error)}`);
  return parsed.data;
}

function loadOptional<T>(schema: z.ZodType<T>, relative: string): T | null {
  const file = join(dataDir(), relative);
  if (!existsSync(file)) return null;
  return parseWith(schema, readJson(file), file);
}

const cache = new Map<string, unknown>();
function cached<T>(name: string, load: () => T): T {
  const key = `${dataDir()}\u0000${name}`;
  if (!cache.has(key)) cache.set(key, load());
  return cache.get(key) as T;
}

export const loadSummary = (): Summary | null => cached('summary', () => loadOptional(Summary, 'summary.json'));
export const loadDetailed = (): DetailedIterations | null =>
  cached('detailed', () => loadOptional(DetailedIterations, 'detailed-iterations.json'));

export interface RunFile {
  host: string;
  runId: string;
  /** path relative to data/ */
  path: string;
  bytes: number;
  run: Run;
}

/** Every data/runs/<host>/<runId>.json, validated. A file whose name disagrees with its content is an error. */
export const loadRuns = (): RunFile[] =>
  cached('runs', () => {
    const root = join(dataDir(), 'runs');
    if (!existsSync(root)) return [];
    const out: RunFile[] = [];
    for (const host of readdirSync(root).sort()) {
      const dir = join(root, host);
      if (!statSync(dir).isDirectory()) continue;
      for (const name of readdirSync(dir).filter((n) => n.endsWith('.json')).sort()) {
        const file = join(dir, name);
        const run = parseWith(Run, readJson(file), file);
        if (run.host.id !== host || `${run.runId}.json` !== name)
          throw new SiteDataError(`${file}: holds run ${run.runId} of host ${run.host.id}; expected runs/<host>/<runId>.json`);
        out.push({ host, runId: run.runId, path: `runs/${host}/${name}`, bytes: statSync(file).size, run });
      }
    }
    return out;
  });

/** JSON Schema exports under data/schema/ (names without .json), if any. */
export function schemaExports(): string[] {
  const dir = join(dataDir(), 'schema');
  if (!existsSync(dir)) return [];
  return readdirSync(dir)
    .filter((n) => n.endsWith('.json'))
    .map((n) => n.slice(0, -'.json'.length))
    .sort();
}

/** Raw text of a file under data/ for the download endpoints (served byte for byte). */
export function rawDataFile(relative: string): string {
  return readFileSync(join(dataDir(), relative), 'utf8');
}

/** JSON files in data/<folder>/ and its sub-folders (hypothesis/<host>/<run>.json, mtu/<host>.json), parsed, not validated. */
export function listResultFiles(folder: string): { path: string; value: unknown }[] {
  const root = join(dataDir(), folder);
  if (!existsSync(root)) return [];
  const out: { path: string; value: unknown }[] = [];
  const walk = (dir: string, rel: string) => {
    for (const name of readdirSync(dir).sort()) {
      const full = join(dir, name);
      if (statSync(full).isDirectory()) walk(full, `${rel}/${name}`);
      else if (name.endsWith('.json')) out.push({ path: `${rel}/${name}`, value: readJson(full) });
    }
  };
  walk(root, folder);
  return out;
}

/** Result files of one folder validated with their schema: an invalid file fails the build naming the JSON path. */
export function loadResults<T>(folder: string, schema: z.ZodType<T>): { path: string; result: T }[] {
  return listResultFiles(folder).map((f) => ({ path: f.path, result: parseWith(schema, f.value, join(dataDir(), f.path)) }));
}
