// Programs a benchmark starts must not outlive it: a server left listening, or a measurement still
// running after its run was killed, would share the host with the next measurement (the host lock is
// released the moment the run dies).
//
// Two guards:
//  - every guarded program is started through `setpriv --pdeathsig KILL` (util-linux): the kernel sends
//    it SIGKILL when the node process that started it dies, however it dies (SIGKILL included);
//  - on SIGTERM, SIGINT and SIGHUP node kills its guarded programs (a server with its whole process
//    group) before it dies of the same signal, so the exit status stays what the signal says.
import { execFile, spawn, type ChildProcess, type SpawnOptions } from 'node:child_process';

const live = new Map<ChildProcess, { group: boolean }>();
const SIGNALS = ['SIGTERM', 'SIGINT', 'SIGHUP'] as const;
let installed = false;

/** The command line that starts `cmd` under the parent-death guard. */
export function guarded(cmd: string, args: string[]): [string, string[]] {
  return ['setpriv', ['--pdeathsig', 'KILL', '--', cmd, ...args]];
}

function killChild(child: ChildProcess, group: boolean): void {
  if (child.pid === undefined || child.exitCode !== null || child.signalCode !== null) return;
  try {
    process.kill(group ? -child.pid : child.pid, 'SIGKILL');
  } catch {
    // already gone
  }
}

export function killGuarded(): void {
  for (const [child, { group }] of live) killChild(child, group);
}

function onSignal(signal: NodeJS.Signals): void {
  killGuarded();
  for (const s of SIGNALS) process.removeListener(s, onSignal);
  installed = false;
  process.kill(process.pid, signal); // no listener any more: node dies of it as it would have
}

/** Keep track of a started program until it exits; `group`: it leads its own process group, kill that. */
export function track<T extends ChildProcess>(child: T, group = false): T {
  live.set(child, { group });
  child.once('exit', () => live.delete(child));
  child.once('error', () => live.delete(child));
  if (!installed) {
    for (const s of SIGNALS) process.on(s, onSignal);
    process.on('exit', killGuarded);
    installed = true;
  }
  return child;
}

/**
 * Start a server: its own process group (a terminal's ^C reaches node, which then kills the group),
 * killed with node whatever kills node. The caller kills it with `stopGroup` when done.
 */
export function spawnServer(cmd: string, args: string[], options: SpawnOptions): ChildProcess {
  const [file, argv] = guarded(cmd, args);
  return track(spawn(file, argv, { ...options, detached: true }), true);
}

export function stopGroup(child: ChildProcess): void {
  killChild(child, true);
}

export interface ProgramResult {
  /** exit status; -1 when the program was killed (timeout, signal) or could not be started */
  code: number;
  stdout: string;
  stderr: string;
}

/** The last `chars` characters of a program's stderr, for error messages (the end says what went wrong). */
export function stderrTail(stderr: string, chars = 1500): string {
  const t = stderr.trim();
  return t.length > chars ? `...${t.slice(-chars)}` : t;
}

/**
 * The one way our benchmark modules run a program: under the parent-death guard, tracked until it
 * exits, with a timeout. Never throws: a kill or a failed start is code -1 with the reason in stderr.
 */
export function runGuarded(
  cmd: string,
  args: string[],
  opts: { timeoutMs: number; env?: NodeJS.ProcessEnv; maxBuffer?: number; /** written to stdin, then closed */ input?: string },
): Promise<ProgramResult> {
  return new Promise((resolve) => {
    const [file, argv] = guarded(cmd, args);
    const child = execFile(file, argv, { encoding: 'utf8', timeout: opts.timeoutMs, maxBuffer: opts.maxBuffer ?? 1 << 22, ...(opts.env ? { env: opts.env } : {}) }, (err, stdout, stderr) => {
      const code = err ? (typeof err.code === 'number' ? err.code : -1) : 0;
      const why = err && code === -1 ? `${cmd} was killed or could not be started (timeout ${opts.timeoutMs} ms): ${err.message}` : '';
      resolve({ code, stdout, stderr: [stderr, why].filter(Boolean).join('\n') });
    });
    track(child);
    child.stdin?.on('error', () => {}); // a program that exits without reading its input
    child.stdin?.end(opts.input ?? '');
  });
}

/** JSON.parse with an error that names the program and shows the start of what it printed. */
export function parseProgramJson(text: string, where: string): unknown {
  try {
    return JSON.parse(text);
  } catch (e) {
    throw new Error(`${where}: output is not JSON (${(e as Error).message}): ${JSON.stringify(text.slice(0, 200))}`);
  }
}
