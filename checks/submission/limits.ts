// The submission rules as numbers: the size caps, the per-run limits, the plausible range of each unit,
// and what a too-large submission is told to do.
import type { Unit } from '../../schema/index.ts';
import type { Report } from './report.ts';

/**
 * Size caps, from the stored format (compact JSON, brotli quality 11): a full run of the default matrix with
 * two more release series (12 builds, 6 rounds, every default benchmark) is ~7.8 MB of JSON and ~0.22 MB
 * stored (checks/submission-size.test.ts prints the figures); the caps leave about twice that for more
 * rounds or benchmarks, and no more: a file beyond them is not one run of the matrix, and its pull request
 * is told how to split it.
 */
export const SIZE = {
  /** JSON after decompression: what a reader holds in memory */
  maxJsonBytes: 16 * 1024 * 1024,
  /** bytes stored in the repository: what the file adds to every clone */
  maxFileBytes: 512 * 1024,
  /** stored bytes of all files of one pull request: 20 full runs fit */
  maxChangeBytes: 6 * 1024 * 1024,
};

export const LIMITS = {
  ...SIZE,
  // The schema's longest text field allows 2000 characters; anything far longer is not a run.
  maxStringChars: 10_000,
  maxDepth: 16, // a run nests 6 levels deep
  maxRunHours: 7 * 24,
  // One run per machine is the usual submission; a batch of 20 is generous and bounds the work a PR can cause.
  maxFilesPerChange: 20,
  // Runs cannot predate this harness; a little clock skew is tolerated in the future.
  earliest: '2025-01-01T00:00:00Z',
  futureSkewMinutes: 10,
  // The largest committed run has 485 distinct series keys, all on each of its builds (e33c: 14 builds);
  // the runner's registry knows ~830 keys for one 3.5 build. Twice the largest real run, and no more.
  maxSeriesPerBuild: 1000,
  maxKeysPerRun: 1000,
  // What a pull request may add to data/summary.json (one entry per machine, build and series key): a
  // full run of the default matrix with two more release series on a new machine adds about 9 MB
  // (checks/submission-size.test.ts); twice that, so that 100 MB, GitHub's limit for one file, is
  // several pull requests away and each of them is seen.
  maxSummaryGrowthBytes: 20 * 1024 * 1024,
};

/**
 * Bytes one entry of data/summary.json takes besides its label, as written (indented): measured on the
 * committed summary.json (14,885 entries, mean 1,215 bytes of compact JSON without the label, 1,402 with
 * label and indentation), rounded up.
 */
export const SUMMARY_ENTRY_BYTES = 1400;

/**
 * Plausible values per unit. `max` is far above anything real, so a plausible run never trips it; it
 * holds for one core, and a rate (`perCore`) may be that many times higher only for a series that says
 * it ran several threads (its `threads` parameter, capped at MAX_PARALLEL): never by the CPU count a
 * file claims. `min` is the floor of a real measurement: below it a value is an artefact (5e-324, a
 * division by a huge count) that would turn into an infinite ratio. `zero` says whether 0 is a real
 * outcome (an instruction count of a function that was not called).
 */
export const BOUNDS: Record<Unit, { max: number; perCore: boolean; min: number; zero: boolean; why: string; whyMin: string }> = {
  'bytes/s': {
    max: 1e11,
    perCore: true,
    min: 1,
    zero: false,
    why: '100 GB/s per core: several times the fastest one-core AES-GCM or ChaCha20 (~10-20 GB/s)',
    whyMin: 'one byte per second is no throughput measurement',
  },
  'ops/s': {
    max: 1e9,
    perCore: true,
    min: 1e-3,
    zero: false,
    why: '10^9 ops/s per core is one operation per ~4 cycles; no crypto call is that cheap',
    whyMin: 'an operation per 1000 s: nothing measured takes that long',
  },
  'handshakes/s': {
    max: 1e6,
    perCore: true,
    min: 1e-3,
    zero: false,
    why: '10^6/s per core is 1 us per handshake; a resumed TLS handshake costs tens of us',
    whyMin: 'a handshake per 1000 s',
  },
  'connections/s': { max: 1e6, perCore: true, min: 1e-3, zero: false, why: 'a connection includes a handshake: same bound', whyMin: 'a connection per 1000 s' },
  'us/op': {
    max: 1e8,
    perCore: false,
    min: 1e-4,
    zero: false,
    why: '100 s for one operation: even RSA-15360 signs in seconds',
    whyMin: '0.1 ns, less than one clock cycle',
  },
  'us/handshake': {
    max: 1e8,
    perCore: false,
    min: 1e-2,
    zero: false,
    why: '100 s for one handshake',
    whyMin: '10 ns for a handshake: not even the record layer is that fast',
  },
  instructions: {
    max: 1e12,
    perCore: false,
    min: 1,
    zero: true,
    why: 'a handshake executes ~10^7 instructions; 10^12 is minutes of CPU',
    whyMin: 'a count of instructions is 0 or at least 1',
  },
  bytes: {
    max: 1e9,
    perCore: false,
    min: 1e-3,
    zero: true,
    why: '1 GB per handshake or session',
    whyMin: 'a thousandth of a byte, even as an average, is an artefact',
  },
  count: { max: 1e12, perCore: false, min: 1e-3, zero: true, why: 'generic counter ceiling', whyMin: 'a thousandth, even as an average, is an artefact' },
};
/** The most threads a multi-threaded series may claim to raise a per-core bound (the benchmarks use at most 4). */
export const MAX_PARALLEL = 64;

export const mib = (n: number) => `${(n / 2 ** 20).toFixed(n % 2 ** 20 ? 1 : 0)} MiB`;
/** How to make a run small enough, said with every size problem. */
export const SPLIT_RUN =
  'a run this large is more than a full run of the default matrix with two more release series: measure fewer versions per run ' +
  '(npm run bench -- --full <version> <version> ...) and submit each run file on its own';
export const SPLIT_CHANGE =
  'split the pull request: at most ' +
  `${LIMITS.maxFilesPerChange} run files and ${mib(SIZE.maxChangeBytes)} per pull request, e.g. one per host or per month ` +
  '(git switch -c runs-part-1 origin/main && git checkout <your-branch> -- data/runs/<host>/<YYYY>/<MM>/ && git commit)';
/** Submissions add runs only; the bench runners also add ML-KEM hypothesis results. */
export const FOLDERS: Record<Report['mode'], string[]> = { submission: ['runs'], runner: ['runs', 'hypothesis'] };
