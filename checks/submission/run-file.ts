// One submitted file on its own: where it lies, its bytes, its JSON text (duplicate keys, depth, markup,
// invisible characters), the schema, and what the schema cannot express (plausible values, catalogued
// builds, registered series, the machine id, provenance).
import { existsSync, lstatSync, readFileSync } from 'node:fs';
import { join, posix } from 'node:path';
import { isDeepStrictEqual } from 'node:util';
import {
  DataFileError,
  HypothesisResult,
  Run,
  decodeRunBytes,
  describeMachine,
  machineId,
  misplacedRun,
  safeId,
  RUN_FILE_SUFFIX,
  type Build,
} from '../../schema/index.ts';
import { seriesKey, type SeriesSpec } from '../../runner/benchmark.ts';
import { BENCHMARKS } from '../../runner/benchmarks.ts';
import { registeredSeries } from '../../runner/series-registry.ts';
import { LIBRARY_NAMES, cataloguedRelease, variantAllowed } from '../../catalogue/index.ts';
import { isReservedHostId, RESERVED_HOST_PREFIXES } from '../../catalogue/hosts.ts';
import { checkProvenance } from '../provenance.ts';
import { BOUNDS, FOLDERS, LIMITS, MAX_PARALLEL, SPLIT_RUN, mib } from './limits.ts';
import type { FileReport, Problem, Report } from './report.ts';

/** data/runs/<host>/<YYYY>/<MM>/<runId>.json.br (schema/storage.ts) or data/hypothesis/<host>/<runId>.json */
const escaped = (text: string) => text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
const DATA_PATH = new RegExp(`^data/(?:(runs)/([^/]+)/(\\d{4})/(\\d{2})/([^/]+)${escaped(RUN_FILE_SUFFIX)}|(hypothesis)/([^/]+)/([^/]+)\\.json)$`);
const PATH_FORM: Record<string, string> = { runs: `data/runs/<host>/<YYYY>/<MM>/<runId>${RUN_FILE_SUFFIX}`, hypothesis: 'data/hypothesis/<host>/<runId>.json' };
/** folder, host, file name part of the run id and the folders between, or null */
export function locate(file: string): { folder: string; host: string; runId: string; dirs: string[] } | null {
  const m = DATA_PATH.exec(file);
  if (!m) return null;
  return m[1] ? { folder: 'runs', host: m[2]!, runId: m[5]!, dirs: [m[2]!, m[3]!, m[4]!] } : { folder: 'hypothesis', host: m[7]!, runId: m[8]!, dirs: [m[7]!] };
}

const MARKUP = /<[/!?]?[a-zA-Z]|javascript\s*:|data\s*:\s*text\/html/i;
/**
 * Characters that display as nothing, as a space that is not one, or that reorder or alter the text
 * around them: a reviewer would read something other than what the file says. Format characters (Cf:
 * bidi controls, zero-width characters, U+00AD, U+061C, U+2060, tags), controls other than tab and
 * newline, private-use, unpaired surrogates and unassigned code points, line and paragraph separators,
 * every space but U+0020, and the letters and marks that render blank (Hangul fillers, Braille blank,
 * combining grapheme joiner, variation selectors).
 */
const INVISIBLE =
  /[\p{Cf}\p{Co}\p{Cs}\p{Cn}\p{Zl}\p{Zp}\u0000-\u0008\u000b-\u001f\u007f-\u009f\u00a0\u1680\u2000-\u200a\u202f\u205f\u3000\u034f\u115f\u1160\u17b4\u17b5\u180b-\u180f\u2800\u3164\uffa0\ufe00-\ufe0f\u{e0100}-\u{e01ef}]/u;
/** "U+2060" for the first invisible character of a string. */
function invisibleIn(s: string): string | null {
  const m = INVISIBLE.exec(s);
  return m ? `U+${m[0].codePointAt(0)!.toString(16).toUpperCase().padStart(4, '0')}` : null;
}
const FORBIDDEN_KEYS = new Set(['__proto__', 'constructor', 'prototype']);

export function jsonPath(segments: readonly PropertyKey[]): string {
  return segments.reduce<string>(
    (acc, s) =>
      typeof s === 'number' ? `${acc}[${s}]` : /^[A-Za-z_][A-Za-z0-9_]*$/.test(String(s)) ? `${acc}.${String(s)}` : `${acc}[${JSON.stringify(String(s))}]`,
    '$',
  );
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
        add(
          ['series', i, 'iterations', j, 'value'],
          `${it.value} ${specs[i]?.unit ?? s.unit} is not plausible (bound ${max.toExponential(1)}${parallel > 1 ? ` for ${parallel} threads` : ''}: ${bound.why})`,
        );
      else if (it.value === 0 ? !bound.zero : it.value < bound.min)
        add(
          ['series', i, 'iterations', j, 'value'],
          `${it.value} ${specs[i]?.unit ?? s.unit} is not a measurement (${bound.zero ? 'neither 0 nor ' : ''}at least ${bound.min}: ${bound.whyMin})`,
        );
      const at = Date.parse(it.at);
      if (at < started - slack || at > finished + slack) add(['series', i, 'iterations', j, 'at'], 'outside the run (startedAt..finishedAt)');
    });
  });
  checkMachineId(run.host, add);
  if (mode === 'submission') {
    if (isReservedHostId(nameOf(run.host)))
      add(
        ['host', 'id'],
        `host ids starting with ${RESERVED_HOST_PREFIXES.map((p) => `"${p}"`).join(' or ')} (in any letter case) are reserved for the project's bench runners`,
      );
    // a reproduction (npm run reproduce) measures what one write-up's claims need until they are decided:
    // its mode and rounds come from that write-up and its stopping rule, not from the full matrix
    const reproduces = run.plan.reproduces;
    if (reproduces && !existsSync(join(import.meta.dirname, '..', '..', 'site', 'src', 'content', 'writeups', `${reproduces}.md`)))
      add(['plan', 'reproduces'], `reproduces write-up "${reproduces}", which does not exist`);
    if (!reproduces && run.mode !== 'full')
      add(['mode'], 'submissions must be full runs (npm run submit) or reproductions (npm run reproduce), not quick ones');
    if (!reproduces && run.plan.rounds < 5) add(['plan', 'rounds'], 'a published run needs at least 5 measured rounds');
    if (run.harness.gitDirty || run.harness.gitCommit === 'unknown')
      add(['harness'], 'run from a clean checkout of a known commit, so the numbers can be traced to the harness code');
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
  const registries = new Map(
    run.builds.map((b) => {
      const known = cataloguedRelease(b);
      return [b.id, known ? registeredSeries({ library: b.library, version: b.version, series: known.series, variant: b.variant }) : undefined] as const;
    }),
  );
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
      else
        add(
          ['series', i, 'key'],
          `"${key}" is not a series the runner's ${s.benchmark} benchmark writes for build ${s.buildId} (runner/series-registry.ts): unknown metric or params`,
        );
      return undefined;
    }
    for (const f of SPEC_FIELDS)
      if (!isDeepStrictEqual(s[f], spec[f]))
        add(['series', i, f], `${JSON.stringify(s[f])} is not this series' ${f}: the runner writes ${JSON.stringify(spec[f])}`);
    return spec;
  });
  for (const [id, keys] of perBuild)
    if (keys.size > LIMITS.maxSeriesPerBuild) add(['series'], `${keys.size} series of build ${id} (limit ${LIMITS.maxSeriesPerBuild}): ${SPLIT_RUN}`);
  const keys = new Set(run.series.map((s) => s.key));
  if (keys.size > LIMITS.maxKeysPerRun) add(['series'], `${keys.size} distinct series keys (limit ${LIMITS.maxKeysPerRun}): ${SPLIT_RUN}`);
  return specs;
}

/** Every build is a catalogued version, built from the exact source bytes the catalogue pins. */
function checkBuilds(builds: readonly Build[], add: (path: PropertyKey[], message: string) => void): void {
  builds.forEach((b, i) => {
    const known = cataloguedRelease(b);
    if (!known)
      return add(
        ['builds', i, 'version'],
        `${LIBRARY_NAMES[b.library]} ${b.version} is not in the catalogue (catalogue/openssl.ts, catalogue/libraries.ts): only catalogued, hash-pinned versions are accepted`,
      );
    if (b.series !== known.series) add(['builds', i, 'series'], `${b.version} belongs to series ${known.series}, not ${b.series}`);
    const variant = variantAllowed(known, b.variant);
    if (variant) add(['builds', i, 'variant'], variant);
    const pins = known.sources.filter((s) => s.kind === b.source.kind);
    if (!pins.length)
      add(
        ['builds', i, 'source', 'kind'],
        `the catalogue has no ${b.source.kind} source for ${b.version} (it has: ${known.sources.map((s) => s.kind).join(', ')})`,
      );
    else if (!pins.some((s) => s.sha256 === b.source.sha256))
      add(
        ['builds', i, 'source', 'sha256'],
        `is not the catalogue's pin for ${b.version} (${b.source.kind}: ${pins.map((s) => s.sha256).join(' or ')}): the build came from other source bytes`,
      );
  });
}

/** The name a host record was given (records from before machine ids: their id). Ownership goes by name. */
export const nameOf = (host: Run['host']) => host.name ?? host.id;

/**
 * A run names its machine by the id of its own hardware: <name>.<cpu>-<fingerprint>. An id that is not
 * that (another machine's id, or hardware edited after the run) is refused with the id it should have.
 */
function checkMachineId(host: Run['host'], add: (path: PropertyKey[], message: string) => void): void {
  if (host.name === undefined) {
    add(
      ['host', 'name'],
      'missing: a run names its machine as <name>.<cpu>-<fingerprint> with host.name the name chosen; this file comes from a runner older than machine ids: measure again with the current npm run bench',
    );
    return;
  }
  const expected = machineId(host.name, host);
  if (host.id !== expected)
    add(
      ['host', 'id'],
      `"${host.id}" is not the machine id of the hardware this run describes (${describeMachine(host)}): expected "${expected}". The id is the name plus the hardware's fingerprint, and npm run bench writes it; a run on other hardware is another machine`,
    );
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
    if (!st) return (add([], 'file does not exist'), report);
    if (st.isSymbolicLink()) return (add([], `${p === abs ? 'file' : 'folder'} ${p.slice(root.length + 1)} is a symbolic link`), report);
  }
  const st = lstatSync(abs);
  if (!st.isFile()) return (add([], 'not a regular file'), report);
  report.bytes = st.size;
  if (st.size > LIMITS.maxFileBytes) return (add([], `file is ${st.size} bytes stored (limit ${mib(LIMITS.maxFileBytes)}): ${SPLIT_RUN}`), report);
  let raw: unknown;
  let text: string;
  try {
    // the one decoder of run files (schema/storage.ts): brotli or gzip by the name, inflating stopped at the cap
    text = decodeRunBytes(readFileSync(abs), file, { maxFileBytes: LIMITS.maxFileBytes, maxJsonBytes: LIMITS.maxJsonBytes });
    raw = JSON.parse(text);
  } catch (e) {
    const message = e instanceof DataFileError ? e.message.slice(file.length + 2) : (e as Error).message;
    return (add([], /more than|bytes of JSON/.test(message) ? `${message}: ${SPLIT_RUN}` : `not valid UTF-8 JSON: ${message}`), report);
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
