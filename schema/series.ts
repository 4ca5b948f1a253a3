// A measured series: what one build did on one experiment, every iteration with its round.
import { z } from 'zod';
import { finite, isoTime, nonNegative, safeId, sha256Hex, shortText } from './primitives.ts';

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
      key: sha256Hex.describe('sha256 of the reuse key below (runner/deterministic.ts)'),
      binarySha256: sha256Hex.describe("the build's installed files (build.json), hashed together"),
      sourcesSha256: sha256Hex.describe("the benchmark's own source files, hashed together"),
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
