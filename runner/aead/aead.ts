// Benchmark 'aead': runner/aead/aead.c, the same C source compiled against every version, seals TLS-like
// records (fresh IV, 13 bytes of AAD, tag per record). Unlike `openssl speed -evp`, whose AEAD loop
// changed between releases, this does identical work everywhere, so its values are comparable across
// versions. Two series per cipher and size: bytes per second of the measuring thread's CPU time (the
// primary figure: a shared or virtual machine's other tenants are not in it) and bytes per wall-clock
// second over the same records. Each is the median of the program's repetitions (AEAD_PLAN), which take
// turns across the sizes, with the program pinned to one CPU (aead.c says why; a pin the kernel refuses fails the task).
import { fileURLToPath } from 'node:url';
import { z } from 'zod';
import { describeIssues, Library, type Build, type RunMode } from '../../schema/index.ts';
import { median } from '../../analysis/stats.ts';
import { defaultWindow, type Benchmark, type BuildUnderTest, type Outcome, type SeriesSpec, type Task, type WindowLength } from '../benchmark.ts';
import { parseProgramJson, runGuarded, stderrTail } from '../child-guard.ts';
import { EXIT } from '../exit-codes.ts';
import { libraryMismatch } from '../library-id.ts';
import { buildLabel } from '../../catalogue/index.ts';
import { compileAgainst } from '../compile.ts';
import { pinnableCpu } from '../host.ts';

export const AEAD_SOURCE = fileURLToPath(new URL('./aead.c', import.meta.url));
export const AEAD_CIPHERS = ['aes-128-gcm', 'aes-256-gcm', 'chacha20-poly1305'] as const;
export type AeadCipher = (typeof AEAD_CIPHERS)[number];

/**
 * Record sizes, and per size `repetitions` windows of `cpuSeconds` of thread CPU each; the value is
 * the median window. A window of 0.2 s holds 10^4 (16 KiB records) to 10^6 (16-byte records) seals
 * and a few hundred clock reads, so timer resolution and the reads are below 0.01%; what is left is
 * the machine (caches, frequency, interrupts). The windows take turns across the sizes, so one size's
 * windows are spread over the whole task: on this project's first shared VM, slow spells of a few
 * seconds hit one task's back-to-back windows together (a size 30-45% below its median in one round
 * while the builds measured in the same minute were not), which a median of adjacent windows could not
 * drop. Quick mode measures fewer sizes for less time and says so in the run's mode.
 */
export const AEAD_PLAN: Record<RunMode, { sizes: number[]; cpuSeconds: number; repetitions: number }> = {
  quick: { sizes: [16, 1024, 16384], cpuSeconds: 0.1, repetitions: 3 },
  full: { sizes: [16, 64, 256, 1024, 8192, 16384], cpuSeconds: 0.2, repetitions: 5 },
};

/** The windows of a round: short is quick mode's (cpuSeconds x repetitions per size), long full mode's; the sizes stay the mode's. */
const AEAD_WINDOW_PLAN: Record<WindowLength, { cpuSeconds: number; repetitions: number }> = {
  short: { cpuSeconds: AEAD_PLAN.quick.cpuSeconds, repetitions: AEAD_PLAN.quick.repetitions },
  long: { cpuSeconds: AEAD_PLAN.full.cpuSeconds, repetitions: AEAD_PLAN.full.repetitions },
};
const cpuSecondsPerSize = (w: WindowLength) => Number((AEAD_WINDOW_PLAN[w].cpuSeconds * AEAD_WINDOW_PLAN[w].repetitions).toFixed(6));
/** What a task of this mode measures with this window: the mode's sizes, the window's CPU-seconds and repetitions. */
export const aeadPlanOf = (mode: RunMode, window: WindowLength) => ({ sizes: AEAD_PLAN[mode].sizes, ...AEAD_WINDOW_PLAN[window] });

/** Arguments for aead.c that measure `plan` (gcm-mask and the fixture capture use them too), pinned to `cpu` when given. */
export const aeadArgs = (cipher: AeadCipher, plan: { sizes: number[]; cpuSeconds: number; repetitions: number }, cpu: number | null = null): string[] => [
  '--cipher',
  cipher,
  '--sizes',
  plan.sizes.join(','),
  '--cpu-seconds',
  String(plan.cpuSeconds),
  '--repetitions',
  String(plan.repetitions),
  ...(cpu === null ? [] : ['--cpu', String(cpu)]),
];

const AeadOutput = z
  .object({
    tool: z.literal('aead'),
    library: z.string().min(1),
    cipher: z.enum(AEAD_CIPHERS),
    aadBytes: z.int().nonnegative(),
    tagBytes: z.literal(16),
    ivBytes: z.literal(12),
    warmupSeconds: z.number().nonnegative(),
    cpuClock: z.literal('thread'),
    knownAnswer: z.literal('ok'),
    /** present when asked to pin (--cpu): the CPU (a pin the kernel refuses fails the run: c-common/cpu.h) */
    pinnedCpu: z.int().nonnegative().optional(),
    results: z
      .array(
        z
          .object({
            bytes: z.int().positive(),
            repetitions: z
              .array(z.object({ records: z.int().positive(), cpuSeconds: z.number().positive(), wallSeconds: z.number().positive() }).strict())
              .min(1),
            verified: z.literal(true),
          })
          .strict(),
      )
      .min(1),
  })
  .strict();
export type AeadOutput = z.infer<typeof AeadOutput>;

/**
 * Parse what aead.c printed and check it is the run we asked for: the right library version, cipher
 * and sizes. `where` names the source in errors (a fixture path, or "aead on 3.5.7").
 */
export function parseAeadOutput(
  text: string,
  expect: { build: Pick<Build, 'library' | 'version'>; cipher: AeadCipher; sizes: number[] },
  where: string,
): AeadOutput {
  const json = parseProgramJson(text, `${where} (aead)`);
  const parsed = AeadOutput.safeParse(json);
  if (!parsed.success) throw new Error(`${where}: unexpected aead output:\n${describeIssues(parsed.error, 5)}`);
  const out = parsed.data;
  // a static binary says which library it carries: refuse numbers from another build
  const wrong = libraryMismatch(out.library, expect.build);
  if (wrong) throw new Error(`${where}: ${wrong}`);
  if (out.cipher !== expect.cipher) throw new Error(`${where}: measured ${out.cipher}, asked for ${expect.cipher}`);
  const got = out.results.map((r) => r.bytes).join(',');
  if (got !== expect.sizes.join(',')) throw new Error(`${where}: measured sizes ${got}, asked for ${expect.sizes.join(',')}`);
  return out;
}

const RECORDS = (cipher: AeadCipher, bytes: number, aadBytes: number) =>
  `${cipher} seal of ${bytes}-byte records (fresh IV, ${aadBytes} B AAD, tag per record)`;

/** Primary: payload bytes per second of the measuring thread's CPU time. */
export function aeadCpuSpec(cipher: AeadCipher, bytes: number, aadBytes: number): SeriesSpec {
  return {
    benchmark: 'aead',
    metric: `${cipher}-seal-cpu`,
    label: `${RECORDS(cipher, bytes, aadBytes)}, bytes of payload per second of the measuring thread's CPU time (CLOCK_THREAD_CPUTIME_ID; median of several windows)`,
    unit: 'bytes/s',
    method: 'cpu-time-thread',
    higherIsBetter: true,
    params: { algorithm: cipher, operation: 'seal', bytes, aadBytes },
    comparability: { acrossVersions: true },
  };
}

/** Second figure: the same records over wall-clock time (it carries whatever else the machine did). */
export function aeadSpec(cipher: AeadCipher, bytes: number, aadBytes: number): SeriesSpec {
  return {
    benchmark: 'aead',
    metric: `${cipher}-seal`,
    label: `${RECORDS(cipher, bytes, aadBytes)}, bytes/s of payload over wall-clock time (median of several windows; the CPU-time series is the primary figure)`,
    unit: 'bytes/s',
    method: 'wall-clock-throughput',
    higherIsBetter: true,
    params: { algorithm: cipher, operation: 'seal', bytes, aadBytes },
    comparability: { acrossVersions: true },
  };
}

/** Median rates over the repetitions of one size: per thread-CPU second and per wall-clock second. */
export function aeadRates(r: AeadOutput['results'][number]): { cpu: number; wall: number } {
  return {
    cpu: median(r.repetitions.map((x) => (r.bytes * x.records) / x.cpuSeconds)),
    wall: median(r.repetitions.map((x) => (r.bytes * x.records) / x.wallSeconds)),
  };
}

export function aeadOutcomes(out: AeadOutput): Outcome[] {
  const pinning = out.pinnedCpu === undefined ? {} : { observed: { pinnedCpu: out.pinnedCpu } };
  return out.results.flatMap((r) => {
    const { cpu, wall } = aeadRates(r);
    return [
      { spec: aeadCpuSpec(out.cipher, r.bytes, out.aadBytes), value: cpu, ...pinning },
      { spec: aeadSpec(out.cipher, r.bytes, out.aadBytes), value: wall, ...pinning },
    ];
  });
}

/** aead.c writes AAD_BYTES into its output; the spec needs it before a run can fail, so it is fixed here too. */
const AAD_BYTES = 13;

export const aeadBinary = (b: BuildUnderTest): string => compileAgainst(b, AEAD_SOURCE, 'aead');

export function createAeadBenchmark(compile: (b: BuildUnderTest) => string = aeadBinary): Benchmark {
  return {
    id: 'aead',
    libraries: Library.options, // aead.c compiles against every library c-common/library.h knows
    description:
      'AES-128/256-GCM and ChaCha20-Poly1305 seal throughput per thread-CPU second (and per wall second), one EVP program for every version, tag per record',
    async prepare(build) {
      compile(build);
    },
    windows: { unit: 'CPU-seconds per record size', short: cpuSecondsPerSize('short'), long: cpuSecondsPerSize('long') },
    tasks(build: BuildUnderTest, mode: RunMode, window: WindowLength = defaultWindow(mode)): Task[] {
      const plan = aeadPlanOf(mode, window);
      const { sizes } = plan;
      return AEAD_CIPHERS.map((cipher) => ({
        id: cipher,
        produces: sizes.flatMap((bytes) => [aeadCpuSpec(cipher, bytes, AAD_BYTES), aeadSpec(cipher, bytes, AAD_BYTES)]),
        async run(): Promise<Outcome[]> {
          const where = `aead ${cipher} on ${buildLabel(build.record)}`;
          // generous: a repetition may take up to 20x its CPU target in wall time on a busy machine
          const r = await runGuarded(compile(build), aeadArgs(cipher, plan, pinnableCpu()), {
            timeoutMs: (sizes.length * (plan.repetitions * plan.cpuSeconds * 20 + 1) + 30) * 1000,
          });
          if (r.code === EXIT.unsupported) {
            // the library has no such cipher: every size is unsupported, with the library's reason
            const reason = `${where}: ${stderrTail(r.stderr).replace(/^aead: unsupported: /, '')}`;
            return sizes.flatMap((bytes) =>
              [aeadCpuSpec(cipher, bytes, AAD_BYTES), aeadSpec(cipher, bytes, AAD_BYTES)].map((spec) => ({ spec, status: 'unsupported' as const, reason })),
            );
          }
          if (r.code !== EXIT.ok) {
            // a failed known-answer or round-trip check: every size of this cipher is failed, with the reason
            const reason = `${where} exited with ${r.code === -1 ? 'a kill or timeout' : r.code}: ${stderrTail(r.stderr)}`;
            return sizes.flatMap((bytes) =>
              [aeadCpuSpec(cipher, bytes, AAD_BYTES), aeadSpec(cipher, bytes, AAD_BYTES)].map((spec) => ({ spec, status: 'failed' as const, reason })),
            );
          }
          const out = parseAeadOutput(r.stdout, { build: build.record, cipher, sizes }, where);
          if (out.aadBytes !== AAD_BYTES) throw new Error(`${where}: AAD of ${out.aadBytes} bytes, this module expects ${AAD_BYTES}`);
          return aeadOutcomes(out);
        },
      }));
    },
  };
}

export const aeadBenchmark: Benchmark = createAeadBenchmark();
