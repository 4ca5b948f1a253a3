// Every benchmark the run loop knows, in the order a round runs them.
import type { Benchmark } from './benchmark.ts';
import { speedBenchmark } from './speed/speed.ts';
import { aeadBenchmark } from './aead/aead.ts';
import { handshakeBenchmark } from './handshake/handshake.ts';
import { sTimeBenchmark } from './s-time/s-time.ts';
import { CAUSE_BENCHMARKS } from './causes/causes.ts';
import { knownIssuesBenchmark } from './known-issues/known-issues.ts';
import { serversBenchmark } from './servers/servers-benchmark.ts';

export const BENCHMARKS: Benchmark[] = [
  speedBenchmark,
  aeadBenchmark,
  handshakeBenchmark,
  sTimeBenchmark,
  knownIssuesBenchmark,
  serversBenchmark,
  ...CAUSE_BENCHMARKS,
];

/** What a run measures unless told otherwise; the cause experiments of the write-ups and the real servers (still being proven) are asked for by name. */
export const DEFAULT_BENCHMARKS = [speedBenchmark, aeadBenchmark, handshakeBenchmark, sTimeBenchmark, knownIssuesBenchmark].map((b) => b.id);
