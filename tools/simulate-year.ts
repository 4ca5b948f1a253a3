// What years of nightly runs do to the repository, the aggregation and the site: generates N SYNTHETIC
// nightly full runs for H hosts into a scratch git repository (never into data/), commits every night
// as bench.yml would (the run files plus the derived files), and measures repository growth, the largest
// file, the aggregation's time and memory, the site build and what each page transfers.
//
//   node tools/simulate-year.ts --out DIR [--nights 365] [--hosts 4] [--phases generate,aggregate,site]
//        [--rounds 6] [--series-every-months 6] [--scale 1] [--results FILE]
//
// Every run is shaped like the archived real full run (its series, parameters, iteration counts and
// timestamps; data/archive/contaminated/), with the speed, aead and s-time series of the archived quick
// run of the same matrix, 3.5's no-ml-kem variant, --rounds measured rounds and one new release series
// every --series-every-months. Values move like a real machine's: a per-host level, slow drift, steps at
// kernel, microcode and compiler changes, noise per iteration; deterministic counts change only with the
// compiler. Hosts and runs say SYNTHETIC in their note and notes. Resumable: run it again with the same
// --out and it continues after the last committed night; with a larger --nights it extends a finished
// simulation (3 years continue 1 year's nights). --scale < 1 keeps that share of the series
// (tests). The machine may be shared while it runs: the times it reports are those of this machine then.
import { execFileSync, spawnSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { cpus, freemem, loadavg, totalmem } from 'node:os';
import { existsSync, mkdirSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { dirname, join, relative } from 'node:path';
import { commandLine, openingComment } from '../runner/cli.ts';
import {
  Series as SeriesSchema,
  bySeriesKeyThenBuild,
  encodeRunFile,
  readRunFile,
  runFilePath,
  type Build,
  type Host,
  type Run,
  type RunRecord,
  type Series,
} from '../schema/index.ts';
import { derive, writeDerived } from '../scripts/aggregate.ts';
import { readTimeseries, recordOf, serializeTimeseries } from '../analysis/history.ts';
import { seededRandom } from '../analysis/stats.ts';

export const SYNTHETIC = 'SYNTHETIC: made by tools/simulate-year.ts, not a measurement';
const REPO = new URL('../', import.meta.url).pathname;
const ARCHIVE = join(REPO, 'data/archive/contaminated/runs/obs-devbox-2c/2026/11');
const TEMPLATE_FULL = '20261122T040846Z-full-b88e.json.br';
const TEMPLATE_OTHERS = '20261122T033253Z-quick-2ea4.json.br';
/**
 * Brotli quality of the synthetic run files: the runner's 11 takes ~9 s per file (4 hosts x 1,095 nights
 * would take 11 hours); 9 takes ~0.2 s and makes files ~30% larger, so the growth measured here is an
 * upper bound of the runner's.
 */
export const SIM_RUN_FILE_QUALITY = 9;

export interface SimOptions {
  out: string;
  nights: number;
  hosts: number;
  rounds: number;
  seriesEveryMonths: number;
  scale: number;
  /** first night (UTC date) */
  start: string;
  /** nights between two looks at the largest file and the repository's size */
  checkpointEvery: number;
  /** nights between two measured pushes (the thin pack a night's commit sends) */
  pushEvery: number;
  log: (line: string) => void;
}

// ---------------------------------------------------------------- the template

interface TemplateSeries {
  spec: Omit<Series, 'iterations' | 'buildId'>;
  /** median of the measured values; null for unsupported or failed series */
  center: number | null;
  deterministic: boolean;
  /**
   * the values are whole multiples of 1/denominator (a time in whole microseconds over a count, a rate
   * printed with two decimals...), null when they are not: synthetic values are made the same way, so
   * they carry as many digits, and compress as well, as real ones
   */
  denominator: number | null;
  /** once per run (instruction counts) or every round */
  once: boolean;
  /** template time offsets (ms from the run's start) of round 0..k */
  offsets: number[];
}
interface TemplateBuild {
  build: Build;
  series: TemplateSeries[];
}
interface Template {
  builds: TemplateBuild[];
  benchmarks: string[];
  /** ms from start to the last template iteration */
  span: number;
}

const DENOMINATORS = Array.from({ length: 7 }, (_, k) => Array.from({ length: 64 }, (_, m) => (m + 1) * 10 ** k))
  .flat()
  .sort((a, b) => a - b);
/** The smallest d (m x 10^k) for which every value times d is a whole number, or null. */
function denominatorOf(values: number[]): number | null {
  if (!values.length) return null;
  const whole = (x: number) => Math.abs(x - Math.round(x)) < Math.min(1e-3, 1e-9 * Math.abs(x) + 1e-6);
  return DENOMINATORS.find((d) => values.every((v) => whole(v * d))) ?? null;
}

/** The archived full run's handshake series plus the archived quick run's speed, aead and s-time series, per build. */
export function loadTemplate(scale = 1): Template {
  const full = readRunFile(join(ARCHIVE, TEMPLATE_FULL));
  const others = readRunFile(join(ARCHIVE, TEMPLATE_OTHERS));
  const fullSpan = Date.parse(full.finishedAt) - Date.parse(full.startedAt);
  const pick = (run: Run, benchmarks: string[], shift: number) => {
    const byVersion = new Map<string, TemplateSeries[]>();
    const start = Date.parse(run.startedAt);
    run.series.forEach((s, i) => {
      if (!benchmarks.includes(s.benchmark)) return;
      if (scale < 1 && Math.floor(i * scale) === Math.floor((i - 1) * scale)) return;
      const version = run.builds.find((b) => b.id === s.buildId)!.version;
      const { iterations, buildId: _b, ...spec } = s;
      void _b;
      const measured = iterations.filter((it) => !it.warmup).map((it) => it.value);
      const sorted = [...measured].sort((a, b) => a - b);
      const list = byVersion.get(version) ?? [];
      list.push({
        spec,
        center: s.status === 'measured' && sorted.length ? sorted[sorted.length >> 1]! : null,
        deterministic: ['instruction-count', 'heap-bytes', 'wire-bytes'].includes(s.method),
        denominator: denominatorOf(iterations.map((it) => it.value)),
        once: s.status === 'measured' && iterations.length === 1,
        offsets: iterations.map((it) => Date.parse(it.at) - start + shift),
      });
      byVersion.set(version, list);
    });
    return byVersion;
  };
  const hs = pick(full, ['handshake'], 0);
  const rest = pick(others, ['speed', 'aead', 's-time'], fullSpan);
  const builds: TemplateBuild[] = full.builds.map((build) => ({ build, series: [...(hs.get(build.version) ?? []), ...(rest.get(build.version) ?? [])] }));
  // the default matrix also builds 3.5 without ML-KEM: the same series, its ML-KEM ones unsupported
  const b35 = builds.find((b) => b.build.series === '3.5')!;
  builds.push({
    build: { ...b35.build, id: `${b35.build.id.slice(0, 12)}nmlk`, variant: 'no-ml-kem', configureArgs: [...b35.build.configureArgs, 'no-ml-kem'] },
    series: b35.series.map((t) =>
      /mlkem|ml-kem/i.test(t.spec.key)
        ? { ...t, spec: { ...t.spec, status: 'unsupported' as const, reason: 'this build has no ML-KEM (no-ml-kem)' }, center: null, once: false, offsets: [] }
        : t,
    ),
  });
  const span = Math.max(...builds.flatMap((b) => b.series.flatMap((s) => s.offsets)));
  return { builds, benchmarks: ['handshake', 'speed', 'aead', 's-time'], span };
}

// ---------------------------------------------------------------- deterministic randomness

/** A number in [0, 1) from any list of keys: the same keys always give the same number. */
function u(...keys: (string | number)[]): number {
  return createHash('sha256').update(keys.join('|')).digest().readUInt32BE(0) / 2 ** 32;
}
/** A standard normal from keys. */
const z = (...keys: (string | number)[]) => Math.sqrt(-2 * Math.log(1 - u(...keys, 'a'))) * Math.cos(2 * Math.PI * u(...keys, 'b'));

/** How many times an event of probability p per night has happened up to this night: changes of kernel, compiler... */
function epoch(host: number, what: string, night: number, p: number): number {
  let n = 0;
  for (let i = 1; i <= night; i++) if (u(host, what, i) < p) n++;
  return n;
}

const DAY = 86_400_000;

// ---------------------------------------------------------------- one night of one host

export interface HostState {
  kernel: number;
  microcode: number;
  compiler: number;
  commit: number;
  os: number;
}

export function hostState(host: number, night: number): HostState {
  return {
    kernel: epoch(host, 'kernel', night, 1 / 45),
    microcode: epoch(host, 'microcode', night, 1 / 150),
    compiler: epoch(host, 'compiler', night, 1 / 200),
    commit: epoch(0, 'commit', night, 1 / 4), // one repository: every host runs the same commit
    os: night >= 540 ? 1 : 0,
  };
}

/** New release series appear every `every` months after the template's newest (4.0): 4.1, 4.2, ... */
export function releasedSeries(night: number, everyMonths: number): string[] {
  if (everyMonths <= 0) return [];
  const count = Math.floor(night / (everyMonths * 30.4));
  return Array.from({ length: count }, (_, i) => `4.${i + 1}.0`);
}

function hostRecord(h: number, st: HostState): Host {
  return {
    id: `sim-host-${h + 1}`,
    arch: 'x64',
    cpuModel: `Synthetic CPU model ${h + 1}`,
    cpuFlags: {
      aesni: true,
      pclmulqdq: true,
      shani: h % 2 === 0,
      avx2: true,
      avx512f: h % 2 === 1,
      vaes: h % 2 === 1,
      vpclmulqdq: h % 2 === 1,
      adx: true,
      bmi2: true,
    },
    logicalCpus: 2 * (h + 1),
    memoryBytes: 8 * 2 ** 30 * (h + 1),
    kernel: `6.${1 + st.os * 11}.${100 + st.kernel}-amd64`,
    os: st.os ? 'Debian GNU/Linux 13 (trixie)' : 'Debian GNU/Linux 12 (bookworm)',
    virtualization: null,
    cpuGovernor: 'performance',
    boost: 'off',
    smt: 'off',
    microcode: `0x${(0x0a001000 + st.microcode + h * 0x100).toString(16)}`,
    note: `${SYNTHETIC}: host ${h + 1} of a simulated fleet`,
  };
}

const iso = (ms: number) => new Date(ms).toISOString();
const SERIES_KEYS = Object.keys(SeriesSchema.shape);
/** Keys in the order the schema gives them, as a parsed run file has them (the content hash depends on it). */
const inSchemaOrder = (s: Series): Series => Object.fromEntries(SERIES_KEYS.filter((k) => k in s).map((k) => [k, s[k as keyof Series]])) as Series;

/** One synthetic nightly full run of host h. */
export function synthesizeRun(t: Template, h: number, night: number, o: Pick<SimOptions, 'rounds' | 'seriesEveryMonths' | 'start'>): Run {
  const st = hostState(h, night);
  const start = Date.parse(o.start) + night * DAY + (2 * 60 + 7 * h) * 60_000;
  const rand = seededRandom(Math.floor(u('run', h, night) * 2 ** 31));
  const gauss = () => Math.sqrt(-2 * Math.log(1 - rand())) * Math.cos(2 * Math.PI * rand());
  const compiler = `gcc (Debian ${12 + st.compiler}.2.0-14) ${12 + st.compiler}.2.0`;
  const builtAt = iso(Date.parse(o.start) + (night - 1) * DAY);
  const builds: TemplateBuild[] = [...t.builds];
  const newest = t.builds.find((b) => b.build.version === '4.0.3')!;
  for (const version of releasedSeries(night, o.seriesEveryMonths))
    builds.push({
      build: { ...newest.build, version, series: version.split('.').slice(0, 2).join('.'), versionString: `OpenSSL ${version} (synthetic)` },
      series: newest.series,
    });
  const buildRecords: Build[] = builds.map((b) => ({
    ...b.build,
    id: createHash('sha256').update(`${b.build.version}|${b.build.variant}|${compiler}`).digest('hex').slice(0, 16),
    compiler,
    builtAt,
  }));
  const level = 0.7 + 0.6 * u('host', h);
  const drift = 0.01 * Math.sin((2 * Math.PI * night) / 90 + 6 * u('phase', h)) + 0.004 * Math.sin((2 * Math.PI * night) / 17 + 6 * u('phase2', h));
  const step = 0.02 * z('kernel', h, st.kernel) + 0.01 * z('microcode', h, st.microcode) + 0.03 * z('compiler', h, st.compiler);
  const totalRounds = o.rounds + 1;
  const series: Series[] = [];
  builds.forEach((b, bi) => {
    const versionShift = bi >= t.builds.length ? 0.05 * z('release', b.build.version) : 0;
    for (const ts of b.series) {
      const iterations: Series['iterations'] = [];
      if (ts.center !== null) {
        const n = ts.once ? 1 : totalRounds;
        const base = ts.deterministic
          ? ts.center * (1 + 0.01 * z('det', ts.spec.key, st.compiler) + versionShift)
          : ts.center * level * Math.exp(drift + step + versionShift);
        const sigma = ts.deterministic ? 0 : ts.spec.method === 'wall-clock-throughput' ? 0.05 : ts.spec.method === 'openssl-speed' ? 0.01 : 0.02;
        const span = ts.offsets.length > 1 ? ts.offsets[ts.offsets.length - 1]! - ts.offsets[ts.offsets.length - 2]! : 60_000;
        for (let r = 0; r < n; r++) {
          const round = ts.once ? 1 : r;
          let v = base * Math.exp(sigma * gauss());
          if (ts.denominator !== null) v = Math.round(v * ts.denominator) / ts.denominator;
          const offset = r < ts.offsets.length ? ts.offsets[r]! : ts.offsets[ts.offsets.length - 1]! + (r - ts.offsets.length + 1) * span;
          iterations.push({ round, value: Math.max(v, 0), at: iso(start + offset), warmup: round === 0 });
        }
      }
      series.push(inSchemaOrder({ ...ts.spec, buildId: buildRecords[bi]!.id, iterations }));
    }
  });
  series.sort(bySeriesKeyThenBuild); // as the runner writes them
  const quiet = u('quiet', h, night) >= 0.05;
  let last = start;
  for (const s of series) for (const it of s.iterations) last = Math.max(last, Date.parse(it.at));
  const finished = last + 60_000;
  const snap = (at: number) => ({
    at: iso(at),
    windowSeconds: 60,
    loadAverage: [0.02, 0.05, 0.1] as [number, number, number],
    stealPercent: 0,
    iowaitPercent: 0.1,
    otherBusyPercent: quiet ? 0.4 : 35,
    busiestOthers: [],
    governor: 'performance',
    boost: 'off',
  });
  return {
    schemaVersion: 1,
    kind: 'run',
    runId: `${iso(start)
      .replace(/[-:]/g, '')
      .replace(/\.\d+Z$/, 'Z')}-full-s${(h + 1).toString(16)}${(night % 4096).toString(16).padStart(3, '0')}`,
    mode: 'full',
    startedAt: iso(start),
    finishedAt: iso(finished),
    host: hostRecord(h, st),
    harness: { gitCommit: createHash('sha1').update(`commit ${st.commit}`).digest('hex'), gitDirty: false, node: 'v24.21.0' },
    plan: {
      benchmarks: t.benchmarks,
      rounds: o.rounds,
      warmupRounds: 1,
      order: Array.from({ length: totalRounds }, (_, r) => buildRecords.map((_, i) => buildRecords[(i + r) % buildRecords.length]!.id)),
    },
    builds: buildRecords,
    series,
    notes: [`${SYNTHETIC} (night ${night + 1} of host ${h + 1})`],
    quiet: {
      thresholds: { otherBusyPercent: 10 },
      exclusive: true,
      before: { ...snap(start - 60_000), quiet: true, reasons: [] },
      rounds: Array.from({ length: o.rounds }, (_, r) => ({
        ...snap(start + ((r + 1) * t.span) / totalRounds),
        quiet: quiet || r !== 2,
        reasons: quiet || r !== 2 ? [] : ['other processes used 35% of a CPU over the window (limit 10%) (synthetic)'],
        round: r + 1,
      })),
      quiet,
    },
  };
}

// ---------------------------------------------------------------- the scratch repository

function git(repo: string, ...args: string[]): string {
  return execFileSync('git', ['-C', repo, ...args], {
    encoding: 'utf8',
    maxBuffer: 256 << 20,
    env: {
      ...process.env,
      GIT_AUTHOR_NAME: 'sim',
      GIT_AUTHOR_EMAIL: 'sim@example.invalid',
      GIT_COMMITTER_NAME: 'sim',
      GIT_COMMITTER_EMAIL: 'sim@example.invalid',
    },
  });
}

/** `git count-objects -v` in bytes: loose objects and packs, zlib-compressed as git stores them. */
export function gitSize(repo: string): { loose: number; pack: number; packs: number } {
  const kv = Object.fromEntries(
    git(repo, 'count-objects', '-v')
      .trim()
      .split('\n')
      .map((l) => l.split(': ') as [string, string]),
  );
  return { loose: Number(kv.size) * 1024, pack: Number(kv['size-pack']) * 1024, packs: Number(kv.packs) };
}

/** The largest file git tracks. */
function largestCommitted(repo: string): { path: string; bytes: number } {
  let best = { path: '', bytes: 0 };
  for (const path of git(repo, 'ls-files', '-z').split('\0').filter(Boolean)) {
    const bytes = statSync(join(repo, path)).size;
    if (bytes > best.bytes) best = { path, bytes };
  }
  return best;
}

function largestFile(dir: string): { path: string; bytes: number } {
  let best = { path: '', bytes: 0 };
  const walk = (d: string) => {
    for (const name of readdirSync(d)) {
      const p = join(d, name);
      const st = statSync(p);
      if (st.isDirectory()) walk(p);
      else if (st.size > best.bytes) best = { path: relative(dir, p), bytes: st.size };
    }
  };
  walk(dir);
  return best;
}

function treeBytes(dir: string): { bytes: number; files: number } {
  let bytes = 0;
  let files = 0;
  const walk = (d: string) => {
    for (const name of readdirSync(d)) {
      const p = join(d, name);
      const st = statSync(p);
      if (st.isDirectory()) walk(p);
      else ((bytes += st.size), files++);
    }
  };
  walk(dir);
  return { bytes, files };
}

interface NightLog {
  night: number;
  /** bytes of the night's run files (gzip) and of their JSON */
  runBytes: number;
  runJsonBytes: number;
  /** growth of git's loose objects this night (zlib-compressed, before delta compression) */
  looseGrowth: number;
  seconds: number;
}
interface Checkpoint {
  night: number;
  /** git's objects on disk, loose (zlib) and packed */
  gitBytes: number;
  largest: { path: string; bytes: number };
}
/** What pushing one night's commit to a repository that has the night before sends: its thin pack. */
interface Push {
  night: number;
  bytes: number;
}
/** The options that decide what is generated (a resumed simulation must have the same). */
type Identity = Pick<SimOptions, 'nights' | 'hosts' | 'rounds' | 'seriesEveryMonths' | 'scale' | 'start'>;
const identity = (o: SimOptions): Identity => ({
  nights: o.nights,
  hosts: o.hosts,
  rounds: o.rounds,
  seriesEveryMonths: o.seriesEveryMonths,
  scale: o.scale,
  start: o.start,
});
interface State {
  options: Identity;
  nightsDone: number;
  nights: NightLog[];
  checkpoints: Checkpoint[];
  pushes?: Push[];
  aggregate?: Record<string, unknown>;
  site?: Record<string, unknown>;
  final?: Record<string, unknown>;
}

const statePath = (out: string) => join(out, 'state.json');
function saveState(out: string, s: State): void {
  writeFileSync(`${statePath(out)}.tmp`, JSON.stringify(s, null, 1) + '\n');
  execFileSync('mv', [`${statePath(out)}.tmp`, statePath(out)]);
}

// ---------------------------------------------------------------- phases

/** Writes one night's run file of every host under `data`; returns them with their stored and JSON sizes. */
function writeNight(template: Parameters<typeof synthesizeRun>[0], night: number, o: SimOptions, data: string) {
  const written: { run: Run; rel: string; bytes: number }[] = [];
  let runBytes = 0;
  let runJsonBytes = 0;
  for (let h = 0; h < o.hosts; h++) {
    const run = synthesizeRun(template, h, night, o);
    const rel = runFilePath(run);
    const bytes = encodeRunFile(run, SIM_RUN_FILE_QUALITY);
    mkdirSync(dirname(join(data, rel)), { recursive: true });
    writeFileSync(join(data, rel), bytes);
    written.push({ run, rel, bytes: bytes.length });
    runBytes += bytes.length;
    runJsonBytes += JSON.stringify(run).length + 1;
  }
  return { written, runBytes, runJsonBytes };
}

/** Generates and commits nights until `nights - 1` (the last night is the aggregate phase's). */
export function generate(o: SimOptions, upTo = o.nights - 1): State {
  const repo = join(o.out, 'repo');
  const data = join(repo, 'data');
  let state: State;
  if (existsSync(statePath(o.out))) {
    state = JSON.parse(readFileSync(statePath(o.out), 'utf8')) as State;
    const { nights: had, hosts, rounds, seriesEveryMonths, scale, start } = state.options;
    const { nights: want, ...same } = identity(o);
    if (JSON.stringify({ hosts, rounds, seriesEveryMonths, scale, start }) !== JSON.stringify(same) || had > want)
      throw new Error(`${o.out} holds a simulation with other options (${JSON.stringify(state.options)}): use another --out`);
    if (had < want) {
      // nights do not depend on how many follow, so a finished shorter simulation is the start of a longer one
      if (!state.aggregate) throw new Error(`${o.out} holds a ${had}-night simulation that is not finished: finish it (--nights ${had}) before extending it`);
      writeFileSync(join(o.out, `state-${had}-nights.json`), JSON.stringify(state, null, 1) + '\n');
      o.log(`extending the ${had}-night simulation to ${want} nights (its measurements kept in state-${had}-nights.json)`);
      state.options = identity(o);
      delete state.aggregate;
      delete state.final;
      delete state.site;
      saveState(o.out, state);
    }
    // a night generated but not committed is made again; git, not the state file, says what was committed
    git(repo, 'reset', '-q', '--hard');
    git(repo, 'clean', '-qfdx');
    const committed = Number(git(repo, 'rev-list', '--count', 'HEAD').trim()) - 1;
    if (committed === o.nights && !state.aggregate) {
      // the measured last night was committed but its measurement not saved: measure it again
      git(repo, 'reset', '-q', '--hard', 'HEAD~1');
      state.nightsDone = o.nights - 1;
    } else state.nightsDone = committed;
    state.nights = state.nights.filter((n) => n.night <= state.nightsDone);
  } else {
    mkdirSync(data, { recursive: true });
    git(repo, 'init', '-q');
    git(repo, 'config', 'gc.auto', '0');
    writeFileSync(join(repo, 'README'), `${SYNTHETIC}\n`);
    // what the project commits and what it does not
    writeFileSync(join(repo, '.gitignore'), readFileSync(join(REPO, '.gitignore')));
    git(repo, 'add', '-A');
    git(repo, 'commit', '-qm', 'simulated repository');
    state = { options: identity(o), nightsDone: 0, nights: [], checkpoints: [] };
    saveState(o.out, state);
  }
  const template = loadTemplate(o.scale);
  const { files } = readTimeseries(data);
  const records: RunRecord[] = [];
  const keySets = new Map<string, string[]>();
  for (const f of files.values()) {
    records.push(...f.runs);
    for (const [id, keys] of Object.entries(f.keySets)) keySets.set(id, keys);
  }
  if (records.length !== state.nightsDone * o.hosts)
    throw new Error(`${o.out}: ${records.length} runs recorded for ${state.nightsDone} nights of ${o.hosts} hosts`);
  const recent = new Map<string, Run>(); // the runs of the last nights: the summary's usual runs
  for (let night = state.nightsDone; night < upTo; night++) {
    const t0 = performance.now();
    const before = gitSize(repo).loose;
    const { written, runBytes, runJsonBytes } = writeNight(template, night, o, data);
    for (const { run, rel, bytes } of written) {
      records.push(recordOf(run, rel, bytes, keySets));
      recent.set(rel, run);
    }
    records.sort((a, b) => (a.path < b.path ? -1 : a.path > b.path ? 1 : 0));
    const d = derive(records, keySets, (p) => recent.get(p) ?? readRunFile(join(data, p), p));
    writeDerived(data, d);
    const keep = new Set(d.selected.map((r) => r.path));
    for (const p of recent.keys()) if (!keep.has(p)) recent.delete(p);
    git(repo, 'add', '-A');
    git(repo, 'commit', '-qm', `night ${night + 1}`);
    const seconds = (performance.now() - t0) / 1000;
    state.nights.push({ night: night + 1, runBytes, runJsonBytes, looseGrowth: gitSize(repo).loose - before, seconds: Math.round(seconds * 10) / 10 });
    state.nightsDone = night + 1;
    if (state.nightsDone % o.checkpointEvery === 0) {
      const size = gitSize(repo);
      const largest = largestCommitted(repo);
      state.checkpoints.push({ night: state.nightsDone, gitBytes: size.loose + size.pack, largest });
      o.log(`night ${state.nightsDone}: largest file ${largest.path} (${(largest.bytes / 2 ** 20).toFixed(1)} MiB)`);
    }
    saveState(o.out, state);
    if (state.nightsDone % 10 === 0 || state.nightsDone === upTo)
      o.log(`night ${state.nightsDone}/${o.nights}: ${seconds.toFixed(1)} s, ${(runBytes / o.hosts / 1024).toFixed(0)} KiB per run`);
  }
  return state;
}

/** /usr/bin/time -v of a command: wall and CPU seconds, peak memory. */
function timed(
  cmd: string,
  args: string[],
  env: NodeJS.ProcessEnv = process.env,
): { status: number; wall: number; user: number; sys: number; maxRssBytes: number; stdout: string; stderr: string } {
  const r = spawnSync('/usr/bin/time', ['-v', cmd, ...args], { encoding: 'utf8', maxBuffer: 256 << 20, env });
  const field = (name: string) => new RegExp(`${name}: (.*)`).exec(r.stderr)?.[1]?.trim() ?? '';
  const wall = field('Elapsed \\(wall clock\\) time \\(h:mm:ss or m:ss\\)')
    .split(':')
    .reduce((a, p) => a * 60 + Number(p), 0);
  return {
    status: r.status ?? -1,
    wall,
    user: Number(field('User time \\(seconds\\)')),
    sys: Number(field('System time \\(seconds\\)')),
    maxRssBytes: Number(field('Maximum resident set size \\(kbytes\\)')) * 1024,
    stdout: r.stdout,
    stderr: r.stderr,
  };
}

const NODE = join(REPO, 'node_modules/.bin/node');

/**
 * The last night through the real `npm run aggregate` (its own process, timed), as bench.yml would run it;
 * its output is compared with what the in-process derivation of the generate phase makes.
 */
export function aggregatePhase(o: SimOptions): State {
  const state = generate(o);
  if (state.aggregate) return state;
  const repo = join(o.out, 'repo');
  const data = join(repo, 'data');
  const night = o.nights - 1;
  const template = loadTemplate(o.scale);
  const before = gitSize(repo).loose;
  const { written, runBytes, runJsonBytes } = writeNight(template, night, o, data);
  const runs = new Map<string, Run>(written.map(({ rel, run }) => [rel, run]));
  const load = loadavg();
  const t = timed(NODE, [join(REPO, 'scripts/aggregate.ts'), data]);
  if (t.status !== 0) throw new Error(`the aggregation failed:\n${t.stdout}\n${t.stderr}`);
  // the same night derived in this process from seeded records must give the same files
  const { files } = readTimeseries(data);
  const keySets = new Map<string, string[]>();
  const records: RunRecord[] = [];
  for (const f of files.values()) {
    records.push(...f.runs.filter((r) => !runs.has(r.path)));
    for (const [id, keys] of Object.entries(f.keySets)) keySets.set(id, keys);
  }
  for (const [rel, run] of runs) records.push(recordOf(run, rel, statSync(join(data, rel)).size, keySets));
  records.sort((a, b) => (a.path < b.path ? -1 : a.path > b.path ? 1 : 0));
  const d = derive(records, keySets, (p) => runs.get(p) ?? readRunFile(join(data, p), p));
  const expected = [...d.files, ...[...d.timeseries].map(([rel, f]) => [rel, serializeTimeseries(f)] as const)];
  const same = expected.every(([rel, text]) => readFileSync(join(data, rel), 'utf8') === text);
  git(repo, 'add', '-A');
  git(repo, 'commit', '-qm', `night ${o.nights} (npm run aggregate)`);
  state.nights.push({ night: o.nights, runBytes, runJsonBytes, looseGrowth: gitSize(repo).loose - before, seconds: t.wall });
  state.nightsDone = o.nights;
  state.aggregate = {
    command: "node scripts/aggregate.ts <repo>/data (the nightly case: the index of every earlier run in data/timeseries/, this night's runs new)",
    output: t.stdout.trim(),
    wallSeconds: t.wall,
    cpuSeconds: Math.round((t.user + t.sys) * 100) / 100,
    maxRssBytes: t.maxRssBytes,
    loadAverageBefore: load,
    sameAsInProcessDerivation: same,
  };
  saveState(o.out, state);
  o.log(
    `aggregation: ${t.wall} s wall, ${(t.user + t.sys).toFixed(1)} s CPU, ${(t.maxRssBytes / 2 ** 20).toFixed(0)} MiB peak; same as the in-process derivation: ${same}`,
  );
  return state;
}

/**
 * Repository growth as a remote sees it: for every pushEvery-th night (and the last), the thin pack that
 * pushing that night's commit sends to a repository holding the night before (new objects, deltified
 * against what the remote has). The first night, which carries the whole base, is reported apart.
 */
export function pushPhase(o: SimOptions): State {
  const state = aggregatePhase(o);
  const repo = join(o.out, 'repo');
  const commits = git(repo, 'rev-list', '--reverse', 'HEAD').trim().split('\n'); // [base, night 1, night 2, ...]
  state.pushes ??= [];
  const done = new Set(state.pushes.map((p) => p.night));
  const wanted = [1, ...Array.from({ length: o.nights }, (_, i) => i + 1).filter((n) => n > 1 && (n % o.pushEvery === 0 || n === o.nights))];
  for (const night of wanted) {
    if (done.has(night)) continue;
    const r = spawnSync('sh', ['-c', `printf '%s\\n^%s\\n' ${commits[night]} ${commits[night - 1]} | git pack-objects --revs --thin --stdout -q | wc -c`], {
      cwd: repo,
      encoding: 'utf8',
    });
    if (r.status !== 0) throw new Error(`git pack-objects failed: ${r.stderr}`);
    state.pushes.push({ night, bytes: Number(r.stdout.trim()) });
    saveState(o.out, state);
  }
  state.pushes.sort((a, b) => a.night - b.night);
  saveState(o.out, state);
  o.log(`pushes measured: ${state.pushes.length}`);
  return state;
}

/** Sizes of what is committed, and, after a full repack (git gc's settings), the repository a clone fetches. */
export function finalPhase(o: SimOptions, repack: boolean): State {
  const state = pushPhase(o);
  if (state.final && (!repack || state.final.packBytes !== undefined)) return state;
  const repo = join(o.out, 'repo');
  const data = join(repo, 'data');
  const runs = state.nights.map((n) => n.runBytes / o.hosts);
  const derivedFiles = ['summary.json', 'detailed-iterations.json'].map((f) => ({ path: `data/${f}`, bytes: statSync(join(data, f)).size }));
  const ts = readdirSync(join(data, 'timeseries'), { recursive: true, encoding: 'utf8' })
    .filter((f) => f.endsWith('.json'))
    .map((f) => statSync(join(data, 'timeseries', f)).size);
  const folders = { maxFilesInAFolder: 0, folder: '' };
  const walk = (d: string) => {
    const names = readdirSync(d);
    if (names.length > folders.maxFilesInAFolder) Object.assign(folders, { maxFilesInAFolder: names.length, folder: relative(repo, d) });
    for (const n of names) if (statSync(join(d, n)).isDirectory()) walk(join(d, n));
  };
  walk(data);
  const nightly = state
    .pushes!.filter((p) => p.night > 1)
    .map((p) => p.bytes / o.hosts)
    .sort((a, b) => a - b);
  const final: Record<string, unknown> = {
    pushBytesPerNightPerHost: {
      nights: nightly.length,
      median: Math.round(nightly[nightly.length >> 1]!),
      mean: Math.round(nightly.reduce((a, b) => a + b, 0) / nightly.length),
      max: Math.round(nightly[nightly.length - 1]!),
      firstNightAllHosts: state.pushes!.find((p) => p.night === 1)?.bytes,
    },
    runFileBytes: { mean: Math.round(runs.reduce((a, b) => a + b, 0) / runs.length), first: Math.round(runs[0]!), last: Math.round(runs.at(-1)!) },
    runJsonBytesLast: Math.round(state.nights.at(-1)!.runJsonBytes / o.hosts),
    largestCommittedFile: largestCommitted(repo),
    derivedFiles,
    timeseriesFileBytesMax: Math.max(...ts),
    workingTree: treeBytes(data),
    ...folders,
  };
  if (repack) {
    const t = timed('git', ['-C', repo, 'repack', '-a', '-d', '-q']); // git gc's own settings
    git(repo, 'prune-packed');
    const size = gitSize(repo);
    // packed bytes by what they are: run files, summary, time series, the rest
    const byKind: Record<string, number> = {};
    const objects = execFileSync('sh', ['-c', "git rev-list --objects --all | git cat-file --batch-check='%(objecttype) %(objectsize:disk) %(rest)'"], {
      cwd: repo,
      encoding: 'utf8',
      maxBuffer: 1 << 30,
    });
    for (const line of objects.trim().split('\n')) {
      const [type, bytes, path = ''] = line.split(' ');
      const kind =
        type !== 'blob'
          ? 'commits and trees'
          : path.startsWith('data/runs/')
            ? 'run files'
            : path.startsWith('data/timeseries/')
              ? 'time series'
              : path === 'data/summary.json'
                ? 'summary.json'
                : 'other';
      byKind[kind] = (byKind[kind] ?? 0) + Number(bytes);
    }
    Object.assign(final, {
      packBytes: size.pack,
      packBytesByKind: byKind,
      packBytesPerNightPerHost: Math.round(size.pack / (o.nights * o.hosts)),
      repackWallSeconds: t.wall,
    });
  }
  state.final = final;
  saveState(o.out, state);
  return state;
}

/** The version page and the per-host benchmark page with the most HTML (those nearest their budget), as paths. */
function largestPages(dist: string): string[] {
  const root = join(dist, 'versions');
  if (!existsSync(root)) return [];
  const pages: { path: string; depth: number; bytes: number }[] = [];
  const walk = (dir: string, parts: string[]) => {
    for (const name of readdirSync(dir, { withFileTypes: true })) {
      if (!name.isDirectory()) continue;
      const here = [...parts, name.name];
      const index = join(dir, name.name, 'index.html');
      if (existsSync(index)) pages.push({ path: `/versions/${here.join('/')}/`, depth: here.length, bytes: statSync(index).size });
      if (here.length < 3) walk(join(dir, name.name), here);
    }
  };
  walk(root, []);
  const biggest = (depth: number) => pages.filter((p) => p.depth === depth).sort((a, b) => b.bytes - a.bytes)[0]?.path;
  return [biggest(1), biggest(3)].filter((p): p is string => p !== undefined);
}

/** Builds the site from the simulated data (timed) and measures what is deployed and what pages transfer. */
export async function sitePhase(o: SimOptions): Promise<State> {
  const state = JSON.parse(readFileSync(statePath(o.out), 'utf8')) as State;
  if (state.site) return state;
  const data = join(o.out, 'repo/data');
  const dist = join(o.out, 'dist');
  rmSync(dist, { recursive: true, force: true });
  const load = loadavg();
  // astro's own launcher would run under whatever `node` is first on PATH (Debian's 20 here, which Astro refuses)
  const t = timed(NODE, [join(REPO, 'node_modules/astro/bin/astro.mjs'), 'build', '--root', join(REPO, 'site'), '--silent'], {
    ...process.env,
    OBSERVATORY_DATA_DIR: data,
    OBSERVATORY_OUT_DIR: dist,
    ASTRO_TELEMETRY_DISABLED: '1',
  });
  if (t.status !== 0) throw new Error(`the site build failed:\n${t.stdout.slice(-4000)}\n${t.stderr.slice(-4000)}`);
  const tree = treeBytes(dist);
  const { serve } = await import('../site/tests/server.ts');
  const { launch, transferSize } = await import('../site/tests/browser.ts');
  const server = await serve(dist);
  const browser = await launch();
  const page = await browser.newPage();
  const pages: Record<string, number> = {};
  for (const p of ['/', '/compare/', '/runs/', '/drift/', '/methodology/', '/versions/', ...largestPages(dist)]) {
    if (!existsSync(join(dist, p, 'index.html'))) continue;
    pages[p] = (await transferSize(page, server.origin + p)).total;
  }
  await browser.close();
  await server.close();
  state.site = {
    buildWallSeconds: t.wall,
    buildCpuSeconds: Math.round((t.user + t.sys) * 100) / 100,
    buildMaxRssBytes: t.maxRssBytes,
    loadAverageBefore: load,
    deployedBytes: tree.bytes,
    deployedFiles: tree.files,
    largestDeployedFile: largestFile(dist),
    pageTransferBytes: pages,
  };
  saveState(o.out, state);
  return state;
}

export function machine(): Record<string, unknown> {
  return {
    logicalCpus: cpus().length,
    cpuModel: cpus()[0]?.model,
    memoryBytes: totalmem(),
    freeMemoryBytes: freemem(),
    loadAverage: loadavg(),
    node: process.version,
  };
}

async function main(): Promise<void> {
  const cli = commandLine('simulate-year', openingComment(import.meta.url), {
    out: { type: 'string' },
    nights: { type: 'string', default: '365' },
    hosts: { type: 'string', default: '4' },
    rounds: { type: 'string', default: '6' },
    'series-every-months': { type: 'string', default: '6' },
    scale: { type: 'string', default: '1' },
    start: { type: 'string', default: '2027-01-01T00:00:00.000Z' },
    'checkpoint-every': { type: 'string', default: '30' },
    'push-every': { type: 'string', default: '7' },
    phases: { type: 'string', default: 'generate,aggregate,pushes,repack,site' },
    results: { type: 'string' },
  });
  const { values } = cli;
  if (!values.out) return cli.fail('--out DIR is required');
  const out = values.out;
  if (relative(join(REPO, 'data'), out).split('/')[0] !== '..') cli.fail('--out must not be inside data/');
  const o: SimOptions = {
    out,
    nights: Number(values.nights),
    hosts: Number(values.hosts),
    rounds: Number(values.rounds),
    seriesEveryMonths: Number(values['series-every-months']),
    scale: Number(values.scale),
    start: values.start,
    checkpointEvery: Number(values['checkpoint-every']),
    pushEvery: Number(values['push-every']),
    log: (l) => console.log(`[${new Date().toISOString().slice(11, 19)}] ${l}`),
  };
  mkdirSync(out, { recursive: true });
  const phases = values.phases.split(',');
  const startedAt = new Date().toISOString();
  const machineBefore = machine();
  // each phase runs the ones before it that are not done yet; a finished phase is not run again
  let state = phases.includes('aggregate') || phases.includes('pushes') || phases.includes('repack') ? finalPhase(o, phases.includes('repack')) : generate(o);
  if (phases.includes('site')) state = await sitePhase(o);
  const result = { startedAt, finishedAt: new Date().toISOString(), machineBefore, machineAfter: machine(), ...state };
  if (values.results) writeFileSync(values.results, JSON.stringify(result, null, 1) + '\n');
  console.log(JSON.stringify({ ...result, nights: `${state.nights.length} nights (see state.json)` }, null, 1));
}

if (import.meta.main) await main();
