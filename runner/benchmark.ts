// The contract between the run loop (runner/run.ts) and each benchmark module.
//
// A benchmark turns a build into tasks; one call of a task's run() is one iteration and returns a
// value for each series it measured (or says why a series could not be measured on this build).
// The run loop interleaves builds round by round, stamps every value with its round and time, and
// appends it to the journal at once.
import type { Build, Library, Series, RunMode, Params } from '../schema/index.ts';

export interface BuildUnderTest {
  record: Build;
  /** install prefix: bin/openssl, include/, lib/libssl.a, lib/libcrypto.a */
  prefix: string;
}

/** Everything about a series except which build and what was measured. */
export type SeriesSpec = Pick<Series, 'benchmark' | 'metric' | 'label' | 'unit' | 'method' | 'higherIsBetter' | 'params' | 'comparability'>;

export type Outcome =
  | { spec: SeriesSpec; value: number; observed?: Params }
  | { spec: SeriesSpec; status: 'unsupported' | 'failed'; reason: string; observed?: Params };

export interface Task {
  /** unique within one build and benchmark, e.g. "aes-128-gcm" */
  id: string;
  run(): Promise<Outcome[]>;
  /** deterministic measurements (instruction counts): run in the first measured round only */
  oncePerRun?: boolean;
}

export interface Benchmark {
  id: string;
  /** one line for --help and the methodology page */
  description: string;
  /** the libraries it can measure (default: OpenSSL only: it needs the openssl app or OpenSSL internals) */
  libraries?: Library[];
  /** once per build before the first round: compile helpers, make keys. May throw: the build is then marked failed for this benchmark. */
  prepare?(build: BuildUnderTest, mode: RunMode): Promise<void>;
  tasks(build: BuildUnderTest, mode: RunMode): Task[];
}

/** The series key: same benchmark, metric and parameters = same experiment, whatever the build. */
export function seriesKey(spec: Pick<SeriesSpec, 'benchmark' | 'metric' | 'params'>): string {
  const params = Object.keys(spec.params)
    .sort()
    .map((k) => `${k}=${String(spec.params[k])}`)
    .join(',');
  return `${spec.benchmark}/${spec.metric}${params ? `[${params}]` : ''}`;
}
