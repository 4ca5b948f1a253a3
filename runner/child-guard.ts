// Programs a benchmark starts must not outlive it: a server left listening, or a measurement still
// running after its run was killed, would share the host with the next measurement (the host lock is
// released the moment the run dies).
//
// Two guards:
//  - every guarded program is started through `setpriv --pdeathsig` (util-linux): the kernel signals it
//    when the node process that started it dies, however it dies (SIGKILL included);
//  - on SIGTERM, SIGINT and SIGHUP node kills its guarded programs (a server with its whole process
//    group) before it dies of the same signal, so the exit status stays what the signal says.
// A program that starts programs of its own (make starting cc, a shell, a server's workers) is started
// as a process group (`group`): the kernel's parent-death signal then reaches a small shell that leads
// the group and kills all of it, and a timeout or a signal to node kills the group, so no grandchild
// outlives its run.
import { spawn, type ChildProcess, type SpawnOptions } from 'node:child_process';
import { readFileSync } from 'node:fs';

const live = new Map<ChildProcess, { group: boolean }>();
const SIGNALS = ['SIGTERM', 'SIGINT', 'SIGHUP'] as const;
let installed = false;

/**
 * The group leader of a guarded process group: it runs the program (stdin passed on: a background job
 * would get /dev/null) and on SIGTERM, which the parent-death guard sends it, kills its whole group.
 */
const GROUP_LEADER = 'trap "kill -s KILL 0" TERM INT HUP; exec 3<&0; "$@" <&3 3<&- & wait $!';

/**
 * The command line that starts `cmd` under the parent-death guard. With `group` (start it detached, as
 * its own process group, and track it with group = true) the guard kills every process of the group.
 */
export function guarded(cmd: string, args: string[], group = false): [string, string[]] {
  if (group) return ['setpriv', ['--pdeathsig', 'TERM', '--', 'sh', '-c', GROUP_LEADER, 'sh', cmd, ...args]];
  return ['setpriv', ['--pdeathsig', 'KILL', '--', cmd, ...args]];
}

/**
 * The environment every measured program runs in: the caller's, without the variables that tune the
 * library (OPENSSL_*, SSL_*: a stray OPENSSL_ia32cap would change some figures and not others), plus the
 * variables a benchmark sets on purpose (`set`: the app's own config file, gcm-mask's capability mask).
 */
export function programEnv(set: Record<string, string> = {}): NodeJS.ProcessEnv {
  const base = Object.fromEntries(Object.entries(process.env).filter(([k]) => !/^(OPENSSL|SSL)_/.test(k)));
  return { ...base, ...set };
}

/** Start `cmd` as a guarded process group (a build step, a program with children of its own). */
export function spawnGroup(cmd: string, args: string[], options: SpawnOptions): ChildProcess {
  const [file, argv] = guarded(cmd, args, true);
  return track(spawn(file, argv, { ...options, detached: true }), true);
}

function killChild(child: ChildProcess, group: boolean): void {
  if (child.pid === undefined || child.exitCode !== null || child.signalCode !== null) return;
  signal(group ? -child.pid : child.pid, 'SIGKILL');
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
export function spawnServer(cmd: string, args: string[], options: Omit<SpawnOptions, 'env'> & { env?: Record<string, string> }): ChildProcess {
  return spawnGroup(cmd, args, { ...options, env: programEnv(options.env) });
}

/**
 * Stop a server started with spawnServer and wait until its group leader has exited. The program is
 * killed first and reaped by its leader (whose `wait` then returns and who exits), so the program's CPU
 * time reaches this process's children's time as every measured program's does: the quiet check
 * (runner/quiet/) counts it as the run's, not as load from outside. Killing the whole group at once
 * would leave the program to be reaped by init, its CPU lost to the run. Whatever is left of the group
 * afterwards (a server's workers) is killed too.
 */
export async function stopGroup(child: ChildProcess, waitMs = 5_000): Promise<void> {
  const running = () => child.exitCode === null && child.signalCode === null;
  if (child.pid !== undefined && running()) {
    const exited = new Promise<void>((resolve) => {
      const timer = setTimeout(resolve, waitMs);
      child.once('exit', () => (clearTimeout(timer), resolve()));
    });
    const programs = childPids(child.pid);
    if (programs.length === 0) killChild(child, true);
    for (const pid of programs) signal(pid, 'SIGKILL');
    await exited;
  }
  if (child.pid !== undefined) signal(-child.pid, 'SIGKILL');
}

/** The direct children of `pid` (the program a group leader runs), from /proc; none when unreadable. */
export function childPids(pid: number): number[] {
  try {
    return readFileSync(`/proc/${pid}/task/${pid}/children`, 'utf8').trim().split(/\s+/).filter(Boolean).map(Number);
  } catch {
    return [];
  }
}

function signal(pid: number, sig: NodeJS.Signals): void {
  try {
    process.kill(pid, sig);
  } catch {
    // already gone
  }
}

export interface ProgramResult {
  /** exit status; -1 when the program was killed (timeout, signal, stopped by `stopWhen`) or could not be started */
  code: number;
  /** ended by the caller's `stopWhen` once it had printed what the caller reads (code is then -1) */
  stopped?: true;
  stdout: string;
  stderr: string;
}

/** The last `chars` characters of a program's stderr, for error messages (the end says what went wrong). */
export function stderrTail(stderr: string, chars = 1500): string {
  const t = stderr.trim();
  return t.length > chars ? `...${t.slice(-chars)}` : t;
}

/**
 * The one way our benchmark modules run a program: as a guarded process group, tracked until it exits,
 * in programEnv's environment, with a timeout that kills the whole group. Never throws: a kill or a failed start is code -1 with the
 * reason in stderr.
 */
export function runGuarded(
  cmd: string,
  args: string[],
  opts: {
    timeoutMs: number;
    /** variables set on purpose, on top of programEnv's (never the library's tuning variables by accident) */
    env?: Record<string, string>;
    maxBuffer?: number;
    /** written to stdin, then closed */ input?: string;
    /**
     * Checked whenever the program prints: once true, the program has printed all the caller reads, and it
     * is stopped as stopGroup stops a server (its CPU time stays this process's children's time). The result
     * holds what it printed until then.
     */
    stopWhen?: (printed: { stdout: string; stderr: string }) => boolean;
  },
): Promise<ProgramResult> {
  return new Promise((resolve) => {
    const child = spawnGroup(cmd, args, { stdio: ['pipe', 'pipe', 'pipe'], env: programEnv(opts.env) });
    const max = opts.maxBuffer ?? 1 << 22;
    const out = { stdout: '', stderr: '' };
    let why = '';
    let stopped = false;
    const kill = (reason: string) => ((why ||= reason), killChild(child, true));
    for (const name of ['stdout', 'stderr'] as const) {
      child[name]!.setEncoding('utf8');
      child[name]!.on('data', (d: string) => {
        if (stopped) return; // what comes after the stop is not the program's (the group leader's "Killed")
        out[name] += d;
        if (out[name].length > max) kill(`${name} exceeded ${max} characters`);
        else if (!why && opts.stopWhen?.(out)) {
          stopped = true;
          void stopGroup(child);
        }
      });
    }
    const timer = setTimeout(() => kill(`timeout ${opts.timeoutMs} ms`), opts.timeoutMs);
    let done = false;
    const finish = (code: number | null, signal: string | null) => {
      if (done) return;
      done = true;
      clearTimeout(timer);
      if (stopped && !why) return resolve({ code: -1, stopped: true, stdout: out.stdout, stderr: out.stderr });
      const killed = why !== '' || code === null;
      const reason = killed ? `${cmd} was killed or could not be started (${why || `signal ${signal}`}, timeout ${opts.timeoutMs} ms)` : '';
      resolve({ code: killed ? -1 : code!, stdout: out.stdout, stderr: [out.stderr, reason].filter(Boolean).join('\n') });
    };
    child.on('error', (e) => ((why ||= e.message), finish(null, null)));
    child.on('close', finish);
    child.stdin!.on('error', () => {}); // a program that exits without reading its input
    child.stdin!.end(opts.input ?? '');
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
