// Checks run files before anything else reads them: those a pull request submits (hostile until proven
// otherwise) and those a bench runner has just written. Read-only: it never writes under data/.
//
//   npm run -s validate -- --base origin/main [--summary FILE]     files changed since the merge base
//   npm run -s validate -- --untracked                             new files under data/runs/ (git)
//                                          (with --runner also data/hypothesis/: ML-KEM hypothesis results)
//   npm run -s validate -- data/runs/<host>/<YYYY>/<MM>/<runId>.json.br ...   files named (taken as added)
//   --runner             the project's own bench runners: reserved host ids and quick runs allowed
//   --root DIR           the checkout that holds the submitted files (default: .)
//   --accepted-root DIR  the checkout whose data/ holds the runs already accepted and data/hosts.json (default: --root)
//   --author LOGIN       the pull request's author (GitHub login): runs for a host registered in
//                        data/hosts.json to someone else are refused; without it ownership is not checked
//   --author-id ID       the author's numeric GitHub account id (with --author): ownership is checked by it,
//                        since a login can be renamed and taken by someone else; without it, by the login
import { execFileSync } from 'node:child_process';
import { existsSync, lstatSync, readFileSync, writeFileSync } from 'node:fs';
import { join, posix } from 'node:path';
import { isDeepStrictEqual } from 'node:util';
import { commandLine, openingComment } from '../runner/cli.ts';
import { DataFileError, githubLogin, hardwareText, HostRegistry, HypothesisResult, Run, decodeRunBytes, describeMachine, listRunFiles, machineId, misplacedRun, readRunFile, safeId, RUN_FILE_SUFFIX, type Build, type Unit } from '../schema/index.ts';
import { seriesKey, type SeriesSpec } from '../runner/benchmark.ts';
import { BENCHMARKS } from '../runner/benchmarks.ts';
import { registeredSeries } from '../runner/series-registry.ts';
import { LIBRARY_NAMES, cataloguedRelease, variantAllowed } from '../catalogue/index.ts';
import { isReservedHostId, lookalikeOf, RESERVED_HOST_PREFIXES } from '../catalogue/hosts.ts';
import { loadHistory } from '../analysis/history.ts';
import { checkProvenance } from './provenance.ts';

export interface Problem {
  file: string;
  /** JSON path inside the file, "$" for the file as a whole */
  path: string;
  message: string;
}
export type ChangeStatus = 'added' | 'modified' | 'deleted' | 'other';
export interface ChangedFile {
  path: string;
  status: ChangeStatus;
}
export interface FileReport {
  file: string;
  run?: Run;
  kind?: string;
  newHost?: boolean;
  /** not a reason to refuse, but something a maintainer must look at before merging (e.g. a new host) */
  review?: string[];
  /** bytes stored */
  bytes?: number;
  /** measured series keys that no accepted run has, and how many runs this host already had */
  adds?: { newKeys: number; earlierRunsOfHost: number; summaryBytes?: number };
  problems: Problem[];
}
export interface Report {
  ok: boolean;
  mode: 'submission' | 'runner';
  files: FileReport[];
  problems: Problem[];
}

/**
 * Size caps, from the stored format (compact JSON, brotli quality 11): a full run of the default matrix with
 * two more release series (12 builds, 6 rounds, every default benchmark) is ~7.8 MB of JSON and ~0.22 MB
 * stored (checks/submission-size.test.ts prints the figures); the caps leave about twice that for more
 * rounds or benchmarks, and no more: a file beyond them is not one run of the matrix, and its pull request
 * is told how to split it.
 */
export const SIZE = {
  /** JSON after decompression: what a reader holds in memory */
  maxJsonBytes: 16 * 1024 * 1024,
  /** bytes stored in the repository: what the file adds to every clone */
  maxFileBytes: 512 * 1024,
  /** stored bytes of all files of one pull request: 20 full runs fit */
  maxChangeBytes: 6 * 1024 * 1024,
};

export const LIMITS = {
  ...SIZE,
  // The schema's longest text field allows 2000 characters; anything far longer is not a run.
  maxStringChars: 10_000,
  maxDepth: 16, // a run nests 6 levels deep
  maxRunHours: 7 * 24,
  // One run per machine is the usual submission; a batch of 20 is generous and bounds the work a PR can cause.
  maxFilesPerChange: 20,
  // Runs cannot predate this harness; a little clock skew is tolerated in the future.
  earliest: '2025-01-01T00:00:00Z',
  futureSkewMinutes: 10,
  // The largest committed run has 485 distinct series keys, all on each of its builds (e33c: 14 builds);
  // the runner's registry knows ~830 keys for one 3.5 build. Twice the largest real run, and no more.
  maxSeriesPerBuild: 1000,
  maxKeysPerRun: 1000,
  // What a pull request may add to data/summary.json (one entry per machine, build and series key): a
  // full run of the default matrix with two more release series on a new machine adds about 9 MB
  // (checks/submission-size.test.ts); twice that, so that 100 MB, GitHub's limit for one file, is
  // several pull requests away and each of them is seen.
  maxSummaryGrowthBytes: 20 * 1024 * 1024,
};

/**
 * Bytes one entry of data/summary.json takes besides its label, as written (indented): measured on the
 * committed summary.json (14,885 entries, mean 1,215 bytes of compact JSON without the label, 1,402 with
 * label and indentation), rounded up.
 */
export const SUMMARY_ENTRY_BYTES = 1400;


/**
 * Plausible values per unit. `max` is far above anything real, so a plausible run never trips it; it
 * holds for one core, and a rate (`perCore`) may be that many times higher only for a series that says
 * it ran several threads (its `threads` parameter, capped at MAX_PARALLEL): never by the CPU count a
 * file claims. `min` is the floor of a real measurement: below it a value is an artefact (5e-324, a
 * division by a huge count) that would turn into an infinite ratio. `zero` says whether 0 is a real
 * outcome (an instruction count of a function that was not called).
 */
export const BOUNDS: Record<Unit, { max: number; perCore: boolean; min: number; zero: boolean; why: string; whyMin: string }> = {
  'bytes/s': { max: 1e11, perCore: true, min: 1, zero: false, why: '100 GB/s per core: several times the fastest one-core AES-GCM or ChaCha20 (~10-20 GB/s)', whyMin: 'one byte per second is no throughput measurement' },
  'ops/s': { max: 1e9, perCore: true, min: 1e-3, zero: false, why: '10^9 ops/s per core is one operation per ~4 cycles; no crypto call is that cheap', whyMin: 'an operation per 1000 s: nothing measured takes that long' },
  'handshakes/s': { max: 1e6, perCore: true, min: 1e-3, zero: false, why: '10^6/s per core is 1 us per handshake; a resumed TLS handshake costs tens of us', whyMin: 'a handshake per 1000 s' },
  'connections/s': { max: 1e6, perCore: true, min: 1e-3, zero: false, why: 'a connection includes a handshake: same bound', whyMin: 'a connection per 1000 s' },
  'us/op': { max: 1e8, perCore: false, min: 1e-4, zero: false, why: '100 s for one operation: even RSA-15360 signs in seconds', whyMin: '0.1 ns, less than one clock cycle' },
  'us/handshake': { max: 1e8, perCore: false, min: 1e-2, zero: false, why: '100 s for one handshake', whyMin: '10 ns for a handshake: not even the record layer is that fast' },
  instructions: { max: 1e12, perCore: false, min: 1, zero: true, why: 'a handshake executes ~10^7 instructions; 10^12 is minutes of CPU', whyMin: 'a count of instructions is 0 or at least 1' },
  bytes: { max: 1e9, perCore: false, min: 1e-3, zero: true, why: '1 GB per handshake or session', whyMin: 'a thousandth of a byte, even as an average, is an artefact' },
  count: { max: 1e12, perCore: false, min: 1e-3, zero: true, why: 'generic counter ceiling', whyMin: 'a thousandth, even as an average, is an artefact' },
};
/** The most threads a multi-threaded series may claim to raise a per-core bound (the benchmarks use at most 4). */
export const MAX_PARALLEL = 64;

/** data/runs/<host>/<YYYY>/<MM>/<runId>.json.br (schema/storage.ts) or data/hypothesis/<host>/<runId>.json */
const escaped = (text: string) => text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
const DATA_PATH = new RegExp(`^data/(?:(runs)/([^/]+)/(\\d{4})/(\\d{2})/([^/]+)${escaped(RUN_FILE_SUFFIX)}|(hypothesis)/([^/]+)/([^/]+)\\.json)$`);
const PATH_FORM: Record<string, string> = { runs: `data/runs/<host>/<YYYY>/<MM>/<runId>${RUN_FILE_SUFFIX}`, hypothesis: 'data/hypothesis/<host>/<runId>.json' };
/** folder, host, file name part of the run id and the folders between, or null */
function locate(file: string): { folder: string; host: string; runId: string; dirs: string[] } | null {
  const m = DATA_PATH.exec(file);
  if (!m) return null;
  return m[1] ? { folder: 'runs', host: m[2]!, runId: m[5]!, dirs: [m[2]!, m[3]!, m[4]!] } : { folder: 'hypothesis', host: m[7]!, runId: m[8]!, dirs: [m[7]!] };
}
const mib = (n: number) => `${(n / 2 ** 20).toFixed(n % 2 ** 20 ? 1 : 0)} MiB`;
/** How to make a run small enough, said with every size problem. */
export const SPLIT_RUN =
  'a run this large is more than a full run of the default matrix with two more release series: measure fewer versions per run ' +
  '(npm run bench -- --full <version> <version> ...) and submit each run file on its own';
export const SPLIT_CHANGE =
  'split the pull request: at most ' +
  `${LIMITS.maxFilesPerChange} run files and ${mib(SIZE.maxChangeBytes)} per pull request, e.g. one per host or per month ` +
  '(git switch -c runs-part-1 origin/main && git checkout <your-branch> -- data/runs/<host>/<YYYY>/<MM>/ && git commit)';
/** Submissions add runs only; the bench runners also add ML-KEM hypothesis results. */
export const FOLDERS: Record<Report['mode'], string[]> = { submission: ['runs'], runner: ['runs', 'hypothesis'] };
const MARKUP = /<[/!?]?[a-zA-Z]|javascript\s*:|data\s*:\s*text\/html/i;
/**
 * Characters that display as nothing, as a space that is not one, or that reorder or alter the text
 * around them: a reviewer would read something other than what the file says. Format characters (Cf:
 * bidi controls, zero-width characters, U+00AD, U+061C, U+2060, tags), controls other than tab and
 * newline, private-use, unpaired surrogates and unassigned code points, line and paragraph separators,
 * every space but U+0020, and the letters and marks that render blank (Hangul fillers, Braille blank,
 * combining grapheme joiner, variation selectors).
 */
const INVISIBLE = /[\p{Cf}\p{Co}\p{Cs}\p{Cn}\p{Zl}\p{Zp}\u0000-\u0008\u000b-\u001f\u007f-\u009f\u00a0\u1680\u2000-\u200a\u202f\u205f\u3000\u034f\u115f\u1160\u17b4\u17b5\u180b-\u180f\u2800\u3164\uffa0\ufe00-\ufe0f\u{e0100}-\u{e01ef}]/u;
/** "U+2060" for the first invisible character of a string. */
function invisibleIn(s: string): string | null {
  const m = INVISIBLE.exec(s);
  return m ? `U+${m[0].codePointAt(0)!.toString(16).toUpperCase().padStart(4, '0')}` : null;
}
const FORBIDDEN_KEYS = new Set(['__proto__', 'constructor', 'prototype']);

export function jsonPath(segments: readonly PropertyKey[]): string {
  return segments.reduce<string>((acc, s) => (typeof s === 'number' ? `${acc}[${s}]` : /^[A-Za-z_][A-Za-z0-9_]*$/.test(String(s)) ? `${acc}.${String(s)}` : `${acc}[${JSON.stringify(String(s))}]`), '$');
}

/** Strings, keys and depth, before the schema sees the value (the schema's messages cannot point at these). */
function scanValue(value: unknown, path: PropertyKey[], add: (path: PropertyKey[], message: string) => void): void {
  if (path.length > LIMITS.maxDepth) return add(path, `nested deeper than ${LIMITS.maxDepth} levels`);
  if (typeof value === 'string') {
    if (value.length > LIMITS.maxStringChars) return add(path, `string of ${value.length} characters (limit ${LIMITS.maxStringChars})`);
    if (MARKUP.test(value)) add(path, 'looks like HTML or a script: run files may not carry markup');
    const invisible = invisibleIn(value);
    if (invisible) add(path, `contains ${invisible}, an invisible, format or text-direction control character`);
  } else if (Array.isArray(value)) {
    value.forEach((v, i) => scanValue(v, [...path, i], add));
  } else if (value !== null && typeof value === 'object') {
    for (const [k, v] of Object.entries(value)) {
      if (FORBIDDEN_KEYS.has(k) || k.length > 200 || MARKUP.test(k)) add([...path, k], 'forbidden key name');
      else if (invisibleIn(k)) add([...path, k], `key contains ${invisibleIn(k)}, an invisible, format or text-direction control character`);
      else scanValue(v, [...path, k], add);
    }
  }
}

/**
 * Keys that appear twice in one object of the raw text. JSON.parse keeps the last value silently, while
 * a reviewer reading the diff sees the first. `text` must already be valid JSON. It reads no deeper than
 * LIMITS.maxDepth (scanValue refuses deeper files): 100,000 nested brackets would overflow its recursion.
 */
export function duplicateKeys(text: string): PropertyKey[][] {
  const found: PropertyKey[][] = [];
  const tooDeep = Symbol('too deep');
  const path: PropertyKey[] = [];
  let i = 0;
  const space = () => {
    while (i < text.length && (text[i] === ' ' || text[i] === '\t' || text[i] === '\n' || text[i] === '\r')) i++;
  };
  const string = (): string => {
    const start = i++;
    while (text[i] !== '"') i += text[i] === '\\' ? 2 : 1;
    i++;
    return JSON.parse(text.slice(start, i)) as string;
  };
  const value = (): void => {
    space();
    const c = text[i];
    if (c === '{' || c === '[') {
      if (path.length >= LIMITS.maxDepth) throw tooDeep;
      i++;
      space();
      const close = c === '{' ? '}' : ']';
      const keys = new Set<string>();
      for (let n = 0; text[i] !== close; n++) {
        space();
        if (c === '{') {
          const key = string();
          if (keys.has(key)) found.push([...path, key]);
          keys.add(key);
          space();
          i++; // ':'
          path.push(key);
        } else path.push(n);
        value();
        path.pop();
        space();
        if (text[i] === ',') i++;
      }
      i++;
    } else if (c === '"') string();
    else while (i < text.length && !',]} \t\n\r'.includes(text[i]!)) i++; // number, true, false, null
  };
  try {
    value();
  } catch (e) {
    if (e !== tooDeep) throw e;
  }
  return found;
}

/** Keys present in the file that the schema does not know (zod drops them silently). */
function unknownKeys(raw: unknown, parsed: unknown, path: PropertyKey[], add: (path: PropertyKey[], message: string) => void): void {
  if (Array.isArray(raw) && Array.isArray(parsed)) raw.forEach((v, i) => unknownKeys(v, parsed[i], [...path, i], add));
  else if (raw && parsed && typeof raw === 'object' && typeof parsed === 'object') {
    for (const k of Object.keys(raw)) {
      if (!Object.hasOwn(parsed, k)) add([...path, k], 'unknown field (not in the run schema)');
      else unknownKeys((raw as Record<string, unknown>)[k], (parsed as Record<string, unknown>)[k], [...path, k], add);
    }
  }
}

/** Plausibility: values, times and the submission rules that the schema cannot express. */
function checkRun(run: Run, mode: Report['mode'], now: Date, add: (path: PropertyKey[], message: string) => void): void {
  const started = Date.parse(run.startedAt);
  const finished = Date.parse(run.finishedAt);
  if (started < Date.parse(LIMITS.earliest)) add(['startedAt'], `before ${LIMITS.earliest}: this harness did not exist then`);
  if (finished > now.getTime() + LIMITS.futureSkewMinutes * 60_000) add(['finishedAt'], 'in the future');
  if (finished < started) add(['finishedAt'], 'before startedAt');
  if (finished - started > LIMITS.maxRunHours * 3600_000) add(['finishedAt'], `run lasted more than ${LIMITS.maxRunHours} hours`);
  const slack = LIMITS.futureSkewMinutes * 60_000;
  const specs = seriesOfRun(run, add);
  run.series.forEach((s, i) => {
    // the unit (and with it the bounds) is the runner's for this series, whatever the file says
    const bound = BOUNDS[specs[i]?.unit ?? s.unit];
    const threads = typeof s.params.threads === 'number' && Number.isInteger(s.params.threads) && s.params.threads > 1 ? s.params.threads : 1;
    const parallel = bound.perCore ? Math.min(threads, run.host.logicalCpus, MAX_PARALLEL) : 1;
    const max = bound.max * parallel;
    s.iterations.forEach((it, j) => {
      if (it.value > max)
        add(['series', i, 'iterations', j, 'value'], `${it.value} ${specs[i]?.unit ?? s.unit} is not plausible (bound ${max.toExponential(1)}${parallel > 1 ? ` for ${parallel} threads` : ''}: ${bound.why})`);
      else if (it.value === 0 ? !bound.zero : it.value < bound.min)
        add(['series', i, 'iterations', j, 'value'], `${it.value} ${specs[i]?.unit ?? s.unit} is not a measurement (${bound.zero ? 'neither 0 nor ' : ''}at least ${bound.min}: ${bound.whyMin})`);
      const at = Date.parse(it.at);
      if (at < started - slack || at > finished + slack) add(['series', i, 'iterations', j, 'at'], 'outside the run (startedAt..finishedAt)');
    });
  });
  checkMachineId(run.host, add);
  if (mode === 'submission') {
    if (isReservedHostId(nameOf(run.host))) add(['host', 'id'], `host ids starting with ${RESERVED_HOST_PREFIXES.map((p) => `"${p}"`).join(' or ')} (in any letter case) are reserved for the project's bench runners`);
    // a reproduction (npm run reproduce) measures what one write-up's claims need until they are decided:
    // its mode and rounds come from that write-up and its stopping rule, not from the full matrix
    const reproduces = run.plan.reproduces;
    if (reproduces && !existsSync(join(import.meta.dirname, '..', 'site', 'src', 'content', 'writeups', `${reproduces}.md`)))
      add(['plan', 'reproduces'], `reproduces write-up "${reproduces}", which does not exist`);
    if (!reproduces && run.mode !== 'full') add(['mode'], 'submissions must be full runs (npm run submit) or reproductions (npm run reproduce), not quick ones');
    if (!reproduces && run.plan.rounds < 5) add(['plan', 'rounds'], 'a published run needs at least 5 measured rounds');
    if (run.harness.gitDirty || run.harness.gitCommit === 'unknown') add(['harness'], 'run from a clean checkout of a known commit, so the numbers can be traced to the harness code');
  }
}

/** What the series check compares with the runner's registry: the key gives benchmark, metric and params. */
const SPEC_FIELDS = ['unit', 'method', 'higherIsBetter', 'comparability'] as const;

/**
 * Each series as the runner's registry has it (runner/series-registry.ts), by index; undefined for a
 * series it does not have (refused here) or of a build the catalogue does not have (refused by
 * checkBuilds). A series key must be its benchmark, metric and params, registered for its build, once per
 * build, with the registry's unit, method, direction and comparability; and a run holds at most
 * LIMITS.maxSeriesPerBuild series per build and LIMITS.maxKeysPerRun keys.
 */
function seriesOfRun(run: Run, add: (path: PropertyKey[], message: string) => void): (SeriesSpec | undefined)[] {
  const registries = new Map(run.builds.map((b) => {
    const known = cataloguedRelease(b);
    return [b.id, known ? registeredSeries({ library: b.library, version: b.version, series: known.series, variant: b.variant }) : undefined] as const;
  }));
  const benchmarks = `the runner has ${BENCHMARKS.map((b) => b.id).join(', ')}`;
  run.plan.benchmarks.forEach((b, i) => {
    if (!BENCHMARKS.some((x) => x.id === b)) add(['plan', 'benchmarks', i], `unknown benchmark "${b}": ${benchmarks}`);
  });
  const perBuild = new Map<string, Set<string>>();
  const specs = run.series.map((s, i) => {
    const key = seriesKey(s);
    if (s.key !== key) add(['series', i, 'key'], `does not match the series' benchmark, metric and params: expected "${key}"`);
    const own = perBuild.get(s.buildId) ?? perBuild.set(s.buildId, new Set()).get(s.buildId)!;
    if (own.has(key)) add(['series', i, 'key'], `build ${s.buildId} has series "${key}" twice`);
    own.add(key);
    const registry = registries.get(s.buildId);
    if (!registry) return undefined;
    const spec = registry.get(key);
    if (!spec) {
      if (!BENCHMARKS.some((b) => b.id === s.benchmark)) add(['series', i, 'benchmark'], `unknown benchmark "${s.benchmark}": ${benchmarks}`);
      else add(['series', i, 'key'], `"${key}" is not a series the runner's ${s.benchmark} benchmark writes for build ${s.buildId} (runner/series-registry.ts): unknown metric or params`);
      return undefined;
    }
    for (const f of SPEC_FIELDS) if (!isDeepStrictEqual(s[f], spec[f])) add(['series', i, f], `${JSON.stringify(s[f])} is not this series' ${f}: the runner writes ${JSON.stringify(spec[f])}`);
    return spec;
  });
  for (const [id, keys] of perBuild) if (keys.size > LIMITS.maxSeriesPerBuild) add(['series'], `${keys.size} series of build ${id} (limit ${LIMITS.maxSeriesPerBuild}): ${SPLIT_RUN}`);
  const keys = new Set(run.series.map((s) => s.key));
  if (keys.size > LIMITS.maxKeysPerRun) add(['series'], `${keys.size} distinct series keys (limit ${LIMITS.maxKeysPerRun}): ${SPLIT_RUN}`);
  return specs;
}

/** Every build is a catalogued version, built from the exact source bytes the catalogue pins. */
function checkBuilds(builds: readonly Build[], add: (path: PropertyKey[], message: string) => void): void {
  builds.forEach((b, i) => {
    const known = cataloguedRelease(b);
    if (!known) return add(['builds', i, 'version'], `${LIBRARY_NAMES[b.library]} ${b.version} is not in the catalogue (catalogue/index.ts): only catalogued, hash-pinned versions are accepted`);
    if (b.series !== known.series) add(['builds', i, 'series'], `${b.version} belongs to series ${known.series}, not ${b.series}`);
    const variant = variantAllowed(known, b.variant);
    if (variant) add(['builds', i, 'variant'], variant);
    const pins = known.sources.filter((s) => s.kind === b.source.kind);
    if (!pins.length) add(['builds', i, 'source', 'kind'], `the catalogue has no ${b.source.kind} source for ${b.version} (it has: ${known.sources.map((s) => s.kind).join(', ')})`);
    else if (!pins.some((s) => s.sha256 === b.source.sha256))
      add(['builds', i, 'source', 'sha256'], `is not the catalogue's pin for ${b.version} (${b.source.kind}: ${pins.map((s) => s.sha256).join(' or ')}): the build came from other source bytes`);
  });
}

/** What identifies the machine behind a host id (schema/machine.ts): other hardware is another machine. */
export const hostFingerprint = (host: Run['host']): string => hardwareText(host);

/** The name a host record was given (records from before machine ids: their id). Ownership goes by name. */
const nameOf = (host: Run['host']) => host.name ?? host.id;

/**
 * A run names its machine by the id of its own hardware: <name>.<cpu>-<fingerprint>. An id that is not
 * that (another machine's id, or hardware edited after the run) is refused with the id it should have.
 */
function checkMachineId(host: Run['host'], add: (path: PropertyKey[], message: string) => void): void {
  if (host.name === undefined) {
    add(['host', 'name'], 'missing: a run names its machine as <name>.<cpu>-<fingerprint> with host.name the name chosen; this file comes from a runner older than machine ids: measure again with the current npm run bench');
    return;
  }
  const expected = machineId(host.name, host);
  if (host.id !== expected)
    add(['host', 'id'], `"${host.id}" is not the machine id of the hardware this run describes (${describeMachine(host)}): expected "${expected}". The id is the name plus the hardware's fingerprint, and npm run bench writes it; a run on other hardware is another machine`);
}
/**
 * Replays: a run whose measurements are another run's, changed a little (every value x1.0001, one value by
 * 1e-12, series or rounds reordered, keys or build ids renamed). Each measured series that varies from
 * round to round is its values, sorted, under its key and build (library, version, variant); a series of
 * one run matches the other run's when 80% of its values pair with values within `tolerance`. A run is a
 * replay of another when `share` of the series they both have match. A series that is the same in every
 * round (an instruction count, bytes sent) is the same in every honest run of the build and is left out.
 * On the committed runs, two honest full runs of one machine share at most 3.2% matching series (959e and
 * e33c: 79 of 2490), so 25% is far from an honest pair and near nothing a copy can reach by small changes.
 */
export const REPLAY = { tolerance: 0.005, share: 0.25, paired: 0.8 };
type ValueVectors = Map<string, number[]>;

export function valueVectors(run: Run): ValueVectors {
  const builds = new Map(run.builds.map((b) => [b.id, `${b.library} ${b.version} ${b.variant}`]));
  const out: ValueVectors = new Map();
  for (const s of run.series) {
    if (s.status !== 'measured') continue;
    const v = s.iterations.map((it) => it.value).sort((a, b) => a - b);
    if (v.length && v[0] !== v.at(-1)) out.set(`${seriesKey(s)} ${builds.get(s.buildId)}`, v);
  }
  return out;
}

/** How many values of two sorted lists pair up within the tolerance (each value used once). */
function pairedValues(a: readonly number[], b: readonly number[]): number {
  let i = 0, j = 0, n = 0;
  while (i < a.length && j < b.length) {
    if (Math.abs(a[i]! - b[j]!) <= REPLAY.tolerance * Math.max(Math.abs(a[i]!), Math.abs(b[j]!))) {
      n++;
      i++;
      j++;
    } else if (a[i]! < b[j]!) i++;
    else j++;
  }
  return n;
}

/** "m of n series", when `a` replays `b`; null when it does not. */
export function replayOf(a: ValueVectors, b: ValueVectors): string | null {
  let shared = 0, matching = 0;
  for (const [key, va] of a) {
    const vb = b.get(key);
    if (!vb) continue;
    shared++;
    if (pairedValues(va, vb) >= REPLAY.paired * Math.max(va.length, vb.length)) matching++;
  }
  return shared && matching >= REPLAY.share * shared ? `${matching} of ${shared} series` : null;
}

/** Read, parse and check one file on its own. */
export function checkRunFile(root: string, file: string, mode: Report['mode'], now = new Date()): FileReport {
  const problems: Problem[] = [];
  const add = (path: PropertyKey[], message: string) => problems.push({ file, path: jsonPath(path), message });
  const report: FileReport = { file, problems };
  const loc = locate(file);
  if (posix.normalize(file) !== file || file.includes('\\') || !loc || !FOLDERS[mode].includes(loc.folder)) {
    add([], `must be ${FOLDERS[mode].map((f) => PATH_FORM[f]).join(' or ')} (no "..", no other folders)`);
    return report;
  }
  const { folder, host: dirHost, runId: fileRunId } = loc;
  if (!safeId.safeParse(dirHost).success || !safeId.safeParse(fileRunId).success) {
    add([], 'host folder and run id may use only letters, digits, ".", "_" and "-"');
    return report;
  }
  const abs = join(root, file);
  const dirs = loc.dirs.map((_, i) => join(root, 'data', folder, ...loc.dirs.slice(0, i + 1)));
  for (const p of [join(root, 'data'), join(root, 'data', folder), ...dirs, abs]) {
    const st = lstatSync(p, { throwIfNoEntry: false });
    if (!st) return add([], 'file does not exist'), report;
    if (st.isSymbolicLink()) return add([], `${p === abs ? 'file' : 'folder'} ${p.slice(root.length + 1)} is a symbolic link`), report;
  }
  const st = lstatSync(abs);
  if (!st.isFile()) return add([], 'not a regular file'), report;
  report.bytes = st.size;
  if (st.size > LIMITS.maxFileBytes) return add([], `file is ${st.size} bytes stored (limit ${mib(LIMITS.maxFileBytes)}): ${SPLIT_RUN}`), report;
  let raw: unknown;
  let text: string;
  try {
    // the one decoder of run files (schema/storage.ts): brotli or gzip by the name, inflating stopped at the cap
    text = decodeRunBytes(readFileSync(abs), file, { maxFileBytes: LIMITS.maxFileBytes, maxJsonBytes: LIMITS.maxJsonBytes });
    raw = JSON.parse(text);
  } catch (e) {
    const message = e instanceof DataFileError ? e.message.slice(file.length + 2) : (e as Error).message;
    return add([], /more than|bytes of JSON/.test(message) ? `${message}: ${SPLIT_RUN}` : `not valid UTF-8 JSON: ${message}`), report;
  }
  for (const path of duplicateKeys(text)) add(path, 'duplicate key: JSON keeps the last value silently, while a reviewer reads the first');
  scanValue(raw, [], add);
  if (problems.length) return report;
  const parsed = (folder === 'runs' ? Run : HypothesisResult).safeParse(raw);
  if (!parsed.success) {
    for (const issue of parsed.error.issues) add(issue.path, issue.message);
    return report;
  }
  unknownKeys(raw, parsed.data, [], add);
  const { host, runId } = parsed.data;
  report.kind = parsed.data.kind;
  if (host.id !== dirHost) add(['host', 'id'], `"${host.id}" does not match the folder data/${folder}/${dirHost}/`);
  if (runId !== fileRunId) add(['runId'], `"${runId}" does not match the file name ${file.split('/').at(-1)}`);
  checkBuilds(parsed.data.builds, add);
  if (parsed.data.kind !== 'run') return report;
  const run = parsed.data;
  const misplaced = host.id === dirHost && runId === fileRunId ? misplacedRun(file.slice('data/'.length), run) : null;
  if (misplaced) add(['startedAt'], `the run ${misplaced.replace(/^holds run \S+ of host \S+ /, '')} (the folders are the UTC year and month it started)`);
  checkRun(run, mode, now, add);
  checkProvenance(run, add);
  report.run = run;
  return report;
}

/** What the validator needs to know of an accepted run (from data/timeseries/, so no run file is opened for it). */
interface AcceptedRun {
  file: string;
  runId: string;
  host: Run['host'];
}

/**
 * What main already holds, except the files this change adds: every run file under data/runs/ that
 * reads, known from the accepted checkout's time series (runs missing there are read), the measured keys
 * they hold, and the id of every file under data/runs/ and data/hypothesis/ (a file that does not read
 * still owns its run id), keyed by folder and lower-case id. A file that does not read is the
 * aggregation's problem to report, not this submission's.
 */
function acceptedData(root: string, exclude: Set<string>): { runs: AcceptedRun[]; measuredKeys: Set<string>; ids: Map<string, string> } {
  const dataDir = join(root, 'data');
  const ids = new Map<string, string>();
  const paths = listRunFiles(dataDir).filter((p) => !exclude.has(`data/${p}`));
  for (const p of paths) {
    const name = p.split('/').at(-1)!;
    ids.set(`runs/${name.slice(0, -(name.endsWith(RUN_FILE_SUFFIX) ? RUN_FILE_SUFFIX : '.json').length).toLowerCase()}`, `data/${p}`);
  }
  for (const p of listRunFiles(dataDir, 'hypothesis')) {
    if (exclude.has(`data/${p}`) || !p.endsWith('.json')) continue;
    ids.set(`hypothesis/${p.split('/').at(-1)!.slice(0, -'.json'.length).toLowerCase()}`, `data/${p}`);
  }
  const { records, keySets } = loadHistory(dataDir, paths, { onError: () => {} });
  // runs share their key lists: the union is made once per distinct list, however many runs there are
  const lists = new Set(records.flatMap((r) => r.builds.map((b) => b.measured)));
  return {
    runs: records.map((r) => ({ file: `data/${r.path}`, runId: r.runId, host: r.host })),
    measuredKeys: new Set([...lists].flatMap((id) => keySets.get(id) ?? [])),
    ids,
  };
}

/**
 * The accepted run (or an earlier file of this change) each submitted run replays, as "m of n series within
 * 0.5% of <file>". Reads every accepted run file, one at a time (the records in data/timeseries/ keep only
 * the headline medians): about 0.06 s per full run here.
 */
function findReplays(root: string, accepted: readonly AcceptedRun[], files: readonly FileReport[]): Map<FileReport, string> {
  const found = new Map<FileReport, string>();
  const submitted: [FileReport, ValueVectors][] = files.filter((f) => f.run).map((f) => [f, valueVectors(f.run!)]);
  const compare = (vectors: ValueVectors, file: string, among: readonly [FileReport, ValueVectors][]) => {
    for (const [f, own] of among) {
      const share = found.has(f) ? null : replayOf(own, vectors);
      if (share) found.set(f, `${share} within ${REPLAY.tolerance * 100}% of ${file}`);
    }
  };
  for (const a of accepted) {
    let run: Run;
    try {
      run = readRunFile(join(root, a.file), a.file.slice('data/'.length));
    } catch {
      continue; // a file that does not read is the aggregation's to report
    }
    compare(valueVectors(run), a.file, submitted);
  }
  submitted.forEach(([f, vectors], i) => compare(vectors, f.file, submitted.slice(i + 1)));
  return found;
}

/**
 * About how many bytes the runs of this change add to data/summary.json: one entry per machine, build
 * (library, version, variant) and series key that the accepted summary does not have yet, each
 * SUMMARY_ENTRY_BYTES plus its label. Sets each file's `adds.summaryBytes`.
 */
export function summaryGrowth(root: string, files: readonly FileReport[]): number {
  const path = join(root, 'data', 'summary.json');
  const entryId = (host: string, e: { library: string; version: string; variant: string }, key: string) => `${host}\u0000${e.library}\u0000${e.version}\u0000${e.variant}\u0000${key}`;
  const known = new Set<string>();
  if (existsSync(path)) {
    try {
      const entries = (JSON.parse(readFileSync(path, 'utf8')) as { entries?: { host: string; library: string; version: string; variant: string; key: string }[] }).entries ?? [];
      for (const e of entries) known.add(entryId(e.host, e, e.key));
    } catch {
      // a summary that does not read: every entry counts as new (the larger estimate)
    }
  }
  let total = 0;
  for (const f of files) {
    if (!f.run) continue;
    const builds = new Map(f.run.builds.map((b) => [b.id, b]));
    let bytes = 0;
    for (const s of f.run.series) {
      const id = entryId(f.run.host.id, builds.get(s.buildId)!, s.key);
      if (known.has(id)) continue;
      known.add(id);
      bytes += SUMMARY_ENTRY_BYTES + s.label.length;
    }
    if (f.adds) f.adds.summaryBytes = bytes;
    total += bytes;
  }
  return total;
}

export const HOSTS_FILE = 'data/hosts.json';

/** data/hosts.json of the accepted checkout, by lower-case host id. A missing or broken registry is an error: ownership cannot be checked. */
export function readHostRegistry(root: string): Map<string, HostRegistry['hosts'][number]> {
  const abs = join(root, HOSTS_FILE);
  if (!existsSync(abs)) throw new Error(`${HOSTS_FILE} is missing in ${root}: host ownership cannot be checked`);
  const parsed = HostRegistry.safeParse(JSON.parse(readFileSync(abs, 'utf8')));
  if (!parsed.success) throw new Error(`${HOSTS_FILE} is not a valid host registry: ${parsed.error.issues.map((i) => `${i.path.join('.')}: ${i.message}`).join('; ')}`);
  return new Map(parsed.data.hosts.map((h) => [h.id.toLowerCase(), h]));
}

export function validateSubmission(opts: { root: string; acceptedRoot?: string; changed: ChangedFile[]; mode: Report['mode']; now?: Date; author?: string; authorId?: number }): Report {
  const { root, changed, mode } = opts;
  const acceptedRoot = opts.acceptedRoot ?? root;
  const problems: Problem[] = [];
  const files: FileReport[] = [];
  for (const c of changed) {
    const allowed = FOLDERS[mode].map((f) => `data/${f}/`);
    if (!allowed.some((a) => c.path.startsWith(a))) problems.push({ file: c.path, path: '$', message: `only files under ${allowed.join(' and ')} may change in a ${mode === 'runner' ? 'bench run' : 'run submission'}` });
    else if (c.status !== 'added') problems.push({ file: c.path, path: '$', message: `${c.status}: runs already accepted are never changed or removed by a submission` });
    else files.push(checkRunFile(root, c.path, mode, opts.now));
  }
  if (!changed.length) problems.push({ file: '(none)', path: '$', message: 'no changed files to validate' });
  if (files.length > LIMITS.maxFilesPerChange)
    problems.push({ file: `(${files.length} files)`, path: '$', message: `at most ${LIMITS.maxFilesPerChange} files per submission: ${SPLIT_CHANGE}` });
  const total = files.reduce((n, f) => n + (f.bytes ?? 0), 0);
  if (total > LIMITS.maxChangeBytes)
    problems.push({ file: `(${files.length} files)`, path: '$', message: `${total} bytes in all (limit ${mib(LIMITS.maxChangeBytes)}): ${SPLIT_CHANGE}` });
  let registry = new Map<string, HostRegistry['hosts'][number]>();
  if (mode === 'submission') {
    try {
      registry = readHostRegistry(acceptedRoot);
    } catch (e) {
      problems.push({ file: HOSTS_FILE, path: '$', message: (e as Error).message });
    }
  }
  const { runs: accepted, measuredKeys: keys, ids: takenIds } = acceptedData(acceptedRoot, new Set(changed.map((c) => c.path)));
  const hosts = new Map<string, { fp: string; id: string; file: string }>();
  for (const a of accepted) hosts.set(a.host.id.toLowerCase(), { fp: hostFingerprint(a.host), id: a.host.id, file: a.file });
  const replays = findReplays(acceptedRoot, accepted, files);
  for (const f of files) {
    const add = (path: PropertyKey[], message: string) => f.problems.push({ file: f.file, path: jsonPath(path), message });
    // run ids are unique per folder, letter case ignored (two ids that differ only in case collide on some file systems)
    const loc = locate(f.file);
    if (loc && !f.problems.some((p) => p.path === '$')) {
      const idKey = `${loc.folder}/${loc.runId.toLowerCase()}`;
      const sameId = takenIds.get(idKey);
      if (sameId) add(['runId'], `duplicate: run id already used by ${sameId}`);
      else takenIds.set(idKey, f.file);
    }
    const run = f.run;
    if (!run) continue;
    const known = hosts.get(run.host.id.toLowerCase());
    if (known && known.id !== run.host.id) add(['host', 'id'], `differs only in letter case from the existing host "${known.id}"`);
    else if (known && known.fp !== hostFingerprint(run.host))
      add(['host'], `host id "${run.host.id}" already belongs to a machine with a different CPU (see ${known.file}): choose your own host id`);
    f.newHost = !known;
    // the same name on other hardware: published as its own machine, and a maintainer should know
    const siblings = known ? [] : [...new Set(accepted.filter((a) => nameOf(a.host).toLowerCase() === nameOf(run.host).toLowerCase() && a.host.id !== run.host.id).map((a) => a.host.id))];
    if (siblings.length)
      (f.review ??= []).push(`new machine "${run.host.id}" (${describeMachine(run.host)}) under the name "${nameOf(run.host)}", which already has ${siblings.map((s) => `"${s}"`).join(', ')}: its runs are published as their own machine, never compared with the others`);
    // the same hardware under another name: two identical machines (cloud instances of one type), or
    // someone's runs published again under a new name
    const twins = known ? [] : [...new Set(accepted.filter((a) => nameOf(a.host).toLowerCase() !== nameOf(run.host).toLowerCase() && hostFingerprint(a.host) === hostFingerprint(run.host)).map((a) => a.host.id))];
    if (twins.length)
      (f.review ??= []).push(`new machine "${run.host.id}" has the same hardware as ${twins.map((t) => `"${t}"`).join(', ')} (another name): check it is another machine, not the same one's runs under a new name`);
    if (mode === 'submission') {
      // every name main knows (runs, registered owners), project machines included
      const lookalike = lookalikeOf(nameOf(run.host), new Set([...accepted.map((a) => nameOf(a.host)), ...[...registry.values()].map((h) => h.id)]));
      if (lookalike) add(['host', 'name'], `${lookalike}: choose a name readers cannot mistake for another machine's`);
    }
    if (mode === 'submission') checkOwner(f, nameOf(run.host), registry, { login: opts.author, id: opts.authorId }, accepted.some((a) => nameOf(a.host).toLowerCase() === nameOf(run.host).toLowerCase()), add);
    const measuredKeys = new Set(run.series.filter((s) => s.status === 'measured').map((s) => s.key));
    f.adds = { newKeys: [...measuredKeys].filter((k) => !keys.has(k)).length, earlierRunsOfHost: accepted.filter((a) => a.host.id === run.host.id).length };
    if (!known) hosts.set(run.host.id.toLowerCase(), { fp: hostFingerprint(run.host), id: run.host.id, file: f.file });
    const replay = replays.get(f);
    if (replay && !f.problems.some((p) => p.path === '$.runId')) add(['series'], `duplicate: the measurements of ${replay}: a run is measured once and submitted once`);
  }
  const growth = summaryGrowth(acceptedRoot, files);
  if (growth > LIMITS.maxSummaryGrowthBytes)
    problems.push({ file: `(${files.length} files)`, path: '$', message: `would grow data/summary.json by about ${mib(growth)} (limit ${mib(LIMITS.maxSummaryGrowthBytes)}): ${SPLIT_CHANGE}` });
  const ok = problems.length === 0 && files.every((f) => f.problems.length === 0);
  return { ok, mode, files, problems };
}

/**
 * A registered host takes runs only from its owner's account (by id; by login where the id was not given).
 * A new name is flagged for a maintainer, who registers it (the pull request's author as owner, login and
 * account id) when merging; a name that already has accepted runs takes no more until it is registered,
 * so nobody else can add runs to it or replace its published description (the newest run's).
 */
function checkOwner(
  f: FileReport,
  hostId: string,
  registry: Map<string, HostRegistry['hosts'][number]>,
  author: { login?: string; id?: number },
  hasRuns: boolean,
  add: (path: PropertyKey[], message: string) => void,
): void {
  const entry = registry.get(hostId.toLowerCase());
  const review = (f.review ??= []);
  const who = author.login === undefined ? '' : ` ${author.login}${author.id === undefined ? '' : ` (account id ${author.id})`}`;
  if (!entry && hasRuns) {
    add(['host', 'name'], `"${hostId}" has accepted runs but no owner in ${HOSTS_FILE}: a maintainer registers its owner (GitHub login and account id) before more runs are accepted`);
  } else if (!entry) {
    review.push(`new host "${hostId}": not in ${HOSTS_FILE}. Check the machine description, then register it${who ? ` with owner${who}` : ''} when merging`);
  } else if (author.login === undefined) {
    review.push(`host "${hostId}" belongs to ${entry.owner} (${HOSTS_FILE}); the author was not given, so ownership was not checked`);
  } else if (author.id !== undefined ? entry.ownerId !== author.id : entry.owner.toLowerCase() !== author.login.toLowerCase()) {
    add(['host', 'id'], `host "${entry.id}" belongs to ${entry.owner} (account ${entry.ownerId}, ${HOSTS_FILE}): a pull request by${who.replace('account id', 'account')} cannot add runs for it; choose your own host id`);
  } else if (author.id === undefined) {
    review.push(`host "${hostId}" belongs to ${entry.owner} (account ${entry.ownerId}, ${HOSTS_FILE}); the author's account id was not given (--author-id), so only the login was compared`);
  }
}

/** `git diff --name-status -z` output, read without trusting file names (they may contain anything). */
export function parseNameStatus(z: string): ChangedFile[] {
  const parts = z.split('\0').filter((p) => p !== '');
  const out: ChangedFile[] = [];
  for (let i = 0; i < parts.length; ) {
    const code = parts[i++]!;
    const status: ChangeStatus = code === 'A' ? 'added' : code === 'M' ? 'modified' : code === 'D' ? 'deleted' : 'other';
    // renames and copies carry two paths; report the new one (the change is refused as 'other')
    if (/^[RC]/.test(code)) i++;
    out.push({ path: parts[i++] ?? '', status });
  }
  return out;
}

export function changedSince(root: string, base: string): ChangedFile[] {
  const z = execFileSync('git', ['-C', root, 'diff', '--name-status', '-z', '--no-renames', `${base}...HEAD`], { encoding: 'utf8', maxBuffer: 64 << 20 });
  return parseNameStatus(z);
}

/** Files under data/runs/ (and the other folders given) that git does not track yet: what a bench run just wrote. */
export function untrackedRuns(root: string, folders = ['runs']): ChangedFile[] {
  const dirs = folders.map((f) => `data/${f}`);
  const z = execFileSync('git', ['-C', root, 'ls-files', '-z', '--others', '--exclude-standard', '--', ...dirs], { encoding: 'utf8', maxBuffer: 64 << 20 });
  return z.split('\0').filter(Boolean).map((path) => ({ path, status: 'added' as const }));
}

// ---------------------------------------------------------------- the readable report

/** Untrusted text inside Markdown: no markup, no links, no table breaks, one line. */
export function mdText(s: string, max = 120): string {
  const clipped = s.length > max ? `${s.slice(0, max)}…` : s;
  return clipped.replace(/[\r\n\t]+/g, ' ').replace(/[&<>"'`|*_[\]#\\~{}]/g, (c) => `&#${c.charCodeAt(0)};`);
}

export function formatSummary(report: Report): string {
  const reviews = report.files.flatMap((f) => f.review ?? []);
  const lines = [`## Run submission: ${report.ok ? (reviews.length ? 'valid, needs a maintainer\'s review' : 'accepted') : 'rejected'}`, ''];
  for (const f of report.files) {
    lines.push(`### \`${mdText(f.file.replace(/`/g, "'"))}\`${f.problems.length ? ' (rejected)' : ''}`, '');
    const run = f.run;
    if (!run && f.kind && !f.problems.length) lines.push(`- ${mdText(f.kind)} result`, '');
    if (run) {
      const measured = run.series.filter((s) => s.status === 'measured').length;
      const versions = [...new Set(run.builds.map((b) => (b.variant === 'default' ? b.version : `${b.version} ${b.variant}`)))];
      lines.push(
        `- host **${mdText(run.host.id)}**${f.newHost ? ' (new host)' : ''}: ${mdText(run.host.cpuModel)}, ${run.host.logicalCpus} logical CPUs, ${mdText(run.host.arch)}, ${mdText(run.host.os)}, governor ${mdText(run.host.cpuGovernor ?? 'unknown')}${run.host.virtualization ? `, virtualised (${mdText(run.host.virtualization)})` : ''}`,
        `- ${run.mode} run \`${mdText(run.runId)}\`, ${mdText(run.startedAt)} to ${mdText(run.finishedAt)}, ${run.plan.rounds} rounds + ${run.plan.warmupRounds} warm-up`,
        `- versions: ${versions.map((v) => mdText(v)).join(', ')}`,
        `- benchmarks: ${run.plan.benchmarks.map((b) => mdText(b)).join(', ')}; ${measured} measured series, ${run.series.length - measured} unsupported or failed`,
        ...(f.adds ? [`- adds ${f.adds.newKeys} measured series that no accepted run has; ${f.adds.earlierRunsOfHost} earlier run(s) from this host${f.adds.summaryBytes ? `; about ${mib(f.adds.summaryBytes)} more in data/summary.json` : ''}`] : []),
        '',
      );
    }
    for (const r of f.review ?? []) lines.push(`- **needs review:** ${mdText(r, 300)}`);
    if (f.review?.length) lines.push('');
  }
  const all = [...report.problems, ...report.files.flatMap((f) => f.problems)];
  if (all.length) {
    lines.push('| file | JSON path | problem |', '|---|---|---|');
    for (const p of all.slice(0, 200)) lines.push(`| ${mdText(p.file)} | ${mdText(p.path)} | ${mdText(p.message, 300)} |`);
    if (all.length > 200) lines.push(`| … | | ${all.length - 200} more |`);
  }
  return lines.join('\n') + '\n';
}

/**
 * One line of the console log from untrusted text (file names, parameter values, messages quoting them):
 * in GitHub Actions a line starting "::" is a workflow command (an annotation, a masked value), so "%", CR
 * and LF are escaped as GitHub documents for command data; the text can then never start a line.
 */
export const logLine = (s: string): string => s.replace(/%/g, '%25').replace(/\r/g, '%0D').replace(/\n/g, '%0A');

export function formatProblems(report: Report): string {
  return [...report.problems, ...report.files.flatMap((f) => f.problems)].map((p) => logLine(`${p.file}: ${p.path}: ${p.message}`)).join('\n');
}

function main(): void {
  const cli = commandLine('validate', openingComment(import.meta.url), {
    base: { type: 'string' },
    untracked: { type: 'boolean', default: false },
    root: { type: 'string', default: '.' },
    'accepted-root': { type: 'string' },
    runner: { type: 'boolean', default: false },
    author: { type: 'string' },
    'author-id': { type: 'string' },
    summary: { type: 'string' },
  });
  const { values, positionals } = cli;
  const fail: (message: string) => never = cli.fail;
  const sources = [values.base !== undefined, values.untracked, positionals.length > 0].filter(Boolean).length;
  if (sources !== 1) fail('give exactly one of --base REF, --untracked or file paths');
  if (values.author !== undefined && !githubLogin.safeParse(values.author).success) fail(`--author ${JSON.stringify(values.author)} is not a GitHub login`);
  const authorId = values['author-id'] === undefined ? undefined : Number(values['author-id']);
  if (authorId !== undefined && (values.author === undefined || !/^[1-9][0-9]{0,15}$/.test(values['author-id']!)))
    fail(`--author-id ${JSON.stringify(values['author-id'])} must be a GitHub account id (a positive number), given with --author`);
  const changed = values.base
    ? changedSince(values.root, values.base)
    : values.untracked
      ? untrackedRuns(values.root, FOLDERS[values.runner ? 'runner' : 'submission'])
      : positionals.map((path) => ({ path, status: 'added' as const }));
  const mode = values.runner ? 'runner' : 'submission';
  const report = validateSubmission({ root: values.root, acceptedRoot: values['accepted-root'], changed, mode, author: values.author, authorId });
  if (values.summary) writeFileSync(values.summary, formatSummary(report), { flag: 'a' });
  // in GitHub Actions, an annotation on the check
  const warn = process.env.GITHUB_ACTIONS === 'true' ? '::warning::' : '';
  for (const f of report.files) for (const r of f.review ?? []) console.log(`${warn}${logLine(`needs review: ${f.file}: ${r}`)}`);
  if (report.ok) console.log(`ok: ${report.files.length} run file(s) valid`);
  else console.error(`rejected:\n${formatProblems(report)}`);
  process.exit(report.ok ? 0 : 1);
}

if (import.meta.main) main();
