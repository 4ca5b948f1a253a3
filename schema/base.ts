// Run files, builds, hosts and the derived summary files. Bump a file's schemaVersion when its shape
// changes and keep reading the old one (parseRunFile at the bottom checks the version first).
import { z } from 'zod';

/** A finite number: NaN and ±Infinity are refused everywhere (JSON cannot carry them honestly). */
export const finite = z.number().refine(Number.isFinite, { message: 'must be a finite number' });
export const nonNegative = finite.refine((v) => v >= 0, { message: 'must be >= 0' });
const isoTime = z.iso.datetime({ offset: true });
const sha256 = z.string().regex(/^[0-9a-f]{64}$/, 'must be 64 lowercase hex digits (sha256)');
/** Identifiers end up in paths and URLs: keep them to a safe alphabet. */
export const safeId = z
  .string()
  .min(1)
  .max(120)
  .regex(/^[A-Za-z0-9][A-Za-z0-9._-]*$/, 'only letters, digits, ".", "_" and "-", not starting with a symbol');
/** Free text shown on the site: bounded, no control characters (the site escapes it anyway). */
export const shortText = (max = 500) =>
  z
    .string()
    .max(max)
    .refine((s) => !/[\u0000-\u0008\u000b-\u001f\u007f]/.test(s), { message: 'must not contain control characters' });

// ---------------------------------------------------------------- host

export const CpuFlags = z.object({
  // x86
  aesni: z.boolean().optional(),
  pclmulqdq: z.boolean().optional(),
  shani: z.boolean().optional(),
  avx2: z.boolean().optional(),
  avx512f: z.boolean().optional(),
  vaes: z.boolean().optional(),
  vpclmulqdq: z.boolean().optional(),
  adx: z.boolean().optional(),
  bmi2: z.boolean().optional(),
  // AVX-512 subsets that select OpenSSL code paths: IFMA (RSA/bignum on 3.x), VL+BW (AES-GCM, ChaCha20)
  avx512ifma: z.boolean().optional(),
  avx512vl: z.boolean().optional(),
  avx512bw: z.boolean().optional(),
  // arm
  asimd: z.boolean().optional(),
  aes: z.boolean().optional(),
  pmull: z.boolean().optional(),
  sha2: z.boolean().optional(),
  sha3: z.boolean().optional(),
  sha512: z.boolean().optional(),
  sve: z.boolean().optional(),
  sve2: z.boolean().optional(),
});
export type CpuFlags = z.infer<typeof CpuFlags>;

export const Host = z.object({
  id: safeId.describe(
    'the machine: <name>.<cpu>-<hardware fingerprint> (schema/machine.ts); runs are grouped by it. Records from before machine ids carry the name alone',
  ),
  name: safeId.optional().describe('the name the owner chose (OBSERVATORY_HOST_ID, default the hostname); one name can cover several machines'),
  arch: shortText(40),
  cpuModel: shortText(200),
  cpuVendor: shortText(40).nullable().optional().describe('CPU vendor as /proc/cpuinfo says (vendor_id, or the arm64 implementer code)'),
  cpuFamily: shortText(20).nullable().optional().describe('CPU family (x86) or architecture (arm64), /proc/cpuinfo'),
  cpuModelNumber: shortText(20).nullable().optional().describe('CPU model number (x86) or part (arm64), /proc/cpuinfo'),
  cpuStepping: shortText(20).nullable().optional().describe('CPU stepping (x86) or variant/revision (arm64), /proc/cpuinfo'),
  cpuFlags: CpuFlags,
  logicalCpus: z.int().positive().max(4096),
  memoryBytes: z.int().positive(),
  kernel: shortText(200),
  os: shortText(200),
  virtualization: shortText(80).nullable().describe('hypervisor or container if detectable, null on bare metal'),
  cpuGovernor: shortText(80).nullable(),
  boost: shortText(80).nullable().optional().describe('frequency boost / turbo state where readable (cpufreq boost, intel_pstate no_turbo)'),
  smt: shortText(80).nullable().optional().describe('simultaneous multithreading state where readable (/sys/devices/system/cpu/smt/control)'),
  microcode: shortText(80)
    .nullable()
    .optional()
    .describe('CPU microcode revision as /proc/cpuinfo shows it (x86), null where the kernel does not say; a change between runs can move results'),
  note: shortText(1000).optional(),
});
export type Host = z.infer<typeof Host>;

// ---------------------------------------------------------------- builds

export const SourceKind = z.enum(['upstream-tarball', 'debian-orig', 'crate']);
export const BuildSource = z.object({
  kind: SourceKind,
  name: shortText(200).describe('file name of the archive, e.g. openssl-3.5.7.tar.gz'),
  sha256,
  url: shortText(500).optional(),
});
export type BuildSource = z.infer<typeof BuildSource>;

/** The TLS library a build is of. Files written before other libraries existed are all OpenSSL. */
export const Library = z.enum(['openssl', 'aws-lc', 'boringssl', 'wolfssl']);
export type Library = z.infer<typeof Library>;
const OPENSSL_VERSION = /^\d+\.\d+\.\d+[a-z]?$/;
const OPENSSL_SERIES = /^\d+\.\d+(\.\d+)?$/;
/** a release of another library: 5.12.0, or an identifier where the library has no releases */
const RELEASE_ID = /^[0-9A-Za-z][0-9A-Za-z.+-]{0,39}$/;

/** A build's fields; Build adds the rule that an OpenSSL build carries an OpenSSL release number. */
export const BuildFields = z.object({
  id: safeId.describe('cache key: a hash of everything that changes the binary'),
  library: Library.default('openssl'),
  version: z.string().regex(RELEASE_ID, 'a release such as 3.5.7, 1.1.1w or 5.12.0'),
  series: z.string().regex(RELEASE_ID).describe('OpenSSL release series (3.5); for another library its major.minor, or what stands in for it'),
  variant: safeId.describe('"default", or a named variant such as "no-ml-kem"'),
  versionString: shortText(200).describe("the library's own version string (OpenSSL: what `openssl version` printed)"),
  source: BuildSource,
  configureArgs: z.array(shortText(200)).max(100).describe('every option given to the build system (OpenSSL Configure, cmake or configure), as given'),
  compiler: shortText(300).describe('first line of `cc --version`'),
  cflags: shortText(1000).describe('compiler flags as the build system configured them'),
  builtAt: isoTime,
  buildSeconds: nonNegative,
  releaseDate: shortText(40).optional().describe('release date as the source itself states it'),
  cpuCapabilities: shortText(1000)
    .optional()
    .describe(
      'the CPU capability vector the library itself reported on this host when the run started (e.g. OPENSSL_ia32cap); set per run, not per cached build',
    ),
});
export const Build = BuildFields.refine((b) => b.library !== 'openssl' || OPENSSL_VERSION.test(b.version), {
  path: ['version'],
  message: 'an OpenSSL release number such as 3.5.7 or 1.1.1w',
}).refine((b) => b.library !== 'openssl' || OPENSSL_SERIES.test(b.series), { path: ['series'], message: 'an OpenSSL release series such as 3.5 or 1.1.1' });
export type Build = z.infer<typeof Build>;

// ---------------------------------------------------------------- measured series

/** How a value was obtained. The site shows this next to every number. */
export const Method = z.enum([
  'wall-clock-throughput', // work done / elapsed wall time
  'cpu-time-client', // CPU time of the client side only, per operation
  'cpu-time-server', // CPU time of the server side only, per operation
  'cpu-time-both', // client + server CPU time per operation (in-process, same thread)
  'cpu-time-thread', // CPU time of the one thread that did the work (CLOCK_THREAD_CPUTIME_ID): per operation, or work per CPU-second
  'instruction-count', // valgrind instruction count of one operation
  'call-count', // valgrind callgrind count of calls into named functions per operation (deterministic)
  'heap-bytes', // bytes held on the heap, counted through OpenSSL's allocator hooks
  'wire-bytes', // bytes put on the wire
  'client-user-cpu', // openssl s_time: connections per second of client user CPU
  'openssl-speed', // openssl speed's own measurement (method varies by version: see comparability)
]);
export type Method = z.infer<typeof Method>;

export const Unit = z.enum(['bytes/s', 'ops/s', 'handshakes/s', 'connections/s', 'us/op', 'us/handshake', 'instructions', 'bytes', 'count']);
export type Unit = z.infer<typeof Unit>;

/** Parameters of a series: flat, so they can be shown as a table and used as a key. */
export const Params = z.record(z.string().regex(/^[a-zA-Z][a-zA-Z0-9]*$/), z.union([shortText(200), finite, z.boolean()]));
export type Params = z.infer<typeof Params>;

export const Iteration = z.object({
  round: z.int().nonnegative().describe('interleaving round; round order is in the run file'),
  value: nonNegative,
  at: isoTime,
  warmup: z.boolean().describe('warm-up iterations are kept for the record and never aggregated'),
});
export type Iteration = z.infer<typeof Iteration>;

export const Comparability = z.object({
  acrossVersions: z.boolean(),
  reason: shortText(500).optional().describe('why values from different versions must not be charted together'),
  group: safeId.optional().describe('values are comparable only within the same group (e.g. speed-aead-pre-3.5)'),
});

export const Series = z.object({
  key: z.string().min(1).max(300).describe('benchmark/metric plus canonical params; same key = same experiment'),
  benchmark: safeId,
  metric: safeId,
  label: shortText(300).describe('what this measures, in words'),
  unit: Unit,
  method: Method,
  higherIsBetter: z.boolean(),
  params: Params,
  buildId: safeId,
  comparability: Comparability,
  status: z.enum(['measured', 'unsupported', 'failed']),
  reason: shortText(2000).optional().describe('for unsupported/failed: what the library or tool said'),
  observed: Params.optional().describe('what the library reported, e.g. negotiated group, resumed'),
  iterations: z.array(Iteration).max(100000),
  reusedFrom: z
    .object({
      runId: safeId.describe('the run that measured these values'),
      measuredAt: isoTime,
      key: sha256.describe('sha256 of the reuse key below (runner/deterministic.ts)'),
      binarySha256: sha256.describe("the build's installed files (build.json), hashed together"),
      sourcesSha256: sha256.describe("the benchmark's own source files, hashed together"),
      harnessRevision: z.int().positive().max(1000),
    })
    .optional()
    .describe(
      'deterministic series only: taken from the reuse cache instead of measured, byte for byte what that run measured with the same binary, benchmark code, harness revision and mode',
    ),
  stopped: z
    .object({
      reason: z.enum(['decided', 'precise', 'budget']),
      round: z
        .int()
        .positive()
        .max(1000)
        .describe('the measured round (1-based) of the look that settled it; a series others are compared with is run on until they are settled too'),
    })
    .optional()
    .describe('timed series of a run measured until decided: why its task stopped being run (absent with a fixed number of rounds)'),
});
export type Series = z.infer<typeof Series>;

// ---------------------------------------------------------------- quiet-host evidence

/** What the machine was doing around a measurement: read from /proc and /sys, never estimated. */
export const HostSnapshot = z.object({
  at: isoTime,
  windowSeconds: nonNegative.describe('length of the /proc/stat delta window the percentages come from'),
  loadAverage: z.tuple([finite, finite, finite]),
  stealPercent: nonNegative.nullable().describe('CPU steal over the window, percent of all CPUs'),
  iowaitPercent: nonNegative.nullable().describe('iowait over the window, percent of all CPUs'),
  otherBusyPercent: nonNegative.nullable().describe("CPU used over the window by processes outside this run's process tree, percent of one CPU"),
  busiestOthers: z
    .array(z.object({ pid: z.int().nonnegative(), command: shortText(200), cpuPercent: nonNegative }))
    .max(10)
    .describe('the busiest processes outside this run over the window'),
  governor: shortText(80).nullable(),
  boost: shortText(80).nullable(),
});
export type HostSnapshot = z.infer<typeof HostSnapshot>;

export const QuietCheck = z.object({
  quiet: z.boolean(),
  reasons: z.array(shortText(500)).max(50).describe('each threshold the snapshot broke, in words with the measured value'),
});
/** Most windows one round records (runner/quiet/round-watch.ts closes no more, whatever the round's length). */
export const MAX_QUIET_WINDOWS = 240;
/** A short busy probe of every CPU: the steal it saw (see QuietWindow.stealProbe). */
export const StealProbe = z.object({
  seconds: nonNegative.describe('length of the probe'),
  stealPercent: nonNegative.nullable().describe('CPU steal during the probe, percent of all CPUs'),
});
export type StealProbe = z.infer<typeof StealProbe>;
/** One window of a round: the same readings over a shorter span, with its own verdict. */
export const QuietWindow = HostSnapshot.omit({ governor: true, boost: true })
  .extend(QuietCheck.shape)
  .extend({
    stealProbe: StealProbe.optional().describe(
      "the window overlapped a task whose processes wake each other's CPUs (s_time and s_server over loopback): the steal a VM reports then includes the time a halted CPU waits to be woken, which the task causes itself, so the window's steal is recorded but judged by the worst busy probe of every CPU run right after such a task on each build (absent: the window's own steal is judged; benchmark runs since 28 November 2026)",
    ),
    dropped: z
      .array(shortText(300))
      .max(500)
      .optional()
      .describe(
        'a window that broke a limit in a measured round: the timed tasks (benchmark|task) that overlapped it, whose measurements in the round were dropped on every build and measured again later in the round, so that no kept value overlaps it; empty when it overlapped none (a wait for the host). Such a window does not decide the round (absent: nothing dropped; benchmark runs since 28 November 2026)',
      ),
  });
export type QuietWindow = z.infer<typeof QuietWindow>;
export const RoundEvidence = HostSnapshot.extend(QuietCheck.shape).extend({
  round: z.int().nonnegative(),
  windows: z
    .array(QuietWindow)
    .max(MAX_QUIET_WINDOWS)
    .optional()
    .describe(
      'the round in consecutive windows (their length is in thresholds, documented in runner/quiet/round-watch.ts), each checked against the same limits; the round is quiet only if every window is, those whose measurements were dropped (`dropped`) aside (absent in files written before windows were kept: the round is judged as a whole)',
    ),
});
export type RoundEvidence = z.infer<typeof RoundEvidence>;
export const QuietEvidence = z.object({
  thresholds: z.record(safeId, finite).describe('the limits a snapshot is checked against (documented in runner/quiet/limits.ts)'),
  exclusive: z.boolean().describe('the run held the host measurement lock from start to finish'),
  before: HostSnapshot.extend(QuietCheck.shape),
  rounds: z.array(RoundEvidence).max(1000),
  repeated: z
    .array(RoundEvidence)
    .max(1000)
    .optional()
    .describe(
      'attempts at a measured round that the host disturbed, whose measurements were dropped before anything used them and the round measured again (the hypothesis test, and benchmark runs since 2026-11-27); at most thresholds.maxRepeatedRounds per run',
    ),
  deterministic: z
    .array(RoundEvidence)
    .max(100)
    .optional()
    .describe(
      'the deterministic phase (instruction and call counts, several at a time, before the timed rounds), watched like a round, once per session that ran it; `round` is the measured round its results carry',
    ),
  quiet: z.boolean().describe('exclusive, quiet before the start, in every measured round that ran a timed task and in the deterministic phase'),
});
export type QuietEvidence = z.infer<typeof QuietEvidence>;

// ---------------------------------------------------------------- run file

export const RunMode = z.enum(['quick', 'full']);
export type RunMode = z.infer<typeof RunMode>;
export const Run = z
  .object({
    schemaVersion: z.literal(1),
    kind: z.literal('run'),
    runId: safeId,
    mode: RunMode,
    startedAt: isoTime,
    finishedAt: isoTime,
    host: Host,
    harness: z.object({
      gitCommit: z.string().regex(/^[0-9a-f]{7,40}$|^unknown$/),
      gitDirty: z.boolean(),
      node: shortText(40),
      /** which harness revision measured (catalogue/harness-steps.ts); absent in runs from before the list: revision 1 */
      revision: z.int().positive().max(1000).optional(),
      resumedAt: z
        .array(z.object({ at: isoTime, gitCommit: z.string().regex(/^[0-9a-f]{7,40}$|^unknown$/), gitDirty: z.boolean() }))
        .max(100)
        .optional()
        .describe('each resume of the run, with the checkout it resumed from'),
    }),
    plan: z.object({
      benchmarks: z.array(safeId).min(1),
      rounds: z.int().positive().max(1000),
      warmupRounds: z.int().nonnegative().max(100),
      warmup: z
        .enum(['whole-round', 'short'])
        .optional()
        .describe(
          "which tasks the warm-up round ran (runner/run/warmup.ts): whole-round, every timed task on every build; short, for each benchmark and build only the first task in run order when earlier quiet runs of this machine had recorded every task's time (else the tasks without one), the night plan taking the others' seconds per round from those records (runner/task-times.ts). Absent in runs from before the choice and in runs without a warm-up or a timed task: a whole round",
        ),
      warmupTimesFrom: z
        .array(safeId)
        .min(1)
        .max(1000)
        .optional()
        .describe('a short warm-up: the quiet runs whose recorded task times stood in for the tasks it did not run'),
      windows: z
        .array(
          z.object({
            benchmark: safeId,
            window: z.enum(['short', 'long']),
            size: nonNegative.describe('the window in `unit`'),
            unit: shortText(200),
            basis: shortText(1000).describe('why this window: the evidence in words'),
            cvRatio: finite.optional().describe("median over the paired series of the short windows' CV over the long windows'"),
            pairedSeries: z.int().nonnegative().optional(),
            runs: z.array(safeId).max(1000).optional().describe('the quiet runs of this machine the paired series came from'),
          }),
        )
        .max(100)
        .optional()
        .describe(
          "the length of the timed windows of each benchmark that has a choice (runner/windows.ts): short, quick mode's; long, full mode's. A full run takes the short one where this machine's quiet runs show that it gives less variance per second of measuring. Absent in runs from before the choice: the mode's (quick short, full long)",
        ),
      order: z.array(z.array(safeId)).describe('build ids in the order each round ran them'),
      maxRounds: z
        .int()
        .positive()
        .max(1000)
        .optional()
        .describe('measured until decided (runner/until-decided.ts): the round budget; rounds is then the rounds measured'),
      budgetMinutes: nonNegative.optional().describe('--budget-minutes: the time a session of the run may take (runner/night-plan.ts)'),
      leftOut: z
        .array(z.object({ benchmark: safeId, task: shortText(300), headline: z.boolean(), secondsPerRound: nonNegative }))
        .max(10000)
        .optional()
        .describe(
          'timed tasks the time budget left out after the warm-up round, for the next night, with the seconds one round of each took there (on a build a short warm-up did not run it on: its recorded time, see warmup)',
        ),
      stopping: z
        .object({
          minRounds: z.int().positive().max(1000),
          looks: z.array(z.int().positive().max(1000)).max(100),
          alpha: z.array(finite).max(100),
          precisionTarget: finite.describe('relative half-width of a series interval below which it counts as precise'),
          method: shortText(1000),
        })
        .optional()
        .describe('the pre-declared looks and alpha spending of a run measured until decided'),
      reproduces: safeId
        .optional()
        .describe('npm run reproduce: the write-up whose claims this run measured until they were decided (its rounds come from the stopping rule)'),
    }),
    builds: z.array(Build).min(1),
    series: z.array(Series),
    notes: z.array(shortText(2000)).max(100).default([]),
    quiet: QuietEvidence.optional().describe('absent in runs recorded before the quiet-host protocol: such runs count as not quiet'),
    phases: z
      .object({
        prepare: z.object({ seconds: nonNegative }),
        deterministic: z.object({
          seconds: nonNegative,
          jobs: z.int().positive().max(4096).describe('deterministic tasks run at once'),
          tasks: z.int().nonnegative().describe('deterministic tasks of the run (one per build, benchmark and task)'),
          reused: z.int().nonnegative().describe('of them, taken from the reuse cache'),
        }),
        timed: z.object({
          seconds: nonNegative,
          rounds: z.int().nonnegative().describe('rounds run, warm-up included'),
          benchmarks: z
            .record(safeId, z.object({ warmupSeconds: nonNegative, measuredSeconds: nonNegative }))
            .optional()
            .describe(
              "each benchmark's timed tasks: their own wall seconds in the warm-up round(s) and in the measured rounds, summed (a round measured again counts once; the time between tasks is the phase's alone). Absent in runs from before 2026-11-27",
            ),
        }),
      })
      .optional()
      .describe('wall time of each phase, summed over the sessions of a resumed run (absent in runs from before the phases)'),
  })
  .superRefine((run, ctx) => {
    const ids = new Set(run.builds.map((b) => b.id));
    run.series.forEach((s, i) => {
      if (!ids.has(s.buildId)) ctx.addIssue({ code: 'custom', path: ['series', i, 'buildId'], message: `unknown build id ${s.buildId}` });
      if (s.status === 'measured' && s.iterations.filter((it) => !it.warmup).length === 0)
        ctx.addIssue({ code: 'custom', path: ['series', i, 'iterations'], message: 'measured series without a measured iteration' });
      if (s.status !== 'measured' && !s.reason) ctx.addIssue({ code: 'custom', path: ['series', i, 'reason'], message: `${s.status} series must say why` });
    });
    if ((run.plan.warmup === 'short') !== (run.plan.warmupTimesFrom !== undefined))
      ctx.addIssue({
        code: 'custom',
        path: ['plan', 'warmupTimesFrom'],
        message: 'a short warm-up says which runs its task times came from, and only a short one',
      });
  });
export type Run = z.infer<typeof Run>;

// ---------------------------------------------------------------- derived: summary.json

/** A plain interval (used where the method is stated beside it, e.g. the hypothesis test's t intervals). */
export const Interval = z.object({ low: finite, high: finite });

/**
 * A distribution-free interval: order statistics of the sample (or of per-round ratios) with the exact
 * probability that they bracket the true median (binomial with p = 1/2). "range" means n was too small
 * for any pair of order statistics to reach 95%, so the interval is [min, max] with its lower coverage.
 */
export const CoverageInterval = z.object({
  low: finite,
  high: finite,
  coverage: finite.refine((c) => c > 0 && c <= 1, { message: 'must be a probability' }),
  kind: z.enum(['order-statistic', 'range']),
});
export type CoverageInterval = z.infer<typeof CoverageInterval>;

export const Stats = z.object({
  n: z.int().nonnegative(),
  median: finite,
  mean: finite,
  stdev: finite.nullable(),
  min: finite,
  max: finite,
  cv: finite.nullable(),
  deterministic: z.boolean().describe('instruction counts, bytes, heap: no interval; changes count above the stated threshold'),
  interval: CoverageInterval.nullable().describe('interval of the median; null for deterministic metrics and n < 2'),
});
export type Stats = z.infer<typeof Stats>;

export const Comparison = z.object({
  against: z.string().describe('build key of the reference (version[+variant]; another library: library-version[+variant]) in the same run'),
  ratio: finite.describe('paired: median of the per-round ratios; deterministic: ratio of the medians'),
  pairing: z
    .enum(['paired-rounds', 'deterministic'])
    .describe('paired-rounds: the two builds ran in the same rounds and each round gives one ratio; deterministic: exact counts'),
  pairs: z.int().nonnegative().describe('rounds that measured both builds'),
  interval: CoverageInterval.nullable(),
  verdict: z.enum(['higher', 'lower', 'no-difference-shown', 'within-threshold', 'not-enough-data']),
});
export type Comparison = z.infer<typeof Comparison>;

export const SummaryEntry = z.object({
  host: safeId,
  library: Library.default('openssl'),
  version: z.string(),
  series: z.string(),
  variant: safeId,
  key: z.string(),
  benchmark: safeId,
  metric: safeId,
  label: z.string(),
  unit: Unit,
  method: Method,
  higherIsBetter: z.boolean(),
  params: Params,
  comparability: Comparability,
  status: z.enum(['measured', 'unsupported', 'failed']),
  reason: z.string().optional(),
  observed: Params.optional(),
  runId: safeId.describe('the one run this entry comes from'),
  stats: Stats.nullable(),
  vsPreviousSeries: Comparison.nullable(),
  vsBaseline: Comparison.nullable(),
  vsOpenSSL: Comparison.nullable()
    .default(null)
    .describe("another library's entry against the newest OpenSSL release of the same run (null for OpenSSL entries)"),
});
export type SummaryEntry = z.infer<typeof SummaryEntry>;

export const SummaryRun = z.object({
  runId: safeId,
  host: safeId,
  mode: RunMode,
  startedAt: isoTime,
  finishedAt: isoTime,
  path: z.string(),
  series: z.int(),
  benchmarks: z.array(safeId),
  quiet: z.boolean().describe('held the host lock and passed every quiet-host check; only quiet runs feed the entries (but in a local build: see local)'),
  quietReasons: z.array(z.string()).describe('why a run is not quiet (empty for quiet runs)'),
  local: z
    .literal(true)
    .optional()
    .describe(
      'only in a local build (npm start: npm run aggregate -- --local-host): a run of the machine that ran it, whose not-quiet runs feed the entries too (their values are indicative); never in the committed summary',
    ),
});
export type SummaryRun = z.infer<typeof SummaryRun>;

export const Summary = z.object({
  schemaVersion: z.literal(2),
  kind: z.literal('summary'),
  statistics: z.object({
    intervalMethod: z.string(),
    comparisonMethod: z.string(),
    minCoverageForVerdict: finite,
    deterministicThreshold: finite.describe('relative change below which a deterministic metric counts as unchanged'),
    baselineVersion: z.string(),
    selection: z.string().describe('how the run behind each entry is chosen'),
  }),
  hosts: z.array(Host),
  builds: z.array(BuildFields.extend({ host: safeId })),
  runs: z.array(SummaryRun),
  skipped: z
    .array(z.object({ path: z.string(), reason: z.string() }))
    .default([])
    .describe('run files under data/runs/ the aggregation could not use, with why (the rest was still aggregated)'),
  entries: z.array(SummaryEntry),
});
export type Summary = z.infer<typeof Summary>;

// ---------------------------------------------------------------- derived: detailed-iterations.json

export const DetailedIterations = z
  .object({
    schemaVersion: z.literal(2),
    kind: z.literal('detailed-iterations'),
    columns: z.tuple([
      z.literal('runId'),
      z.literal('host'),
      z.literal('buildId'),
      z.literal('version'),
      z.literal('variant'),
      z.literal('key'),
      z.literal('rounds'),
      z.literal('values'),
    ]),
    rows: z.array(
      z
        .tuple([z.string(), z.string(), z.string(), z.string(), z.string(), z.string(), z.array(z.int().nonnegative()), z.array(finite)])
        .refine((r) => r[6].length === r[7].length, { message: 'rounds and values differ in length' }),
    ),
  })
  .describe(
    'the measured iterations behind the summary, one row per series of a build in a run: the round of each value and the value, in round order (warm-up iterations and the time of each iteration are in the run file)',
  );
export type DetailedIterations = z.infer<typeof DetailedIterations>;

// ---------------------------------------------------------------- reading files with clear errors

export class DataFileError extends Error {}

/** "series.3.iterations.0.value: must be a finite number" — the JSON path first, as users search for it. */
export function describeIssues(error: z.ZodError, max = 8): string {
  const lines = error.issues.slice(0, max).map((i) => `  ${i.path.length ? i.path.join('.') : '(root)'}: ${i.message}`);
  if (error.issues.length > max) lines.push(`  ... and ${error.issues.length - max} more`);
  return lines.join('\n');
}

const KNOWN_RUN_SCHEMA_VERSIONS = [1];

/** Parse a run file's text. Unknown schema versions and invalid content are errors naming the file. */
export function parseRunFile(text: string, file: string): Run {
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch (e) {
    throw new DataFileError(`${file}: not valid JSON (${(e as Error).message}); a truncated file?`);
  }
  const version = (json as { schemaVersion?: unknown } | null)?.schemaVersion;
  if (typeof version !== 'number' || !KNOWN_RUN_SCHEMA_VERSIONS.includes(version))
    throw new DataFileError(`${file}: schemaVersion ${JSON.stringify(version)} is not one this code reads (${KNOWN_RUN_SCHEMA_VERSIONS.join(', ')})`);
  const parsed = Run.safeParse(json);
  if (!parsed.success) throw new DataFileError(`${file}: invalid run file\n${describeIssues(parsed.error)}`);
  return parsed.data;
}
