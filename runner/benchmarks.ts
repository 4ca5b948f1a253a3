// Every benchmark the run loop knows, in the order a round runs them.
import type { Benchmark } from './benchmark.ts';

export const BENCHMARKS: Benchmark[] = [];
