// TEST DATA: the one place the tests of every folder (and the site's synthetic fixtures) make the records of
// a run file: hosts, builds, series, quiet-host evidence and whole runs. Each builder fills what a test does
// not care about with fixed placeholder values, takes any field as an override, and checks what it returns
// against the schema, so a builder that drifts from the schema fails loudly in the test that calls it.
// It lives beside the schema and depends on nothing else, so runner, scripts, checks and site can all import
// it; the run loop's stand-ins (a build under test, a run plan) build on it in runner/stand-in-build.ts.
import { Build, Host, HostSnapshot, QuietEvidence, Run, Series, type Iteration, type RoundEvidence } from './index.ts';

/** The start of a test run when the test does not name one. */
export const TEST_TIME = '2026-01-01T00:00:00.000Z';

/** The release series of an OpenSSL version: 1.1.1w -> 1.1.1, 3.5.7 -> 3.5. */
export const seriesOfVersion = (version: string): string => (version.startsWith('1.1.1') ? '1.1.1' : version.split('.').slice(0, 2).join('.'));

/** A machine; by default a two-CPU x64 box with AES-NI, named "box". */
export function makeHost(o: Partial<Host> = {}): Host {
  return Host.parse({
    id: 'box',
    arch: 'x64',
    cpuModel: 'cpu',
    cpuFlags: { aesni: true },
    logicalCpus: 2,
    memoryBytes: 1e9,
    kernel: 'k',
    os: 'os',
    virtualization: null,
    cpuGovernor: null,
    ...o,
  });
}

/** The machine of the site's synthetic fixtures (site/tests/fixtures: its runs and its hypothesis result), with these CPU flags. */
export const fixtureHost = (cpuFlags: Host['cpuFlags']): Host =>
  makeHost({
    id: 'obs-fixture-host',
    arch: 'x86_64',
    cpuModel: 'Fixture CPU (synthetic data)',
    cpuFlags,
    memoryBytes: 2 ** 34,
    kernel: 'fixture',
    os: 'fixture',
  });

/** A build of an OpenSSL release (`version`, default 3.5.7) with placeholder provenance; its series follows the version. */
export function makeBuild(o: Partial<Build> = {}): Build {
  const version = o.version ?? '3.5.7';
  return Build.parse({
    id: `b-${version}`,
    library: 'openssl',
    version,
    series: seriesOfVersion(version),
    variant: 'default',
    versionString: `OpenSSL ${version}`,
    source: { kind: 'crate', name: 'x.crate', sha256: 'a'.repeat(64) },
    configureArgs: ['no-shared'],
    compiler: 'gcc',
    cflags: '-O3',
    builtAt: TEST_TIME,
    buildSeconds: 60,
    ...o,
  });
}

/**
 * Iterations of measured rounds 1, 2, ... with these values; with `warmup`, a warm-up iteration of that value
 * in round 0 first (as the run loop records it).
 */
export function makeIterations(values: readonly number[], o: { at?: string; warmup?: number } = {}): Iteration[] {
  const at = o.at ?? TEST_TIME;
  const measured = values.map((value, i) => ({ round: i + 1, value, at, warmup: false }));
  return o.warmup === undefined ? measured : [{ round: 0, value: o.warmup, at, warmup: true }, ...measured];
}

/**
 * A series of `key` ("toy/rate": benchmark toy, metric rate) on build `buildId`: measured with `values` (see
 * makeIterations) unless the status says otherwise; by default a higher-is-better ops/s, comparable across versions.
 */
export function makeSeries(o: Partial<Series> & Pick<Series, 'key' | 'buildId'> & { values?: readonly number[]; warmup?: number; at?: string }): Series {
  const { values = [], warmup, at, ...fields } = o;
  const [benchmark = 'toy', rest = ''] = o.key.split('/');
  return Series.parse({
    benchmark,
    metric: rest.split('[')[0],
    label: o.key,
    unit: 'ops/s',
    method: 'wall-clock-throughput',
    higherIsBetter: true,
    params: {},
    comparability: { acrossVersions: true },
    status: 'measured',
    iterations: makeIterations(values, { at, warmup }),
    ...fields,
  });
}

/** The reason a disturbed round gives when the test does not name one. */
export const BUSY_REASON = 'other processes used 85% of a CPU';

/** One reading of the host as the quiet check records it, idle unless `overrides` say otherwise. */
export function makeHostSnapshot(at: string, overrides: Partial<HostSnapshot> = {}): HostSnapshot {
  return HostSnapshot.parse({
    at,
    windowSeconds: 60,
    loadAverage: [0, 0, 0],
    stealPercent: 0,
    iowaitPercent: 0,
    otherBusyPercent: 0,
    busiestOthers: [],
    governor: null,
    boost: null,
    ...overrides,
  });
}

/**
 * Quiet-host evidence as the runner records it, every reading taken `at`: quiet before the start and in the
 * given measured rounds, except `busyRounds`, disturbed for `reason`; the run is quiet when no round is busy.
 */
export function makeQuietEvidence(
  at: string,
  o: { rounds?: readonly number[]; busyRounds?: readonly number[]; reason?: string; snapshot?: Partial<HostSnapshot> } = {},
): QuietEvidence {
  const { rounds = [1], busyRounds = [], reason = BUSY_REASON } = o;
  const snapshot = makeHostSnapshot(at, o.snapshot);
  const round = (r: number): RoundEvidence => ({ ...snapshot, round: r, quiet: !busyRounds.includes(r), reasons: busyRounds.includes(r) ? [reason] : [] });
  return QuietEvidence.parse({
    thresholds: { otherBusyPercent: 10 },
    exclusive: true,
    before: { ...snapshot, quiet: true, reasons: [] },
    rounds: rounds.map(round),
    quiet: busyRounds.length === 0,
  });
}

/**
 * Where and when one run of a random history ran, for the tests of which run the aggregation takes each row
 * from: host a or b, one of three start times (so a few runs share one: ties are broken by path order, as
 * aggregate() does), quick or full, quiet four times in five.
 */
export function randomRunPlace(rand: () => number): Pick<Run, 'startedAt' | 'mode'> & { host: string; quiet: boolean } {
  const pick = <T>(xs: readonly T[]) => xs[Math.floor(rand() * xs.length)]!;
  return {
    host: pick(['a', 'b']),
    startedAt: `2026-0${1 + Math.floor(rand() * 3)}-01T00:00:00.000Z`,
    mode: pick(['quick', 'full'] as const),
    quiet: rand() < 0.8,
  };
}

type RunOverrides = Partial<Omit<Run, 'plan' | 'quiet'>> & Pick<Run, 'builds' | 'series'> & { plan?: Partial<Run['plan']>; quiet?: Run['quiet'] | null };

/**
 * A run file of these builds and series, started TEST_TIME on makeHost(). Its plan: the series' benchmarks,
 * as many measured rounds as the longest series has, one warm-up round where a series has a warm-up
 * iteration, every build in every round. Quiet in every measured round unless `quiet` says otherwise (null: a
 * run from before the quiet-host protocol, without evidence).
 */
export function makeRun(o: RunOverrides): Run {
  const { plan, quiet, ...fields } = o;
  const startedAt = o.startedAt ?? TEST_TIME;
  const measured = (s: Series) => new Set(s.iterations.filter((it) => !it.warmup).map((it) => it.round)).size;
  const rounds = plan?.rounds ?? Math.max(1, ...o.series.map(measured));
  const warmupRounds = plan?.warmupRounds ?? (o.series.some((s) => s.iterations.some((it) => it.warmup)) ? 1 : 0);
  const benchmarks = [...new Set(o.series.map((s) => s.benchmark))];
  const evidence = quiet === undefined ? makeQuietEvidence(startedAt, { rounds: Array.from({ length: rounds }, (_, i) => i + 1) }) : quiet;
  return Run.parse({
    schemaVersion: 1,
    kind: 'run',
    runId: 'test-run',
    mode: 'full',
    startedAt,
    finishedAt: startedAt,
    host: makeHost(),
    harness: { gitCommit: 'abcdef1', gitDirty: false, node: 'v24' },
    notes: [],
    ...fields,
    plan: {
      benchmarks: benchmarks.length ? benchmarks : ['toy'],
      rounds,
      warmupRounds,
      order: Array.from({ length: warmupRounds + rounds }, () => o.builds.map((b) => b.id)),
      ...plan,
    },
    ...(evidence ? { quiet: evidence } : {}),
  });
}
