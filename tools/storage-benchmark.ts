// The storage benchmark record (docs/benchmarks/storage-simulation.json and .md) from the state files of
// tools/simulate-year.ts runs. Every figure in the Markdown is rendered from the JSON.
//
//   node tools/storage-benchmark.ts record --label 3y4h --sim DIR|STATE.json --note "what else the machine did"
//        [--about "what this simulation is for"] [--file docs/benchmarks/storage-simulation.json]
//   node tools/storage-benchmark.ts markdown [--file docs/benchmarks/storage-simulation.json] > docs/benchmarks/storage-simulation.md
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { commandLine, openingComment } from '../runner/cli.ts';
import { gzipSync } from 'node:zlib';
import { encodeRunFile, parseRunFile, readRunText } from '../schema/index.ts';
import { loadTemplate, releasedSeries, SIM_RUN_FILE_QUALITY, synthesizeRun } from './simulation/synthetic-runs.ts';
import { machine } from './simulation/state.ts';

const FILE = 'docs/benchmarks/storage-simulation.json';
const MB = 1e6;
const MiB = 2 ** 20;

/** The issue's targets for 3 years of 4 hosts, as (label, unit, limit, how to read the value from a simulation). */
export const TARGETS: { what: string; limit: number; unit: 'MB' | 's' | 'GB' | 'KB'; value: (s: Sim) => number | null }[] = [
  { what: 'largest committed file', limit: 50, unit: 'MB', value: (s) => (s.final?.largestCommittedFile?.bytes ?? NaN) / MB },
  { what: 'nightly aggregation, CPU time', limit: 60, unit: 's', value: (s) => s.aggregate?.cpuSeconds ?? null },
  { what: 'nightly aggregation, wall time (shared machine)', limit: 60, unit: 's', value: (s) => s.aggregate?.wallSeconds ?? null },
  { what: 'nightly aggregation, peak memory', limit: 1, unit: 'GB', value: (s) => (s.aggregate ? s.aggregate.maxRssBytes / 1e9 : null) },
  { what: 'site build, wall time (shared machine)', limit: 180, unit: 's', value: (s) => s.site?.buildWallSeconds ?? null },
  { what: 'deployed site', limit: 500, unit: 'MB', value: (s) => (s.site ? s.site.deployedBytes / MB : null) },
  {
    what: 'repository growth per night per host (mean push)',
    limit: 1,
    unit: 'MB',
    value: (s) => (s.final?.pushBytesPerNightPerHost ? s.final.pushBytesPerNightPerHost.mean / MB : null),
  },
  {
    what: 'home page transfer',
    limit: 200,
    unit: 'KB',
    value: (s) => (s.site?.pageTransferBytes['/'] !== undefined ? s.site.pageTransferBytes['/'] / 1024 : null),
  },
  {
    what: 'drift page transfer',
    limit: 200,
    unit: 'KB',
    value: (s) => (s.site?.pageTransferBytes['/drift/'] !== undefined ? s.site.pageTransferBytes['/drift/'] / 1024 : null),
  },
  {
    what: 'compare page transfer',
    limit: 400,
    unit: 'KB',
    value: (s) => (s.site?.pageTransferBytes['/compare/'] !== undefined ? s.site.pageTransferBytes['/compare/'] / 1024 : null),
  },
  { what: 'largest version page transfer', limit: 250, unit: 'KB', value: (s) => largestPage(s, /^\/versions\/[^/]+\/$/) },
  {
    what: 'largest benchmark page of a version (one host) transfer',
    limit: 250,
    unit: 'KB',
    value: (s) => largestPage(s, /^\/versions\/[^/]+\/[^/]+\/[^/]+\/$/),
  },
];

/** The largest measured page whose path matches, in KB; null when none was measured. */
function largestPage(s: Sim, path: RegExp): number | null {
  const sizes = Object.entries(s.site?.pageTransferBytes ?? {})
    .filter(([p]) => path.test(p))
    .map(([, b]) => b / 1024);
  return sizes.length ? Math.max(...sizes) : null;
}

interface Sim {
  label: string;
  /** what this simulation is for (e.g. the layout it measured, when an older one is kept for comparison) */
  about?: string;
  options: { nights: number; hosts: number; rounds: number; seriesEveryMonths: number; scale: number; start: string };
  nightsDone: number;
  generation: {
    secondsPerNight: { median: number; max: number };
    runBytesPerHost: { first: number; last: number };
    runJsonBytesPerHost: { first: number; last: number };
  };
  checkpoints: { night: number; largest: { path: string; bytes: number } }[];
  pushes?: { night: number; bytes: number }[];
  aggregate?: { output: string; wallSeconds: number; cpuSeconds: number; maxRssBytes: number; loadAverageBefore: number[]; sameAsInProcessDerivation: boolean };
  final?: {
    pushBytesPerNightPerHost: { nights: number; median: number; mean: number; max: number; firstNightAllHosts: number };
    largestCommittedFile: { path: string; bytes: number };
    derivedFiles: { path: string; bytes: number }[];
    timeseriesFileBytesMax: number;
    workingTree: { bytes: number; files: number };
    maxFilesInAFolder: number;
    folder: string;
    packBytes?: number;
    packBytesByKind?: Record<string, number>;
    packBytesPerNightPerHost?: number;
    repackWallSeconds?: number;
  };
  site?: {
    buildWallSeconds: number;
    buildCpuSeconds: number;
    buildMaxRssBytes: number;
    loadAverageBefore: number[];
    deployedBytes: number;
    deployedFiles: number;
    largestDeployedFile: { path: string; bytes: number };
    pageTransferBytes: Record<string, number>;
  };
  recordedAt: string;
  machine: Record<string, unknown>;
}
interface Record_ {
  about: string;
  calibration: {
    realTemplateJsonBytes: number;
    /** brotli 11, as the runner writes it, and the seconds that took here */
    realTemplateStoredBytes: number;
    storedSeconds: number;
    realTemplateGzipBytes: number;
    realTemplateSimQualityBytes: number;
    syntheticTemplateShapeSimQualityBytes: number;
  };
  simulations: Record<string, Sim>;
}

// the upper median (of an even count, the higher middle value), not stats.ts median: the recorded figures were computed so
const upperMedian = (xs: number[]) => [...xs].sort((a, b) => a - b)[xs.length >> 1] ?? NaN;

/**
 * How the archived real full run stores in the runner's format (brotli 11), in the simulation's (brotli 9) and in
 * gzip -9 (the format before), against a synthetic run of the same shape (9 builds, handshake only, 5 rounds).
 */
export function calibration(): Record_['calibration'] {
  const real = readRunText('data/archive/contaminated/runs/obs-devbox-2c/2026/11/20261122T040846Z-full-b88e.json.br');
  const parsed = parseRunFile(real, 'template');
  const run = synthesizeRun(loadTemplate(), 0, 10, { rounds: 5, seriesEveryMonths: 0, start: '2027-01-01T00:00:00.000Z' });
  const ids = new Set(run.builds.filter((b) => b.variant === 'default').map((b) => b.id));
  const shaped = {
    ...run,
    builds: run.builds.filter((b) => ids.has(b.id)),
    series: run.series.filter((s) => s.benchmark === 'handshake' && ids.has(s.buildId)),
  };
  const t = performance.now();
  const stored = encodeRunFile(parsed).length;
  const storedSeconds = Math.round((performance.now() - t) / 100) / 10;
  return {
    realTemplateJsonBytes: real.length,
    realTemplateStoredBytes: stored,
    storedSeconds,
    realTemplateGzipBytes: gzipSync(real, { level: 9 }).length,
    realTemplateSimQualityBytes: encodeRunFile(parsed, SIM_RUN_FILE_QUALITY).length,
    syntheticTemplateShapeSimQualityBytes: encodeRunFile(shaped, SIM_RUN_FILE_QUALITY).length,
  };
}

export function record(label: string, simDir: string, file: string, note: string, about?: string): void {
  // a simulation directory, or a state file kept from one (state-<n>-nights.json)
  const state = JSON.parse(readFileSync(simDir.endsWith('.json') ? simDir : join(simDir, 'state.json'), 'utf8'));
  const nights = state.nights as { seconds: number; runBytes: number; runJsonBytes: number }[];
  const hosts = state.options.hosts as number;
  const sim: Sim = {
    label,
    ...(about ? { about } : {}),
    options: state.options,
    nightsDone: state.nightsDone,
    generation: {
      secondsPerNight: { median: upperMedian(nights.map((n) => n.seconds)), max: Math.max(...nights.map((n) => n.seconds)) },
      runBytesPerHost: { first: Math.round(nights[0]!.runBytes / hosts), last: Math.round(nights.at(-1)!.runBytes / hosts) },
      runJsonBytesPerHost: { first: Math.round(nights[0]!.runJsonBytes / hosts), last: Math.round(nights.at(-1)!.runJsonBytes / hosts) },
    },
    checkpoints: (state.checkpoints as { night: number; largest: { path: string; bytes: number } }[]).map(({ night, largest }) => ({ night, largest })),
    pushes: state.pushes,
    aggregate: state.aggregate,
    final: state.final,
    site: state.site,
    recordedAt: new Date().toISOString(),
    machine: { ...machine(), note },
  };
  const rec: Record_ = existsSync(file)
    ? JSON.parse(readFileSync(file, 'utf8'))
    : {
        about: 'tools/simulate-year.ts: synthetic nightly full runs committed night by night into a scratch repository; see storage-simulation.md',
        calibration: calibration(),
        simulations: {},
      };
  rec.calibration = calibration();
  rec.simulations[label] = sim;
  writeFileSync(file, JSON.stringify(rec, null, 1) + '\n');
}

const fmt = (v: number, digits = 1) => v.toLocaleString('en-US', { maximumFractionDigits: digits, minimumFractionDigits: digits });
const mb = (b: number | undefined) => (b === undefined ? '—' : `${fmt(b / MB, 2)} MB`);
const yearsOf = (s: Sim) => `${fmt(s.options.nights / 365, 0)} year${s.options.nights > 365 ? 's' : ''} × ${s.options.hosts} hosts`;

export function markdown(rec: Record_): string {
  const c = rec.calibration;
  const templateBuilds = loadTemplate().builds.length;
  const sims = Object.values(rec.simulations).sort((a, b) => a.options.nights - b.options.nights);
  const L: string[] = [];
  L.push('# Storage simulation: years of nightly runs', '');
  L.push(
    'Rendered by `node tools/storage-benchmark.ts markdown` from [storage-simulation.json](storage-simulation.json), which',
    '`tools/simulate-year.ts` runs produced. It is a benchmark, not a test: it measures what the storage layout',
    '([docs/storage.md](../storage.md)) does after years of nightly commits.',
    '',
    'What the machine was doing while each simulation ran, as recorded with it:',
    '',
    ...sims.map(
      (s) => `- ${yearsOf(s)}: ${String(s.machine.note ?? 'not recorded')} (${String(s.machine.logicalCpus)} logical CPUs; load averages in the JSON)`,
    ),
    '',
    'CPU times, memory and sizes do not depend on the load; wall times do.',
    '',
    '## How',
    '',
    '- Each night, each host commits one synthetic full run, shaped like the archived real full run (its handshake series,',
    '  parameters, iteration counts and timestamps) plus the speed, aead and s-time series of the archived quick run of the',
    '  same matrix, 3.5 without ML-KEM, 6 measured rounds after a warm-up, and one new release series every 6 months',
    `  (${[...new Set(sims.map((s) => `${templateBuilds + releasedSeries(s.options.nights - 1, s.options.seriesEveryMonths).length} builds on the last night of ${yearsOf(s)}`))].join(', ')}). Hosts and runs say SYNTHETIC.`,
    "- Values move like a real machine's (per-host level, slow drift, steps at kernel, microcode and compiler changes,",
    '  noise per iteration) and carry the digits real values carry (a time over a count, a rate with two decimals):',
    `  a synthetic run of the real full run's shape stores in ${mb(c.syntheticTemplateShapeSimQualityBytes)}, the real one in`,
    `  ${mb(c.realTemplateSimQualityBytes)} (${mb(c.realTemplateJsonBytes)} of JSON), both at the simulation's brotli quality ${SIM_RUN_FILE_QUALITY}.`,
    `- Run files are brotli, quality 11, in the repository: the real full run stores in ${mb(c.realTemplateStoredBytes)} (${fmt(c.storedSeconds)} s to write`,
    `  here; gzip -9, the format before, ${mb(c.realTemplateGzipBytes)}). Quality 11 for 4 hosts × 1,095 nights would take hours, so the`,
    `  simulation writes quality ${SIM_RUN_FILE_QUALITY} (${mb(c.realTemplateSimQualityBytes)} for the real run): its run files, and the growth below, are larger`,
    '  than the runner\'s would be. (The 1-year simulation in the gzip layout is kept below as the "before".)',
    '- The nightly commit holds what `bench.yml` commits: the run files, `summary.json`, `data/timeseries/` and the schema',
    '  exports and `detailed-iterations.json`. The derived files of every night but the last',
    "  come from the aggregation's own code run in the simulation's process; the last night runs `npm run aggregate` as a",
    '  process of its own, timed with `/usr/bin/time -v`, and its output is compared with the in-process result.',
    "- Growth is what pushing each night's commit sends (`git pack-objects --thin` against the night before: what the",
    '  remote receives and keeps), sampled every few nights. A full `git repack -a -d` of the scratch repository, which',
    '  would say what a fresh clone fetches, ran for more than 15 minutes on 2 cores at one year and was stopped: where',
    '  it finished, its figure is given per simulation below.',
    '',
  );
  L.push('## Against the targets', '');
  L.push(`| | target | ${sims.map((s) => `${yearsOf(s)} (${s.label})`).join(' | ')} |`, `|---|---|${sims.map(() => '---').join('|')}|`);
  for (const t of TARGETS) {
    const cells = sims.map((s) => {
      const v = t.value(s);
      if (v === null || Number.isNaN(v)) return 'not measured';
      return `${fmt(v, t.unit === 'MB' && v < 10 ? 2 : 1)} ${t.unit} ${v < t.limit ? '(meets)' : '**(misses)**'}`;
    });
    L.push(`| ${t.what} | < ${t.limit} ${t.unit} | ${cells.join(' | ')} |`);
  }
  L.push('', 'The targets are set for 3 years × 4 hosts; the 1-year column shows the trend.', '');
  for (const s of sims) {
    L.push(`## ${yearsOf(s)} (${s.label})`, '');
    if (s.about) L.push(s.about, '');
    L.push(`- Nights committed: ${s.nightsDone} of ${s.options.nights}.`);
    L.push(
      `- Run file per host and night: ${mb(s.generation.runBytesPerHost.first)} stored (${mb(s.generation.runJsonBytesPerHost.first)} of JSON) on the first night, ${mb(s.generation.runBytesPerHost.last)} (${mb(s.generation.runJsonBytesPerHost.last)}) on the last.`,
    );
    if (s.final) {
      const p = s.final.pushBytesPerNightPerHost;
      L.push(
        `- Push per night and host, over ${p.nights} sampled nights: median ${mb(p.median)}, mean ${mb(p.mean)}, max ${mb(p.max)}; the first night (every file new) sent ${mb(p.firstNightAllHosts)} for all hosts.`,
      );
      L.push(
        `- Largest committed file: \`${s.final.largestCommittedFile.path}\`, ${mb(s.final.largestCommittedFile.bytes)}. Derived files: ${s.final.derivedFiles.map((f) => `\`${f.path}\` ${mb(f.bytes)}`).join(', ')}; the largest time-series file ${mb(s.final.timeseriesFileBytesMax)}.`,
      );
      L.push(
        `- Working tree of \`data/\`: ${mb(s.final.workingTree.bytes)} in ${s.final.workingTree.files} files; the fullest folder (\`${s.final.folder}\`) holds ${s.final.maxFilesInAFolder} entries.`,
      );
      if (s.final.packBytes !== undefined) {
        L.push(
          `- After a full repack: ${mb(s.final.packBytes)} (${mb(s.final.packBytesPerNightPerHost)} per night and host); by kind: ${Object.entries(
            s.final.packBytesByKind ?? {},
          )
            .sort((a, b) => b[1] - a[1])
            .map(([k, v]) => `${k} ${mb(v)}`)
            .join(', ')}.`,
        );
      } else L.push('- The full repack did not run (or did not finish) for this simulation.');
    }
    if (s.aggregate) {
      L.push(
        `- Nightly aggregation: ${fmt(s.aggregate.cpuSeconds)} s of CPU, ${fmt(s.aggregate.wallSeconds)} s wall (load average ${s.aggregate.loadAverageBefore.map((x) => fmt(x, 2)).join(', ')} when it started), peak ${fmt(s.aggregate.maxRssBytes / MiB, 0)} MiB; its output equals the in-process derivation: ${s.aggregate.sameAsInProcessDerivation ? 'yes' : '**no**'}.`,
      );
      L.push(`  It said: \`${s.aggregate.output.replace(/\/[^ ]*\/repo\//g, '<repo>/')}\``);
    }
    if (s.site) {
      L.push(
        `- Site build: ${fmt(s.site.buildWallSeconds)} s wall, ${fmt(s.site.buildCpuSeconds)} s CPU, peak ${fmt(s.site.buildMaxRssBytes / MiB, 0)} MiB; deployed ${mb(s.site.deployedBytes)} in ${s.site.deployedFiles} files, the largest \`${s.site.largestDeployedFile.path}\` (${mb(s.site.largestDeployedFile.bytes)}).`,
      );
      L.push(
        `- Per-page transfer (every response while the page loads, uncompressed): ${Object.entries(s.site.pageTransferBytes)
          .map(([p, b]) => `\`${p}\` ${fmt(b / 1024)} KB`)
          .join(', ')}.`,
      );
    } else L.push('- The site was not built from this simulation.');
    L.push('');
  }
  L.push('## Not simulated', '');
  L.push(
    '- The ML-KEM hypothesis results (`data/hypothesis/<host>/<runId>.json`, about 0.15 MB indented) that `bench.yml` also commits',
    '  every night, in one folder per host: they are not in this layout yet and add to the growth above.',
    '- Server-side repacking by the hosting service, and shallow or partial clones: the figures are for full history.',
    '',
  );
  return L.join('\n');
}

if (import.meta.main) {
  const cli = commandLine('storage-benchmark', openingComment(import.meta.url), {
    label: { type: 'string' },
    sim: { type: 'string' },
    note: { type: 'string' },
    about: { type: 'string' },
    file: { type: 'string', default: FILE },
  });
  const { values, positionals } = cli;
  if (positionals[0] === 'record' && values.label && values.sim && values.note) record(values.label, values.sim, values.file, values.note, values.about);
  else if (positionals[0] === 'markdown') process.stdout.write(markdown(JSON.parse(readFileSync(values.file, 'utf8'))));
  else cli.fail(positionals[0] === 'record' ? 'record needs --label, --sim and --note' : 'give record or markdown');
}
