// Reads the repository's data/ folder at build time. Absent files are "not measured yet" (null);
// present but invalid files fail the build with zod's message naming the JSON path.
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import {
  DataFileError,
  DetailedIterations,
  describeIssues,
  HypothesisResult,
  Summary,
  Timeseries,
  misplacedRun,
  readRunFile,
  type Host,
  type Run,
} from '../../../schema/index.ts';
import type { z } from 'zod';
import { driftShards } from './drift/shards.ts';
import { machineLabel } from './machines.ts';
import { projectFirst } from './hosts.ts';
import { pickPublished } from './hypothesis.ts';
import { journeyPayload } from './model.ts';
import { recommendations, type Recommendations } from './recommendations/advice.ts';

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

/** A data file's JSON; a file that does not parse fails the build naming it. */
export function readJson(file: string): unknown {
  const text = readFileSync(file, 'utf8');
  try {
    return JSON.parse(text);
  } catch (e) {
    throw new SiteDataError(`${file}: not valid JSON (${(e as Error).message})`);
  }
}

export function parseWith<T>(schema: z.ZodType<T>, value: unknown, file: string): T {
  const parsed = schema.safeParse(value);
  if (!parsed.success) throw new SiteDataError(`${file} does not match its schema:\n${describeIssues(parsed.error, 10)}`);
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
/**
 * The summary restricted to OpenSSL builds: what every page about OpenSSL's release series reads (journey,
 * versions, compare, known issues). Other libraries' entries are on /libraries and in the raw downloads.
 */
export function openSSLOnly(summary: Summary): Summary {
  return { ...summary, entries: summary.entries.filter((e) => e.library === 'openssl'), builds: summary.builds.filter((b) => b.library === 'openssl') };
}
export const loadOpenSSLSummary = (): Summary | null =>
  cached('openssl-summary', () => {
    const summary = loadSummary();
    return summary && openSSLOnly(summary);
  });
export const loadDetailed = (): DetailedIterations | null => cached('detailed', () => loadOptional(DetailedIterations, 'detailed-iterations.json'));

export interface RunFile {
  host: string;
  runId: string;
  /** path relative to data/: runs/<host>/<YYYY>/<MM>/<runId>.json.br */
  path: string;
  /** bytes stored */
  bytes: number;
  run: Run;
}

/**
 * The run files behind the current summary (summary.runs), read and validated through the one reader
 * (schema/storage.ts). Bounded by hosts, not by nights: the history of every run is in loadRunIndex().
 */
export const loadRuns = (): RunFile[] =>
  cached('runs', () => {
    const summary = loadSummary();
    if (!summary) return [];
    return summary.runs.map(({ path }) => {
      const file = join(dataDir(), path);
      let run: Run;
      try {
        run = readRunFile(file);
      } catch (e) {
        throw new SiteDataError(e instanceof DataFileError ? e.message : String(e));
      }
      const misplaced = misplacedRun(path, run);
      if (misplaced) throw new SiteDataError(`${file}: ${misplaced}`);
      return { host: run.host.id, runId: run.runId, path, bytes: statSync(file).size, run };
    });
  });

/** What write-up claims are tested on: the summary, its rounds, and the runs behind it (claims/compare.ts ClaimData). */
export const loadClaimData = () =>
  cached('claim-data', () => {
    const summary = loadSummary();
    return { summary, detailed: summary ? loadDetailed() : null, runs: loadRuns().map((r) => r.run) };
  });

/** data/timeseries/<host>/<YYYY>.json, validated, by host then year. */
export const loadTimeseries = (): Timeseries[] =>
  cached('timeseries', () => {
    const root = join(dataDir(), 'timeseries');
    if (!existsSync(root)) return [];
    const out: Timeseries[] = [];
    for (const host of readdirSync(root).sort()) {
      if (!statSync(join(root, host)).isDirectory()) continue;
      for (const name of readdirSync(join(root, host))
        .filter((n) => /^\d{4}\.json$/.test(n))
        .sort()) {
        const file = join(root, host, name);
        const t = parseWith(Timeseries, readJson(file), file);
        if (t.host !== host || `${t.year}.json` !== name)
          throw new SiteDataError(`${file}: holds host ${t.host}, year ${t.year}; expected timeseries/<host>/<YYYY>.json`);
        out.push(t);
      }
    }
    return out;
  });

export interface RunIndexEntry {
  host: string;
  runId: string;
  mode: Run['mode'];
  startedAt: string;
  finishedAt: string;
  builds: number;
  series: number;
  benchmarks: string[];
  quiet: boolean;
  quietReasons: string[];
  /** measured rounds the host disturbed, dropped and measured again */
  repeatedRounds: number;
  /** path relative to data/ */
  path: string;
  bytes: number;
  inSummary: boolean;
}

/** Every run of every host from the time series (no run file is opened), newest first. */
export const loadRunIndex = (): RunIndexEntry[] =>
  cached('run-index', () => {
    const inSummary = new Set(loadSummary()?.runs.map((r) => r.runId) ?? []);
    return loadTimeseries()
      .flatMap((t) =>
        t.runs.map((r) => ({
          host: t.host,
          runId: r.runId,
          mode: r.mode,
          startedAt: r.startedAt,
          finishedAt: r.finishedAt,
          builds: r.builds.length,
          series: r.series,
          benchmarks: r.benchmarks,
          quiet: r.quiet,
          quietReasons: r.quietReasons,
          repeatedRounds: r.repeatedRounds ?? 0,
          path: r.path,
          bytes: r.bytes,
          inSummary: inSummary.has(r.runId),
        })),
      )
      .sort((a, b) => (a.startedAt > b.startedAt ? -1 : a.startedAt < b.startedAt ? 1 : a.runId < b.runId ? -1 : 1));
  });

/** How many of each host's newest runs /runs lists; the others are on a page per host and year. */
export const RECENT_RUNS_PER_HOST = 30;

/** The runs /runs lists: each host's newest RECENT_RUNS_PER_HOST, and every run that feeds the tables. Newest first. */
export function recentRuns(): RunIndexEntry[] {
  const seen = new Map<string, number>();
  return loadRunIndex().filter((r) => {
    const n = (seen.get(r.host) ?? 0) + 1;
    seen.set(r.host, n);
    return n <= RECENT_RUNS_PER_HOST || r.inSummary;
  });
}

/** Every machine's host record: summary.json's, then the newest one in the time series (machines with older runs only). */
export const knownHosts = (): Host[] =>
  cached('hosts', () => {
    const byId = new Map<string, Host>();
    for (const t of loadTimeseries()) for (const r of t.runs) byId.set(r.host.id, r.host);
    for (const h of loadSummary()?.hosts ?? []) byId.set(h.id, h);
    return [...byId.values()];
  });

/**
 * The readable name of a machine id on this build's data (machines.ts machineLabel): what every page shows; in
 * a local build (npm start) the machine that ran it says so (machines.ts localNote).
 */
export const machineOf = (id: string, own?: Host | null) => machineLabel(id, knownHosts(), own, loadSummary()?.runs ?? []);

/** One page per host and UTC year (the time series' own split), every run of it; hosts and years in order. */
export function runArchive(): { host: string; year: number; runs: RunIndexEntry[] }[] {
  const pages = new Map<string, { host: string; year: number; runs: RunIndexEntry[] }>();
  for (const r of loadRunIndex()) {
    const year = new Date(r.startedAt).getUTCFullYear();
    const id = `${r.host}/${year}`;
    const page = pages.get(id) ?? pages.set(id, { host: r.host, year, runs: [] }).get(id)!;
    page.runs.push(r);
  }
  return [...pages.values()].sort((a, b) => (a.host < b.host ? -1 : a.host > b.host ? 1 : a.year - b.year));
}

/**
 * Where a run file can be downloaded. The runs behind the summary are published with the site
 * (/data/runs/<host>/<runId>.json.br, byte for byte as stored); every other run is linked in the
 * repository when OBSERVATORY_REPO_URL is set (e.g. https://github.com/owner/name), else null: the page
 * then names the file's path in the repository. The deploy never grows with the history.
 */
export function runDownload(run: { host: string; runId: string; path: string }): { href: string; published: boolean } | null {
  if (loadRuns().some((r) => r.runId === run.runId && r.host === run.host)) return { href: `/data/runs/${run.host}/${run.runId}.json.br`, published: true };
  const repo = process.env.OBSERVATORY_REPO_URL?.replace(/\/$/, '');
  return repo ? { href: `${repo}/raw/main/data/${run.path}`, published: false } : null;
}

/** The drift page's index and shards (site/src/lib/drift/shards.ts), made once per build. */
export const loadDrift = () => cached('drift', () => driftShards(loadTimeseries(), (id) => machineOf(id).text));

/** The stored bytes of a file under data/ (run files are served as stored). */
export function rawDataBytes(relative: string): Buffer {
  return readFileSync(join(dataDir(), relative));
}

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

/**
 * The recommendations of every machine (recommendations/advice.ts), the home page's default machine first (model.ts
 * pickDefault), then the other project machines, then the contributed ones, each with that machine's published ML-KEM hypothesis result. Support status as of the build day.
 */
export const loadRecommendations = (): Recommendations[] =>
  cached('recommendations', () => {
    const summary = loadSummary();
    const openssl = loadOpenSSLSummary();
    if (!summary || !openssl) return [];
    const detailed = loadDetailed();
    const published = pickPublished(loadResults('hypothesis', HypothesisResult));
    const first = journeyPayload(openssl).defaults?.host;
    const today = new Date().toISOString().slice(0, 10);
    const hosts = summary.hosts.map((h) => h.id).sort((a, b) => Number(b === first) - Number(a === first) || projectFirst(a, b) || a.localeCompare(b));
    return hosts.map((host) => recommendations(summary, detailed, host, today, published.find((f) => f.result.host.id === host)?.result ?? null));
  });
