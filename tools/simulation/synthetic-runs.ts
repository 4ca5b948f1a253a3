// Synthetic run files for the year-of-runs simulation: a template taken from a real (archived) run, values
// drawn with deterministic randomness, and one night of one host written as a schema-valid run.
import { createHash } from 'node:crypto';
import { join } from 'node:path';
import { Series as SeriesSchema, bySeriesKeyThenBuild, readRunFile, type Build, type Host, type Run, type Series } from '../../schema/index.ts';
import { seededRandom } from '../../analysis/stats.ts';

export const SYNTHETIC = 'SYNTHETIC: made by tools/simulate-year.ts, not a measurement';
export const REPO = new URL('../../', import.meta.url).pathname;
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
