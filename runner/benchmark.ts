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
  /** the sha256 of its installed files as build.json recorded them, hashed together (build/cache.ts binarySha256); without it nothing deterministic is reused */
  binarySha256?: string;
}

/** Everything about a series except which build and what was measured. */
export type SeriesSpec = Pick<Series, 'benchmark' | 'metric' | 'label' | 'unit' | 'method' | 'higherIsBetter' | 'params' | 'comparability'>;

export type Outcome =
  { spec: SeriesSpec; value: number; observed?: Params } | { spec: SeriesSpec; status: 'unsupported' | 'failed'; reason: string; observed?: Params };

export interface Task {
  /** unique within one build and benchmark, e.g. "aes-128-gcm" */
  id: string;
  run(): Promise<Outcome[]>;
  /** deterministic measurements (instruction counts, call counts, heap, bytes): run once, in the deterministic phase before the timed rounds, and reused by later runs (runner/deterministic.ts) */
  oncePerRun?: boolean;
  /**
   * The series run() can return, where the module declares them: a run that wants only some series (npm
   * run reproduce) skips a task none of whose keys it wants; a task that declares nothing is never skipped
   * (nothing rules it out). Together they are the runner's registry of series (runner/series-registry.ts):
   * the submission check takes a series' metric, unit and params from here, not from the file.
   */
  produces?: readonly SeriesSpec[];
}

/** The length of a benchmark's timed windows, where it is a choice (runner/windows.ts chooses): short is quick mode's, long full mode's. */
export type WindowLength = 'short' | 'long';

/** A benchmark's two windows, in the unit its knob has (handshakes per window, CPU-seconds per size, seconds per section). */
export interface Windows {
  unit: string;
  short: number;
  long: number;
}

/** The window a run of this mode measures with when nothing else is said. */
export const defaultWindow = (mode: RunMode): WindowLength => (mode === 'quick' ? 'short' : 'long');

export interface Benchmark {
  id: string;
  /** one line for --help and the methodology page */
  description: string;
  /** the libraries it can measure (default: OpenSSL only: it needs the openssl app or OpenSSL internals) */
  libraries?: Library[];
  /** the module that defines it (import.meta.url): its source files key the reuse of its deterministic results (runner/deterministic.ts); without it they are never reused */
  source?: string;
  /** once per build before the first round: compile helpers, make keys. May throw: the build is then marked failed for this benchmark. */
  prepare?(build: BuildUnderTest, mode: RunMode): Promise<void>;
  /** its tasks run processes that wake each other's CPUs (a client and a server over loopback): on a VM they cause steal themselves, so each is followed by a steal probe (runner/quiet/round-watch.ts, STEAL PROBES) */
  wakesOtherCpus?: boolean;
  /** where the length of its timed windows is a choice: the short (quick mode's) and the long one */
  windows?: Windows;
  /** `window`: the timed windows' length, for a benchmark with `windows` (default: the mode's, defaultWindow) */
  tasks(build: BuildUnderTest, mode: RunMode, window?: WindowLength): Task[];
}

/** Whether a benchmark measures builds of this library. */
export const measures = (bench: Pick<Benchmark, 'libraries'>, library: Library): boolean => (bench.libraries ?? ['openssl']).includes(library);

/** The series key: same benchmark, metric and parameters = same experiment, whatever the build. */
export function seriesKey(spec: Pick<SeriesSpec, 'benchmark' | 'metric' | 'params'>): string {
  const params = Object.keys(spec.params)
    .sort()
    .map((k) => `${k}=${String(spec.params[k])}`)
    .join(',');
  return `${spec.benchmark}/${spec.metric}${params ? `[${params}]` : ''}`;
}

/**
 * The tasks a run must run when it wants only the series `wanted` accepts: those declaring a wanted key,
 * and those declaring nothing (they may produce one). Without `wanted`, every task.
 */
export function wantedTasks(tasks: Task[], wanted?: (key: string) => boolean): Task[] {
  if (!wanted) return tasks;
  return tasks.filter((t) => t.produces === undefined || t.produces.some((spec) => wanted(seriesKey(spec))));
}
