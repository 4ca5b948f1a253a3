// What a simulation records: its resumable state (state.json in its output folder), the machine it ran on,
// and commands timed with /usr/bin/time.
import { execFileSync, spawnSync } from 'node:child_process';
import { cpus, freemem, loadavg, totalmem } from 'node:os';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { SimOptions } from './synthetic-runs.ts';

export interface NightLog {
  night: number;
  /** bytes of the night's run files (gzip) and of their JSON */
  runBytes: number;
  runJsonBytes: number;
  /** growth of git's loose objects this night (zlib-compressed, before delta compression) */
  looseGrowth: number;
  seconds: number;
}
export interface Checkpoint {
  night: number;
  /** git's objects on disk, loose (zlib) and packed */
  gitBytes: number;
  largest: { path: string; bytes: number };
}
/** What pushing one night's commit to a repository that has the night before sends: its thin pack. */
export interface Push {
  night: number;
  bytes: number;
}
/** The options that decide what is generated (a resumed simulation must have the same). */
export type Identity = Pick<SimOptions, 'nights' | 'hosts' | 'rounds' | 'seriesEveryMonths' | 'scale' | 'start'>;
export const identity = (o: SimOptions): Identity => ({
  nights: o.nights,
  hosts: o.hosts,
  rounds: o.rounds,
  seriesEveryMonths: o.seriesEveryMonths,
  scale: o.scale,
  start: o.start,
});
export interface State {
  options: Identity;
  nightsDone: number;
  nights: NightLog[];
  checkpoints: Checkpoint[];
  pushes?: Push[];
  aggregate?: Record<string, unknown>;
  site?: Record<string, unknown>;
  final?: Record<string, unknown>;
}

export const statePath = (out: string) => join(out, 'state.json');
export function saveState(out: string, s: State): void {
  writeFileSync(`${statePath(out)}.tmp`, JSON.stringify(s, null, 1) + '\n');
  execFileSync('mv', [`${statePath(out)}.tmp`, statePath(out)]);
}

/** /usr/bin/time -v of a command: wall and CPU seconds, peak memory. */
export function timed(
  cmd: string,
  args: string[],
  env: NodeJS.ProcessEnv = process.env,
): { status: number; wall: number; user: number; sys: number; maxRssBytes: number; stdout: string; stderr: string } {
  const r = spawnSync('/usr/bin/time', ['-v', cmd, ...args], { encoding: 'utf8', maxBuffer: 256 << 20, env });
  const field = (name: string) => new RegExp(`${name}: (.*)`).exec(r.stderr)?.[1]?.trim() ?? '';
  const wall = field('Elapsed \\(wall clock\\) time \\(h:mm:ss or m:ss\\)')
    .split(':')
    .reduce((a, p) => a * 60 + Number(p), 0);
  return {
    status: r.status ?? -1,
    wall,
    user: Number(field('User time \\(seconds\\)')),
    sys: Number(field('System time \\(seconds\\)')),
    maxRssBytes: Number(field('Maximum resident set size \\(kbytes\\)')) * 1024,
    stdout: r.stdout,
    stderr: r.stderr,
  };
}

/** The machine the simulation ran on, for its report. */
export function machine(): Record<string, unknown> {
  return {
    logicalCpus: cpus().length,
    cpuModel: cpus()[0]?.model,
    memoryBytes: totalmem(),
    freeMemoryBytes: freemem(),
    loadAverage: loadavg(),
    node: process.version,
  };
}
